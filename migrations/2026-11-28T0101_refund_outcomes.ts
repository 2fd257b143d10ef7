import { type Kysely, sql } from 'kysely';

/**
 * Refund outcomes are checked and never lost (issue 31).
 *
 * - Money owed back for late money (`payment_attempts.refund_status`) records how its refund went:
 *   `succeeded` joins `pending`, `requested` and `failed`, and a provider's notification finds the
 *   attempt by the provider's id for the refund (`refund_ref`).
 * - The operator's overview counts owed refunds by state, and /metrics reads the pending refunds'
 *   ages at every scrape: both stay small partial indexes, never scans of every attempt or refund.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table payment_attempts drop constraint if exists payment_attempts_refund_status_check`.execute(db);
  await sql`alter table payment_attempts add constraint payment_attempts_refund_status_check
    check (refund_status in ('pending', 'requested', 'succeeded', 'failed'))`.execute(db);
  await sql`create index payment_attempts_refund_ref_idx on payment_attempts (provider, refund_ref) where refund_ref is not null`.execute(db);
  await sql`create index payment_attempts_refund_status_idx on payment_attempts (refund_status) where refund_status is not null`.execute(db);
  await sql`create index refunds_pending_idx on refunds (created_at) where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists refunds_pending_idx`.execute(db);
  await sql`drop index if exists payment_attempts_refund_status_idx`.execute(db);
  await sql`drop index if exists payment_attempts_refund_ref_idx`.execute(db);
  await sql`update payment_attempts set refund_status = 'requested' where refund_status = 'succeeded'`.execute(db);
  await sql`alter table payment_attempts drop constraint if exists payment_attempts_refund_status_check`.execute(db);
  await sql`alter table payment_attempts add constraint payment_attempts_refund_status_check
    check (refund_status in ('pending', 'requested', 'failed'))`.execute(db);
}
