import { QUEUE } from '../domain/jobs.ts';
import type { DbOrTx, Tx } from './index.ts';
import { statement } from './statement.ts';

/**
 * What the webhook task (tasks/webhook-delivery.ts) reads and writes around its jobs: the
 * deliveries a batch of jobs is for, with their events, and the log of every attempt. A delivery
 * is queued as a job of `webhook.deliver` keyed by the delivery's id, in the transaction that
 * records its event (outbox.ts, payouts.ts).
 */

/** The SQL that queues the deliveries of a CTE `queued (id, merchant_id)` as jobs, for the statements that record events. */
export const QUEUE_DELIVERIES_SQL = `
    insert into jobs (queue, key, merchant_id, payload)
    select '${QUEUE.webhook}', q.id::text, q.merchant_id, jsonb_build_object('delivery', q.id) from queued q
    on conflict (queue, key) do nothing`;

/** A delivery with what its POST needs. */
export interface DeliveryToSend {
  id: string;
  merchant_id: string;
  url: string;
  status: 'pending' | 'succeeded' | 'failed';
  event_id: string;
  type: string;
  created_at: Date;
  data: unknown;
}

const loadStatement = statement<{ ids: string[] }, DeliveryToSend>(
  'deliveries to send, with their events',
  `
  select d.id, d.merchant_id, d.url, d.status, e.id as event_id, e.type, e.created_at, e.data
    from webhook_deliveries d join events e on e.id = d.event_id
   where d.id = any(:ids::uuid[])`,
);

/** The deliveries of a batch of jobs, in one statement. */
export function deliveriesToSend(db: DbOrTx, ids: readonly string[]): Promise<DeliveryToSend[]> {
  return loadStatement.run(db, { ids: [...ids] });
}

export interface AttemptRecord {
  deliveryId: string;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  succeeded: boolean;
  /** What the delivery becomes (only when its job was still ours): `pending` with the next try's delay, or final. */
  next: { status: 'pending'; retryInMs: number } | { status: 'succeeded' | 'failed' } | null;
}

const recordStatement = statement<
  {
    ids: string[];
    attemptedAt: string[];
    statusCodes: (number | null)[];
    durations: number[];
    errors: (string | null)[];
    succeeded: boolean[];
    statuses: (string | null)[];
    retryMs: (number | null)[];
  },
  Record<string, never>
>(
  'log webhook attempts and move their deliveries on',
  `
  with outcome as (
    select * from unnest(:ids::uuid[], :attemptedAt::timestamptz[], :statusCodes::int[], :durations::int[], :errors::text[],
                         :succeeded::boolean[], :statuses::text[], :retryMs::bigint[])
      as o (delivery_id, attempted_at, status_code, duration_ms, error, succeeded, status, retry_ms)
  ),
  counted as (
    select o.*, d.attempts + row_number() over (partition by o.delivery_id order by o.attempted_at) as attempt
      from outcome o join webhook_deliveries d on d.id = o.delivery_id
  ),
  logged as (
    insert into webhook_attempts (delivery_id, attempt, attempted_at, status_code, duration_ms, error, succeeded)
    select delivery_id, attempt, attempted_at, status_code, duration_ms, error, succeeded from counted
  )
  update webhook_deliveries d set
    attempts = c.attempt,
    status = coalesce(c.status, d.status),
    next_attempt_at = case when c.retry_ms is null then d.next_attempt_at else now() + c.retry_ms * interval '1 millisecond' end,
    last_status_code = c.status_code,
    last_error = c.error,
    updated_at = now(),
    completed_at = case when c.status in ('succeeded', 'failed') then now() when c.status = 'pending' then null else d.completed_at end
  from (select distinct on (delivery_id) * from counted order by delivery_id, attempted_at desc) c
  where d.id = c.delivery_id`,
);

/**
 * Every attempt is logged; a delivery moves on only by the attempt whose job was still this
 * runner's (`next` set): one whose lease had run out still logs what it did, but the delivery
 * now belongs to whoever took the job over.
 */
export async function recordAttempts(tx: Tx, attempts: readonly AttemptRecord[]): Promise<void> {
  if (attempts.length === 0) return;
  await recordStatement.run(tx, {
    ids: attempts.map((a) => a.deliveryId),
    attemptedAt: attempts.map((a) => a.attemptedAt.toISOString()),
    statusCodes: attempts.map((a) => a.statusCode),
    durations: attempts.map((a) => a.durationMs),
    errors: attempts.map((a) => a.error),
    succeeded: attempts.map((a) => a.succeeded),
    statuses: attempts.map((a) => a.next?.status ?? null),
    retryMs: attempts.map((a) => (a.next?.status === 'pending' ? a.next.retryInMs : null)),
  });
}
