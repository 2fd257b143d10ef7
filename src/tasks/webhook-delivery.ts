import DataLoader from 'dataloader';
import { type DeliveryToSend, deliveriesToSend, recordAttempts } from '../db/webhook-dispatch.ts';
import type { Actor } from '../domain/actor.ts';
import { type EventType, webhookBody } from '../domain/events.ts';
import { QUEUE } from '../domain/jobs.ts';
import { signatureHeader } from '../domain/webhook-signature.ts';
import { done, failure, released, type Task } from '../jobs/task.ts';
import type { PostResult, WebhookTransport } from '../outside/webhook-http.ts';
import type { ServiceDeps } from '../services/deps.ts';
import type { WebhookSecretService } from '../services/webhook-secrets.ts';

/** Webhook delivery acts for every merchant: as zarpay itself. */
const DELIVERY: Actor = Object.freeze({ kind: 'system', task: 'webhook delivery' });

/** How many deliveries one runner has in flight at most. */
const CONCURRENCY = 64;
/**
 * How many of them one merchant may have: a receiver that hangs (or a merchant with a huge
 * backlog) takes at most a quarter of the runner's deliveries, and every other merchant's go out
 * at once beside it. Three merchants hanging together still leave a quarter to the rest.
 */
export const PER_MERCHANT_IN_FLIGHT = 16;
/**
 * A claim lasts twice the attempt's time limit plus this margin (25 s with the default 10 s
 * limit) before another runner may take the delivery over: comfortably longer than a POST and
 * the writes around it, short enough that a crash delays little.
 */
const LEASE_MARGIN_MS = 5_000;

interface Payload {
  delivery: string;
}

/**
 * The webhook task (CONTRACT §6): a job of `webhook.deliver` is one delivery of one event to one
 * URL. At least once: the delivery is queued in the transaction of its event, and only a 2xx in
 * time ends it; otherwise it is tried again after each of WEBHOOK_RETRY_DELAYS_MS, then fails
 * (the operator can redeliver the event, or retry the job). Every attempt is logged, in the
 * transaction that records the job's outcome.
 *
 * The deliveries and the merchants' signing keys of the jobs a claim took are read in one
 * statement each (DataLoader batches the runs that start together).
 */
export function webhookTask(deps: ServiceDeps, secrets: WebhookSecretService, transport: WebhookTransport): Task<Payload, PostResult> {
  const { config } = deps;
  const deliveries = new DataLoader<string, DeliveryToSend | undefined>(
    async (ids) => {
      const rows = await deliveriesToSend(deps.db, ids);
      return ids.map((id) => rows.find((r) => r.id === id));
    },
    { cache: false },
  );
  // Wrapped: a DataLoader takes an Error among the results for a failed load, and a merchant
  // whose secrets will not open is a result here (a failed attempt), not a failed read.
  const signingKeys = new DataLoader<string, { keys: Buffer[] | Error }>(
    async (merchants) => {
      const keys = await secrets.signingKeys(DELIVERY, [...merchants]);
      return merchants.map((m) => ({ keys: keys.get(m) ?? [] }));
    },
    { cache: false },
  );
  return {
    queue: QUEUE.webhook,
    concurrency: CONCURRENCY,
    perMerchant: PER_MERCHANT_IN_FLIGHT,
    leaseMs: 2 * config.webhookTimeoutMs + LEASE_MARGIN_MS,
    retryDelaysMs: config.webhookRetryDelaysMs,

    async run(job) {
      const d = await deliveries.load(job.payload.delivery);
      // Gone, or ended by an operator meanwhile (a redelivery superseded it): nothing to send.
      if (!d || d.status !== 'pending') return done();
      const { keys } = await signingKeys.load(d.merchant_id);
      if (keys instanceof Error) {
        // Never send unsigned in place of signed (e.g. SERVICE_SECRET changed and the secrets no
        // longer decrypt): a failed attempt, so the delivery ends up failed and visible.
        return failure('the webhook secret could not be read', { ok: false, statusCode: null, durationMs: 0, error: 'the webhook secret could not be read' });
      }
      const data = (typeof d.data === 'string' ? JSON.parse(d.data) : d.data) as Record<string, unknown>;
      const body = webhookBody({ id: d.event_id, type: d.type as EventType, createdAt: new Date(d.created_at), data });
      const timestamp = Math.floor(Date.now() / 1000);
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'webhook-id': d.event_id,
        'webhook-timestamp': String(timestamp),
        'x-service-event-id': d.event_id,
      };
      const signature = signatureHeader(keys, d.event_id, timestamp, body);
      if (signature) headers['webhook-signature'] = signature;
      const result = await transport.post(d.url, headers, body, { timeoutMs: config.webhookTimeoutMs, publicOnly: config.serviceEnv === 'prd', signal: job.signal });
      if (result === 'aborted') return released();
      return result.ok ? done(result) : failure(result.error ?? 'failed', result);
    },

    async record(tx, outcomes) {
      await recordAttempts(
        tx,
        outcomes.flatMap((o) => {
          if (!o.result) return [];
          const r = o.result;
          const next =
            !o.held ? null : o.kind === 'done' ? ({ status: 'succeeded' } as const) : o.kind === 'failed' ? ({ status: 'failed' } as const) : { status: 'pending' as const, retryInMs: o.retryInMs ?? 0 };
          return [{ deliveryId: o.job.key, attemptedAt: o.startedAt, statusCode: r.statusCode, durationMs: r.durationMs, error: r.error, succeeded: r.ok, next }];
        }),
      );
    },
  };
}

