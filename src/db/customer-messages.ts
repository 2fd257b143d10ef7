import { randomUUID } from 'node:crypto';
import { QUEUE } from '../domain/jobs.ts';
import type { PaymentScope } from '../domain/actor.ts';
import type { Channel } from '../domain/customer-messages.ts';
import type { DbOrTx, Tx } from './index.ts';
import { PAYMENT_SCOPED, type PaymentFilter, paymentFilter } from './scope.ts';
import { statement } from './statement.ts';

/**
 * Customer confirmations, by e-mail (`customer_emails`, queue `customer.email`) and by SMS
 * (`customer_sms`, queue `customer.sms`): a row per payment and channel, written in the capture's
 * transaction with its job (keyed by the payment), so it exists exactly when the capture does and
 * at most once per payment. The row names the payment only: the text is written when it is sent,
 * so no voucher code waits here in the clear. It records how the sending went; the job does the
 * sending (tasks/customer-email.ts, tasks/customer-sms.ts).
 */

const TABLE: Record<Channel, string> = { email: 'customer_emails', sms: 'customer_sms' };
export const CHANNEL_QUEUE = { email: QUEUE.customerEmail, sms: QUEUE.customerSms } as const;

/** What a job of either queue carries: the payment, and which resend it is (0: the first sending). */
export interface MessagePayload {
  payment: string;
  resend?: number;
}

const queueStatements = {
  email: queueStatement('email'),
  sms: queueStatement('sms'),
};

function queueStatement(channel: Channel) {
  return statement<{ id: string; paymentId: string }, Record<string, never>>(
    `queue a payment's ${channel} confirmation`,
    `
    with recorded as (
      insert into ${TABLE[channel]} (id, payment_id, status) values (:id::uuid, :paymentId::uuid, 'pending')
      on conflict (payment_id) do nothing
      returning payment_id
    )
    insert into jobs (queue, key, merchant_id, payload)
    select '${CHANNEL_QUEUE[channel]}', r.payment_id::text, p.merchant_id, jsonb_build_object('payment', r.payment_id)
      from recorded r join payments p on p.id = r.payment_id
    on conflict (queue, key) do nothing`,
  );
}

/** Queues the payment's confirmation by `channel`; a second call for the same payment changes nothing. */
export async function queueConfirmation(tx: Tx, paymentId: string, channel: Channel = 'email'): Promise<void> {
  await queueStatements[channel].run(tx, { id: randomUUID(), paymentId });
}

export interface Sending {
  paymentId: string;
  status: 'pending' | 'sent' | 'failed';
  error: string | null;
  /** The gateway's id of the message it took (SMS). */
  gatewayId?: string | null;
}

type RecordArgs = { paymentIds: string[]; statuses: string[]; errors: (string | null)[]; gatewayIds: (string | null)[] };

const recordStatements = {
  email: statement<RecordArgs, Record<string, never>>(
    'record how e-mail confirmations went',
    `
    update customer_emails e set
      attempts = e.attempts + 1,
      status = o.status,
      last_error = o.error,
      sent_at = case when o.status = 'sent' then now() else e.sent_at end
    from unnest(:paymentIds::uuid[], :statuses::text[], :errors::text[], :gatewayIds::text[]) as o (payment_id, status, error, gateway_id)
    where e.payment_id = o.payment_id`,
  ),
  sms: statement<RecordArgs, Record<string, never>>(
    'record how SMS confirmations went',
    `
    update customer_sms e set
      attempts = e.attempts + 1,
      status = o.status,
      last_error = o.error,
      gateway_message_id = coalesce(o.gateway_id, e.gateway_message_id),
      sent_at = case when o.status = 'sent' then now() else e.sent_at end
    from unnest(:paymentIds::uuid[], :statuses::text[], :errors::text[], :gatewayIds::text[]) as o (payment_id, status, error, gateway_id)
    where e.payment_id = o.payment_id`,
  ),
};

/** How each sending went: sent, failed for good, or still `pending` (a retry is queued). */
export async function recordSendings(db: DbOrTx, channel: Channel, sendings: readonly Sending[]): Promise<void> {
  if (sendings.length === 0) return;
  await recordStatements[channel].run(db, {
    paymentIds: sendings.map((s) => s.paymentId),
    statuses: sendings.map((s) => s.status),
    errors: sendings.map((s) => (s.error === null ? null : s.error.slice(0, 500))),
    gatewayIds: sendings.map((s) => s.gatewayId ?? null),
  });
}

