import { type MerchantScope, merchantFilter } from '../domain/actor.ts';
import { QUEUE } from '../domain/jobs.ts';
import type { DbOrTx, Tx } from './index.ts';
import { statement } from './statement.ts';

/**
 * The webhook delivery log as its readers see it, and the operator's redelivery. Deliveries are
 * queued by the outbox (outbox.ts) and delivered by the jobs of `webhook.deliver` (webhook-dispatch.ts).
 */

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface StoredDelivery {
  id: string;
  eventId: string;
  eventType: string;
  merchantId: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  /** When the next attempt is due; meaningful only while pending. */
  nextAttemptAt: Date;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Date;
  completedAt: Date | null;
}

export interface StoredAttempt {
  attempt: number;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  succeeded: boolean;
}

export interface DeliveryQuery {
  /** Each of these narrows the list; null leaves it open. */
  eventId: string | null;
  status: DeliveryStatus | null;
  limit: number;
  /** How many of the newest to skip. */
  offset: number;
}

interface DeliveryRow {
  id: string;
  event_id: string;
  type: string;
  merchant_id: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  completed_at: Date | null;
}

// One text for every combination of filters, like the listings (listing.ts): a null parameter
// leaves its filter open, and the database plans each call for the values it is given.
const listStatement = statement<DeliveryQuery & { merchantId: string | null }, DeliveryRow>(
  'webhook deliveries, newest first',
  `select d.id, d.event_id, e.type, d.merchant_id, d.url, d.status, d.attempts, d.next_attempt_at, d.last_status_code,
          d.last_error, d.created_at, d.completed_at
     from webhook_deliveries d join events e on e.id = d.event_id
    where (:eventId::uuid is null or d.event_id = :eventId::uuid)
      and (:merchantId::uuid is null or d.merchant_id = :merchantId::uuid)
      and (:status::text is null or d.status = :status::text)
    order by d.created_at desc, d.id
    limit :limit::int offset :offset::int`,
);

/** Deliveries within the scope that match `q`, newest first. */
export async function listDeliveries(db: DbOrTx, scope: MerchantScope, q: DeliveryQuery): Promise<StoredDelivery[]> {
  const rows = await listStatement.run(db, { ...q, merchantId: merchantFilter(scope) });
  return rows.map((r) => ({
    id: r.id,
    eventId: r.event_id,
    eventType: r.type,
    merchantId: r.merchant_id,
    url: r.url,
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    lastStatusCode: r.last_status_code,
    lastError: r.last_error,
    createdAt: r.created_at,
    completedAt: r.completed_at,
  }));
}

const attemptsStatement = statement<
  { deliveryIds: string[] },
  { delivery_id: string; attempt: number; attempted_at: Date; status_code: number | null; duration_ms: number; error: string | null; succeeded: boolean }
>(
  'the attempts of webhook deliveries',
  `select delivery_id, attempt, attempted_at, status_code, duration_ms, error, succeeded
     from webhook_attempts where delivery_id = any(:deliveryIds::uuid[]) order by id`,
);

/** Each delivery's attempts in the order they were made, by delivery id (one statement for any number of deliveries). */
export async function attemptsOf(db: DbOrTx, deliveryIds: readonly string[]): Promise<Map<string, StoredAttempt[]>> {
  const byDelivery = new Map<string, StoredAttempt[]>();
  if (deliveryIds.length === 0) return byDelivery;
  for (const a of await attemptsStatement.run(db, { deliveryIds: [...deliveryIds] })) {
    let list = byDelivery.get(a.delivery_id);
    if (!list) byDelivery.set(a.delivery_id, (list = []));
    list.push({ attempt: a.attempt, attemptedAt: a.attempted_at, statusCode: a.status_code, durationMs: a.duration_ms, error: a.error, succeeded: a.succeeded });
  }
  return byDelivery;
}

// Two statements, the jobs first: a runner writing a delivery's outcome locks its job, then the
// delivery, so taking them in the other order here could deadlock with it.
const dropSupersededJobsStatement = statement<{ eventId: string; deliveryId: string }, never>(
  "take back the jobs of an event's other pending deliveries",
  `delete from jobs where queue = '${QUEUE.webhook}'
      and key in (select id::text from webhook_deliveries where event_id = :eventId::uuid and status = 'pending' and id <> :deliveryId::uuid)`,
);
const supersedeStatement = statement<{ eventId: string; deliveryId: string; lastError: string }, never>(
  "supersede an event's pending deliveries",
  `update webhook_deliveries
      set status = 'failed', last_error = :lastError::text, completed_at = now(), updated_at = now()
    where event_id = :eventId::uuid and status = 'pending' and id <> :deliveryId::uuid`,
);

/**
 * Ends every delivery of the event still pending except `deliveryId`, as failed with `lastError`,
 * and takes their jobs back. An attempt under way still logs what it did, but no longer moves a
 * delivery that has ended (its job is gone, so its outcome is no longer held).
 */
export async function supersedePending(tx: Tx, eventId: string, deliveryId: string, lastError: string): Promise<void> {
  await dropSupersededJobsStatement.run(tx, { eventId, deliveryId });
  await supersedeStatement.run(tx, { eventId, deliveryId, lastError });
}
