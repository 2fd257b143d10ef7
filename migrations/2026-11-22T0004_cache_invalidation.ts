import { type Kysely, sql } from 'kysely';

/**
 * Every service process keeps what authentication reads (an API key and its merchant) in memory.
 * These triggers tell every process, on commit, which key or merchant changed, whatever made
 * the change (the service, the CLI through it, or an operator's own SQL).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function zarpay_cache_invalidate() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'api_keys' then
        perform pg_notify('zarpay_cache', 'key:' || old.kid);
      else
        perform pg_notify('zarpay_cache', 'merchant:' || old.id::text);
      end if;
      return null;
    end $$`.execute(db);
  for (const table of ['api_keys', 'merchants']) {
    await sql`create trigger ${sql.raw(table)}_cache_invalidate after update or delete on ${sql.raw(table)}
      for each row execute function zarpay_cache_invalidate()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['api_keys', 'merchants']) {
    await sql`drop trigger if exists ${sql.raw(table)}_cache_invalidate on ${sql.raw(table)}`.execute(db);
  }
  await sql`drop function if exists zarpay_cache_invalidate`.execute(db);
}
