import { randomUUID } from 'node:crypto';
import { QUEUE } from '../domain/jobs.ts';
import type { DbOrTx, Tx } from './index.ts';
import { statement } from './statement.ts';

/**
 * Customer confirmations: a row per payment, written in the capture's transaction with its job
 * (`customer.email`, keyed by the payment), so it exists exactly when the capture does and at
 * most once per payment. The row names the payment only: the e-mail is written when it is sent,
 * so no voucher code waits here in the clear. It records how the sending went; the job does the
 * sending (services/customer-email.ts).
 */

const queueStatement = statement<{ id: string; paymentId: string }, Record<string, never>>(
  "queue a payment's confirmation",
  `
  with recorded as (
    insert into customer_emails (id, payment_id, status) values (:id::uuid, :paymentId::uuid, 'pending')
    on conflict (payment_id) do nothing
    returning payment_id
  )
  insert into jobs (queue, key, merchant_id, payload)
  select '${QUEUE.customerEmail}', r.payment_id::text, p.merchant_id, jsonb_build_object('payment', r.payment_id)
    from recorded r join payments p on p.id = r.payment_id
  on conflict (queue, key) do nothing`,
);

/** Queues the payment's confirmation; a second call for the same payment changes nothing. */
export async function queueConfirmation(tx: Tx, paymentId: string): Promise<void> {
  await queueStatement.run(tx, { id: randomUUID(), paymentId });
}

export interface Sending {
  paymentId: string;
  status: 'pending' | 'sent' | 'failed';
  error: string | null;
}

const recordStatement = statement<{ paymentIds: string[]; statuses: string[]; errors: (string | null)[] }, Record<string, never>>(
  'record how confirmations went',
  `
  update customer_emails e set
    attempts = e.attempts + 1,
    status = o.status,
    last_error = o.error,
    sent_at = case when o.status = 'sent' then now() else e.sent_at end
  from unnest(:paymentIds::uuid[], :statuses::text[], :errors::text[]) as o (payment_id, status, error)
  where e.payment_id = o.payment_id`,
);

/** How each sending went: sent, failed for good, or still `pending` (a retry is queued). */
export async function recordSendings(db: DbOrTx, sendings: readonly Sending[]): Promise<void> {
  if (sendings.length === 0) return;
  await recordStatement.run(db, {
    paymentIds: sendings.map((s) => s.paymentId),
    statuses: sendings.map((s) => s.status),
    errors: sendings.map((s) => (s.error === null ? null : s.error.slice(0, 500))),
  });
}

export interface ConfirmationRow {
  id: string;
  customer_email: string | null;
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
  select p.id, p.customer_email, p.amount_cents, p.merchant_order_id, p.intent_type, p.description, p.completed_at,
         m.name as merchant_name, v.code_sealed
    from payments p join merchants m on m.id = p.merchant_id left join vouchers v on v.payment_id = p.id
   where p.id = :paymentId::uuid`,
);

/** What the confirmation says: the payment as the customer knows it, and where to send it. */
export async function confirmationFacts(db: DbOrTx, paymentId: string): Promise<ConfirmationRow | undefined> {
  const [row] = await factsStatement.run(db, { paymentId });
  return row;
}
