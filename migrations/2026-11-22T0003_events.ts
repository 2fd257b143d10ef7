import { type Kysely, sql } from 'kysely';

/**
 * Webhook signing secrets (encrypted at rest), the delivery queue the dispatcher works from,
 * its attempt log, and a NOTIFY on every committed event so that every service process can
 * push it to its subscribers.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_secrets')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id'))
    .addColumn('kid', 'text', (c) => c.notNull().unique())
    // Stored state; a `rotating` secret whose rotating_until has passed reads as `disabled`.
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'rotating', 'disabled')`))
    // AES-256-GCM: 12-byte nonce, 16-byte tag, ciphertext; the row id is the associated data.
    .addColumn('secret_enc', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('rotating_until', 'timestamptz')
    .addColumn('disabled_at', 'timestamptz')
    .execute();
  // At most one active secret per merchant, whatever races the application loses.
  await sql`create unique index webhook_secrets_one_active on webhook_secrets (merchant_id) where status = 'active'`.execute(db);
  await db.schema.createIndex('webhook_secrets_merchant_idx').on('webhook_secrets').columns(['merchant_id', 'created_at']).execute();

  // One row per (event, target): written in the event's transaction, then worked by dispatchers.
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('event_id', 'uuid', (c) => c.notNull().references('events.id'))
    .addColumn('merchant_id', 'uuid', (c) => c.notNull().references('merchants.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'succeeded', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // A claim: the dispatcher that set it owns the delivery until then; an expired lease
    // (a crashed dispatcher) makes the delivery claimable again.
    .addColumn('locked_until', 'timestamptz')
    .addColumn('locked_by', 'uuid')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .execute();
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending'`.execute(db);
  await db.schema.createIndex('webhook_deliveries_event_idx').on('webhook_deliveries').columns(['event_id', 'created_at']).execute();
  await db.schema.createIndex('webhook_deliveries_merchant_idx').on('webhook_deliveries').columns(['merchant_id', 'created_at']).execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('delivery_id', 'uuid', (c) => c.notNull().references('webhook_deliveries.id'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('attempted_at', 'timestamptz', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('succeeded', 'boolean', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_attempts_delivery_idx').on('webhook_attempts').columns(['delivery_id', 'id']).execute();

  // NOTIFY is delivered only when the inserting transaction commits, and never on rollback:
  // listeners learn of exactly the committed events, on every process connected to the database.
  await sql`
    create function zarpay_events_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify('zarpay_events', new.id::text);
      return null;
    end $$`.execute(db);
  await sql`create trigger events_notify after insert on events
    for each row execute function zarpay_events_notify()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists events_notify on events`.execute(db);
  await sql`drop function if exists zarpay_events_notify`.execute(db);
  for (const t of ['webhook_attempts', 'webhook_deliveries', 'webhook_secrets']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
