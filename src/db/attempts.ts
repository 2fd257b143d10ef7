import type { PaymentScope } from '../domain/actor.ts';
import type { AttemptStatus } from '../domain/payment.ts';
import type { DbOrTx, Tx } from './index.ts';
import { ATTEMPT_SCOPED, type PaymentFilter, paymentFilter } from './scope.ts';
import { statement } from './statement.ts';
import type { PaymentAttemptRow } from './types.ts';

/**
 * Every statement about payment attempts (one try at taking a payment with a provider), the
 * vouchers a capture issues, and refunds owed. services/payment-flow.ts, payment-settlement.ts and
 * reconciler.ts decide when. Reads take the caller's `PaymentScope` (never
 * optional): an attempt is within it when its payment is (and, for a provider, when it is its own).
 */

export type Attempt = Pick<
  PaymentAttemptRow,
  'id' | 'payment_id' | 'provider' | 'provider_ref' | 'status' | 'redirect_url' | 'payment_ref' | 'refund_status' | 'created_at'
>;

const ATTEMPT = ['id', 'payment_id', 'provider', 'provider_ref', 'status', 'redirect_url', 'payment_ref', 'refund_status', 'created_at'] as const;

export async function startAttempt(tx: Tx, a: { id: string; paymentId: string; provider: string }): Promise<void> {
  await tx.insertInto('payment_attempts').values({ id: a.id, payment_id: a.paymentId, provider: a.provider, provider_ref: null, status: 'pending' }).execute();
}

