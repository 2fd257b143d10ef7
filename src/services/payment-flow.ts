import { randomInt, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Tx } from '../db/index.ts';
import { AppError } from '../domain/errors.ts';
import {
  OPEN_PAYMENT_STATUSES,
  type Payment,
  type PaymentOutcome,
  type PaymentStatus,
  isTerminal,
  paymentEventData,
  paymentNotFound,
} from '../domain/payment.ts';
import { settleOutcomeSchema } from '../domain/payment-input.ts';
import { parseInput } from '../domain/validation.ts';
import type { ServiceDeps } from './deps.ts';
import * as ledger from './ledger.ts';
import { isUuid } from './merchants.ts';
import { recordEvent, transactionWithEvents } from './outbox.ts';
import type { PaymentService } from './payments.ts';
import type { CallbackHeaders, PaymentProvider } from './providers/provider.ts';

/** What the hosted page needs to show a payment. */
export interface PaymentView {
  payment: Payment;
  merchantName: string;
  redirectDomains: string[];
  voucherCode: string | null;
}

/**
 * The payment state machine: `created → initiated → awaiting_webhook → captured | failed`, or
 * `→ cancelled`. Every terminal move is one conditional UPDATE (`… where status in (open
 * states)`), so two confirmations racing each other cannot both win; the table's trigger refuses
 * any change to a terminal payment on top of that. The winner credits the ledger (auto top-up),
 * issues the voucher and writes the event in the same transaction.
 */
