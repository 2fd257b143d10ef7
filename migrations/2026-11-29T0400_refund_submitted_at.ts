import { type Kysely, sql } from 'kysely';

/**
 * When zarpay first sent a refund's request to its provider, recorded before the request goes
 * out: a provider without idempotency (Ozow) is then asked, on the next try, whether that request
 * made a refund, even after a restart. Null: never sent (or sent under a key the provider proved
 * made nothing). `payment_attempts.refund_submitted_at` is the same for money owed back.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table refunds add column submitted_at timestamptz`.execute(db);
  await sql`alter table payment_attempts add column refund_submitted_at timestamptz`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table refunds drop column if exists submitted_at`.execute(db);
  await sql`alter table payment_attempts drop column if exists refund_submitted_at`.execute(db);
}
