import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { DbOrTx, Tx } from './index.ts';
import { statement } from './statement.ts';

/**
 * The outbox of customer confirmations: a row written in the capture's transaction (so it exists
 * exactly when the capture does, and at most once per payment), claimed and sent by the mailer
 * (services/customer-mail.ts) like webhook deliveries. The row names the payment only: the
 * e-mail is written when it is sent, so no voucher code waits here in the clear.
 */

/** Queues the payment's confirmation; a second call for the same payment changes nothing. */
export async function queueConfirmation(tx: Tx, paymentId: string): Promise<void> {
  await tx.insertInto('customer_emails').values({ id: randomUUID(), payment_id: paymentId, status: 'pending' }).onConflict((oc) => oc.column('payment_id').doNothing()).execute();
}

export interface ClaimedEmail {
  id: string;
  payment_id: string;
  attempts: number;
}

const claimStatement = statement<{ token: string; leaseMs: number; limit: number }, ClaimedEmail>(
  'claim customer e-mails due',
  `
  with due as (
    select id from customer_emails
     where status = 'pending' and next_attempt_at <= now() and (locked_until is null or locked_until < now())
     order by next_attempt_at
     limit :limit::int
     for update skip locked
  )
  update customer_emails e
     set locked_until = now() + :leaseMs::bigint * interval '1 millisecond', locked_by = :token::uuid
    from due where e.id = due.id
  returning e.id, e.payment_id, e.attempts`,
);

/** Takes due e-mails for one sender; another sender takes them over only after `leaseMs`. */
export function claimDue(db: DbOrTx, q: { token: string; leaseMs: number; limit: number }): Promise<ClaimedEmail[]> {
  return claimStatement.run(db, q);
}

/**
 * The outcome of one sending: `sent`, or a failure to retry in `retryInMs` (null: give up). Only
 * the holder of the claim records it.
 */
export async function recordSending(
  db: DbOrTx,
  e: { id: string; token: string },
  outcome: { sent: true } | { sent: false; error: string; retryInMs: number | null },
): Promise<void> {
  await db
    .updateTable('customer_emails')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      locked_until: null,
      locked_by: null,
      ...(outcome.sent
        ? { status: 'sent' as const, sent_at: sql<Date>`now()`, last_error: null }
        : {
            last_error: outcome.error.slice(0, 500),
            ...(outcome.retryInMs === null
              ? { status: 'failed' as const }
              : { next_attempt_at: sql<Date>`now() + ${outcome.retryInMs} * interval '1 millisecond'` }),
          }),
    }))
    .where('id', '=', e.id)
    .where('locked_by', '=', e.token)
    .execute();
}

/** Gives claims back unattempted (shutdown): another sender takes them at once. */
export async function releaseClaims(db: DbOrTx, ids: string[], token: string): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('customer_emails').set({ locked_until: null, locked_by: null }).where('id', 'in', ids).where('locked_by', '=', token).execute();
}

/** What the confirmation says: the payment as the customer knows it, and where to send it. */
export async function confirmationFacts(db: DbOrTx, paymentId: string) {
  return db
    .selectFrom('payments as p')
    .innerJoin('merchants as m', 'm.id', 'p.merchant_id')
    .leftJoin('vouchers as v', 'v.payment_id', 'p.id')
    .select(['p.id', 'p.customer_email', 'p.amount_cents', 'p.merchant_order_id', 'p.intent_type', 'p.description', 'p.completed_at', 'm.name as merchant_name', 'v.code_sealed'])
    .where('p.id', '=', paymentId)
    .executeTakeFirst();
}
