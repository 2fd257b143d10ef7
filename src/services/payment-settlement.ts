import * as attempts from '../db/attempts.ts';
import { recordAudit } from '../db/audit.ts';
import { queueConfirmation } from '../db/customer-messages.ts';
import type { DbOrTx, Tx } from '../db/index.ts';
import { enqueue } from '../db/jobs.ts';
import * as ledger from '../db/ledger.ts';
import { recordEvent } from '../db/outbox.ts';
import { lockLinkPaidElsewhere } from '../db/payment-links.ts';
import * as store from '../db/payments.ts';
import { type Actor, actorLabel, type PaymentScope, paymentScope } from '../domain/actor.ts';
import { QUEUE } from '../domain/jobs.ts';
import { captureLegs } from '../domain/ledger.ts';
import { EXPIRED, isTerminal, LINK_PAID_ALREADY, OPEN_PAYMENT_STATUSES, type Payment, type PaymentOutcome, paymentNotFound } from '../domain/payment.ts';
import { paymentEventData } from '../domain/payment-json.ts';
import { keyringOf, type ServiceDeps, withEvents } from './deps.ts';
import type { AttemptState } from '../outside/providers/port.ts';
import { newVoucherCode, revealed } from './vouchers.ts';

/** What applying a provider's answer did to the payment. */
export type Settled =
  /** Nothing: the answer was pending, or repeated something already applied (a duplicate, a late notification). */
  | 'unchanged'
  | 'captured'
  | 'failed'
  /** The attempt expired (or the provider never saw it): the payment is `created` again, and the customer may pay afresh. */
  | 'reopened'
  /** Money arrived after the payment had ended: it goes back to the customer (a `payment.refund_owed` job asks the provider). */
  | 'refund_owed';

/**
 * The payment state machine's one way forward: a provider's answer about an attempt, however it
 * arrived (notification, status API, the customer's return, the operator), and the terminal moves
 * with everything a capture does. Every change is conditional on the state it starts from and
 * runs under the payment's row lock (lock order everywhere: payment, its attempts, the balance),
 * so answers that race, repeat or arrive late and out of order change the payment at most once.
 * It reads and locks within the scope of whoever's answer it applies (`paymentScope`): the
 * customer's one payment, the provider's own attempts, the operator's and zarpay's every payment.
 */
export class PaymentSettlement {
  constructor(private readonly deps: ServiceDeps) {}

  /** Applies what the provider says about one attempt. */
  async apply(attemptId: string, answer: AttemptState, who: Actor): Promise<{ settled: Settled; paymentId: string }> {
    const s = paymentScope(who);
    const found = await attempts.findAttempt(this.deps.db, s, attemptId);
    if (!found) throw new Error(`attempt ${attemptId} does not exist, or is not ${actorLabel(who)}'s to settle`);
    if (answer.status === 'pending') return { settled: 'unchanged', paymentId: found.payment_id };
    if (answer.status === 'succeeded' && (answer.amountCents !== undefined || answer.currency !== undefined)) {
      // A status answer that names another amount or currency is a mismatch, as a notification's is.
      const payment = await this.load(this.deps.db, s, found.payment_id);
      const differs = (answer.amountCents !== undefined && answer.amountCents !== payment.amountCents) || (answer.currency !== undefined && answer.currency !== payment.currency);
      if (differs) return this.mismatch(attemptId, answer, { amountCents: payment.amountCents, currency: payment.currency }, who);
    }
    const settled = await withEvents(this.deps, async (tx) => {
      const payment = (await store.lockPayment(tx, s, found.payment_id))!;
      // Read again under the payment's lock: a racing answer may have moved the attempt meanwhile.
      const attempt = (await attempts.findAttempt(tx, s, attemptId))!;
      const outcome = await this.settle(tx, s, attempt, payment, answer);
      // The operator's and zarpay's own decisions are audited; a provider's notification and a
      // customer's return are the ordinary flow, recorded by the attempt and the payment's event.
      if (outcome !== 'unchanged' && (who.kind === 'operator' || who.kind === 'system')) {
        await recordAudit(tx, {
          actor: actorLabel(who),
          action: `payment.${outcome}`,
          merchantId: payment.merchantId,
          paymentId: payment.id,
          detail: { attempt_id: attempt.id, provider: attempt.provider, provider_ref: attempt.provider_ref, provider_said: answer.status },
        });
      }
      return outcome;
    });
    return { settled, paymentId: found.payment_id };
  }

