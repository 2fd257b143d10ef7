import { randomInt, randomUUID } from 'node:crypto';
import * as ledger from '../db/ledger.ts';
import { recordEvent } from '../db/outbox.ts';
import * as store from '../db/payments.ts';
import type { DbOrTx, Tx } from '../db/index.ts';
import { type Actor, requireOperator } from '../domain/actor.ts';
import { AppError } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';
import { captureLegs } from '../domain/ledger.ts';
import { isTerminal, OPEN_PAYMENT_STATUSES, type Payment, type PaymentOutcome, paymentNotFound } from '../domain/payment.ts';
import { paymentEventData } from '../domain/payment-json.ts';
import { type ServiceDeps, withEvents } from './deps.ts';
import type { CallbackHeaders, PaymentProvider } from './providers/provider.ts';

/** What the hosted page needs to show a payment. */
export interface PaymentView {
  payment: Payment;
  merchantName: string;
  redirectDomains: string[];
  /** Where the shopper gets help (merchant setting); null when the merchant gave none. */
  supportContact: string | null;
  /** The provider that takes (or took) the payment: the page names the payment method by it. */
  provider: string;
  voucherCode: string | null;
}

/**
 * The payment state machine: `created → initiated → awaiting_webhook → captured | failed`, or
 * `→ cancelled`. Every terminal move is one conditional UPDATE (`… where status in (open
 * states)`), so two confirmations racing each other cannot both win; the table's trigger refuses
 * any change to a terminal payment on top of that. The winner credits the ledger (auto top-up),
 * issues the voucher and writes the event in the same transaction.
 *
 * Who acts: the customer holding the hosted page (`pay`, `cancel`, `view`), the provider
 * (`confirm`), the operator (`settle`).
 */
