import * as attempts from '../db/attempts.ts';
import { recordAudit } from '../db/audit.ts';
import { type Actor, paymentScope } from '../domain/actor.ts';
import { QUEUE } from '../domain/jobs.ts';
import { GiveUp, later, type Task } from '../jobs/task.ts';
import type { ServiceDeps } from '../services/deps.ts';
import type { PaymentSettlement } from '../services/payment-settlement.ts';
import { type AttemptState, type PaymentProvider, ProviderUnavailableError } from '../outside/providers/port.ts';

/** The reconciler (and the giving back of money owed) acts as zarpay itself, and is audited as such. */
const RECONCILER: Actor = Object.freeze({ kind: 'system', task: 'reconciler' });

/** A claim holds an attempt this long: enough for the provider's answer (10 s at most) and the write. */
const LEASE_MS = 60_000;
/** Asked about again at most this far apart, however long an attempt stays pending. */
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** Providers are asked one question at a time per runner: they are not to be flooded. */
const CONCURRENCY = 4;

interface AttemptPayload {
  attempt: string;
}

/** How long to wait before asking again, after `checks` questions: twice as long each time, at most hourly. */
const backoff = (afterMs: number, checks: number) => Math.min(MAX_BACKOFF_MS, afterMs * 2 ** Math.max(0, checks - 1));

/**
 * Nothing stays stuck (issue 14): a job of `payment.reconcile` is queued with every attempt,
 * due RECONCILE_AFTER_MS after it starts. If the attempt is still pending then (its provider's
 * notification is late or lost), the provider's status API is asked and the answer applied
 * (captured, failed, or expired and the payment payable again); a pending answer, or a provider
 * that cannot answer now, asks again later, each time twice as late (at most hourly).
 */
export function reconcileTask(deps: ServiceDeps, providers: ReadonlyMap<string, PaymentProvider>, settlement: PaymentSettlement, onError: (m: string, e?: unknown) => void): Task<AttemptPayload> {
  const afterMs = deps.config.reconcileAfterMs;
  return {
    queue: QUEUE.reconcile,
    concurrency: CONCURRENCY,
    leaseMs: LEASE_MS,
    // A question that fails is asked again later (`later`), never counted as a failure.
    retryDelaysMs: [],

    async run(job) {
      const attempt = await attempts.findAttempt(deps.db, paymentScope(RECONCILER), job.payload.attempt);
      // Finished meanwhile by its notification, the customer's return or the operator.
      if (!attempt || attempt.status !== 'pending') return;
      const provider = providers.get(attempt.provider);
      if (!provider) {
        // A sandbox attempt seen by a prd reconciler, or a provider no longer configured: someone must look.
        onError(`reconciler: attempt ${attempt.id} is with the ${attempt.provider} provider, which is not configured here`);
        return later(MAX_BACKOFF_MS);
      }
      let answer: AttemptState;
      if (attempt.provider_ref === null) {
        // Its start never finished (a crash, or a provider that never answered): the customer was
        // only ever sent to pay an attempt whose reference had been recorded, so nothing was paid.
        answer = { status: 'expired' };
      } else {
        try {
          answer = await provider.queryAttempt(attempt.provider_ref, job.signal);
        } catch (e) {
          if (job.signal.aborted) throw e;
          if (!(e instanceof ProviderUnavailableError)) onError(`reconciler: ${provider.name} refused to say how attempt ${attempt.id} went`, e);
          return later(backoff(afterMs, job.attempt));
        }
      }
      if (answer.status === 'pending') return later(backoff(afterMs, job.attempt));
      await settlement.apply(attempt.id, answer, RECONCILER);
    },
  };
}

/** A refund owed is asked of the provider this many times at most when it cannot answer (then an operator must look). */
const REFUND_TRIES_WHEN_UNAVAILABLE = 12;

/**
 * Money that arrived for a payment that had already ended goes back (PaymentSettlement,
 * `refund_owed`): a job of `payment.refund_owed`, queued in the transaction that found it, asks
 * the attempt's provider for the refund, and the attempt says `requested`. How it went comes as
 * the provider's notification, which the attempt records (`succeeded` or `failed`,
 * services/refund-notifications.ts). A provider that cannot answer now is asked again later;
 * one that refuses, or one that offers no refunds, leaves the refund to an operator: the attempt
 * says `failed`, the audit log says why, and the job stays failed for `zarpay jobs retry`.
 */
export function refundOwedTask(deps: ServiceDeps, providers: ReadonlyMap<string, PaymentProvider>, onError: (m: string, e?: unknown) => void): Task<AttemptPayload> {
  return {
    queue: QUEUE.refundOwed,
    concurrency: 2,
    leaseMs: LEASE_MS,
    retryDelaysMs: [],

    async run(job) {
      const owed = await attempts.refundOwed(deps.db, paymentScope(RECONCILER), job.payload.attempt);
      if (!owed || owed.refund_status !== 'pending') return;
      const provider = providers.get(owed.provider);
      if (!provider?.refund) throw new GiveUp(`the ${owed.provider} provider offers no refunds here`);
      let refundRef: string;
      // Sent before without an answer: the provider is asked first whether that request made it.
      const earlier = owed.refund_submitted_at ? { since: owed.refund_submitted_at, taken: [] } : undefined;
      if (!earlier) await attempts.markOwedRefundSubmitting(deps.db, owed.id);
      try {
        ({ refundRef } = await provider.refund(owed.provider_ref!, owed.amount_cents, `refund-${owed.id}`, job.signal, earlier));
      } catch (e) {
        if (job.signal.aborted) throw e;
        if (e instanceof ProviderUnavailableError && job.attempt < REFUND_TRIES_WHEN_UNAVAILABLE) return later(backoff(deps.config.reconcileAfterMs, job.attempt));
        throw new GiveUp((e as Error).message);
      }
      await deps.db.transaction().execute(async (tx) => {
        await attempts.recordRefund(tx, owed.id, { status: 'requested', refundRef });
        await recordAudit(tx, {
          actor: 'system:reconciler',
          action: 'payment.refund_requested',
          paymentId: owed.payment_id,
          detail: { attempt_id: owed.id, provider: owed.provider, refund_ref: refundRef, amount_cents: owed.amount_cents },
        });
      });
    },

    async record(tx, outcomes) {
      for (const o of outcomes) {
        if (o.kind !== 'failed' || !o.held) continue;
        const owed = await attempts.refundOwed(tx, paymentScope(RECONCILER), o.job.key);
        if (!owed || owed.refund_status !== 'pending') continue;
        await attempts.recordRefund(tx, owed.id, { status: 'failed' });
        await recordAudit(tx, {
          actor: 'system:reconciler',
          action: 'payment.refund_failed',
          paymentId: owed.payment_id,
          detail: { attempt_id: owed.id, provider: owed.provider, why: o.error },
        });
        onError(`reconciler: money for attempt ${owed.id} of payment ${owed.payment_id} must be refunded by hand: ${o.error}`);
      }
    },
  };
}
