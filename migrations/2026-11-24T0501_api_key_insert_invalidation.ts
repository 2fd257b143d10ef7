import { type Kysely, sql } from 'kysely';

/**
 * Every process remembers kids the database did not know, so that an unknown kid costs no round
 * trip. A key inserted with such a kid (any new key: the service, the CLI through it, or an
 * operator's own SQL) must be heard of by every process on commit, as a change already is
 * (2026-11-22T0004), on the same channel: `created:<kid>`, which only makes a process forget that
 * the kid was unknown (what it read of the key after the commit stays good).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function zarpay_cache_key_inserted() returns trigger language plpgsql as $$
    begin
      perform pg_notify('zarpay_cache', 'created:' || new.kid);
      return null;
    end $$`.execute(db);
  await sql`create trigger api_keys_cache_insert after insert on api_keys
    for each row execute function zarpay_cache_key_inserted()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists api_keys_cache_insert on api_keys`.execute(db);
  await sql`drop function if exists zarpay_cache_key_inserted`.execute(db);
}