export class PaymentFlow {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly providers: ReadonlyMap<string, PaymentProvider>,
    /** The provider new attempts go to. */
    private readonly provider: PaymentProvider,
  ) {}

  /** The customer pressed "pay" (or, in tst/dev, "decline"). A second press changes nothing. */
  async pay(actor: Actor, id: string, options: { simulate?: 'decline' } = {}): Promise<Payment> {
    if (options.simulate && this.deps.config.serviceEnv === 'prd') throw new AppError('FORBIDDEN', 'simulated declines are sandbox only');
    const payment = await this.customersPayment(actor, id);
    const attemptId = randomUUID();
    const started = await this.deps.db.transaction().execute(async (tx) => {
      if (!(await store.movePayment(tx, payment.id, ['created'], 'initiated'))) return false;
      await store.startAttempt(tx, { id: attemptId, paymentId: payment.id, provider: this.provider.name });
      return true;
    });
    if (!started) return this.load(this.deps.db, payment.id);
    let providerRef: string;
    try {
      ({ providerRef } = await this.provider.start({
        attemptId,
        paymentId: payment.id,
        amountCents: payment.amountCents,
        currency: payment.currency,
        ...(options.simulate && { simulate: options.simulate }),
      }));
    } catch (e) {
      // The provider refused to start: the customer was not charged.
      await this.resolveAttempt(attemptId, { outcome: 'failed', reason: `provider error: ${(e as Error).message}` });
      return this.load(this.deps.db, payment.id);
    }
    await this.deps.db.transaction().execute(async (tx) => {
      await store.setAttemptRef(tx, attemptId, providerRef);
      // The confirmation may already have arrived and finished the payment: then nothing moves.
      await store.movePayment(tx, payment.id, ['initiated'], 'awaiting_webhook');
    });
    return this.load(this.deps.db, payment.id);
  }

  /** The customer pressed "cancel": only before paying; afterwards the provider decides. */
  async cancel(actor: Actor, id: string): Promise<Payment> {
    const payment = await this.customersPayment(actor, id);
    return withEvents(this.deps, async (tx) => {
      const done = await this.finish(tx, payment.id, ['created'], 'cancelled');
      if (!done) {
        const current = await this.load(tx, payment.id);
        throw new AppError('INVALID_STATUS_TRANSITION', `cannot cancel a payment that is ${current.status}`);
      }
      return done;
    });
  }

  /**
   * A provider's callback: authenticated by the provider, then applied. A confirmation for an
   * attempt or payment that is already settled is a harmless no-op (providers redeliver).
   */
  async confirm(actor: Actor, rawBody: Buffer, headers: CallbackHeaders): Promise<Payment> {
    if (actor.kind !== 'provider') throw new AppError('FORBIDDEN', 'only a payment provider confirms payments');
    const provider = this.providers.get(actor.provider);
    if (!provider) throw new AppError('NOT_FOUND', 'unknown provider');
    const confirmation = provider.verifyCallback(rawBody, headers);
    const attempt = await store.findAttempt(this.deps.db, confirmation.attemptId);
    if (!attempt || attempt.provider !== provider.name) throw new AppError('NOT_FOUND', 'unknown payment attempt');
    await this.resolveAttempt(confirmation.attemptId, confirmation);
    return this.load(this.deps.db, attempt.payment_id);
  }

  private async resolveAttempt(attemptId: string, result: { outcome: 'succeeded' | 'failed'; providerRef?: string; reason?: string }) {
    await withEvents(this.deps, async (tx) => {
      const attempt = await store.findAttempt(tx, attemptId);
      if (!attempt) throw new Error(`attempt ${attemptId} vanished`);
      // Lock order everywhere: payment, then its attempts, then the balance.
      await store.lockPayment(tx, attempt.payment_id);
      const resolved = await store.resolveAttempt(tx, attemptId, result.outcome, {
        ...(result.reason !== undefined && { reason: result.reason }),
        ...(result.providerRef !== undefined && { providerRef: result.providerRef }),
      });
      if (!resolved) return;
      await this.finish(tx, attempt.payment_id, OPEN_PAYMENT_STATUSES, result.outcome === 'succeeded' ? 'captured' : 'failed');
    });
  }

  /**
   * The operator (`zarpay payment settle`, tst/dev only) ends an open payment as if the provider
   * (or the customer, for `cancelled`) had. A pending attempt is resolved with it.
   */
  async settle(actor: Actor, id: string, to: PaymentOutcome): Promise<Payment> {
    requireOperator(actor);
    if (this.deps.config.serviceEnv === 'prd') throw new AppError('FORBIDDEN', 'settling payments by hand is for tst/dev only');
    if (!isUuid(id)) throw paymentNotFound();
    return withEvents(this.deps, async (tx) => {
      const current = await store.lockPayment(tx, id.toLowerCase());
      if (!current) throw paymentNotFound();
      if (isTerminal(current.status)) throw new AppError('INVALID_STATUS_TRANSITION', `payment is already ${current.status}`);
      const attemptStatus = to === 'captured' ? 'succeeded' : to;
      const hadPending = await store.resolvePendingAttempts(tx, current.id, attemptStatus, to === 'failed' ? 'settled by operator' : undefined);
      if (!hadPending && to !== 'cancelled') {
        await store.recordSettledAttempt(tx, { id: randomUUID(), paymentId: current.id, provider: 'operator', providerRef: `settle_${randomUUID()}`, status: attemptStatus });
      }
      const done = await this.finish(tx, current.id, OPEN_PAYMENT_STATUSES, to);
      if (!done) throw new AppError('INVALID_STATUS_TRANSITION', 'payment is already settled');
      return done;
    });
  }

  /** The one way into a terminal state; null when the payment was not in `from` any more. */
  private async finish(tx: Tx, id: string, from: readonly (typeof OPEN_PAYMENT_STATUSES)[number][], to: PaymentOutcome): Promise<Payment | null> {
    const row = await store.finishPayment(tx, id, from, to);
    if (!row) return null;
    if (to === 'cancelled') await store.resolvePendingAttempts(tx, id, 'cancelled');
    if (to === 'captured') {
      // purchase_and_redeem: the voucher is redeemed at once, on the customer's behalf.
      await store.issueVoucher(tx, id, voucherCode(), row.intent_type === 'purchase_and_redeem');
      if (row.auto_topup) {
        await ledger.post(tx, { merchantId: row.merchant_id, kind: 'payment_capture', paymentId: id, legs: captureLegs(row.amount_cents, row.fee_cents) });
      }
    }
    const payment = await this.load(tx, id);
    await recordEvent(tx, { merchantId: row.merchant_id, type: `payment.${to}`, paymentId: id, data: paymentEventData(payment), webhookUrl: row.webhook_url });
    return payment;
  }

  /** Everything the hosted page shows; PAYMENT_NOT_FOUND for an unknown or malformed id. */
  async view(actor: Actor, id: string): Promise<PaymentView> {
    const payment = await this.customersPayment(actor, id);
    const extras = await store.pageExtras(this.deps.db, payment.id, payment.merchantId);
    return {
      payment,
      ...extras,
      provider: payment.latestAttempt?.provider ?? this.provider.name,
      voucherCode: payment.status === 'captured' ? extras.voucherCode : null,
    };
  }

  /** The payment a customer's hosted page is for: its id is the capability, and nothing else is in reach. */
  private async customersPayment(actor: Actor, id: string): Promise<Payment> {
    if (actor.kind !== 'customer' || actor.paymentId.toLowerCase() !== id.toLowerCase() || !isUuid(id)) throw paymentNotFound();
    return this.load(this.deps.db, id.toLowerCase());
  }

  private async load(db: DbOrTx, id: string): Promise<Payment> {
    const payment = await store.findPayment(db, { all: true }, id);
    if (!payment) throw paymentNotFound();
    return payment;
  }
}

/** 16 random digits in groups of four: easy to read out or type in at a till. */
function voucherCode(): string {
  const digits = Array.from({ length: 16 }, () => randomInt(10)).join('');
  return digits.match(/.{4}/g)!.join('-');
}
