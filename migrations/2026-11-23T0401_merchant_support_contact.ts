import { type Kysely, sql } from 'kysely';

/**
 * Where a merchant's customers get help (an e-mail address, a phone number or an https page),
 * shown on the hosted payment page so a shopper knows whom they are paying and whom to ask.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table merchants add column support_contact text check (length(support_contact) <= 200)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table merchants drop column if exists support_contact`.execute(db);
}
