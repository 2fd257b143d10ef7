import { type Kysely, sql } from 'kysely';

/**
 * Customer confirmations by SMS, and confirmations sent again (issue 26).
 *
 * - `customer_sms`: one row per payment whose customer gave a phone number, written in the
 *   capture's transaction with its `customer.sms` job, as `customer_emails` is for e-mail. It names
 *   the payment only (the text is written when it is sent, so no voucher code waits here) and
 *   records how the sending went, with the gateway's id for the message.
 * - `resends` on both: how many times an operator asked for the confirmation again
 *   (`zarpay payment notify`). Each resend is a new message (its own Message-ID), never a repeat
 *   of the first that a mail system would fold away.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('customer_sms')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('payment_id', 'uuid', (c) => c.notNull().unique().references('payments.id'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'sent', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('resends', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    // The gateway's id of the last message it accepted, to find it in the gateway's own reports.
    .addColumn('gateway_message_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .execute();
  await sql`alter table customer_emails add column resends integer not null default 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table customer_emails drop column if exists resends`.execute(db);
  await db.schema.dropTable('customer_sms').ifExists().execute();
}
