import type { Db } from '../db/index.ts';
import type { EventRow } from '../db/types.ts';
import { EVENTS_CHANNEL, type Notifications } from './notifications.ts';
import type { EventType, OutboxEvent } from './outbox.ts';

export interface EventFilter {
  merchantId?: string;
  /** Only these exact types (empty or absent: all). */
  types?: readonly string[];
  /** Only types starting with this (`payout.`, `payment.`). */
  prefix?: string;
}

export function toOutboxEvent(row: EventRow): OutboxEvent {
  return {
    id: row.id,
    seq: row.seq,
    merchantId: row.merchant_id,
    type: row.type as EventType,
    payoutId: row.payout_id,
    paymentId: row.payment_id,
    data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data,
    createdAt: row.created_at,
  };
}

const matches = (f: EventFilter, e: OutboxEvent) =>
  (!f.merchantId || f.merchantId === e.merchantId) && (!f.prefix || e.type.startsWith(f.prefix)) && (!f.types?.length || f.types.includes(e.type));

const RECENT = 5000;

/**
 * Committed events, live, for this process: each notification (delivered only on commit, on
 * every process connected to the database) is read back once by id and fanned out to listeners
 * (subscriptions, the dispatcher's wake-up).
 */
export class EventBus {
  private readonly listeners = new Set<(e: OutboxEvent) => void>();
  private readonly streams = new Set<EventStream>();
  private readonly recent = new Set<string>();
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    notifications: Notifications,
  ) {
    notifications.on(EVENTS_CHANNEL, (id) => this.enqueue(() => this.publishById(id)));
    notifications.onResync(() => this.enqueue(() => this.catchUp()));
  }

  /** Ends every open stream and lets the event being published finish. */
  async stop() {
    for (const s of this.streams) s.end();
    await this.chain;
  }

  /** Open subscriptions in this process. */
  get subscriberCount(): number {
    return this.streams.size;
  }

  /** Calls `listener` for every committed event; returns the unsubscribe function. */
  on(listener: (e: OutboxEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A live stream of the committed events that match `filter`, until it is returned or the bus stops. */
  subscribe(filter: EventFilter): AsyncIterableIterator<OutboxEvent> {
    const stream: EventStream = new EventStream(filter, () => this.streams.delete(stream));
    this.streams.add(stream);
    return stream;
  }

  // Notifications are handled one at a time so listeners see events in commit order.
  private enqueue(task: () => Promise<void>) {
    this.chain = this.chain.then(task).catch(() => {});
  }

  private async publishById(id: string) {
    if (this.recent.has(id)) return;
    const row = await this.db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
    if (row) this.publish(toOutboxEvent(row));
  }

  /** After the listening connection came back: what committed meanwhile (a minute back) and was not yet seen. */
  private async catchUp() {
    const rows = await this.db
      .selectFrom('events')
      .selectAll()
      .where('created_at', '>', new Date(Date.now() - 60_000))
      .orderBy('seq')
      .execute();
    for (const row of rows) if (!this.recent.has(row.id)) this.publish(toOutboxEvent(row));
  }

  private publish(event: OutboxEvent) {
    this.recent.add(event.id);
    if (this.recent.size > RECENT) this.recent.delete(this.recent.values().next().value!);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // one listener's failure is not another's
      }
    }
    for (const s of this.streams) if (matches(s.filter, event)) s.push(event);
  }
}

/** An async iterator fed by the bus; `return()` (a client going away) unsubscribes it. */
class EventStream implements AsyncIterableIterator<OutboxEvent> {
  private readonly queue: OutboxEvent[] = [];
  private waiting: ((r: IteratorResult<OutboxEvent>) => void) | undefined;
  private done = false;

  constructor(
    readonly filter: EventFilter,
    private readonly onEnd: () => void,
  ) {}

  push(event: OutboxEvent) {
    if (this.done) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: event, done: false });
    } else this.queue.push(event);
  }

  end() {
    if (this.done) return;
    this.done = true;
    this.onEnd();
    this.waiting?.({ value: undefined, done: true });
    this.waiting = undefined;
  }

  next(): Promise<IteratorResult<OutboxEvent>> {
    const next = this.queue.shift();
    if (next) return Promise.resolve({ value: next, done: false });
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<OutboxEvent>> {
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}
