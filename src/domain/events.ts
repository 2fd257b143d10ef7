/** Events: what happened to a payout or a payment, as webhooks and subscriptions carry it (CONTRACT §6). */

/** Event types and the resource they carry. Adding an event type is one line here. */
export const EVENT_TYPES = {
  'payout.created': 'payout',
  'payout.approved': 'payout',
  'payout.processing': 'payout',
  'payout.completed': 'payout',
  'payout.failed': 'payout',
  'payout.rejected': 'payout',
  'payout.returned': 'payout',
  'payment.captured': 'payment',
  'payment.failed': 'payment',
  'payment.cancelled': 'payment',
  'refund.succeeded': 'refund',
  'refund.failed': 'refund',
} as const;
export type EventType = keyof typeof EVENT_TYPES;

/** An event as it was recorded in the outbox. */
export interface RecordedEvent {
  id: string;
  merchantId: string;
  type: EventType;
  payoutId: string | null;
  paymentId: string | null;
  /** The resource in its public JSON shape at that moment: the webhook body's `data`. */
  data: Record<string, unknown>;
  createdAt: Date;
}

/**
 * Where an event sits in the event log: the id of the transaction that wrote it (PostgreSQL
 * `xid8`, as decimal text) and its sequence number. Transactions are read in id order once
 * none older is still running, so this order never changes once an event has been read.
 */
export interface EventPosition {
  xact: string;
  seq: number;
}

/** A committed event as streams deliver it: with its position, from which a stream can resume. */
export interface StreamedEvent extends RecordedEvent {
  position: EventPosition;
}

/** The webhook body of CONTRACT §6, identical on every attempt of one event. */
export function webhookBody(event: Pick<RecordedEvent, 'id' | 'type' | 'createdAt' | 'data'>): string {
  return JSON.stringify({ id: event.id, type: event.type, created_at: event.createdAt.toISOString(), api_version: 'v1', data: event.data });
}
