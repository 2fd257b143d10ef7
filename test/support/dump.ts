import { execFileSync } from 'node:child_process';
import { sql } from 'kysely';
import type { Db } from '../../src/db/index.ts';

/** Every row of every table of the database, as text (bytea as PostgreSQL's hex), one row a line. */
export async function dumpAsText(db: Db): Promise<string> {
  const { rows: tables } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`.execute(db);
  const out: string[] = [];
  for (const { table_name } of tables) {
    const { rows } = await sql<{ row: string }>`select t::text as row from ${sql.table(table_name)} t`.execute(db);
    out.push(`-- ${table_name}`, ...rows.map((r) => r.row));
  }
  return out.join('\n');
}

/** `pg_dump` of a PostgreSQL database, when the tool is installed (undefined otherwise). */
export function pgDump(url: string): string | undefined {
  try {
    return execFileSync('pg_dump', ['--no-owner', url], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** The places a secret could hide in a dump: as written, and as the hex of its bytes (bytea, copied text). */
export function forms(secret: string): string[] {
  return [secret, Buffer.from(secret).toString('hex'), secret.replaceAll('-', '')];
}
