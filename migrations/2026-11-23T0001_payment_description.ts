import { type Kysely, sql } from 'kysely';

/** CONTRACT §9: an optional description of what is being bought, shown on the hosted page. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table payments add column description text check (length(description) <= 200)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table payments drop column if exists description`.execute(db);
}
