import { randomUUID } from 'node:crypto';
import type { EventType, RecordedEvent } from '../domain/events.ts';
import type { DbOrTx, Tx } from './index.ts';
import { statement } from './statement.ts';
import { QUEUE_DELIVERIES_SQL } from './webhook-dispatch.ts';
import type { EventRow } from './types.ts';

/**
 * The outbox: each event is written in the transaction of the change it reports, with its
 * webhook delivery queued beside it, so it exists exactly when the change commits. Nothing is
 * published from here: subscribers and the dispatcher read committed rows.
 *
 * Where a delivery goes: the event's own URL (a payment initiated with `webhook_url`), else the
 * merchant's URL as it is at that moment. With neither there is no delivery row; the event is
 * still recorded and streamed, and the operator can redeliver it once a URL is set.
 */

export interface NewEvent {
  merchantId: string;
  type: EventType;
  payoutId?: string;
  paymentId?: string;
  /** The resource in its public JSON shape: the webhook body's `data`. */
  data: Record<string, unknown>;
  /** Delivers to this URL instead of the merchant's. */
  webhookUrl?: string | null;
}

export function toRecordedEvent(row: Pick<EventRow, 'id' | 'merchant_id' | 'type' | 'payout_id' | 'payment_id' | 'data' | 'created_at'>): RecordedEvent {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    type: row.type as EventType,
    payoutId: row.payout_id,
    paymentId: row.payment_id,
    data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data,
    createdAt: row.created_at,
  };
}

const recordStatement = statement<
  {
    id: string;
    deliveryId: string;
    merchantId: string;
    type: string;
    payoutId: string | null;
    paymentId: string | null;
    data: string;
    webhookUrl: string | null;
  },
  { created_at: Date }
>(
  'record an event and queue its delivery',
  `
  with recorded as (
    insert into events (id, merchant_id, type, payout_id, payment_id, data, webhook_url)
    values (:id::uuid, :merchantId::uuid, :type::text, :payoutId::uuid, :paymentId::uuid, :data::jsonb, :webhookUrl::text)
    returning id, merchant_id, webhook_url, created_at
  ),
  queued as (
    insert into webhook_deliveries (id, event_id, merchant_id, url, status)
    select :deliveryId::uuid, e.id, e.merchant_id, coalesce(e.webhook_url, m.webhook_url), 'pending'
      from recorded e join merchants m on m.id = e.merchant_id
     where coalesce(e.webhook_url, m.webhook_url) is not null
    returning id, merchant_id
  ),
  job as (${QUEUE_DELIVERIES_SQL}
  )
  select created_at from recorded`,
);

/** Writes an event (and queues its delivery) in the caller's transaction. */
export async function recordEvent(tx: Tx, event: NewEvent): Promise<RecordedEvent> {
  const id = randomUUID();
  const [row] = await recordStatement.run(tx, {
    id,
    deliveryId: randomUUID(),
    merchantId: event.merchantId,
    type: event.type,
    payoutId: event.payoutId ?? null,
    paymentId: event.paymentId ?? null,
    data: JSON.stringify(event.data),
    webhookUrl: event.webhookUrl ?? null,
  });
  return {
    id,
    merchantId: event.merchantId,
    type: event.type,
    payoutId: event.payoutId ?? null,
    paymentId: event.paymentId ?? null,
    data: event.data,
    createdAt: row!.created_at,
  };
}

const requeueStatement = statement<{ deliveryId: string; eventId: string }, { id: string }>(
  'queue a new delivery of a recorded event',
  `
  with queued as (
    insert into webhook_deliveries (id, event_id, merchant_id, url, status)
    select :deliveryId::uuid, e.id, e.merchant_id, coalesce(e.webhook_url, m.webhook_url), 'pending'
      from events e join merchants m on m.id = e.merchant_id
     where e.id = :eventId::uuid
       and coalesce(e.webhook_url, m.webhook_url) is not null
    returning id, merchant_id
  ),
  job as (${QUEUE_DELIVERIES_SQL}
  )
  select id from queued`,
);

/** Queues one more delivery of a recorded event, due now; null when there is nowhere to send it. */
export async function queueDelivery(db: DbOrTx, eventId: string): Promise<string | null> {
  const [row] = await requeueStatement.run(db, { deliveryId: randomUUID(), eventId });
  return row?.id ?? null;
}
