import { type Kysely, sql } from 'kysely';

/**
 * An owner finds a payment by order reference, amount or customer e-mail (issue 33): each reading
 * of a search has an index under the merchant, so a search is a BitmapOr of three index scans,
 * never a walk through every payment of the merchant.
 *
 * - The order reference: equality and prefix (`LIKE 'ORD-10%'`), which needs `text_pattern_ops`
 *   (the unique constraint's index follows the database's collation and cannot answer a prefix).
 * - The amount in cents.
 * - The customer's e-mail, lower case, equality only: only payments that carry one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index payments_merchant_order_prefix_idx on payments (merchant_id, merchant_order_id text_pattern_ops)`.execute(db);
  await sql`create index payments_merchant_amount_idx on payments (merchant_id, amount_cents)`.execute(db);
  await sql`create index payments_merchant_email_idx on payments (merchant_id, lower(customer_email)) where customer_email is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists payments_merchant_email_idx`.execute(db);
  await sql`drop index if exists payments_merchant_amount_idx`.execute(db);
  await sql`drop index if exists payments_merchant_order_prefix_idx`.execute(db);
}
