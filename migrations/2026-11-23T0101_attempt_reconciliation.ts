import { type Kysely, sql } from 'kysely';

/**
 * Payments that cannot get stuck (issue 14):
 *
 * - `payment_attempts` learns what a redirecting provider needs (where the customer pays, the
 *   provider's payment reference), when the reconciler should next ask the provider about it,
 *   the `expired` outcome (the provider no longer takes payment for it, or never saw it), and a
 *   refund owed when money arrived for an attempt whose payment had already ended.
 * - `sandbox_checkouts`: the sandbox provider's own record of the attempts it was given, so its
 *   confirmations survive a restart (it used to keep them in timers).
 * - `audit_log`: who did what to a payment or payout, and when; append-only.
 * - `customer_emails`: the outbox of customer confirmations, one row per payment.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table payment_attempts drop constraint payment_attempts_status_check`.execute(db);
  await sql`alter table payment_attempts add constraint payment_attempts_status_check
    check (status in ('pending', 'succeeded', 'failed', 'cancelled', 'expired'))`.execute(db);
  await db.schema
    .alterTable('payment_attempts')
    // Where the customer pays at the provider (null for providers that need no redirect).
    .addColumn('redirect_url', 'text')
    // The provider's id of the money movement, once it succeeded (Yoco: the payment id p_…).
    .addColumn('payment_ref', 'text')
    // When the reconciler may next ask the provider (null: as soon as the attempt is old enough).
    .addColumn('next_check_at', 'timestamptz')
    .addColumn('checks', 'integer', (c) => c.notNull().defaultTo(0))
    // Money taken for a payment that had already ended: given back through the provider.
    .addColumn('refund_status', 'text', (c) => c.check(sql`refund_status in ('pending', 'requested', 'failed')`))
    .addColumn('refund_ref', 'text')
    .execute();
  await sql`create index payment_attempts_reconcile_idx on payment_attempts (created_at) where status = 'pending'`.execute(db);
  await sql`create index payment_attempts_refund_idx on payment_attempts (next_check_at) where refund_status = 'pending'`.execute(db);

  await db.schema
    .createTable('sandbox_checkouts')
    .addColumn('ref', 'text', (c) => c.primaryKey())
    .addColumn('attempt_id', 'uuid', (c) => c.notNull().unique())
    .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome in ('succeeded', 'failed')`))
    .addColumn('reason', 'text')
    // The sandbox "processes" the payment until then; it answers pending before.
    .addColumn('confirm_at', 'timestamptz', (c) => c.notNull())
    .addColumn('event_id', 'uuid', (c) => c.notNull())
    .addColumn('notified_at', 'timestamptz')
    .addColumn('deliveries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_delivery_at', 'timestamptz', (c) => c.notNull())
    .addColumn('locked_until', 'timestamptz')
    .addColumn('refunded_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index sandbox_checkouts_due_idx on sandbox_checkouts (next_delivery_at) where notified_at is null`.execute(db);

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // `operator`, `operator:<name>` or `system:<task>`.
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'uuid')
    .addColumn('payment_id', 'uuid')
    .addColumn('payout_id', 'uuid')
    // What the action found and did; never a secret, an account number or a voucher code.
    .addColumn('detail', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
  await db.schema.createIndex('audit_log_payment_idx').on('audit_log').columns(['payment_id', 'id']).execute();
  await db.schema.createIndex('audit_log_payout_idx').on('audit_log').columns(['payout_id', 'id']).execute();
  await sql`
    create function audit_log_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'the audit log is append-only: % refused', tg_op;
    end $$`.execute(db);
  await sql`create trigger audit_log_append_only before update or delete on audit_log
    for each row execute function audit_log_append_only()`.execute(db);

  await db.schema
    .createTable('customer_emails')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    // One confirmation per payment, whatever retries or duplicate notifications happen.
    .addColumn('payment_id', 'uuid', (c) => c.notNull().unique().references('payments.id'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'sent', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('locked_by', 'uuid')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .execute();
  await sql`create index customer_emails_due_idx on customer_emails (next_attempt_at) where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['customer_emails', 'audit_log', 'sandbox_checkouts']) await db.schema.dropTable(t).ifExists().execute();
  await sql`drop function if exists audit_log_append_only`.execute(db);
  await sql`drop index if exists payment_attempts_reconcile_idx`.execute(db);
  await sql`drop index if exists payment_attempts_refund_idx`.execute(db);
  for (const c of ['redirect_url', 'payment_ref', 'next_check_at', 'checks', 'refund_status', 'refund_ref']) {
    await sql`alter table payment_attempts drop column if exists ${sql.raw(c)}`.execute(db);
  }
  await sql`alter table payment_attempts drop constraint payment_attempts_status_check`.execute(db);
  await sql`alter table payment_attempts add constraint payment_attempts_status_check
    check (status in ('pending', 'succeeded', 'failed', 'cancelled'))`.execute(db);
}
