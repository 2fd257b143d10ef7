import { type Kysely, sql } from 'kysely';

/**
 * CONTRACT §10, three additions:
 *
 * - Payments that are never finished end: `failure_reason` says why a payment failed (`expired`),
 *   and a partial index keeps the minutely search for open payments past their time cheap.
 * - Statements read a merchant's journal by day: an index on the journal's transactions by
 *   merchant and time lets a statement walk a year of them in keyset batches.
 * - Merchants set their own support e-mail and phone (PATCH /api/v1/merchant); what the operator
 *   set as the single support contact moves into whichever of the two it is.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table payments add column failure_reason text check (length(failure_reason) <= 64)`.execute(db);
  await sql`create index payments_open_created_idx on payments (created_at)
             where status in ('created', 'initiated', 'awaiting_webhook')`.execute(db);
  await sql`create index ledger_transactions_merchant_time_idx on ledger_transactions (merchant_id, created_at, id)`.execute(db);
  await sql`alter table merchants
              add column support_email text check (length(support_email) <= 254),
              add column support_phone text check (length(support_phone) <= 21)`.execute(db);
  await sql`update merchants set support_email = support_contact
             where support_contact ~ '^[^\\s@<>"]+@[^\\s@<>"]+\\.[A-Za-z]{2,}$' and length(support_contact) <= 254`.execute(db);
  await sql`update merchants set support_phone = support_contact
             where support_contact ~ '^\\+?[0-9 ()-]{7,20}$'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table merchants drop column if exists support_email, drop column if exists support_phone`.execute(db);
  await sql`drop index if exists ledger_transactions_merchant_time_idx`.execute(db);
  await sql`drop index if exists payments_open_created_idx`.execute(db);
  await sql`alter table payments drop column if exists failure_reason`.execute(db);
}
