import * as attempts from '../db/attempts.ts';
import { recordAudit } from '../db/audit.ts';
import type { Actor } from '../domain/actor.ts';
import type { ServiceDeps } from './deps.ts';
import type { PaymentSettlement } from './payment-settlement.ts';
import { type AttemptState, type PaymentProvider, ProviderUnavailableError } from './providers/port.ts';

/** The reconciler acts as zarpay itself, and is audited as such. */
const RECONCILER: Actor = Object.freeze({ kind: 'system', task: 'reconciler' });

/** Attempts (or refunds) one round takes at most; the rest wait for the next round. */
const BATCH = 50;
/** A claim holds an attempt this long: enough for the provider's answer (10 s at most) and the write. */
const LEASE_MS = 60_000;
/** Asked about again at most this far apart, however long an attempt stays pending. */
const MAX_BACKOFF_MS = 60 * 60 * 1000;

/**
 * Nothing stays stuck (issue 14): every attempt that has waited longer than `RECONCILE_AFTER_MS`
 * for its provider's notification is looked up with the provider's status API and finished from
 * the answer (captured, failed, or expired and the payment payable again); a pending answer is
 * asked again later, each time twice as late (at most hourly). Refunds owed for money that
 * arrived after its payment had ended are requested here too.
 *
 * Any number of reconcilers (in each service process, and `zarpay reconciler`) share the work:
 * each claims attempts with FOR UPDATE SKIP LOCKED and a lease in one statement, so one attempt is
 * asked about by one of them at a time, and a reconciler that dies mid-question leaves a lease
 * that runs out.
 */
export class Reconciler {
  private running = false;
  private loopDone: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private onError: (message: string, err?: unknown) => void = () => {};

  constructor(
    private readonly deps: ServiceDeps,
    private readonly providers: ReadonlyMap<string, PaymentProvider>,
    private readonly settlement: PaymentSettlement,
  ) {}

  /** How often a reconciler looks for work: a quarter of the age limit, between 250 ms and 30 s. */
  get intervalMs() {
    return Math.min(30_000, Math.max(250, Math.floor(this.deps.config.reconcileAfterMs / 4)));
  }

  start(onError?: (message: string, err?: unknown) => void) {
    if (this.running) return;
    if (onError) this.onError = onError;
    this.running = true;
    this.loopDone = this.loop();
  }

  async stop() {
    this.running = false;
    this.wakeUp?.();
    await this.loopDone;
  }

  private async loop() {
    while (this.running) {
      try {
        await this.runOnce();
      } catch (e) {
        this.onError('reconciler: a round failed', e);
      }
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.intervalMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }

  /** One round: the attempts due, then the refunds owed. Returns how many of each it handled. */
  async runOnce(): Promise<{ attempts: number; refunds: number }> {
    const due = await attempts.claimAttemptsToReconcile(this.deps.db, { afterMs: this.deps.config.reconcileAfterMs, leaseMs: LEASE_MS, limit: BATCH });
    // One at a time: a provider is not to be flooded, and a round is small.
    for (const attempt of due) await this.reconcile(attempt).catch((e) => this.onError(`reconciler: attempt ${attempt.id}`, e));
    const owed = await attempts.claimRefunds(this.deps.db, { leaseMs: LEASE_MS, limit: BATCH });
    for (const refund of owed) await this.refund(refund).catch((e) => this.onError(`reconciler: refund of attempt ${refund.id}`, e));
    return { attempts: due.length, refunds: owed.length };
  }

  private backoff(checks: number) {
    return Math.min(MAX_BACKOFF_MS, this.deps.config.reconcileAfterMs * 2 ** Math.max(0, checks - 1));
  }

  private async reconcile(attempt: attempts.ClaimedAttempt) {
    const provider = this.providers.get(attempt.provider);
    if (!provider) {
      // A sandbox attempt seen by a prd reconciler, or a provider no longer configured: someone must look.
      this.onError(`reconciler: attempt ${attempt.id} is with the ${attempt.provider} provider, which is not configured here`);
      await attempts.checkAgainIn(this.deps.db, attempt.id, MAX_BACKOFF_MS);
      return;
    }
    let answer: AttemptState;
    if (attempt.provider_ref === null) {
      // Its start never finished (a crash, or a provider that never answered): the customer was
      // only ever sent to pay an attempt whose reference had been recorded, so nothing was paid.
      answer = { status: 'expired' };
    } else {
      try {
        answer = await provider.queryAttempt(attempt.provider_ref);
      } catch (e) {
        if (!(e instanceof ProviderUnavailableError)) this.onError(`reconciler: ${provider.name} refused to say how attempt ${attempt.id} went`, e);
        await attempts.checkAgainIn(this.deps.db, attempt.id, this.backoff(attempt.checks));
        return;
      }
    }
    if (answer.status === 'pending') {
      await attempts.checkAgainIn(this.deps.db, attempt.id, this.backoff(attempt.checks));
      return;
    }
    await this.settlement.apply(attempt.id, answer, RECONCILER);
  }

  private async refund(owed: attempts.OwedRefund) {
    const provider = this.providers.get(owed.provider);
    const failed = async (why: string) => {
      await attempts.recordRefund(this.deps.db, owed.id, { status: 'failed' });
      await recordAudit(this.deps.db, { actor: 'system:reconciler', action: 'payment.refund_failed', paymentId: owed.payment_id, detail: { attempt_id: owed.id, provider: owed.provider, why } });
      this.onError(`reconciler: money for attempt ${owed.id} of payment ${owed.payment_id} must be refunded by hand: ${why}`);
    };
    if (!provider?.refund) return failed(`the ${owed.provider} provider offers no refunds here`);
    try {
      const { refundRef } = await provider.refund(owed.provider_ref!, owed.amount_cents, `refund-${owed.id}`);
      await attempts.recordRefund(this.deps.db, owed.id, { status: 'requested', refundRef });
      await recordAudit(this.deps.db, {
        actor: 'system:reconciler',
        action: 'payment.refund_requested',
        paymentId: owed.payment_id,
        detail: { attempt_id: owed.id, provider: owed.provider, refund_ref: refundRef, amount_cents: owed.amount_cents },
      });
    } catch (e) {
      if (e instanceof ProviderUnavailableError) return attempts.checkAgainIn(this.deps.db, owed.id, this.backoff(owed.checks));
      return failed((e as Error).message);
    }
  }
}
