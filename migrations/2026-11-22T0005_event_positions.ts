import { type Kysely, sql } from 'kysely';

/**
 * Live events are read by position instead of announced one by one.
 *
 * Until now a trigger sent NOTIFY for every event in the transaction that wrote it. PostgreSQL
 * serialises the commits of all transactions that NOTIFY, fsync included, which cost a third
 * of the payout-creation throughput. Each event now records the id of its transaction; every
 * process reads the events past its position whose transactions can no longer be running
 * (`xact_id` below the oldest running transaction), so it misses none, whatever the commit
 * order, and reads many in one query. A NOTIFY without payload, sent after commit and outside
 * the money's transaction, only tells other processes to look.
 *
 * The column is nullable so that adding it rewrites nothing: rows written before it are older
 * than any position a process starts from.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table events add column xact_id xid8`.execute(db);
  await sql`alter table events alter column xact_id set default pg_current_xact_id()`.execute(db);
  await sql`create index events_position_idx on events (xact_id, seq)`.execute(db);
  await sql`drop trigger if exists events_notify on events`.execute(db);
  await sql`drop function if exists zarpay_events_notify`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create function zarpay_events_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify('zarpay_events', new.id::text);
      return null;
    end $$`.execute(db);
  await sql`create trigger events_notify after insert on events
    for each row execute function zarpay_events_notify()`.execute(db);
  await sql`drop index if exists events_position_idx`.execute(db);
  await sql`alter table events drop column if exists xact_id`.execute(db);
}
