import { type Kysely, sql } from 'kysely';

/**
 * Merchants, API keys, the double-entry ledger with its balance projection, payouts and the
 * event outbox. Money columns are bigint cents.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('merchants')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('webhook_url', 'text')
    .addColumn('payment_fee_bps', 'integer', (c) => c.notNull().defaultTo(0).check(sql`payment_fee_bps between 0 and 10000`))
    .addColumn('payment_fee_fixed_cents', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`payment_fee_fixed_cents >= 0`))
    .addColumn('payout_fee_cents', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`payout_fee_cents >= 0`))
    .addColumn('auto_topup', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('redirect_domains', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id'))
    .addColumn('kid', 'text', (c) => c.notNull().unique())
    .addColumn('env', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('secret'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'revoked', 'expired')`))
    // HMAC-SHA256 of the secret part, keyed from SERVICE_SECRET; never the key itself.
    .addColumn('secret_hash', 'bytea', (c) => c.notNull())
    .addColumn('checksum', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('api_keys_merchant_idx').on('api_keys').column('merchant_id').execute();

  // The balance projection. Every change to it is made in the transaction that appends the
  // matching ledger entries; `zarpay ledger verify` recomputes it from the journal.
  await db.schema
    .createTable('balances')
    .addColumn('merchant_id', 'uuid', (c) => c.primaryKey().references('merchants.id'))
    .addColumn('balance_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('reserved_cents', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`reserved_cents >= 0`))
    .addColumn('gross_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('fees_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('withdrawals_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // The last line of defence against over-reservation: no statement can commit a negative
    // available amount, whatever the application does.
    .addCheckConstraint('balances_available_nonnegative', sql`balance_cents - reserved_cents >= 0`)
    .execute();

  await db.schema
    .createTable('ledger_transactions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payout_id', 'uuid')
    .addColumn('payment_id', 'uuid')
    .addColumn('memo', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('transaction_id', 'uuid', (c) => c.notNull().references('ledger_transactions.id'))
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id'))
    .addColumn('account', 'text', (c) =>
      c.notNull().check(sql`account in ('merchant_available', 'merchant_reserved', 'funding', 'fees', 'bank_transfers')`),
    )
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents <> 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('ledger_entries_txn_idx').on('ledger_entries').column('transaction_id').execute();
  await db.schema.createIndex('ledger_entries_merchant_idx').on('ledger_entries').columns(['merchant_id', 'account']).execute();

  // The journal is append-only: the database refuses to change or delete what was written.
  await sql`
    create function ledger_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'ledger is append-only: % on % refused', tg_op, tg_table_name;
    end $$`.execute(db);
  for (const table of ['ledger_entries', 'ledger_transactions']) {
    await sql`create trigger ${sql.raw(table)}_append_only before update or delete on ${sql.raw(table)}
      for each row execute function ledger_append_only()`.execute(db);
  }

  await db.schema
    .createTable('payouts')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    // Creation order for newest-first listing and exact keyset cursors (timestamps can tie).
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id'))
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn('fee_cents', 'bigint', (c) => c.notNull().check(sql`fee_cents >= 0`))
    .addColumn('gross_amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('ZAR'))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('pending', 'approved', 'processing', 'completed', 'failed', 'rejected')`),
    )
    .addColumn('payout_method', 'text', (c) => c.notNull())
    .addColumn('payment_details', 'jsonb', (c) => c.notNull())
    .addColumn('merchant_reference', 'text')
    .addColumn('description', 'text')
    .addColumn('metadata', 'jsonb')
    // sha256 of the canonical request, to tell a replay from a conflicting reuse of the reference.
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('external_transfer_id', 'text')
    .addColumn('failure_reason', 'text')
    .addColumn('rejection_reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .addCheckConstraint('payouts_gross', sql`gross_amount_cents = amount_cents + fee_cents`)
    .addUniqueConstraint('payouts_merchant_reference_key', ['merchant_id', 'merchant_reference'])
    .execute();
  await db.schema
    .createIndex('payouts_merchant_created_idx')
    .on('payouts')
    .columns(['merchant_id', 'seq desc'])
    .execute();
  await db.schema
    .createIndex('payouts_merchant_status_created_idx')
    .on('payouts')
    .columns(['merchant_id', 'status', 'seq desc'])
    .execute();
  await db.schema.createIndex('payouts_status_idx').on('payouts').columns(['status', 'seq desc']).execute();

  // Terminal payouts never change again, whatever the application does.
  await sql`
    create function payouts_terminal_guard() returns trigger language plpgsql as $$
    begin
      if old.status in ('completed', 'failed', 'rejected') then
        raise exception 'payout % is % and cannot change', old.id, old.status;
      end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger payouts_terminal_guard before update on payouts
    for each row execute function payouts_terminal_guard()`.execute(db);

  // The outbox: each event row is written in the transaction of the change it reports.
  await db.schema
    .createTable('events')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payout_id', 'uuid')
    .addColumn('payment_id', 'uuid')
    .addColumn('data', 'jsonb', (c) => c.notNull())
    // Where this event's webhook goes when it is not the merchant's URL (a payment's own webhook_url).
    .addColumn('webhook_url', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('events_payout_idx').on('events').columns(['payout_id', 'seq']).execute();
  await db.schema.createIndex('events_payment_idx').on('events').columns(['payment_id', 'seq']).execute();
  await db.schema.createIndex('events_merchant_idx').on('events').columns(['merchant_id', 'seq']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['events', 'payouts', 'ledger_entries', 'ledger_transactions', 'balances', 'api_keys', 'merchants']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
  await sql`drop function if exists ledger_append_only, payouts_terminal_guard`.execute(db);
}
