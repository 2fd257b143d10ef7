import * as attempts from '../db/attempts.ts';
import { openPaymentsOlderThan } from '../db/payments.ts';
import { type Actor, paymentScope, scope } from '../domain/actor.ts';
import { QUEUE } from '../domain/jobs.ts';
import { eachItem, type Passing, passedOver } from '../jobs/batch.ts';
import { later, type Task } from '../jobs/task.ts';
import type { ServiceDeps } from '../services/deps.ts';
import type { PaymentSettlement } from '../services/payment-settlement.ts';
import { type AttemptState, type PaymentProvider, ProviderUnavailableError } from '../outside/providers/port.ts';

/** Payments end on zarpay's own decision, audited as such. */
const EXPIRY: Actor = Object.freeze({ kind: 'system', task: 'expiry' });

/** Looked for at least this often (CONTRACT §10: at least once a minute). */
const EVERY_MS = 60_000;
/** Payments ended per run; more waiting are looked at again at once, after the outcomes are written. */
const BATCH = 50;

/**
 * Every payment ends (CONTRACT §10). A recurring job, every minute, finds payments still
 * `created`, `initiated` or `awaiting_webhook` PAYMENT_EXPIRES_AFTER_MS after their creation. For
 * each, the provider of its attempt in flight is asked once more: paid, and the payment is
 * captured as the reconciler would; anything else (still open, declined, gone, or a provider that
 * cannot answer now), and the payment fails with `failure_reason` = `expired` and `payment.failed`.
 * Money that reaches the provider after that is refunded through it (`payment.refund_owed`), as for
 * any payment that had ended. This is what ends a checkout the customer abandoned at a provider
 * that never says so (Yoco documents no expiry of its checkouts).
 *
 * One payment that cannot be ended (it throws, run after run) stops no other: it is reported and
 * passed over for a while that grows (src/jobs/batch.ts). The job itself is recurring: it never
 * fails for good, and every start queues it again.
 */
export function expiryTask(
  deps: ServiceDeps,
  providers: ReadonlyMap<string, PaymentProvider>,
  settlement: PaymentSettlement,
  onError: (m: string, e?: unknown) => void,
): Task<{ passing?: Passing }> {
  /** What the attempt's provider says now; pending when there is nothing to ask or no answer. */
  async function lastWord(attempt: attempts.Attempt | undefined, signal: AbortSignal): Promise<AttemptState> {
    const provider = attempt?.provider_ref ? providers.get(attempt.provider) : undefined;
    if (!attempt?.provider_ref || !provider) return { status: 'pending' };
    try {
      return await provider.queryAttempt(attempt.provider_ref, signal);
    } catch (e) {
      // Cut short by the shutdown: no answer is not "pending", and the payment stays for the next run.
      if (signal.aborted) throw e;
      if (!(e instanceof ProviderUnavailableError)) onError(`expiry: ${provider.name} refused to say how attempt ${attempt.id} went`, e);
      return { status: 'pending' };
    }
  }

  return {
    queue: QUEUE.expire,
    concurrency: 1,
    // A provider's answer takes 10 s at most: a batch stays well inside this.
    leaseMs: 15 * 60_000,
    retryDelaysMs: [5_000, 30_000, 60_000],
    recurring: { key: 'minutely', everyMs: EVERY_MS },
    async run(job) {
      const skip = passedOver(job.payload.passing);
      const due = await openPaymentsOlderThan(deps.db, scope(EXPIRY), deps.config.paymentExpiresAfterMs, BATCH, skip);
      const passing = await eachItem(
        job,
        due,
        async (paymentId) => {
          const attempt = await attempts.pendingAttempt(deps.db, paymentScope(EXPIRY), paymentId);
          const answer = await lastWord(attempt, job.signal);
          if (attempt && answer.status === 'succeeded') await settlement.apply(attempt.id, answer, EXPIRY);
          else await settlement.expire(paymentId, EXPIRY);
        },
        { complete: due.length < BATCH },
      );
      return later(due.length === BATCH ? 0 : EVERY_MS, { passing });
    },
  };
}
