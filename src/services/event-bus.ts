import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import { toRecordedEvent } from '../db/outbox.ts';
import { type Actor, covers, type MerchantScope, scope } from '../domain/actor.ts';
import type { RecordedEvent } from '../domain/events.ts';
import { EVENTS_CHANNEL, type Notifications } from './notifications.ts';

export interface EventFilter {
  /** The merchant asked for: a merchant may name only itself; the operator any, or none for all. */
  merchantId?: string | null;
  /** Only these exact types (empty or absent: all). */
  types?: readonly string[];
  /** Only types starting with this (`payout.`, `payment.`). */
  prefix?: string;
}

interface StreamFilter {
  scope: MerchantScope;
  types: readonly string[];
  prefix: string;
}

const matches = (f: StreamFilter, e: RecordedEvent) =>
  covers(f.scope, e.merchantId) && e.type.startsWith(f.prefix) && (f.types.length === 0 || f.types.includes(e.type));

/** How many events one read takes at most; a full page is followed at once by the next. */
const PAGE = 500;
/** A read without being told, for commits whose poke this process missed. */
const FALLBACK_READ_MS = 1000;

/** Where a process is in the event log: past every event of `xact` up to `seq`, and of older transactions. */
interface Position {
  xact: string;
  seq: number;
}

/**
 * Committed events, live, for this process: the subscriptions' events, and the news that events
 * were committed somewhere (the dispatcher's wake-up).
 *
 * While anyone subscribes, the bus reads the event log from its position, in one query for many
 * events, taking only events whose transaction is older than every transaction still running:
 * those are committed (or never will be), so nothing is skipped whatever order transactions
 * commit in, and events that depend on each other (a payout created, then approved) come in
 * that order. A read is started by a commit in this process (`committed`), by a poke from
 * another process (NOTIFY, sent after its commit), after the listening connection comes back,
 * and every second anyway. One read runs at a time; wake-ups during it cause one more. With no
 * subscription the bus reads nothing, and the next subscription starts from the present.
 */
export class EventBus {
  private readonly commitListeners = new Set<() => void>();
  /** Streams by the merchant they follow (`*`: every merchant), so an event is matched against its own. */
  private readonly streams = new Map<string, Set<EventStream>>();
  private position: Position | undefined;
  private reading: Promise<void> | undefined;
  private readAgain = false;
  private timer: NodeJS.Timeout | undefined;

  private started = false;

  constructor(
    private readonly db: Db,
    private readonly notifications: Notifications,
  ) {
    notifications.on(EVENTS_CHANNEL, () => this.heard());
    notifications.onResync(() => this.heard());
  }

  async start() {
    if (this.started) return;
    this.started = true;
    this.timer = setInterval(() => this.heard(), FALLBACK_READ_MS);
    this.timer.unref();
  }

  /** Ends every open stream, stops reading and lets the read under way finish. */
  async stop() {
    this.started = false;
    clearInterval(this.timer);
    this.timer = undefined;
    for (const set of this.streams.values()) for (const s of set) s.end();
    await this.reading;
  }

  /** A transaction of this process has just committed events: read them now, and tell the other processes. */
  committed() {
    this.heard();
    this.notifications.poke(EVENTS_CHANNEL);
  }

  /** Events were (or may have been) committed somewhere. */
  private heard() {
    for (const listener of this.commitListeners) listener();
    this.wake();
  }

  /** Open subscriptions in this process. */
  get subscriberCount(): number {
    let n = 0;
    for (const set of this.streams.values()) n += set.size;
    return n;
  }

  /** Calls `listener` whenever events may have been committed (here or by another process); returns the unsubscribe function. */
  onCommit(listener: () => void): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  /** A live stream of the committed events in the actor's scope that match `filter`, until it is returned or the bus stops. */
  subscribe(actor: Actor, request: EventFilter): AsyncIterableIterator<RecordedEvent> {
    const filter: StreamFilter = { scope: scope(actor, request.merchantId), types: request.types ?? [], prefix: request.prefix ?? '' };
    const key = 'all' in filter.scope ? '*' : filter.scope.merchantId;
    let set = this.streams.get(key);
    if (!set) this.streams.set(key, (set = new Set()));
    const stream: EventStream = new EventStream(filter, () => {
      set.delete(stream);
      if (set.size === 0 && this.streams.get(key) === set) this.streams.delete(key);
      if (this.streams.size === 0) this.position = undefined;
    });
    set.add(stream);
    this.wake();
    return stream;
  }

  /** Starts a read (while anyone subscribes), or asks the read under way for one more. */
  private wake() {
    if (this.streams.size === 0 || !this.started) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = this.read()
      .catch(() => {
        // The database is unreachable: the next wake-up (at most a second away) tries again.
      })
      .finally(() => (this.reading = undefined));
  }

  private async read() {
    do {
      this.readAgain = false;
      // The first subscription after none starts from the log's present: what committed before is history.
      this.position ??= await this.present();
      const from = this.position;
      const rows = await this.nextPage(from);
      // Everyone unsubscribed meanwhile, which dropped the position: these events are nobody's.
      if (this.position !== from) continue;
      for (const row of rows) {
        this.position = { xact: row.xact_id, seq: row.seq };
        this.publish(toRecordedEvent(row));
      }
      if (rows.length === PAGE) this.readAgain = true;
    } while (this.readAgain && this.streams.size > 0);
  }

  private async present(): Promise<Position> {
    const { rows } = await sql<{ xact: string }>`select pg_snapshot_xmin(pg_current_snapshot())::text as xact`.execute(this.db);
    return { xact: rows[0]!.xact, seq: 0 };
  }

  private nextPage(from: Position) {
    return this.db
      .selectFrom('events')
      .select(['id', 'seq', 'merchant_id', 'type', 'payout_id', 'payment_id', 'data', 'created_at', sql<string>`xact_id::text`.as('xact_id')])
      .where(sql<boolean>`(xact_id, seq) > (${from.xact}::xid8, ${from.seq})`)
      .where(sql<boolean>`xact_id < pg_snapshot_xmin(pg_current_snapshot())`)
      .orderBy('xact_id')
      .orderBy('seq')
      .limit(PAGE)
      .execute();
  }

  private publish(event: RecordedEvent) {
    for (const key of [event.merchantId, '*']) {
      for (const s of this.streams.get(key) ?? []) if (matches(s.filter, event)) s.push(event);
    }
  }
}

/** An async iterator fed by the bus; `return()` (a client going away) unsubscribes it. */
class EventStream implements AsyncIterableIterator<RecordedEvent> {
  private readonly queue: RecordedEvent[] = [];
  private waiting: ((r: IteratorResult<RecordedEvent>) => void) | undefined;
  private done = false;

  constructor(
    readonly filter: StreamFilter,
    private readonly onEnd: () => void,
  ) {}

  push(event: RecordedEvent) {
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

  next(): Promise<IteratorResult<RecordedEvent>> {
    const next = this.queue.shift();
    if (next) return Promise.resolve({ value: next, done: false });
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<RecordedEvent>> {
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}
