import { randomUUID } from 'node:crypto';
import { recordAudit } from '../db/audit.ts';
import type { DbOrTx, Tx } from '../db/index.ts';
import * as ledger from '../db/ledger.ts';
import { recordEvent } from '../db/outbox.ts';
import * as payments from '../db/payments.ts';
import * as store from '../db/refunds.ts';
import { authorize } from '../domain/access.ts';
import { type Actor, actorLabel, type PaymentScope, paymentScope, requireMerchant, requireOperator, scope } from '../domain/actor.ts';
import { requestDigest } from '../domain/canonical.ts';
import { AppError } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';
import { releaseLegs, refundReserveLegs, refundSettleLegs } from '../domain/ledger.ts';
import { paymentNotFound } from '../domain/payment.ts';
import { type CreateRefundInput, type Refund, refundJson, refundNotFound, type RefundOutcome, type RefundStatus } from '../domain/refund.ts';
import { keyringOf, type ServiceDeps, withEvents } from './deps.ts';
import { IDEMPOTENCY_TTL_MS } from './payments.ts';

/** What applying a refund's outcome did. */
export type RefundSettled = 'succeeded' | 'failed' | 'unchanged';

/**
 * Refunds (CONTRACT §10): a merchant gives back a captured payment's money, in full or in parts.
 * Creating one reserves its amount on the merchant's balance (INSUFFICIENT_BALANCE when it is not
 * available) and queues its request to the provider (`refund.request`, tasks/refund-requests.ts);
 * the provider's outcome, however it arrives (its notification: services/refund-notifications.ts;
 * the job asking; the operator, in tst/dev or once the outcome is overdue), is applied once:
 * success takes the reservation out of the balance (`refunds_cents`), failure releases it.
 * Either way the merchant hears `refund.succeeded` / `refund.failed`, and the audit log says who
 * decided. The payment's fee is not returned, and the payment stays `captured`.
 */