export class PaymentFlow {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly payments: PaymentService,
    private readonly provider: PaymentProvider,
  ) {}

  /** The customer pressed "pay" (or, in tst/dev, "decline"). A second press changes nothing. */
  async pay(id: string, options: { simulate?: 'decline' } = {}): Promise<Payment> {
    if (options.simulate && this.deps.config.serviceEnv === 'prd') throw new AppError('FORBIDDEN', 'simulated declines are sandbox only');
    const payment = await this.payments.get(id);
    const attemptId = randomUUID();
    const started = await this.deps.db.transaction().execute(async (tx) => {
      const moved = await this.move(tx, payment.id, ['created'], 'initiated');
      if (!moved) return false;
      await tx
        .insertInto('payment_attempts')
        .values({ id: attemptId, payment_id: payment.id, provider: this.provider.name, provider_ref: null, status: 'pending' })
        .execute();
      return true;
    });
    if (!started) return this.payments.get(payment.id);
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
      return this.payments.get(payment.id);
    }
    await this.deps.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('payment_attempts')
        .set({ provider_ref: providerRef, updated_at: sql`now()` })
        .where('id', '=', attemptId)
        .where('provider_ref', 'is', null)
        .execute();
      // The confirmation may already have arrived and finished the payment: then nothing moves.
      await this.move(tx, payment.id, ['initiated'], 'awaiting_webhook');
    });
    return this.payments.get(payment.id);
  }

  /** The customer pressed "cancel": only before paying; afterwards the provider decides. */
  async cancel(id: string): Promise<Payment> {
    const payment = await this.payments.get(id);
    return transactionWithEvents(this.deps, async (tx) => {
      const done = await this.finish(tx, payment.id, ['created'], 'cancelled');
      if (!done) {
        const current = await this.payments.load(tx, payment.id);
        throw new AppError('INVALID_STATUS_TRANSITION', `cannot cancel a payment that is ${current.status}`);
      }
      return done;
    });
  }

  /**
   * A provider's callback: authenticated by the provider, then applied. A confirmation for an
   * attempt or payment that is already settled is a harmless no-op (providers redeliver).
   */
  async confirm(providerName: string, rawBody: Buffer, headers: CallbackHeaders): Promise<Payment> {
    const provider = this.payments.providers.get(providerName);
    if (!provider) throw new AppError('NOT_FOUND', 'unknown provider');
    const confirmation = provider.verifyCallback(rawBody, headers);
    const attempt = await this.deps.db
      .selectFrom('payment_attempts')
      .select(['payment_id', 'provider'])
      .where('id', '=', confirmation.attemptId)
      .executeTakeFirst();
    if (!attempt || attempt.provider !== providerName) throw new AppError('NOT_FOUND', 'unknown payment attempt');
    await this.resolveAttempt(confirmation.attemptId, confirmation);
    return this.payments.get(attempt.payment_id);
  }

  private async resolveAttempt(attemptId: string, result: { outcome: 'succeeded' | 'failed'; providerRef?: string; reason?: string }) {
    await transactionWithEvents(this.deps, async (tx) => {
      const attempt = await tx.selectFrom('payment_attempts').select(['payment_id']).where('id', '=', attemptId).executeTakeFirstOrThrow();
      // Lock order everywhere: payment, then its attempts, then the balance.
      await tx.selectFrom('payments').select('id').where('id', '=', attempt.payment_id).forUpdate().executeTakeFirst();
      const updated = await tx
        .updateTable('payment_attempts')
        .set({
          status: result.outcome,
          updated_at: sql`now()`,
          ...(result.reason !== undefined && { failure_reason: result.reason }),
          ...(result.providerRef !== undefined && { provider_ref: sql`coalesce(provider_ref, ${result.providerRef})` }),
        })
        .where('id', '=', attemptId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return;
      await this.finish(tx, attempt.payment_id, OPEN_PAYMENT_STATUSES, result.outcome === 'succeeded' ? 'captured' : 'failed');
    });
  }

  /**
   * Operator (`zarpay payment settle`, tst/dev only): ends an open payment as if the provider
   * (or the customer, for `cancelled`) had. A pending attempt is resolved with it.
   */
  async settle(id: string, outcome: unknown): Promise<Payment> {
    if (this.deps.config.serviceEnv === 'prd') throw new AppError('FORBIDDEN', 'settling payments by hand is for tst/dev only');
    const to: PaymentOutcome = parseInput(settleOutcomeSchema, outcome);
    if (!isUuid(id)) throw paymentNotFound();
    return transactionWithEvents(this.deps, async (tx) => {
      const current = await tx.selectFrom('payments').select(['id', 'status']).where('id', '=', id.toLowerCase()).forUpdate().executeTakeFirst();
      if (!current) throw paymentNotFound();
      if (isTerminal(current.status as PaymentStatus)) {
        throw new AppError('INVALID_STATUS_TRANSITION', `payment is already ${current.status}`);
      }
      const attemptStatus = to === 'captured' ? 'succeeded' : to;
      const pending = await tx
        .updateTable('payment_attempts')
        .set({ status: attemptStatus, updated_at: sql`now()`, ...(to === 'failed' && { failure_reason: 'settled by operator' }) })
        .where('payment_id', '=', current.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(pending.numUpdatedRows) === 0 && to !== 'cancelled') {
        await tx
          .insertInto('payment_attempts')
          .values({ id: randomUUID(), payment_id: current.id, provider: 'operator', provider_ref: `settle_${randomUUID()}`, status: attemptStatus })
          .execute();
      }
      const done = await this.finish(tx, current.id, OPEN_PAYMENT_STATUSES, to);
      if (!done) throw new AppError('INVALID_STATUS_TRANSITION', 'payment is already settled');
      return done;
    });
  }

  /** Moves a non-terminal payment between open states; false when it was not in `from`. */
  private async move(tx: Tx, id: string, from: readonly PaymentStatus[], to: PaymentStatus): Promise<boolean> {
    const r = await tx
      .updateTable('payments')
      .set({ status: to, updated_at: sql`now()` })
      .where('id', '=', id)
      .where('status', 'in', from)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** The one way into a terminal state; null when the payment was not in `from` any more. */
  private async finish(tx: Tx, id: string, from: readonly PaymentStatus[], to: PaymentOutcome): Promise<Payment | null> {
    const row = await tx
      .updateTable('payments')
      .set({ status: to, updated_at: sql`now()`, completed_at: sql`now()` })
      .where('id', '=', id)
      .where('status', 'in', from)
      .returning(['id', 'merchant_id', 'intent_type', 'amount_cents', 'fee_cents', 'net_amount_cents', 'webhook_url'])
      .executeTakeFirst();
    if (!row) return null;
    if (to === 'cancelled') {
      await tx.updateTable('payment_attempts').set({ status: 'cancelled', updated_at: sql`now()` }).where('payment_id', '=', id).where('status', '=', 'pending').execute();
    }
    if (to === 'captured') {
      // purchase_and_redeem: the voucher is redeemed at once, on the customer's behalf.
      await tx
        .insertInto('vouchers')
        .values({ payment_id: id, code: voucherCode(), redeemed_at: row.intent_type === 'purchase_and_redeem' ? sql`now()` : null })
        .execute();
      const merchant = await tx.selectFrom('merchants').select('auto_topup').where('id', '=', row.merchant_id).executeTakeFirstOrThrow();
      if (merchant.auto_topup) {
        const legs: ledger.Leg[] = [
          { account: 'funding', amountCents: -row.amount_cents },
          { account: 'merchant_available', amountCents: row.net_amount_cents },
          { account: 'fees', amountCents: row.fee_cents },
        ];
        await ledger.post(tx, {
          merchantId: row.merchant_id,
          kind: 'payment_capture',
          paymentId: id,
          legs: legs.filter((l) => l.amountCents !== 0),
        });
      }
    }
    const payment = await this.payments.load(tx, id);
    await recordEvent(tx, { merchantId: row.merchant_id, type: `payment.${to}`, paymentId: id, data: paymentEventData(payment), webhookUrl: row.webhook_url });
    return payment;
  }

  /** Everything the hosted page shows; PAYMENT_NOT_FOUND for an unknown or malformed id. */
  async view(id: string): Promise<PaymentView> {
    const payment = await this.payments.get(id);
    const merchant = await this.deps.db.selectFrom('merchants').select(['name', 'redirect_domains']).where('id', '=', payment.merchantId).executeTakeFirstOrThrow();
    const voucher = payment.status === 'captured'
      ? await this.deps.db.selectFrom('vouchers').select('code').where('payment_id', '=', payment.id).executeTakeFirst()
      : undefined;
    return { payment, merchantName: merchant.name, redirectDomains: merchant.redirect_domains, voucherCode: voucher?.code ?? null };
  }
}

/** 16 random digits in groups of four: easy to read out or type in at a till. */
function voucherCode(): string {
  const digits = Array.from({ length: 16 }, () => randomInt(10)).join('');
  return digits.match(/.{4}/g)!.join('-');
}
