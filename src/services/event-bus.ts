import { eventsAfter, logPresent, nextEvents, positionStanding } from '../db/event-log.ts';
import type { Db } from '../db/index.ts';
import { type Actor, covers, type MerchantScope, scope } from '../domain/actor.ts';
import { AppError, fieldError } from '../domain/errors.ts';
import { comparePositions } from '../domain/event-position.ts';
import type { EventPosition, StreamedEvent } from '../domain/events.ts';
import { STREAM_LIMITS } from '../domain/stream-limits.ts';
import type { WatchCaller } from './key-watch.ts';
import { EVENTS_CHANNEL } from '../outside/commit-notifications.ts';
import type { Notifications } from './notifications.ts';

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

/**
 * What a stream yields: committed events, and last, if it ends for a reason its reader must
 * know (its key stopped working, it fell behind), that reason.
 */
export type StreamItem = StreamedEvent | AppError;

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
 *
 * A stream holds at most `queuedEventsPerStream` events its reader has not taken; with one more
 * it ends, its reader told that it fell behind (RATE_LIMIT_EXCEEDED), and resumes from the log
 * with `after`. A merchant's stream is registered under its API key and ends, its reader told
 * FORBIDDEN, the moment the key stops working (revoked, regenerated, expired; here or in
 * another process): the events it still held are dropped, not delivered.
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
  private passes = 0;

  constructor(
    private readonly db: Db,
    private readonly notifications: Notifications,
    /** How far back a stream may resume (EVENT_REPLAY_WINDOW_MS). */
    private readonly replayWindowMs: number,
    /** Tells when a merchant caller's key or session stops working, and with it its streams. */
    private readonly watchCaller: WatchCaller,
    private readonly queueMax: number = STREAM_LIMITS.queuedEventsPerStream,
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

  /**
   * Reads of the log this process has finished (each reads up to the oldest transaction still
   * open on the server): /metrics counts them, and a test that something was not streamed waits
   * for two more, the second certainly begun after what it committed.
   */
  get readsDone(): number {
    return this.passes;
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
   * Refuses a resume position that no stream of the actor's can resume from: one this service
   * never handed out to it, or one whose event is older than the replay window (VALIDATION_FAILED,
   * CONTRACT §9).
   */
  async checkResumable(actor: Actor, after: EventPosition): Promise<void> {
    const standing = await positionStanding(this.db, scope(actor), after, this.replayWindowMs);
    if (standing === 'unknown') throw fieldError('VALIDATION_FAILED', ['after'], 'not a position of this event log');
    if (standing === 'expired') {
      const days = Math.round((this.replayWindowMs / 86_400_000) * 10) / 10;
      throw fieldError('VALIDATION_FAILED', ['after'], `older than the replay window (${days} days); subscribe without after and catch up with the lists`);
    }
  }

  /**
   * A stream of the committed events in the actor's scope that match `filter`, live (or first
   * replayed from `filter.after`), until it is returned or the bus stops, or until it yields an
   * AppError and ends: the merchant's key stopped working (FORBIDDEN), or the reader fell
   * `queuedEventsPerStream` events behind (RATE_LIMIT_EXCEEDED).
   */
  subscribe(actor: Actor, request: EventFilter): AsyncIterableIterator<StreamItem> {
    const filter: StreamFilter = { scope: scope(actor, request.merchantId), types: request.types ?? [], prefix: request.prefix ?? '' };
    const key = 'all' in filter.scope ? '*' : filter.scope.merchantId;
    let set = this.streams.get(key);
    if (!set) this.streams.set(key, (set = new Set()));
    let unwatch: (() => void) | undefined;
    const stream: EventStream = new EventStream(filter, request.after ?? undefined, this.queueMax, () => {
      set.delete(stream);
      if (set.size === 0 && this.streams.get(key) === set) this.streams.delete(key);
      if (this.streams.size === 0) this.position = undefined;
      unwatch?.();
    });
    // Registered before the replay's first read: from here on it holds what the bus publishes.
    set.add(stream);
    if (actor.kind === 'merchant') {
      unwatch = this.watchCaller(actor, (reason) => stream.fail(reason));
      // A key found ended at once (it expired meanwhile) ended the stream before `unwatch` was known.
      if (stream.done) unwatch();
    }
    this.wake();
    if (request.after) void this.replay(stream);
    return stream;
  }

  /** Replays the log after the stream's position, then lets it go live (see the class comment). */
  private async replay(stream: EventStream) {
    const filter = { scope: stream.filter.scope, prefix: stream.filter.prefix, types: stream.filter.types };
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
      // Wait for the client to take this page before reading the next one, or before the held
      // events join the queue (so they fit within its bound).
      await stream.drained();
      if (page.length === PAGE || stream.done) continue;
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
      this.position ??= await logPresent(this.db);
      const from = this.position;
      const events = await nextEvents(this.db, from, PAGE);
      // Everyone unsubscribed meanwhile, which dropped the position: these events are nobody's.
      if (this.position !== from) continue;
      for (const event of events) {
        this.position = event.position;
        this.publish(event);
      }
      if (events.length === PAGE) this.readAgain = true;
      this.passes++;
    } while (this.readAgain && this.streams.size > 0);
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
 * stream replaying the log) it holds the live events it is sent instead. It holds at most
 * `queueMax` events of either kind; `fail` ends it early, the reason its reader's last item.
 */
class EventStream implements AsyncIterableIterator<StreamItem> {
  private readonly queue: StreamedEvent[] = [];
  private waiting: ((r: IteratorResult<StreamItem>) => void) | undefined;
  private whenDrained: (() => void) | undefined;
  /** No longer fed: its reader left, it failed, or the bus stopped. */
  done = false;
  /** Why it failed, for its reader's next `next()`. */
  private failure: AppError | undefined;
  /** Live events sent while catching up, and whether some had to be dropped. */
  private held: StreamedEvent[] | undefined;
  private overflowed = false;

  constructor(
    readonly filter: StreamFilter,
    /** The position of the last event delivered (or resumed after). */
    public last: EventPosition | undefined,
    private readonly queueMax: number,
    private readonly onEnd: () => void,
  ) {
    if (last) this.held = [];
  }

  /** From the bus: delivered now, or held while the stream catches up. */
  push(event: StreamedEvent) {
    if (this.done) return;
    if (!this.held) return this.deliver(event);
    if (this.held.length < this.queueMax) this.held.push(event);
    else this.overflowed = true;
  }

  deliver(event: StreamedEvent) {
    if (this.done || (this.last && comparePositions(event.position, this.last) <= 0)) return;
    if (this.waiting) {
      this.last = event.position;
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: event, done: false });
    } else if (this.queue.length < this.queueMax) {
      this.last = event.position;
      this.queue.push(event);
    } else {
      this.fail(
        new AppError(
          'RATE_LIMIT_EXCEEDED',
          `the stream fell more than ${this.queueMax} events behind its reader and has ended; subscribe again with after: the position of the last event received`,
        ),
      );
    }
  }

  /**
   * Ends the stream now: its reader gets `reason` next (the events it had not taken are
   * dropped; it resumes after the last one it received), then the end.
   */
  fail(reason: AppError) {
    if (this.done) return;
    this.queue.length = 0;
    this.held = undefined;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: reason, done: false });
    } else this.failure = reason;
    this.finish();
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
    this.finish();
    this.waiting?.({ value: undefined, done: true });
    this.waiting = undefined;
  }

  private finish() {
    this.done = true;
    this.onEnd();
    this.whenDrained?.();
    this.whenDrained = undefined;
  }

  next(): Promise<IteratorResult<StreamItem>> {
    const next = this.queue.shift();
    if (this.queue.length === 0 && this.whenDrained) {
      const resolve = this.whenDrained;
      this.whenDrained = undefined;
      resolve();
    }
    if (next) return Promise.resolve({ value: next, done: false });
    if (this.failure) {
      const reason = this.failure;
      this.failure = undefined;
      return Promise.resolve({ value: reason, done: false });
    }
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<StreamItem>> {
    this.queue.length = 0;
    this.failure = undefined;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator]() {
    return this;
  }
}
