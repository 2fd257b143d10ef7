import { randomUUID } from 'node:crypto';
import type { Tx } from '../db/index.ts';

/** Event types and the resource they carry. Adding an event type is one line here. */
export const EVENT_TYPES = {
  'payout.created': 'payout',
  'payout.approved': 'payout',
  'payout.processing': 'payout',
  'payout.completed': 'payout',
  'payout.failed': 'payout',
  'payout.rejected': 'payout',
  'payment.captured': 'payment',
  'payment.failed': 'payment',
  'payment.cancelled': 'payment',
} as const;
export type EventType = keyof typeof EVENT_TYPES;

export interface NewEvent {
  merchantId: string;
  type: EventType;
  payoutId?: string;
  paymentId?: string;
  /** The resource in its public JSON shape: the webhook body's `data`. */
  data: Record<string, unknown>;
  /** Delivers to this URL instead of the merchant's (a payment initiated with `webhook_url`). */
  webhookUrl?: string | null;
}

export interface OutboxEvent {
  id: string;
  seq: number;
  merchantId: string;
  type: EventType;
  payoutId: string | null;
  paymentId: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
}

/**
 * Writes an event in the caller's transaction, so it exists exactly when the change it reports
 * commits. Nothing is published from here: subscribers and the dispatcher read committed rows.
 *
 * The webhook delivery is queued in the same transaction, to the event's own `webhookUrl` or
 * else the merchant's URL as it is at this moment. With neither there is no delivery row: the
 * event is still recorded and streamed to subscribers, and the operator can redeliver it once a
 * URL is set.
 */
export async function recordEvent(tx: Tx, event: NewEvent): Promise<OutboxEvent> {
  const row = await tx
    .insertInto('events')
    .values({
      id: randomUUID(),
      merchant_id: event.merchantId,
      type: event.type,
      payout_id: event.payoutId ?? null,
      payment_id: event.paymentId ?? null,
      data: JSON.stringify(event.data),
      webhook_url: event.webhookUrl ?? null,
    })
    .returning(['id', 'seq', 'created_at'])
    .executeTakeFirstOrThrow();
  await queueDelivery(tx, row.id, event.merchantId, event.webhookUrl ?? null);
  return {
    id: row.id,
    seq: row.seq,
    merchantId: event.merchantId,
    type: event.type,
    payoutId: event.payoutId ?? null,
    paymentId: event.paymentId ?? null,
    data: event.data,
    createdAt: row.created_at,
  };
}

/** Queues one webhook delivery of an event, due now; `null` when there is nowhere to send it. */
export async function queueDelivery(tx: Tx, eventId: string, merchantId: string, eventUrl: string | null): Promise<string | null> {
  let url = eventUrl;
  if (!url) {
    const merchant = await tx.selectFrom('merchants').select('webhook_url').where('id', '=', merchantId).executeTakeFirst();
    url = merchant?.webhook_url ?? null;
  }
  if (!url) return null;
  const id = randomUUID();
  await tx.insertInto('webhook_deliveries').values({ id, event_id: eventId, merchant_id: merchantId, url, status: 'pending' }).execute();
  return id;
}
