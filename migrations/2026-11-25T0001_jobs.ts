import { type Kysely, sql } from 'kysely';

/**
 * One queue for all background work (issue 22). Until now five tables each carried a lease of
 * their own (`locked_until`/`locked_by`, or `next_check_at`) and each had a loop to claim it:
 * webhook deliveries, customer e-mails, the sandbox's confirmations, attempts to reconcile and
 * refunds owed. From here on a piece of background work is a row of `jobs`: a named task
 * (`queue`), a key that makes the same work asked twice one job, a payload, when it is due, how
 * often it was tried, and its lease. The tables above keep what they record (a delivery's
 * attempts, an e-mail's outcome, a refund's status); their lease columns go.
 *
 * Done jobs are deleted; a job that failed for good stays, `failed`, for an operator to list and
 * retry. Work that was queued in the old tables when this migration runs is queued here.
 *
 * The sandbox provider's books move out of the production schema into a schema of their own:
 * they are what a real provider keeps on its side, and only tst/dev ever write them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table jobs (
      id bigint generated always as identity primary key,
      queue text not null,
      key text not null,
      -- Whose work it is (a merchant's webhook), so that no merchant takes every slot; null: zarpay's own.
      merchant_id uuid,
      payload jsonb not null default '{}'::jsonb,
      status text not null default 'queued' check (status in ('queued', 'failed')),
      run_at timestamptz not null default now(),
      -- Claims so far, the one under way included (a crash mid-run counts as a try).
      attempts integer not null default 0,
      locked_by uuid,
      locked_until timestamptz,
      last_error text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (queue, key)
    )`.execute(db);
  await sql`create index jobs_due_idx on jobs (queue, run_at) where status = 'queued'`.execute(db);

  // What was queued in the old tables is queued here, as it stood.
  await sql`
    insert into jobs (queue, key, merchant_id, payload, run_at, attempts)
    select 'webhook.deliver', d.id::text, d.merchant_id, jsonb_build_object('delivery', d.id), d.next_attempt_at, d.attempts
      from webhook_deliveries d where d.status = 'pending'`.execute(db);
  await sql`
    insert into jobs (queue, key, merchant_id, payload, run_at, attempts)
    select 'customer.email', e.payment_id::text, p.merchant_id, jsonb_build_object('payment', e.payment_id), e.next_attempt_at, e.attempts
      from customer_emails e join payments p on p.id = e.payment_id where e.status = 'pending'`.execute(db);
  await sql`
    insert into jobs (queue, key, merchant_id, payload, run_at, attempts)
    select 'payment.reconcile', a.id::text, p.merchant_id, jsonb_build_object('attempt', a.id), coalesce(a.next_check_at, now()), a.checks
      from payment_attempts a join payments p on p.id = a.payment_id where a.status = 'pending'`.execute(db);
  await sql`
    insert into jobs (queue, key, merchant_id, payload, run_at, attempts)
    select 'payment.refund_owed', a.id::text, p.merchant_id, jsonb_build_object('attempt', a.id), coalesce(a.next_check_at, now()), 0
      from payment_attempts a join payments p on p.id = a.payment_id where a.refund_status = 'pending'`.execute(db);
  await sql`
    insert into jobs (queue, key, payload, run_at, attempts)
    select 'sandbox.confirm', c.ref, jsonb_build_object('ref', c.ref), c.next_delivery_at, c.deliveries
      from sandbox_checkouts c where c.notified_at is null`.execute(db);

  for (const table of ['webhook_deliveries', 'customer_emails']) {
    await sql`alter table ${sql.table(table)} drop column locked_until, drop column locked_by`.execute(db);
  }
  await sql`drop index if exists customer_emails_due_idx`.execute(db);
  await sql`alter table customer_emails drop column next_attempt_at`.execute(db);
  await sql`drop index if exists payment_attempts_refund_idx`.execute(db);
  await sql`alter table payment_attempts drop column next_check_at, drop column checks`.execute(db);

  await sql`create schema if not exists sandbox`.execute(db);
  await sql`drop index if exists sandbox_checkouts_due_idx`.execute(db);
  await sql`alter table sandbox_checkouts drop column notified_at, drop column deliveries, drop column next_delivery_at, drop column locked_until`.execute(db);
  await sql`alter table sandbox_checkouts set schema sandbox`.execute(db);
  await sql`alter table sandbox.sandbox_checkouts rename to checkouts`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table sandbox.checkouts rename to sandbox_checkouts`.execute(db);
  await sql`alter table sandbox.sandbox_checkouts set schema public`.execute(db);
  await sql`drop schema if exists sandbox`.execute(db);
  await sql`alter table sandbox_checkouts
    add column notified_at timestamptz, add column deliveries integer not null default 0,
    add column next_delivery_at timestamptz not null default now(), add column locked_until timestamptz`.execute(db);
  await sql`alter table payment_attempts add column next_check_at timestamptz, add column checks integer not null default 0`.execute(db);
  await sql`alter table customer_emails add column next_attempt_at timestamptz not null default now()`.execute(db);
  for (const table of ['webhook_deliveries', 'customer_emails']) {
    await sql`alter table ${sql.table(table)} add column locked_until timestamptz, add column locked_by uuid`.execute(db);
  }
  await sql`drop table if exists jobs`.execute(db);
}
