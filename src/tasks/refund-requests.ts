import { recordAudit } from '../db/audit.ts';
import * as store from '../db/refunds.ts';
import { type Actor, paymentScope } from '../domain/actor.ts';
import { QUEUE } from '../domain/jobs.ts';
import { later, type Task } from '../jobs/task.ts';
import type { ServiceDeps } from '../services/deps.ts';
import { type PaymentProvider, ProviderRefusedError, ProviderUnavailableError } from '../outside/providers/port.ts';
import type { RefundService } from '../services/refunds.ts';

/** Refund requests act as zarpay itself, and are audited as such. */
const REFUNDER: Actor = Object.freeze({ kind: 'system', task: 'refunds' });

/** A claim holds a refund this long: the provider's answer (10 s at most) and the writes, with room to spare. */
const LEASE_MS = 30_000;
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** After this many tries without an outcome an operator is told (and told again every so many). */
const ALERT_EVERY = 12;

const backoff = (afterMs: number, tries: number) => Math.min(MAX_BACKOFF_MS, afterMs * 2 ** Math.max(0, tries - 1));

/** The next Idempotency-Key of a refund whose request under `key` provably created nothing: `{refund id}.{n}`. */
export function nextKey(refundId: string, key: string): string {
  const n = key === refundId ? 1 : Number(key.slice(refundId.length + 1)) + 1;
  return `${refundId}.${n}`;
}

/**
 * One job of `refund.request` per refund, queued in the transaction that created it. It asks the
 * payment's provider to make the refund (the refund id as Idempotency-Key), and then waits for
 * the outcome, which normally comes as the provider's notification (RefundNotifications.notified):
 *
 * - The provider cannot answer (down, 5xx, timeout, 429): asked again later with the same key,
 *   after its `Retry-After` when it gave one, twice as late each time (at most hourly), for as
 *   long as it takes: the money is reserved, and giving up could leave a refund made at the
 *   provider and released here. An operator is told when it drags on.
 * - Its answer proves the first request created nothing (a failure it replays for the key): the
 *   next request goes under a fresh key.
 * - It refuses (a 4xx: the payment cannot be refunded, or not by that much): the refund `failed`
 *   at once, its reservation released, audited with the provider's words (CONTRACT §10).
 * - It accepted: the job asks again RECONCILE_AFTER_MS later whether the refund is done
 *   (`queryRefund`, where the provider has it), and keeps asking until an outcome is known.
 */
export function refundRequestTask(
  deps: ServiceDeps,
  providers: ReadonlyMap<string, PaymentProvider>,
  refunds: RefundService,
  onError: (m: string, e?: unknown) => void,
): Task<{ refund: string }> {
  const afterMs = deps.config.reconcileAfterMs;
  return {
    queue: QUEUE.refund,
    concurrency: 4,
    leaseMs: LEASE_MS,
    retryDelaysMs: [],

    async run(job) {
      const refund = await store.findRefund(deps.db, paymentScope(REFUNDER), job.payload.refund);
      if (!refund || refund.status !== 'pending') return;
      const nag = (what: string) => {
        if (job.attempt % ALERT_EVERY === 0) onError(`refunds: refund ${refund.id} of payment ${refund.paymentId} is still pending after ${job.attempt} tries: ${what}`);
      };
      const provider = providers.get(refund.provider);
      if (!provider) {
        // A payment settled by hand (tst/dev) has no provider to ask: `zarpay refund settle` decides.
        if (refund.provider !== 'operator') nag(`its provider ${refund.provider} is not configured here`);
        return later(MAX_BACKOFF_MS);
      }
      if (refund.providerRefundRef === null) {
        if (!provider.refund || refund.attemptProviderRef === null) {
          await refunds.apply(refund.id, { status: 'failed', reason: `the ${provider.name} provider offers no refunds` }, REFUNDER);
          return;
        }
        // Sent before without an answer: the provider is asked first whether that request made it.
        const earlier = refund.submittedAt ? { since: refund.submittedAt, taken: await store.otherRefundRefs(deps.db, refund.paymentId, refund.id) } : undefined;
        if (!earlier) await store.markSubmitting(deps.db, refund.id);
        try {
          const { refundRef } = await provider.refund(refund.attemptProviderRef, refund.amountCents, refund.providerKey, job.signal, earlier);
          await deps.db.transaction().execute(async (tx) => {
            await store.recordAccepted(tx, refund.id, refundRef);
            await recordAudit(tx, {
              actor: 'system:refunds',
              action: 'refund.requested',
              merchantId: refund.merchantId,
              paymentId: refund.paymentId,
              detail: { refund_id: refund.id, provider: provider.name, provider_refund_ref: refundRef, idempotency_key: refund.providerKey, amount_cents: refund.amountCents },
            });
          });
          return later(afterMs);
        } catch (e) {
          if (job.signal.aborted) throw e;
          if (e instanceof ProviderRefusedError) {
            await refunds.apply(refund.id, { status: 'failed', reason: `the provider refused the refund: ${e.message}` }, REFUNDER, {
              provider_status: e.status,
              provider_code: e.providerCode ?? null,
            });
            return;
          }
          if (!(e instanceof ProviderUnavailableError)) throw e;
          if (e.createdNothing) {
            await deps.db.transaction().execute(async (tx) => {
              const to = nextKey(refund.id, refund.providerKey);
              if (!(await store.rekey(tx, refund.id, refund.providerKey, to))) return;
              await recordAudit(tx, {
                actor: 'system:refunds',
                action: 'refund.rekeyed',
                merchantId: refund.merchantId,
                paymentId: refund.paymentId,
                detail: { refund_id: refund.id, provider: provider.name, from: refund.providerKey, to, why: e.message },
              });
            });
          } else {
            nag(e.message);
          }
          return later(Math.max(e.retryAfterMs ?? 0, e.createdNothing ? 1_000 : backoff(afterMs, job.attempt)));
        }
      }
      if (!provider.queryRefund || refund.attemptProviderRef === null) {
        nag(`${provider.name} accepted it as ${refund.providerRefundRef} and has not said how it went`);
        return later(backoff(afterMs, job.attempt));
      }
      try {
        const state = await provider.queryRefund(refund.attemptProviderRef, refund.providerRefundRef, job.signal);
        if (state.status === 'pending') {
          nag(`${provider.name} says it is still pending`);
          return later(backoff(afterMs, job.attempt));
        }
        await refunds.apply(refund.id, state, REFUNDER, { provider_said: state.status });
      } catch (e) {
        if (job.signal.aborted) throw e;
        if (!(e instanceof ProviderUnavailableError)) onError(`refunds: ${provider.name} refused to say how refund ${refund.id} went`, e);
        return later(Math.max(e instanceof ProviderUnavailableError ? (e.retryAfterMs ?? 0) : 0, backoff(afterMs, job.attempt)));
      }
    },
  };
}
