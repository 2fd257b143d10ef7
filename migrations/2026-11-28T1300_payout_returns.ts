import { type Kysely, sql } from 'kysely';

/**
 * Payouts the bank gives back (CONTRACT §11): a completed payout keeps its status and gains
 * `returned_at` and `return_reason`; its amount comes back to the balance through the journal's
 * `bank_returns` account (negative: money the bank returned), totalled in `returned_cents`, so
 * balance_cents = gross − fees − withdrawals − refunds + returned. A bank report's entry that
 * did so records the outcome `returned`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table payouts add column returned_at timestamptz, add column return_reason text`.execute(db);
  await sql`alter table payouts add constraint payouts_return_completed check (returned_at is null or status = 'completed')`.execute(db);
  // A terminal payout still never changes, but for one thing: a completed payout the bank gave
  // back gains returned_at and return_reason (and updated_at), once.
  await sql`
    create or replace function payouts_terminal_guard() returns trigger language plpgsql as $$
    begin
      if old.status in ('completed', 'failed', 'rejected')
         and to_jsonb(new) - 'payment_details_sealed' - 'payment_details' is distinct from
             to_jsonb(old) - 'payment_details_sealed' - 'payment_details'
         and not (old.status = 'completed' and old.returned_at is null and new.returned_at is not null
                  and to_jsonb(new) - 'payment_details_sealed' - 'payment_details' - 'returned_at' - 'return_reason' - 'updated_at'
                      = to_jsonb(old) - 'payment_details_sealed' - 'payment_details' - 'returned_at' - 'return_reason' - 'updated_at') then
        raise exception 'payout % is % and cannot change', old.id, old.status;
      end if;
      return new;
    end $$`.execute(db);
  await sql`alter table balances add column returned_cents bigint not null default 0`.execute(db);
  await sql`alter table ledger_entries drop constraint if exists ledger_entries_account_check`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_account_check
    check (account in ('merchant_available', 'merchant_reserved', 'funding', 'fees', 'bank_transfers', 'refunds', 'bank_returns'))`.execute(db);
  await sql`alter table bank_report_entries drop constraint if exists bank_report_entries_outcome_check`.execute(db);
  await sql`alter table bank_report_entries add constraint bank_report_entries_outcome_check
    check (outcome in ('completed', 'failed', 'returned', 'unchanged', 'unmatched'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table bank_report_entries drop constraint if exists bank_report_entries_outcome_check`.execute(db);
  await sql`alter table bank_report_entries add constraint bank_report_entries_outcome_check
    check (outcome in ('completed', 'failed', 'unchanged', 'unmatched'))`.execute(db);
  await sql`alter table ledger_entries drop constraint if exists ledger_entries_account_check`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_account_check
    check (account in ('merchant_available', 'merchant_reserved', 'funding', 'fees', 'bank_transfers', 'refunds'))`.execute(db);
  await sql`alter table balances drop column if exists returned_cents`.execute(db);
  await sql`
    create or replace function payouts_terminal_guard() returns trigger language plpgsql as $$
    begin
      if old.status in ('completed', 'failed', 'rejected')
         and to_jsonb(new) - 'payment_details_sealed' - 'payment_details' is distinct from
             to_jsonb(old) - 'payment_details_sealed' - 'payment_details' then
        raise exception 'payout % is % and cannot change', old.id, old.status;
      end if;
      return new;
    end $$`.execute(db);
  await sql`alter table payouts drop constraint if exists payouts_return_completed, drop column if exists return_reason, drop column if exists returned_at`.execute(db);
}