  private async settle(
    tx: Tx,
    s: PaymentScope,
    attempt: attempts.Attempt,
    payment: NonNullable<Awaited<ReturnType<typeof store.lockPayment>>>,
    answer: Exclude<AttemptState, { status: 'pending' }>,
  ): Promise<Settled> {
    const pending = attempt.status === 'pending';
    switch (answer.status) {
      case 'succeeded': {
        const paymentRef = answer.paymentRef ?? null;
        if (attempt.status !== 'succeeded' && attempt.refund_status === null && !isTerminal(payment.status) && (await this.linkPaidAlready(tx, payment))) {
          // A single-use link pays once: a second customer who paid it at the same time gets the money back.
          await attempts.recordLateSuccess(tx, attempt.id, paymentRef, true);
          await this.finish(tx, s, payment.id, OPEN_PAYMENT_STATUSES, 'failed', LINK_PAID_ALREADY);
          await this.owe(tx, payment, attempt);
          return 'refund_owed';
        }
        if (pending) {
          await attempts.resolveAttempt(tx, attempt.id, 'succeeded', paymentRef ? { paymentRef } : {});
          return (await this.finish(tx, s, payment.id, OPEN_PAYMENT_STATUSES, 'captured')) ? 'captured' : 'unchanged';
        }
        // Already owed back (a notification that did not match), or already applied: nothing more.
        if (attempt.status === 'succeeded' || attempt.refund_status !== null) return 'unchanged';
        // The customer paid an attempt that had ended here (cancelled, or superseded). While the
        // payment is open the money completes it; once it has ended, the money goes back.
        if (!isTerminal(payment.status)) {
          await attempts.resolvePendingAttempts(tx, payment.id, 'cancelled', 'an earlier attempt of this payment succeeded');
          await attempts.recordLateSuccess(tx, attempt.id, paymentRef, false);
          await this.finish(tx, s, payment.id, OPEN_PAYMENT_STATUSES, 'captured');
          return 'captured';
        }
        await attempts.recordLateSuccess(tx, attempt.id, paymentRef, true);
        await this.owe(tx, payment, attempt);
        return 'refund_owed';
      }
      case 'failed':
        if (!pending || !(await attempts.resolveAttempt(tx, attempt.id, 'failed', { reason: answer.reason }))) return 'unchanged';
        return (await this.finish(tx, s, payment.id, OPEN_PAYMENT_STATUSES, 'failed')) ? 'failed' : 'unchanged';
      case 'expired':
        if (!pending) return 'unchanged';
        await attempts.resolveAttempt(tx, attempt.id, 'expired', { reason: 'the provider no longer takes payment for this attempt' });
        // Nobody was charged: the payment is payable again, with a new attempt.
        await store.movePayment(tx, payment.id, ['initiated', 'awaiting_webhook'], 'created');
        return 'reopened';
    }
  }

  /** Money the attempt took goes back through its provider (a `payment.refund_owed` job), audited. */
  private async owe(tx: Tx, payment: { id: string; merchantId: string; status: string }, attempt: attempts.Attempt): Promise<void> {
    await enqueue(tx, { queue: QUEUE.refundOwed, key: attempt.id, merchantId: payment.merchantId, payload: { attempt: attempt.id } });
    await recordAudit(tx, {
      actor: 'system:payments',
      action: 'payment.refund_owed',
      merchantId: payment.merchantId,
      paymentId: payment.id,
      detail: { attempt_id: attempt.id, provider: attempt.provider, provider_ref: attempt.provider_ref, payment_was: payment.status },
    });
  }

  /**
   * Whether the payment came from a single-use link that another payment has already paid. The
   * link is locked (after the payment: the lock order), so two customers paying one link at the
   * same moment are decided one after the other: the first captures, the second sees it.
   */
  private async linkPaidAlready(tx: Tx, payment: { id: string; paymentLinkId: string | null }): Promise<boolean> {
    if (payment.paymentLinkId === null) return false;
    return lockLinkPaidElsewhere(tx, payment.paymentLinkId, payment.id);
  }