export class RefundService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * A merchant refunds one of its captured payments. With an `Idempotency-Key` the rules of
   * payments apply (CONTRACT §4): the same key and request give the same refund (`created`
   * false), another request under the key is 409 CONFLICT. Concurrent refunds of one payment
   * serialise on the payment's lock, so together they never exceed its amount.
   */
  async create(actor: Actor, paymentId: string, input: CreateRefundInput, idempotencyKey?: string): Promise<{ refund: Refund; created: boolean }> {
    const { merchant } = requireMerchant(actor);
    authorize(actor, 'refunds.create');
    if (!isUuid(paymentId)) throw paymentNotFound();
    const id = paymentId.toLowerCase();
    const s = scope(actor);
    // The payment is part of the request: one key cannot refund two payments, nor replay a payment's initiation.
    const requestHash = requestDigest(keyringOf(this.deps), { refundOf: id, ...input });
    return withEvents(this.deps, async (tx) => {
      if (idempotencyKey !== undefined && !(await payments.claimIdempotencyKey(tx, merchant.id, idempotencyKey, requestHash, IDEMPOTENCY_TTL_MS))) {
        const used = await store.usedRefundKey(tx, merchant.id, idempotencyKey);
        if (!used || used.request_hash !== requestHash || used.refund_id === null) {
          throw new AppError('CONFLICT', 'Idempotency-Key was already used with a different payload');
        }
        const refund = await store.findRefund(tx, s, used.refund_id);
        if (!refund) throw new Error(`Idempotency-Key ${idempotencyKey} names a missing refund`);
        return { refund, created: false };
      }
      const refund = await this.insert(tx, s, merchant.id, id, input);
      if (idempotencyKey !== undefined) await store.bindRefundKey(tx, merchant.id, idempotencyKey, refund.id);
      return { refund, created: true };
    });
  }

  private async insert(tx: Tx, s: PaymentScope, merchantId: string, paymentId: string, input: CreateRefundInput): Promise<Refund> {
    const payment = await payments.lockPayment(tx, s, paymentId);
    if (!payment) throw paymentNotFound();
    if (payment.status !== 'captured') throw new AppError('INVALID_STATUS_TRANSITION', `only a captured payment can be refunded; this one is ${payment.status}`);
    const left = await store.refundable(tx, paymentId);
    if (!left || !left.attemptId || !left.provider) throw new AppError('INVALID_STATUS_TRANSITION', 'this payment has no payment to refund at its provider');
    const amount = input.amountCents ?? left.refundableCents;
    if (amount < 1 || amount > left.refundableCents) {
      const message = left.refundableCents > 0 ? `must be 1 to ${left.refundableCents} cents, what is still refundable` : 'nothing is left to refund';
      throw new AppError('VALIDATION_FAILED', `amountCents: ${message}`, { fields: [{ path: ['amountCents'], message }] });
    }
    const refundId = randomUUID();
    // The reservation: refused with INSUFFICIENT_BALANCE when the available balance does not cover it.
    await ledger.post(tx, { merchantId, kind: 'refund_reserve', paymentId, refundId, legs: refundReserveLegs(amount) });
    await store.insertRefund(tx, {
      id: refundId,
      merchantId,
      paymentId,
      attemptId: left.attemptId,
      provider: left.provider,
      amountCents: amount,
      reason: input.reason ?? null,
      merchantReference: input.merchantReference ?? null,
    });
    return (await store.findRefund(tx, s, refundId))!;
  }

  /** One refund; unknown, malformed or outside the actor's scope: 404 REFUND_NOT_FOUND. */
  async get(actor: Actor, id: string): Promise<Refund> {
    const refund = isUuid(id) ? await store.findRefund(this.deps.db, scope(actor), id.toLowerCase()) : undefined;
    if (!refund) throw refundNotFound();
    return refund;
  }

  /** A payment's refunds, newest first; PAYMENT_NOT_FOUND for a payment outside the scope. */
  async ofPayment(actor: Actor, paymentId: string, page: { limit: number; offset: number }): Promise<{ refunds: Refund[]; total: number }> {
    const s = scope(actor);
    if (!isUuid(paymentId) || !(await payments.findPayment(this.deps.db, s, paymentId.toLowerCase()))) throw paymentNotFound();
    return store.listRefunds(this.deps.db, s, { paymentId: paymentId.toLowerCase(), ...page });
  }

  /**
   * Refunds newest first, of one merchant (the operator may name one, or none for all) and
   * optionally one payment; `stale`: only those pending past REFUND_PENDING_ALERT_MS.
   */
  async list(
    actor: Actor,
    q: { merchantId?: string | null; paymentId?: string | null; status?: RefundStatus | null; stale?: boolean | null; limit: number; offset: number },
  ): Promise<{ refunds: Refund[]; total: number }> {
    if (q.paymentId != null && !isUuid(q.paymentId)) return { refunds: [], total: 0 };
    return store.listRefunds(this.deps.db, scope(actor, q.merchantId), {
      paymentId: q.paymentId?.toLowerCase() ?? null,
      status: q.status ?? null,
      pendingLongerThanMs: q.stale ? this.deps.config.refundPendingAlertMs : null,
      limit: q.limit,
      offset: q.offset,
    });
  }

  /**
   * A keyset page of a merchant's every refund (the operator's: every merchant's, or the one it
   * names), newest first unless `inverted`, optionally in one status, with how many match.
   */
  page(
    actor: Actor,
    q: { merchantId?: string | null; status?: RefundStatus | null; after: number | null; before: number | null; limit: number; inverted: boolean },
  ): Promise<{ page: { node: Refund; seq: number }[]; total: number }> {
    return store.pageRefunds(this.deps.db, scope(actor, q.merchantId), q);
  }

  /** Each payment's refunds, newest first, in key order (a DataLoader batch). */
  ofPayments(actor: Actor, paymentIds: readonly string[]): Promise<Refund[][]> {
    return store.refundsOfPayments(this.deps.db, scope(actor), paymentIds);
  }

  /** The operator decides a pending refund (`zarpay refund settle`, tst/dev only), as its provider would. Audited. */
  async settle(actor: Actor, id: string, outcome: RefundOutcome['status']): Promise<Refund> {
    requireOperator(actor);
    if (this.deps.config.serviceEnv === 'prd') throw new AppError('FORBIDDEN', 'settling refunds by hand is for tst/dev only');
    const refund = await this.get(actor, id);
    const answer: RefundOutcome = outcome === 'succeeded' ? { status: 'succeeded' } : { status: 'failed', reason: 'settled by operator' };
    if ((await this.apply(refund.id, answer, actor)) === 'unchanged') throw new AppError('INVALID_STATUS_TRANSITION', `refund is already ${refund.status}`);
    return this.get(actor, refund.id);
  }

  /**
   * The operator records how a refund went after checking with its provider (`zarpay refund
   * resolve`, every environment): for a refund still pending past REFUND_PENDING_ALERT_MS, whose
   * provider never said (Yoco documents no way to ask). Applied as the provider's word would be,
   * and audited with the operator's note, which stays in the audit log: the merchant's
   * `failure_reason` says only that the operator resolved it. Earlier, the provider's own answer
   * may still be on its way: INVALID_STATUS_TRANSITION, as for a refund that has ended.
   */
  async resolve(actor: Actor, id: string, outcome: RefundOutcome['status'], note: string): Promise<Refund> {
    requireOperator(actor);
    const refund = await this.get(actor, id);
    if (refund.status !== 'pending') throw new AppError('INVALID_STATUS_TRANSITION', `refund is already ${refund.status}`);
    const waitedMs = Date.now() - refund.createdAt.getTime();
    const alertMs = this.deps.config.refundPendingAlertMs;
    if (waitedMs < alertMs) {
      throw new AppError(
        'INVALID_STATUS_TRANSITION',
        `refund has been pending for ${Math.floor(waitedMs / 60_000)} minutes; its provider's outcome may still come, so it can be resolved by hand only once it has been pending for ${Math.ceil(alertMs / 60_000)} minutes (REFUND_PENDING_ALERT_MS)`,
      );
    }
    const answer: RefundOutcome = outcome === 'succeeded' ? { status: 'succeeded' } : { status: 'failed', reason: 'resolved by the operator after checking with the provider' };
    if ((await this.apply(refund.id, answer, actor, { note })) === 'unchanged') {
      throw new AppError('INVALID_STATUS_TRANSITION', `refund is already ${(await this.get(actor, refund.id)).status}`);
    }
    return this.get(actor, refund.id);
  }

  /**
   * The one way a refund ends: under its payment's lock, only from `pending`, with the ledger's
   * posting, the merchant's event and the audit entry in the same transaction. A later outcome
   * that contradicts the one applied changes nothing and is audited for an operator to look at.
   */
  async apply(refundId: string, outcome: RefundOutcome, who: Actor, detail: Record<string, unknown> = {}): Promise<RefundSettled> {
    const s = paymentScope(who);
    const found = await store.findRefund(this.deps.db, s, refundId);
    if (!found) throw new Error(`refund ${refundId} does not exist, or is not ${actorLabel(who)}'s to settle`);
    return withEvents(this.deps, async (tx) => {
      await payments.lockPayment(tx, s, found.paymentId);
      const refund = (await store.lockRefund(tx, s, refundId))!;
      const audit = (action: string, extra: Record<string, unknown>) =>
        recordAudit(tx, {
          actor: actorLabel(who),
          action,
          merchantId: refund.merchantId,
          paymentId: refund.paymentId,
          detail: { refund_id: refund.id, amount_cents: refund.amountCents, provider: refund.provider, provider_refund_ref: refund.providerRefundRef, ...detail, ...extra },
        });
      if (refund.status !== 'pending' || !(await store.finishRefund(tx, refund.id, outcome.status, outcome.status === 'failed' ? outcome.reason : null))) {
        if (refund.status !== outcome.status) await audit('refund.outcome_ignored', { was: refund.status, provider_said: outcome.status });
        return 'unchanged';
      }
      await ledger.post(tx, {
        merchantId: refund.merchantId,
        kind: outcome.status === 'succeeded' ? 'refund_settle' : 'refund_release',
        paymentId: refund.paymentId,
        refundId: refund.id,
        legs: outcome.status === 'succeeded' ? refundSettleLegs(refund.amountCents) : releaseLegs(refund.amountCents),
      });
      const ended = (await store.findRefund(tx, s, refund.id))!;
      const webhookUrl = await this.webhookUrlOf(tx, s, refund.paymentId);
      await recordEvent(tx, { merchantId: refund.merchantId, type: `refund.${outcome.status}`, paymentId: refund.paymentId, data: refundJson(ended), webhookUrl });
      await audit(`refund.${outcome.status}`, outcome.status === 'failed' ? { why: outcome.reason } : {});
      return outcome.status;
    });
  }

  /** Refund events go where the payment's went: its own webhook URL, else the merchant's (the outbox decides). */
  private async webhookUrlOf(db: DbOrTx, s: PaymentScope, paymentId: string): Promise<string | null> {
    return (await payments.findPayment(db, s, paymentId))?.webhookUrl ?? null;
  }
}
