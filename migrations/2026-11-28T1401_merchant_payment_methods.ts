import { type Kysely, sql } from 'kysely';

/**
 * The ways to pay a merchant offers its customers on the hosted page (`card`, `instant_eft`):
 * null offers every way this environment has (the default, and what every merchant had before).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table merchants add column payment_methods text[]
    check (payment_methods is null or (cardinality(payment_methods) between 1 and 2 and payment_methods <@ array['card', 'instant_eft']::text[]))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table merchants drop column if exists payment_methods`.execute(db);
}