  /**
   * A provider says it took money for an attempt, but not the attempt's amount or currency
   * (CONTRACT §10 "Provider notifications must match"). Nothing is captured: an open payment
   * fails (its event says so), what the provider took goes back through it (a `payment.refund_owed`
   * job, as for money that arrived late), and the operator is told: the audit log's
   * `payment.notification_mismatch`, counted by `zarpay stats`. A repeat changes nothing.
   */
  async mismatch(
    attemptId: string,
    said: { amountCents?: number | undefined; currency?: string | undefined; paymentRef?: string | undefined },
    expected: { amountCents: number; currency: string },
    who: Actor,
  ): Promise<{ settled: Settled; paymentId: string }> {
    const s = paymentScope(who);
    const found = await attempts.findAttempt(this.deps.db, s, attemptId);
    if (!found) throw new Error(`attempt ${attemptId} does not exist, or is not ${actorLabel(who)}'s to settle`);
    const settled = await withEvents(this.deps, async (tx): Promise<Settled> => {
      const payment = (await store.lockPayment(tx, s, found.payment_id))!;
      const attempt = (await attempts.findAttempt(tx, s, attemptId))!;
      const detail = {
        attempt_id: attempt.id,
        provider: attempt.provider,
        provider_ref: attempt.provider_ref,
        expected_amount_cents: expected.amountCents,
        expected_currency: expected.currency,
        reported_amount_cents: said.amountCents ?? null,
        reported_currency: said.currency ?? null,
        payment_was: payment.status,
      };
      const audit = (result: string) =>
        recordAudit(tx, { actor: actorLabel(who), action: 'payment.notification_mismatch', merchantId: payment.merchantId, paymentId: payment.id, detail: { ...detail, result } });
      // Money already kept for this attempt (an earlier notification matched): told, but nothing to undo here.
      if (attempt.status === 'succeeded' && attempt.refund_status === null) {
        await audit('ignored: the attempt had already succeeded with the right amount');
        return 'unchanged';
      }
      const why = `the provider reported ${said.amountCents ?? '?'} ${said.currency ?? '?'} cents taken for an attempt of ${expected.amountCents} ${expected.currency} cents`;
      const taken = said.amountCents !== undefined && said.amountCents > 0 ? said.amountCents : expected.amountCents;
      if (!(await attempts.recordMismatch(tx, attempt.id, { paymentRef: said.paymentRef ?? null, takenCents: taken, why }))) return 'unchanged';
      const failed = attempt.status === 'pending' && (await this.finish(tx, s, payment.id, OPEN_PAYMENT_STATUSES, 'failed')) !== null;
      await enqueue(tx, { queue: QUEUE.refundOwed, key: attempt.id, merchantId: payment.merchantId, payload: { attempt: attempt.id } });
      await audit(failed ? 'payment failed; the money goes back' : 'the money goes back');
      return failed ? 'failed' : 'refund_owed';
    });
    return { settled, paymentId: found.payment_id };
  }

  /**
   * The one way into a terminal state; null when the payment was not in `from` any more. A
   * capture issues the voucher (sealed), credits the balance (auto top-up), queues the customer's
   * confirmation, and records the event, all in the caller's transaction, which holds the
   * payment's lock (taken within `s`).
   */
  async finish(
    tx: Tx,
    s: PaymentScope,
    id: string,
    from: readonly (typeof OPEN_PAYMENT_STATUSES)[number][],
    to: PaymentOutcome,
    failureReason: string | null = null,
  ): Promise<Payment | null> {
    const row = await store.finishPayment(tx, id, from, to, failureReason);
    if (!row) return null;
    if (to === 'cancelled') await attempts.resolvePendingAttempts(tx, id, 'cancelled');
    if (to === 'captured') {
      const code = newVoucherCode();
      const keyring = keyringOf(this.deps);
      // purchase_and_redeem: the voucher is redeemed at once, on the customer's behalf.
      await attempts.issueVoucher(tx, {
        paymentId: id,
        sealed: keyring.seal('voucher-code', id, code),
        digest: keyring.digest('voucher-code', code),
        redeemed: row.intent_type === 'purchase_and_redeem',
      });
      if (row.auto_topup) {
        await ledger.post(tx, { merchantId: row.merchant_id, kind: 'payment_capture', paymentId: id, legs: captureLegs(row.amount_cents, row.fee_cents) });
      }
      if (row.customer_email && this.deps.config.smtp) await queueConfirmation(tx, id, 'email');
      if (row.customer_phone && this.deps.config.sms) await queueConfirmation(tx, id, 'sms');
    }
    const payment = await this.load(tx, s, id);
    await recordEvent(tx, { merchantId: row.merchant_id, type: `payment.${to}`, paymentId: id, data: paymentEventData(payment), webhookUrl: row.webhook_url });
    return payment;
  }

  /**
   * Ends a payment never finished in time (CONTRACT §10): its attempt in flight ends `expired`, the
   * payment `failed` with `failure_reason` = `expired`, and `payment.failed` is emitted; audited.
   * False when it had ended meanwhile. Money that still arrives for the attempt is owed back
   * (`settle`: a success on an ended attempt of an ended payment).
   */
  async expire(paymentId: string, who: Actor): Promise<boolean> {
    const s = paymentScope(who);
    return withEvents(this.deps, async (tx) => {
      const payment = await store.lockPayment(tx, s, paymentId);
      if (!payment || isTerminal(payment.status)) return false;
      await attempts.resolvePendingAttempts(tx, paymentId, 'expired', 'the payment expired before it was paid');
      const ended = await this.finish(tx, s, paymentId, OPEN_PAYMENT_STATUSES, 'failed', EXPIRED);
      if (!ended) return false;
      await recordAudit(tx, {
        actor: actorLabel(who),
        action: 'payment.expired',
        merchantId: payment.merchantId,
        paymentId,
        detail: { was: payment.status, expires_after_ms: this.deps.config.paymentExpiresAfterMs },
      });
      return true;
    });
  }

  /** One payment within `s`, its voucher code opened; PAYMENT_NOT_FOUND when missing or outside it. */
  async load(db: DbOrTx, s: PaymentScope, id: string): Promise<Payment> {
    const payment = await store.findPayment(db, s, id);
    if (!payment) throw paymentNotFound();
    return revealed(keyringOf(this.deps), payment, this.deps.db);
  }
}
