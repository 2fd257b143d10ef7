import { randomUUID } from 'node:crypto';
import * as attempts from '../db/attempts.ts';
import { recordAudit } from '../db/audit.ts';
import { enqueue } from '../db/jobs.ts';
import * as store from '../db/payments.ts';
import { type Actor, actorLabel, type PaymentScope, paymentScope, requireOperator } from '../domain/actor.ts';
import { AppError, isAppError } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';
import { QUEUE } from '../domain/jobs.ts';
import { isTerminal, OPEN_PAYMENT_STATUSES, type Payment, type PaymentOutcome, paymentNotFound } from '../domain/payment.ts';
import type { AttemptNotification } from '../domain/provider-notification.ts';
import { isPaymentMethod, type PaymentMethod } from '../domain/payment-method.ts';
import { type ServiceDeps, withEvents } from './deps.ts';
import type { PaymentLinks } from './payment-links.ts';
import type { PaymentSettlement } from './payment-settlement.ts';
import type { RefundNotifications } from './refund-notifications.ts';
import { type AttemptState, type PaymentProvider, type ProviderSimulator, ProviderUnavailableError, type StartAttempt } from '../outside/providers/port.ts';

/** What the hosted page needs to show a payment. */
export interface PaymentView {
  payment: Payment;
  merchantName: string;
  redirectDomains: string[];
  /** Where the shopper gets help (merchant setting); null when the merchant gave none. */
  supportContact: string | null;
  /** The provider that takes (or took) the payment: the page names the payment method by it. */
  provider: string;
  /** The ways to pay the page offers (the environment's, limited by the merchant's choice), in order. */
  methods: PaymentMethod[];
  /** The one selected: the method of the payment's last attempt (a retry keeps the choice), else the first. */
  chosenMethod: PaymentMethod;
  /** The provider behind each way to pay offered (the page names the method by it). */
  methodProviders: Record<string, string>;
  voucherCode: string | null;
  /** Where the customer pays the attempt in flight at the provider (a redirecting provider), else null. */
  checkoutUrl: string | null;
}

/** What pressing "pay" gives the customer: the payment, and where to pay it when the provider has a page. */
export interface PayResult {
  payment: Payment;
  redirectUrl: string | null;
}

/** An attempt that never got the provider's reference this long after it started can only be a crashed start. */
const START_GRACE_MS = 60_000;

/**
 * The payment state machine's entry points: `created → initiated → awaiting_webhook → captured |
 * failed`, `→ cancelled`, and back to `created` when an attempt expires. Who acts: the customer
 * holding the hosted page (`pay`, `cancel`, `returned`, `view`), the provider (`notify`), the
 * operator (`settle` in tst/dev, `reconcile` anywhere). Outcomes are applied by PaymentSettlement.
 */
/** What a notification's handler answers the provider's endpoint. */
type NotificationAnswer = { paymentId: string | null; status: string | null };
/** Acknowledged, and nothing of zarpay's changed. */
const NOTHING: NotificationAnswer = { paymentId: null, status: null };

/** The attempt's state a notification reports. */
const answerOf = (n: AttemptNotification): AttemptState =>
  n.outcome === 'succeeded'
    ? { status: 'succeeded', ...(n.paymentRef !== undefined && { paymentRef: n.paymentRef }) }
    : n.outcome === 'expired'
      ? { status: 'expired' }
      : { status: 'failed', reason: n.reason ?? 'declined' };

/** zarpay ending a payment past PAYMENT_EXPIRES_AFTER_MS, as the expiry job does (tasks/payment-expiry.ts). */
const PAYMENT_EXPIRY: Actor = Object.freeze({ kind: 'system', task: 'expiry' });