const resendRecordStatements = {
  email: resendRecordStatement('email'),
  sms: resendRecordStatement('sms'),
};

function resendRecordStatement(channel: Channel) {
  return statement<{ id: string; paymentId: string }, { resends: number }>(
    `mark a payment's ${channel} confirmation to be sent again`,
    `
    insert into ${TABLE[channel]} (id, payment_id, status) values (:id::uuid, :paymentId::uuid, 'pending')
    on conflict (payment_id) do update set status = 'pending', last_error = null, resends = ${TABLE[channel]}.resends + 1
    returning resends`,
  );
}

const dropIdleJobStatement = statement<{ queue: string; key: string }, { id: number }>(
  'drop a job no runner holds, to queue it afresh',
  `delete from jobs where queue = :queue and key = :key and (locked_until is null or locked_until <= now()) returning id`,
);

const requeueJobStatement = statement<{ queue: string; paymentId: string; resend: number }, { id: number }>(
  "queue a payment's confirmation again",
  `
  insert into jobs (queue, key, merchant_id, payload)
  select :queue, p.id::text, p.merchant_id, jsonb_build_object('payment', p.id, 'resend', :resend::int)
    from payments p where p.id = :paymentId::uuid
  on conflict (queue, key) do nothing
  returning id`,
);

/**
 * Queues the payment's confirmation by `channel` again, due now with its tries counted afresh
 * (`zarpay payment notify`), whether it was sent, failed for good, or is waiting for a retry.
 * The job is a new one (a new id, so a gateway never takes it for a repeat of an earlier
 * submission); one a runner is sending right now is left to finish. In the caller's transaction.
 */
export async function requeueConfirmation(tx: Tx, paymentId: string, channel: Channel): Promise<'queued' | 'sending'> {
  const queue = CHANNEL_QUEUE[channel];
  // The job before the record, in the order a runner writes an outcome (jobs, then the record in
  // the same transaction): the other order deadlocks with a sending that ends just now.
  await dropIdleJobStatement.run(tx, { queue, key: paymentId });
  const [row] = await resendRecordStatements[channel].run(tx, { id: randomUUID(), paymentId });
  const inserted = await requeueJobStatement.run(tx, { queue, paymentId, resend: row!.resends });
  return inserted.length > 0 ? 'queued' : 'sending';
}

export interface ConfirmationRow {
  id: string;
  merchant_id: string;
  status: string;
  customer_email: string | null;
  customer_phone: string | null;
  amount_cents: number;
  merchant_order_id: string;
  intent_type: 'purchase' | 'purchase_and_redeem';
  description: string | null;
  completed_at: Date | null;
  merchant_name: string;
  code_sealed: Buffer | null;
}

const factsStatement = statement<{ paymentId: string }, ConfirmationRow>(
  'what a confirmation says',
  `
  select p.id, p.merchant_id, p.status, p.customer_email, p.customer_phone, p.amount_cents, p.merchant_order_id, p.intent_type,
         p.description, p.completed_at, m.name as merchant_name, v.code_sealed
    from payments p join merchants m on m.id = p.merchant_id left join vouchers v on v.payment_id = p.id
   where p.id = :paymentId::uuid`,
);

/**
 * What the confirmation says: the payment as the customer knows it, and where to send it. Not
 * scoped: a job of zarpay's own reads it, and the operator's resend (scoped before it gets here).
 */
export async function confirmationFacts(db: DbOrTx, paymentId: string): Promise<ConfirmationRow | undefined> {
  const [row] = await factsStatement.run(db, { paymentId });
  return row;
}

export interface PaymentContacts {
  id: string;
  merchant_id: string;
  status: string;
  customer_email: string | null;
  customer_phone: string | null;
}

const lockContactsStatement = statement<{ id: string } & PaymentFilter, PaymentContacts>(
  "lock a payment to confirm it again, with its customer's addresses",
  `select p.id, p.merchant_id, p.status, p.customer_email, p.customer_phone from payments p
    where p.id = :id::uuid and ${PAYMENT_SCOPED} for update of p`,
);

/** Locks a payment within `scope` for a resend of its confirmation; undefined when missing or outside it. */
export async function lockPaymentContacts(tx: Tx, scope: PaymentScope, id: string): Promise<PaymentContacts | undefined> {
  const [row] = await lockContactsStatement.run(tx, { id, ...paymentFilter(scope) });
  return row;
}
