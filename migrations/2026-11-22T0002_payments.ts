import { type Kysely, sql } from 'kysely';

/**
 * Payments (CONTRACT §4): the payment itself, its provider attempts, the voucher a capture
 * issues, and the merchant's Idempotency-Keys. Uniqueness and terminal states are enforced here,
 * so that concurrent requests and buggy code alike cannot create duplicates or revive a payment.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payments')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    // Creation order for newest-first listing and exact keyset cursors.
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id'))
    .addColumn('merchant_order_id', 'text', (c) => c.notNull().check(sql`length(merchant_order_id) between 1 and 255`))
    .addColumn('intent_type', 'text', (c) => c.notNull().check(sql`intent_type in ('purchase', 'purchase_and_redeem')`))
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents between 5500 and 300000`))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('ZAR'))
    // Fixed at initiation from the merchant's rates of that moment.
    .addColumn('fee_cents', 'bigint', (c) => c.notNull().check(sql`fee_cents >= 0`))
    .addColumn('net_amount_cents', 'bigint', (c) => c.notNull().check(sql`net_amount_cents >= 0`))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('created', 'initiated', 'awaiting_webhook', 'captured', 'failed', 'cancelled')`),
    )
    .addColumn('include_qr', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('success_url', 'text')
    .addColumn('cancel_url', 'text')
    .addColumn('failure_url', 'text')
    .addColumn('webhook_url', 'text')
    .addColumn('customer_email', 'text')
    .addColumn('customer_phone', 'text')
    // sha256 of the canonical parameters: tells a replay of merchant_order_id from a conflicting reuse.
    .addColumn('params_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .addCheckConstraint('payments_net', sql`net_amount_cents = amount_cents - fee_cents`)
    .addUniqueConstraint('payments_merchant_order_key', ['merchant_id', 'merchant_order_id'])
    .execute();
  await db.schema.createIndex('payments_merchant_seq_idx').on('payments').columns(['merchant_id', 'seq desc']).execute();
  await db.schema.createIndex('payments_status_seq_idx').on('payments').columns(['status', 'seq desc']).execute();

  // A terminal payment never changes again (spec "Payment states"), whatever the application does.
  await sql`
    create function payments_terminal_guard() returns trigger language plpgsql as $$
    begin
      if old.status in ('captured', 'failed', 'cancelled') then
        raise exception 'payment % is % and cannot change', old.id, old.status;
      end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger payments_terminal_guard before update on payments
    for each row execute function payments_terminal_guard()`.execute(db);

  await db.schema
    .createTable('payment_attempts')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('payment_id', 'uuid', (c) => c.notNull().references('payments.id'))
    .addColumn('provider', 'text', (c) => c.notNull())
    // Null until the provider has answered the start of the attempt.
    .addColumn('provider_ref', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'succeeded', 'failed', 'cancelled')`))
    .addColumn('failure_reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('payment_attempts_provider_ref_key', ['provider', 'provider_ref'])
    .execute();
  await db.schema.createIndex('payment_attempts_payment_idx').on('payment_attempts').columns(['payment_id', 'seq']).execute();
  // At most one attempt in flight per payment: a double click on "pay" cannot start two.
  await sql`create unique index payment_attempts_one_pending on payment_attempts (payment_id) where status = 'pending'`.execute(db);

  await db.schema
    .createTable('vouchers')
    .addColumn('payment_id', 'uuid', (c) => c.primaryKey().references('payments.id'))
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('issued_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('redeemed_at', 'timestamptz')
    .execute();

  // Idempotency-Key (spec rules 1 and 2), scoped to the merchant, kept until expires_at. The
  // primary key makes concurrent first uses of one key wait for each other instead of racing.
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'uuid', (c) => c.references('payments.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['merchant_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expires_idx').on('idempotency_keys').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['idempotency_keys', 'vouchers', 'payment_attempts', 'payments']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
  await sql`drop function if exists payments_terminal_guard`.execute(db);
}
