import { type Kysely, sql } from 'kysely';

/**
 * Refunds (CONTRACT §10): a merchant gives a captured payment's money back, in full or in parts.
 *
 * - `refunds`: one row per refund asked for; `pending` until the provider says how it went.
 *   `provider_key` is the Idempotency-Key the provider was last asked with (the refund id, or a
 *   fresh one when the first request provably created nothing); `provider_refund_ref` the
 *   provider's own id once it accepted the request.
 * - The journal gains the account `refunds` (money that went back to customers), the balance its
 *   total `refunds_cents`, a posting the refund it belongs to.
 * - An Idempotency-Key may name the refund it created (the same keys and 24 hours as payments).
 * - A provider notification whose amount or currency did not match its attempt owes back what the
 *   provider said it took: `refund_amount_cents` (null: the payment's amount).
 * - The sandbox provider's books gain its refunds.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table refunds (
      id uuid primary key,
      seq bigint generated always as identity,
      merchant_id uuid not null references merchants(id),
      payment_id uuid not null references payments(id),
      -- The attempt whose money goes back (the one that succeeded), and its provider.
      attempt_id uuid not null references payment_attempts(id),
      provider text not null,
      status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
      amount_cents bigint not null check (amount_cents > 0),
      currency text not null default 'ZAR',
      reason text,
      merchant_reference text,
      provider_key text not null,
      provider_refund_ref text,
      failure_reason text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      completed_at timestamptz
    )`.execute(db);
  await sql`create index refunds_payment_idx on refunds (payment_id, seq)`.execute(db);
  await sql`create index refunds_merchant_idx on refunds (merchant_id, seq)`.execute(db);
  await sql`create unique index refunds_provider_ref_idx on refunds (provider, provider_refund_ref) where provider_refund_ref is not null`.execute(db);

  await sql`alter table idempotency_keys add column refund_id uuid`.execute(db);
  await sql`alter table balances add column refunds_cents bigint not null default 0`.execute(db);
  await sql`alter table ledger_transactions add column refund_id uuid`.execute(db);
  await sql`alter table ledger_entries drop constraint if exists ledger_entries_account_check`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_account_check
    check (account in ('merchant_available', 'merchant_reserved', 'funding', 'fees', 'bank_transfers', 'refunds'))`.execute(db);
  await sql`alter table payment_attempts add column refund_amount_cents bigint`.execute(db);

  await sql`
    create table sandbox.refunds (
      ref text primary key,
      -- The Idempotency-Key zarpay sent: the same key twice is the same refund, as with a real provider.
      key text not null unique,
      checkout_ref text not null,
      amount_cents bigint not null,
      confirm_at timestamptz not null,
      event_id uuid not null,
      created_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists sandbox.refunds`.execute(db);
  await sql`alter table payment_attempts drop column if exists refund_amount_cents`.execute(db);
  await sql`alter table ledger_entries drop constraint if exists ledger_entries_account_check`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_account_check
    check (account in ('merchant_available', 'merchant_reserved', 'funding', 'fees', 'bank_transfers'))`.execute(db);
  await sql`alter table ledger_transactions drop column if exists refund_id`.execute(db);
  await sql`alter table balances drop column if exists refunds_cents`.execute(db);
  await sql`alter table idempotency_keys drop column if exists refund_id`.execute(db);
  await sql`drop table if exists refunds`.execute(db);
}
