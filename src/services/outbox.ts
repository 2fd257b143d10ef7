import { randomUUID } from 'node:crypto';
import { type QueryCreator, sql } from 'kysely';
import type { Tx } from '../db/index.ts';
import type { Database } from '../db/types.ts';
import type { ServiceDeps } from './deps.ts';

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

/** Runs `work` in a transaction that may record events; once it has committed, the event bus hears of them. */
export async function transactionWithEvents<T>(deps: ServiceDeps, work: (tx: Tx) => Promise<T>): Promise<T> {
  const result = await deps.db.transaction().execute(work);
  deps.eventsCommitted?.();
  return result;
}

/**
 * Writes an event in the caller's transaction, so it exists exactly when the change it reports
 * commits. Nothing is published from here: subscribers and the dispatcher read committed rows.
 *
 * The webhook delivery is queued in the same statement, to the event's own `webhookUrl` or
 * else the merchant's URL as it is at this moment. With neither there is no delivery row: the
 * event is still recorded and streamed to subscribers, and the operator can redeliver it once a
 * URL is set.
 */
export async function recordEvent(tx: Tx, event: NewEvent): Promise<OutboxEvent> {
  const row = await (withRecordedEvent(tx, event) as unknown as QueryCreator<RecordedEvent>)
    .selectFrom('recorded_event')
    .select(['id', 'seq', 'created_at'])
    .executeTakeFirstOrThrow();
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

type RecordedEvent = Database & { recorded_event: { id: string; seq: number; created_at: Date } };

/**
 * The values of an event's SQL (see `withRecordedEvent`), each used only as a value, so that a
 * statement compiled once can pass stand-ins for them.
 */
export interface EventValues {
  id: string;
  deliveryId: string;
  merchantId: string;
  type: string;
  payoutId: string | null;
  paymentId: string | null;
  /** The resource's JSON, serialised. */
  data: string;
  webhookUrl: string | null;
}

export function eventValues(event: NewEvent): EventValues {
  return {
    id: randomUUID(),
    deliveryId: randomUUID(),
    merchantId: event.merchantId,
    type: event.type,
    payoutId: event.payoutId ?? null,
    paymentId: event.paymentId ?? null,
    data: JSON.stringify(event.data),
    webhookUrl: event.webhookUrl ?? null,
  };
}

/**
 * Adds the writing of an event and its delivery (see `recordEvent`) to a statement, as CTEs
 * `recorded_event` and `queued_delivery`. With `gate`, a table or CTE of that statement, both
 * are written only if the gate has a row (the change the event reports did happen). The
 * statement keeps its type: the new CTEs are not meant to be read by the caller.
 */
export function withRecordedEvent<S extends QueryCreator<any>>(statement: S, event: NewEvent | EventValues, gate?: string): S {
  const v = 'deliveryId' in event ? event : eventValues(event);
  const qc = statement as unknown as QueryCreator<any>;
  const url = deliveryUrl(v.webhookUrl);
  const row = [
    sql`${v.id}::uuid`.as('id'),
    sql`${v.merchantId}::uuid`.as('merchant_id'),
    sql`${v.type}::text`.as('type'),
    sql`${v.payoutId}::uuid`.as('payout_id'),
    sql`${v.paymentId}::uuid`.as('payment_id'),
    sql`${v.data}::jsonb`.as('data'),
    sql`${v.webhookUrl}::text`.as('webhook_url'),
  ];
  return qc
    .with('recorded_event', (q) =>
      q
        .insertInto('events')
        .columns(['id', 'merchant_id', 'type', 'payout_id', 'payment_id', 'data', 'webhook_url'])
        .expression(gate ? q.selectFrom(gate).select(row) : q.selectNoFrom(row))
        .returning(['id', 'seq', 'created_at']),
    )
    .with('queued_delivery', (q) =>
      q
        .insertInto('webhook_deliveries')
        .columns(['id', 'event_id', 'merchant_id', 'url', 'status'])
        .expression(
          q
            .selectFrom(['recorded_event', 'merchants'])
            .select([sql`${v.deliveryId}::uuid`.as('id'), 'recorded_event.id', 'merchants.id', url.as('url'), sql`'pending'`.as('status')])
            .where('merchants.id', '=', v.merchantId)
            .where(url, 'is not', null),
        ),
    ) as unknown as S;
}

/**
 * Where an event's delivery goes: the event's own URL, else the merchant's as it is now (in a
 * statement that reads `merchants`); null when there is nowhere to send it.
 */
function deliveryUrl(eventUrl: unknown) {
  return sql<string | null>`coalesce(${eventUrl}::text, "merchants"."webhook_url")`;
}

/** Queues one webhook delivery of an event, due now; `null` when there is nowhere to send it. */
export async function queueDelivery(tx: Tx, eventId: string, merchantId: string, eventUrl: string | null): Promise<string | null> {
  const url = deliveryUrl(eventUrl);
  const row = await tx
    .insertInto('webhook_deliveries')
    .columns(['id', 'event_id', 'merchant_id', 'url', 'status'])
    .expression(
      tx
        .selectFrom('merchants')
        .select([sql`${randomUUID()}::uuid`.as('id'), sql`${eventId}::uuid`.as('event_id'), 'merchants.id', url.as('url'), sql`'pending'`.as('status')])
        .where('merchants.id', '=', merchantId)
        .where(url, 'is not', null),
    )
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}