/** Records where the provider's attempt is and where the customer pays it; false once the attempt has ended. */
export async function recordStart(tx: Tx, attemptId: string, providerRef: string, redirectUrl: string | null): Promise<boolean> {
  const updated = await tx
    .updateTable('payment_attempts')
    .set({ provider_ref: providerRef, redirect_url: redirectUrl, updated_at: new Date() })
    .where('id', '=', attemptId)
    .where('provider_ref', 'is', null)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

const FROM = `select ${ATTEMPT.map((c) => `a.${c}`).join(', ')} from payment_attempts a join payments p on p.id = a.payment_id`;

const byId = statement<{ id: string } & PaymentFilter, Attempt>('an attempt by id', `${FROM} where a.id = :id::uuid and ${ATTEMPT_SCOPED}`);

/** One attempt; undefined when missing or outside the scope. */
export async function findAttempt(db: DbOrTx, scope: PaymentScope, attemptId: string): Promise<Attempt | undefined> {
  const [row] = await byId.run(db, { id: attemptId, ...paymentFilter(scope) });
  return row;
}

const byRef = statement<{ refProvider: string; providerRef: string } & PaymentFilter, Attempt>(
  'an attempt by its provider\'s reference',
  `${FROM} where a.provider = :refProvider::text and a.provider_ref = :providerRef::text and ${ATTEMPT_SCOPED}`,
);

/** The attempt a provider's notification names by the provider's own reference; undefined when missing or outside the scope. */
export async function findAttemptByRef(db: DbOrTx, scope: PaymentScope, provider: string, providerRef: string): Promise<Attempt | undefined> {
  const [row] = await byRef.run(db, { refProvider: provider, providerRef, ...paymentFilter(scope) });
  return row;
}

const pendingStatement = statement<{ ofPayment: string } & PaymentFilter, Attempt>(
  'the attempt of a payment in flight',
  `${FROM} where a.payment_id = :ofPayment::uuid and a.status = 'pending' and ${ATTEMPT_SCOPED}`,
);

/** The payment's attempt in flight, if any (at most one: a unique index); undefined also when the payment is outside the scope. */
export async function pendingAttempt(db: DbOrTx, scope: PaymentScope, paymentId: string): Promise<Attempt | undefined> {
  const [row] = await pendingStatement.run(db, { ...paymentFilter(scope), ofPayment: paymentId });
  return row;
}

/** Ends an attempt that is still pending; false when it had already ended. */
export async function resolveAttempt(
  tx: Tx,
  attemptId: string,
  to: Exclude<AttemptStatus, 'pending'>,
  extra: { reason?: string; paymentRef?: string } = {},
): Promise<boolean> {
  const updated = await tx
    .updateTable('payment_attempts')
    .set({
      status: to,
      updated_at: new Date(),
      ...(extra.reason !== undefined && { failure_reason: extra.reason.slice(0, 500) }),
      ...(extra.paymentRef !== undefined && { payment_ref: extra.paymentRef }),
    })
    .where('id', '=', attemptId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/**
 * Money arrived for an attempt that had already ended (the customer paid at the provider after
 * cancelling here, or after another attempt finished the payment): it succeeded after all, and
 * `refund` says whether the money must go back.
 */
export async function recordLateSuccess(tx: Tx, attemptId: string, paymentRef: string | null, refund: boolean): Promise<void> {
  await tx
    .updateTable('payment_attempts')
    .set({ status: 'succeeded', payment_ref: paymentRef, updated_at: new Date(), refund_status: refund ? 'pending' : null })
    .where('id', '=', attemptId)
    .execute();
}

/** Ends whatever attempt of the payment is pending; false when none was. */
export async function resolvePendingAttempts(tx: Tx, paymentId: string, to: Exclude<AttemptStatus, 'pending'>, reason?: string): Promise<boolean> {
  const updated = await tx
    .updateTable('payment_attempts')
    .set({ status: to, updated_at: new Date(), ...(reason !== undefined && { failure_reason: reason }) })
    .where('payment_id', '=', paymentId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

export async function recordSettledAttempt(tx: Tx, a: { id: string; paymentId: string; provider: string; providerRef: string; status: AttemptStatus }) {
  await tx.insertInto('payment_attempts').values({ id: a.id, payment_id: a.paymentId, provider: a.provider, provider_ref: a.providerRef, status: a.status }).execute();
}

/** The voucher of a capture, sealed, with the keyed digest that keeps codes unique. */
export async function issueVoucher(tx: Tx, v: { paymentId: string; sealed: Buffer; digest: Buffer; redeemed: boolean }): Promise<void> {
  await tx.insertInto('vouchers').values({ payment_id: v.paymentId, code_sealed: v.sealed, code_digest: v.digest, redeemed_at: v.redeemed ? new Date() : null }).execute();
}

// ---- Refunds owed (the refund itself is a job: tasks/reconcile.ts).

export type OwedRefund = Pick<Attempt, 'id' | 'payment_id' | 'provider' | 'provider_ref' | 'payment_ref' | 'refund_status'> & {
  merchant_id: string;
  /** The provider's id for the refund, once it accepted it. */
  refund_ref: string | null;
  amount_cents: number;
  /** When the refund's request was first sent; null: never. */
  refund_submitted_at: Date | null;
};

const OWED = `a.id, a.payment_id, p.merchant_id, a.provider, a.provider_ref, a.payment_ref, a.refund_status, a.refund_ref, a.refund_submitted_at,
         coalesce(a.refund_amount_cents, p.amount_cents) as amount_cents
    from payment_attempts a join payments p on p.id = a.payment_id`;

const owedStatement = statement<{ id: string } & PaymentFilter, OwedRefund>(
  'a refund owed, with the amount taken',
  `select ${OWED} where a.id = :id::uuid and ${ATTEMPT_SCOPED}`,
);

const owedSubmittingStatement = statement<{ id: string }, { id: string }>(
  'a refund owed about to be sent for the first time',
  `update payment_attempts set refund_submitted_at = now(), updated_at = now()
    where id = :id::uuid and refund_status = 'pending' and refund_submitted_at is null returning id`,
);

/** Records, before its first request goes out, that the refund owed is being sent (committed on its own). */
export async function markOwedRefundSubmitting(db: DbOrTx, attemptId: string): Promise<void> {
  await owedSubmittingStatement.run(db, { id: attemptId });
}

/** The attempt whose money must go back, and how much was taken (what the provider said, when it did not match); undefined when missing or outside the scope. */
export async function refundOwed(db: DbOrTx, scope: PaymentScope, attemptId: string): Promise<OwedRefund | undefined> {
  const [row] = await owedStatement.run(db, { id: attemptId, ...paymentFilter(scope) });
  return row;
}

const owedNamedStatement = statement<{ refProvider: string; refundRef: string; attemptRef: string } & PaymentFilter, OwedRefund>(
  'the refund owed a provider\'s refund notification is about',
  `select ${OWED}
    where a.provider = :refProvider::text and a.refund_status is not null
      and (a.refund_ref = :refundRef::text or (a.provider_ref = :attemptRef::text and a.refund_ref is null))
      and ${ATTEMPT_SCOPED}`,
);

/**
 * The refund owed that a provider's notification is about: named by the provider's id for the
 * refund, or, before that id is known (the notification overtook the answer to the request, or
 * that answer was lost), by the attempt it gives back, which owes one refund at most.
 */
export async function owedRefundNamed(db: DbOrTx, scope: PaymentScope, provider: string, n: { refundRef: string; attemptRef: string }): Promise<OwedRefund | undefined> {
  const [row] = await owedNamedStatement.run(db, { refProvider: provider, refundRef: n.refundRef, attemptRef: n.attemptRef, ...paymentFilter(scope) });
  return row;
}

const finishOwedStatement = statement<{ id: string; to: string; ref: string }, { id: string }>(
  'a refund owed ends as its provider said',
  `update payment_attempts set refund_status = :to::text, refund_ref = coalesce(refund_ref, :ref::text), updated_at = now()
    where id = :id::uuid and refund_status in ('pending', 'requested') and (refund_ref is null or refund_ref = :ref::text)
  returning id`,
);

/** Records how the provider says a refund owed went (under its payment's lock); false when it had ended, or is another refund. */
export async function finishOwedRefund(tx: Tx, attemptId: string, to: 'succeeded' | 'failed', refundRef: string): Promise<boolean> {
  return (await finishOwedStatement.run(tx, { id: attemptId, to, ref: refundRef })).length > 0;
}

/** The provider accepted the refund (`requested`), or will not make it (`failed`: an operator must). */
export async function recordRefund(db: DbOrTx, attemptId: string, outcome: { status: 'requested' | 'failed'; refundRef?: string }) {
  await db
    .updateTable('payment_attempts')
    .set({
      refund_status: outcome.status,
      updated_at: new Date(),
      ...(outcome.refundRef !== undefined && { refund_ref: outcome.refundRef }),
    })
    .where('id', '=', attemptId)
    .where('refund_status', '=', 'pending')
    .execute();
}

const mismatchStatement = statement<{ id: string; paymentRef: string | null; taken: number; why: string }, { id: string }>(
  'an attempt whose provider reported another amount or currency',
  `
  update payment_attempts
     set status = case when status = 'pending' then 'failed' else status end,
         failure_reason = case when status = 'pending' then :why::text else failure_reason end,
         payment_ref = coalesce(:paymentRef::text, payment_ref),
         refund_status = 'pending', refund_amount_cents = :taken::bigint, updated_at = now()
   where id = :id::uuid and refund_status is null
  returning id`,
);

/**
 * The provider says it took money for this attempt, but not the attempt's amount or currency
 * (CONTRACT §10): nothing is captured, the attempt (if still pending) has failed, and what was
 * taken is owed back. False when money was already owed back for it (a repeat).
 */
export async function recordMismatch(tx: Tx, attemptId: string, m: { paymentRef: string | null; takenCents: number; why: string }): Promise<boolean> {
  return (await mismatchStatement.run(tx, { id: attemptId, paymentRef: m.paymentRef, taken: m.takenCents, why: m.why.slice(0, 500) })).length > 0;
}