export class PaymentFlow {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly providers: ReadonlyMap<string, PaymentProvider>,
    /** The provider of each way to pay this environment offers, in the page's order; the first is the default. */
    private readonly methods: ReadonlyMap<PaymentMethod, PaymentProvider>,
    /** Providers that can play their customer's part (tst/dev). */
    private readonly simulators: ReadonlyMap<string, ProviderSimulator>,
    private readonly links: PaymentLinks,
    private readonly settlement: PaymentSettlement,
    /** Where a provider's notification about a refund goes. */
    private readonly refunds?: RefundNotifications,
  ) {}

  /**
   * The customer pressed "pay" (or, in tst/dev, "decline", which a simulating provider takes). Starts an
   * attempt with the provider and answers where the customer pays it. A second press while the
   * attempt is in flight starts nothing and sends the customer to the same place.
   */
  async pay(actor: Actor, id: string, options: { simulate?: 'decline'; method?: unknown } = {}): Promise<PayResult> {
    // A simulated decline is taken by a provider that can play its customer: the primary one, or
    // else any this environment has (tst/dev only; prd has none).
    const simulator = options.simulate ? (this.simulators.get(this.provider.name) ?? this.simulators.values().next().value) : undefined;
    if (options.simulate && (this.deps.config.serviceEnv === 'prd' || !simulator)) throw new AppError('FORBIDDEN', 'simulated declines are sandbox only');
    const { payment, s } = await this.customersPayment(actor, id);
    const provider = simulator ? this.providers.get(simulator.name)! : await this.chosenProvider(s, payment, options.method);
    // Past its time and not yet swept by the minutely job: it ends now, rather than send the
    // customer to pay what would be refunded.
    if (payment.status === 'created' && Date.now() - payment.createdAt.getTime() >= this.deps.config.paymentExpiresAfterMs) {
      await this.settlement.expire(payment.id, PAYMENT_EXPIRY);
      return this.current(s, payment.id);
    }
    const attemptId = randomUUID();
    const started = await this.deps.db.transaction().execute(async (tx) => {
      if (!(await store.movePayment(tx, payment.id, ['created'], 'initiated'))) return false;
      await attempts.startAttempt(tx, { id: attemptId, paymentId: payment.id, provider: provider.name });
      // Should its notification never come, the provider is asked (tasks/reconcile.ts).
      await enqueue(tx, { queue: QUEUE.reconcile, key: attemptId, merchantId: payment.merchantId, payload: { attempt: attemptId }, inMs: this.deps.config.reconcileAfterMs });
      return true;
    });
    if (!started) return this.current(s, payment.id);
    let result: Awaited<ReturnType<PaymentProvider['startAttempt']>>;
    try {
      const attempt: StartAttempt = {
        attemptId,
        paymentId: payment.id,
        amountCents: payment.amountCents,
        currency: payment.currency,
        ...(payment.description !== null && { description: payment.description }),
        returnUrls: this.links.returnUrls(payment.id),
      };
      result = await (simulator ? simulator.startDeclinedAttempt(attempt) : provider.startAttempt(attempt));
    } catch (e) {
      // Whatever the provider made, the customer was never sent to it, so nothing was paid:
      // the attempt ends and the payment is payable again.
      await this.deps.db.transaction().execute(async (tx) => {
        await store.lockPayment(tx, s, payment.id);
        if (await attempts.resolveAttempt(tx, attemptId, 'failed', { reason: `the provider could not start the payment: ${(e as Error).message}` })) {
          await store.movePayment(tx, payment.id, ['initiated'], 'created');
        }
      });
      if (e instanceof ProviderUnavailableError) throw new AppError('SERVICE_UNAVAILABLE', 'The payment provider could not be reached. Please try again in a moment.');
      throw e;
    }
    const recorded = await this.deps.db.transaction().execute(async (tx) => {
      await store.lockPayment(tx, s, payment.id);
      if (!(await attempts.recordStart(tx, attemptId, result.providerRef, result.redirectUrl))) return false;
      await store.movePayment(tx, payment.id, ['initiated'], 'awaiting_webhook');
      return true;
    });
    const now = await this.settlement.load(this.deps.db, s, payment.id);
    return { payment: now, redirectUrl: recorded ? result.redirectUrl : null };
  }

  /**
   * The customer pressed "cancel". Before paying, the payment is cancelled at once. With an
   * attempt in flight at a provider with its own checkout page, the provider is asked first: if
   * the customer has in fact paid, the payment is captured instead; otherwise the attempt and the
   * payment are cancelled (money that still arrives for that attempt later is given back:
   * PaymentSettlement, `refund_owed`).
   */
  async cancel(actor: Actor, id: string): Promise<Payment> {
    const { payment, s } = await this.customersPayment(actor, id);
    const inFlight = await attempts.pendingAttempt(this.deps.db, s, payment.id);
    // Once paying has started, only a customer who can see the provider's page (and so knows
    // they did not pay there) may cancel: with the sandbox, or mid-start, the provider decides.
    if (payment.status !== 'created' && !inFlight?.redirect_url) {
      throw new AppError('INVALID_STATUS_TRANSITION', `cannot cancel a payment that is ${payment.status}`);
    }
    if (inFlight?.provider_ref) {
      const answer = await this.ask(inFlight);
      if (answer.status === 'succeeded') {
        await this.settlement.apply(inFlight.id, answer, actor);
        throw new AppError('INVALID_STATUS_TRANSITION', 'the payment has already been paid');
      }
    }
    return withEvents(this.deps, async (tx) => {
      const locked = await store.lockPayment(tx, s, payment.id);
      if (!locked || isTerminal(locked.status)) throw new AppError('INVALID_STATUS_TRANSITION', `cannot cancel a payment that is ${locked?.status}`);
      await attempts.resolvePendingAttempts(tx, payment.id, 'cancelled', 'cancelled by the customer');
      const done = await this.settlement.finish(tx, s, payment.id, OPEN_PAYMENT_STATUSES, 'cancelled');
      if (!done) throw new AppError('INVALID_STATUS_TRANSITION', 'the payment has already ended');
      return done;
    });
  }

  /**
   * The customer came back from the provider's page. Their return says nothing trustworthy by
   * itself (anyone can open the address), so the provider is asked, and its answer applied.
   */
  async returned(actor: Actor, id: string): Promise<Payment> {
    const { payment, s } = await this.customersPayment(actor, id);
    const inFlight = await attempts.pendingAttempt(this.deps.db, s, payment.id);
    if (inFlight?.provider_ref) {
      try {
        await this.settlement.apply(inFlight.id, await this.ask(inFlight), actor);
      } catch (e) {
        // The provider is slow or down: the page keeps showing "processing", and the
        // notification or the reconciler finishes the payment.
        if (!isAppError(e) || e.code !== 'SERVICE_UNAVAILABLE') throw e;
      }
    }
    return this.settlement.load(this.deps.db, s, payment.id);
  }

  /**
   * A provider's notification, applied. The provider actor exists only once its signature over
   * the notification checked out (src/http/caller.ts), and carries what it signed: nothing here
   * reads raw bytes. Events that are not about an outcome, and attempts that are not zarpay's (a
   * provider account may serve other shops too), are acknowledged and ignored; repeats and late
   * arrivals change nothing.
   */
  async notify(actor: Actor): Promise<NotificationAnswer> {
    const provider = this.providerOf(actor);
    const { notification } = provider;
    if (!notification) return NOTHING;
    if (notification.about === 'refund') return this.refunds ? this.refunds.notified(provider, notification) : NOTHING;
    const s = paymentScope(provider);
    const attempt = await attempts.findAttemptByRef(this.deps.db, s, provider.provider, notification.providerRef);
    if (!attempt) return NOTHING;
    if (!(await this.reportedMismatch(s, attempt.id, attempt.payment_id, notification, provider))) {
      await this.settlement.apply(attempt.id, answerOf(notification), provider);
    }
    const payment = await this.settlement.load(this.deps.db, s, attempt.payment_id);
    return { paymentId: payment.id, status: payment.status };
  }

  /** The provider new attempts go to when the customer chose nothing: the first way to pay. */
  private get provider(): PaymentProvider {
    return this.methods.values().next().value!;
  }

  /** The ways to pay this payment's page offers: the environment's, within the merchant's choice (an empty choice offers all). */
  private async offered(s: PaymentScope, payment: Payment): Promise<PaymentMethod[]> {
    const all = [...this.methods.keys()];
    const allowed = (await store.pageExtras(this.deps.db, s, payment.id))?.paymentMethods;
    const mine = allowed ? all.filter((m) => allowed.includes(m)) : all;
    // A merchant's choice that the environment cannot honour at all falls back to what it has.
    return mine.length > 0 ? mine : all;
  }

  /** The provider of the way to pay the customer chose; one the page does not offer is refused. */
  private async chosenProvider(s: PaymentScope, payment: Payment, method: unknown): Promise<PaymentProvider> {
    const offered = await this.offered(s, payment);
    if (method === undefined || method === null || method === '') return this.methods.get(offered[0]!)!;
    if (!isPaymentMethod(method) || !offered.includes(method)) throw new AppError('VALIDATION_FAILED', 'this way to pay is not offered for this payment');
    return this.methods.get(method)!;
  }

  /** The provider whose signed notification this is (its `notification` null: a verified event of no use to zarpay). */
  private providerOf(actor: Actor): Extract<Actor, { kind: 'provider' }> {
    if (actor.kind !== 'provider') throw new AppError('FORBIDDEN', 'only a payment provider sends notifications');
    if (!this.providers.has(actor.provider)) throw new AppError('NOT_FOUND', 'unknown payment provider');
    return actor;
  }

  /**
   * CONTRACT §10: a "paid" notification must be for the attempt's amount and currency. One that
   * is not captures nothing: the money goes back and the operator is told (`settlement.mismatch`).
   * Whether it was such a one.
   */
  private async reportedMismatch(s: PaymentScope, attemptId: string, paymentId: string, n: AttemptNotification, actor: Actor): Promise<boolean> {
    if (n.outcome !== 'succeeded') return false;
    const payment = await this.settlement.load(this.deps.db, s, paymentId);
    const amountDiffers = n.amountCents !== undefined && n.amountCents !== payment.amountCents;
    const currencyDiffers = n.currency !== undefined && n.currency !== payment.currency;
    if (!amountDiffers && !currencyDiffers) return false;
    await this.settlement.mismatch(attemptId, { amountCents: n.amountCents, currency: n.currency, paymentRef: n.paymentRef }, { amountCents: payment.amountCents, currency: payment.currency }, actor);
    return true;
  }

  /**
   * The operator (`zarpay payment settle`, tst/dev only) ends an open payment as if the provider
   * (or the customer, for `cancelled`) had. A pending attempt is resolved with it. Audited.
   */
  async settle(actor: Actor, id: string, to: PaymentOutcome): Promise<Payment> {
    requireOperator(actor);
    if (this.deps.config.serviceEnv === 'prd') throw new AppError('FORBIDDEN', 'settling payments by hand is for tst/dev only');
    if (!isUuid(id)) throw paymentNotFound();
    const s = paymentScope(actor);
    return withEvents(this.deps, async (tx) => {
      const current = await store.lockPayment(tx, s, id.toLowerCase());
      if (!current) throw paymentNotFound();
      if (isTerminal(current.status)) throw new AppError('INVALID_STATUS_TRANSITION', `payment is already ${current.status}`);
      const attemptStatus = to === 'captured' ? 'succeeded' : to;
      const hadPending = await attempts.resolvePendingAttempts(tx, current.id, attemptStatus, to === 'failed' ? 'settled by operator' : undefined);
      if (!hadPending && to !== 'cancelled') {
        await attempts.recordSettledAttempt(tx, { id: randomUUID(), paymentId: current.id, provider: 'operator', providerRef: `settle_${randomUUID()}`, status: attemptStatus });
      }
      const done = await this.settlement.finish(tx, s, current.id, OPEN_PAYMENT_STATUSES, to);
      if (!done) throw new AppError('INVALID_STATUS_TRANSITION', 'payment is already settled');
      await recordAudit(tx, { actor: actorLabel(actor), action: 'payment.settle', merchantId: current.merchantId, paymentId: current.id, detail: { outcome: to, was: current.status } });
      return done;
    });
  }

  /**
   * The operator asks the provider about one payment now (`zarpay payment reconcile`, any
   * environment) and applies the answer, as the reconciler would after RECONCILE_AFTER_MS. The
   * question and the answer are audited, whatever the answer.
   */
  async reconcile(actor: Actor, id: string): Promise<Payment> {
    requireOperator(actor);
    if (!isUuid(id)) throw paymentNotFound();
    const s = paymentScope(actor);
    const payment = await this.settlement.load(this.deps.db, s, id.toLowerCase());
    const inFlight = await attempts.pendingAttempt(this.deps.db, s, payment.id);
    let said = 'no attempt in flight';
    let settled = 'unchanged';
    try {
      if (inFlight) {
        said = 'no answer';
        const answer: AttemptState = inFlight.provider_ref
          ? await this.ask(inFlight)
          : Date.now() - inFlight.created_at.getTime() > START_GRACE_MS
            ? { status: 'expired' } // its start never finished: the customer was never sent to pay it
            : { status: 'pending' };
        said = answer.status;
        ({ settled } = await this.settlement.apply(inFlight.id, answer, actor));
      }
    } finally {
      // Recorded whatever happened, a provider that could not answer included.
      await recordAudit(this.deps.db, {
        actor: actorLabel(actor),
        action: 'payment.reconcile',
        merchantId: payment.merchantId,
        paymentId: payment.id,
        detail: { status_before: payment.status, provider: inFlight?.provider ?? null, provider_said: said, result: settled },
      });
    }
    return this.settlement.load(this.deps.db, s, payment.id);
  }

  /** Everything the hosted page shows; PAYMENT_NOT_FOUND for an unknown or malformed id. */
  async view(actor: Actor, id: string): Promise<PaymentView> {
    const { payment, s } = await this.customersPayment(actor, id);
    const [extras, inFlight, methods] = await Promise.all([
      store.pageExtras(this.deps.db, s, payment.id),
      payment.status === 'initiated' || payment.status === 'awaiting_webhook' ? attempts.pendingAttempt(this.deps.db, s, payment.id) : undefined,
      this.offered(s, payment),
    ]);
    if (!extras) throw paymentNotFound();
    const last = [...this.methods].find(([, p]) => p.name === payment.latestAttempt?.provider)?.[0];
    const chosenMethod = last && methods.includes(last) ? last : methods[0]!;
    return {
      payment,
      merchantName: extras.merchantName,
      redirectDomains: extras.redirectDomains,
      supportContact: extras.supportContact,
      methods,
      chosenMethod,
      methodProviders: Object.fromEntries(methods.map((m) => [m, this.methods.get(m)!.name])),
      provider: payment.latestAttempt?.provider ?? this.methods.get(chosenMethod)!.name,
      voucherCode: payment.status === 'captured' ? payment.voucherCode : null,
      checkoutUrl: inFlight?.redirect_url ?? null,
    };
  }

  /** The attempt's state at its provider; SERVICE_UNAVAILABLE when the provider cannot say now. */
  private async ask(attempt: attempts.Attempt): Promise<AttemptState> {
    const provider = this.providers.get(attempt.provider);
    if (!provider) throw new AppError('SERVICE_UNAVAILABLE', `this attempt is with the ${attempt.provider} provider, which this environment does not run`);
    return provider.queryAttempt(attempt.provider_ref!);
  }

  private async current(s: PaymentScope, id: string): Promise<PayResult> {
    const [payment, inFlight] = await Promise.all([this.settlement.load(this.deps.db, s, id), attempts.pendingAttempt(this.deps.db, s, id)]);
    return { payment, redirectUrl: inFlight?.redirect_url ?? null };
  }

  /**
   * The payment a customer's hosted page is for, and the customer's scope: its id is the
   * capability, and nothing else is in reach.
   */
  private async customersPayment(actor: Actor, id: string): Promise<{ payment: Payment; s: PaymentScope }> {
    if (actor.kind !== 'customer' || !isUuid(id)) throw paymentNotFound();
    const s = paymentScope(actor);
    return { payment: await this.settlement.load(this.deps.db, s, id.toLowerCase()), s };
  }
}
