import { sql } from 'kysely';
import { eventsAfter, positionStanding, toStreamedEvent } from '../db/event-log.ts';
import type { Db } from '../db/index.ts';
import { type Actor, covers, merchantFilter, type MerchantScope, scope } from '../domain/actor.ts';
import { fieldError } from '../domain/errors.ts';
import { comparePositions } from '../domain/event-position.ts';
import type { EventPosition, StreamedEvent } from '../domain/events.ts';
import { EVENTS_CHANNEL, type Notifications } from './notifications.ts';

export interface EventFilter {
  /** The merchant asked for: a merchant may name only itself; the operator any, or none for all. */
  merchantId?: string | null;
  /** Only these exact types (empty or absent: all). */
  types?: readonly string[];
  /** Only types starting with this (`payout.`, `payment.`). */
  prefix?: string;
  /**
   * Resume after this position: first every stored event after it that the filter lets through,
   * in order, then live ones (check it with `checkResumable` first).
   */
  after?: EventPosition | null;
}

interface StreamFilter {
  scope: MerchantScope;
  types: readonly string[];
  prefix: string;
}

const matches = (f: StreamFilter, e: StreamedEvent) =>
  covers(f.scope, e.merchantId) && e.type.startsWith(f.prefix) && (f.types.length === 0 || f.types.includes(e.type));

/** How many events one read takes at most; a full page is followed at once by the next. */
const PAGE = 500;
/** A read without being told, for commits whose poke this process missed. */
const FALLBACK_READ_MS = 1000;
/** Live events a resuming stream holds while it replays; past this it reads them from the log instead. */
const HELD_MAX = 1000;

/** Where a process is in the event log: past every event of `xact` up to `seq`, and of older transactions. */
type Position = EventPosition;

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
 *
 * A stream that resumes after a position (`after`) is registered first, holding the live events
 * it is sent, then replays the log from its position with the same rule, page by page, until a
 * page comes back short; then it delivers what it held and goes live. Each stream delivers only
 * events past the last one it delivered, so the seam has no duplicate; and it has no gap, since
 * any event that was not yet final for the replay's last read is published after the stream
 * was registered (so it was held), and any event published before that was final for the read.
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
    /** How far back a stream may resume (EVENT_REPLAY_WINDOW_MS). */
    private readonly replayWindowMs: number,
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

  /**
   * Refuses a resume position that no stream can resume from: one this service never handed out,
   * or one whose event is older than the replay window (VALIDATION_FAILED, CONTRACT §9).
   */
  async checkResumable(after: EventPosition): Promise<void> {
    const standing = await positionStanding(this.db, after, this.replayWindowMs);
    if (standing === 'unknown') throw fieldError('VALIDATION_FAILED', ['after'], 'not a position of this event log');
    if (standing === 'expired') {
      const days = Math.round((this.replayWindowMs / 86_400_000) * 10) / 10;
      throw fieldError('VALIDATION_FAILED', ['after'], `older than the replay window (${days} days); subscribe without after and catch up with the lists`);
    }
  }

  /**
   * A stream of the committed events in the actor's scope that match `filter`, live (or first
   * replayed from `filter.after`), until it is returned or the bus stops.
   */
  subscribe(actor: Actor, request: EventFilter): AsyncIterableIterator<StreamedEvent> {
    const filter: StreamFilter = { scope: scope(actor, request.merchantId), types: request.types ?? [], prefix: request.prefix ?? '' };
    const key = 'all' in filter.scope ? '*' : filter.scope.merchantId;
    let set = this.streams.get(key);
    if (!set) this.streams.set(key, (set = new Set()));
    const stream: EventStream = new EventStream(filter, request.after ?? undefined, () => {
      set.delete(stream);
      if (set.size === 0 && this.streams.get(key) === set) this.streams.delete(key);
      if (this.streams.size === 0) this.position = undefined;
    });
    // Registered before the replay's first read: from here on it holds what the bus publishes.
    set.add(stream);
    this.wake();
    if (request.after) void this.replay(stream);
    return stream;
  }

  /** Replays the log after the stream's position, then lets it go live (see the class comment). */
  private async replay(stream: EventStream) {
    const filter = { merchantId: merchantFilter(stream.filter.scope), prefix: stream.filter.prefix, types: stream.filter.types };
    while (!stream.done) {
      let page: StreamedEvent[];
      try {
        page = await eventsAfter(this.db, stream.last!, filter, PAGE);
      } catch {
        // The database is unreachable: try again shortly; the stream waits where it is.
        await new Promise((resolve) => setTimeout(resolve, FALLBACK_READ_MS).unref());
        continue;
      }
      for (const event of page) stream.deliver(event);
      if (page.length === PAGE) {
        // Wait for the client to take this page before reading the next one.
        await stream.drained();
        continue;
      }
      // Events published while it held too many were dropped: read them from the log.
      if (stream.dropHeldIfOverflowed()) continue;
      stream.goLive();
      return;
    }
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
        const event = toStreamedEvent(row);
        this.position = event.position;
        this.publish(event);
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

  private publish(event: StreamedEvent) {
    for (const key of [event.merchantId, '*']) {
      for (const s of this.streams.get(key) ?? []) if (matches(s.filter, event)) s.push(event);
    }
  }
}

/**
 * An async iterator fed by the bus; `return()` (a client going away) unsubscribes it. It
 * delivers an event only past the last one it delivered, and while it catches up (a resumed
 * stream replaying the log) it holds the live events it is sent instead.
 */
class EventStream implements AsyncIterableIterator<StreamedEvent> {
  private readonly queue: StreamedEvent[] = [];
  private waiting: ((r: IteratorResult<StreamedEvent>) => void) | undefined;
  private whenDrained: (() => void) | undefined;
  done = false;
  /** Live events sent while catching up, and whether some had to be dropped. */
  private held: StreamedEvent[] | undefined;
  private overflowed = false;

  constructor(
    readonly filter: StreamFilter,
    /** The position of the last event delivered (or resumed after). */
    public last: EventPosition | undefined,
    private readonly onEnd: () => void,
  ) {
    if (last) this.held = [];
  }

  /** From the bus: delivered now, or held while the stream catches up. */
  push(event: StreamedEvent) {
    if (this.done) return;
    if (!this.held) return this.deliver(event);
    if (this.held.length < HELD_MAX) this.held.push(event);
    else this.overflowed = true;
  }

  deliver(event: StreamedEvent) {
    if (this.done || (this.last && comparePositions(event.position, this.last) <= 0)) return;
    this.last = event.position;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: event, done: false });
    } else this.queue.push(event);
  }

  /** After a replay that lost held events: forget the rest too, the next read gets them all. */
  dropHeldIfOverflowed(): boolean {
    if (!this.overflowed) return false;
    this.overflowed = false;
    this.held = [];
    return true;
  }

  /** The replay has caught up: deliver what was held (what the replay already sent is skipped). */
  goLive() {
    const held = this.held ?? [];
    this.held = undefined;
    for (const event of held) this.deliver(event);
  }

  /** Resolves once the client has taken every queued event (or left). */
  drained(): Promise<void> {
    if (this.queue.length === 0 || this.done) return Promise.resolve();
    return new Promise((resolve) => (this.whenDrained = resolve));
  }

  end() {
    if (this.done) return;
    this.done = true;
    this.onEnd();
    this.waiting?.({ value: undefined, done: true });
    this.waiting = undefined;
    this.whenDrained?.();
  }

  next(): Promise<IteratorResult<StreamedEvent>> {
    const next = this.queue.shift();
    if (this.queue.length === 0 && this.whenDrained) {
      const resolve = this.whenDrained;
      this.whenDrained = undefined;
      resolve();
    }
    if (next) return Promise.resolve({ value: next, done: false });
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<StreamedEvent>> {
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}
