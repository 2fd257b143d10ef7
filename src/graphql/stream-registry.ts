import type { Actor } from '../domain/actor.ts';
import { AppError } from '../domain/errors.ts';
import type { StreamLimits } from '../domain/stream-limits.ts';
import type { WatchCaller } from '../services/key-watch.ts';

type Counter = 'reservations' | 'connections' | 'operations';

/** Who holds streams: one merchant API key, or the operator. */
class Principal {
  readonly held: Record<Counter, number> = { reservations: 0, connections: 0, operations: 0 };
  /** Its reservations and connections, to end them with its key. */
  readonly streams = new Set<EventStreamConnection>();
  unwatch: (() => void) | undefined;

  constructor(readonly id: string) {}

  get idle() {
    return this.held.reservations + this.held.connections + this.held.operations === 0;
  }
}

/** Gives a counted place back, once however often it is called. */
export type Release = () => void;

/**
 * One graphql-sse stream: a single-connection reservation (connected or not yet), or a
 * distinct-connection stream. It counts the results written to it that its socket has not
 * taken yet, so that its operations wait (`room`) instead of piling results up in memory.
 */
export class EventStreamConnection {
  /** `reserved`: a token not connected yet; `connecting`: a distinct-connection request not answered yet. */
  state: 'reserved' | 'connecting' | 'connected' | 'closed';
  /** Operations running on it. */
  operations = 0;
  private unsent = 0;
  private waiters: (() => void)[] = [];
  private readonly timers: { ttl?: NodeJS.Timeout; stall?: NodeJS.Timeout; grace?: NodeJS.Timeout } = {};
  private closing = false;
  private releaseConnection: Release | undefined;
  /** Ends the response once what is written has been taken (set on connecting). */
  private end: (() => void) | undefined;
  /** Cuts the response's socket (set on connecting). */
  private cut: (() => void) | undefined;

  constructor(
    private readonly registry: StreamRegistry,
    readonly principal: Principal | undefined,
    readonly token: string | null,
    private releaseReservation: Release | undefined,
  ) {
    this.state = token === null ? 'connecting' : 'reserved';
  }

  /** The response is streaming: a reservation stops counting as one and its TTL stops. */
  connected(releaseConnection: Release, end: () => void, cut: () => void) {
    this.state = 'connected';
    this.releaseConnection = releaseConnection;
    this.end = end;
    this.cut = cut;
    clearTimeout(this.timers.ttl);
    this.releaseReservation?.();
    this.releaseReservation = undefined;
    if (this.closing) this.closeWhenIdle();
  }

  /** Resolves once the socket has room for another result (or the connection is gone). */
  room(): Promise<void> {
    if (this.unsent < this.registry.limits.unsentPerConnection || this.state === 'closed') return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** An operation has handed graphql-sse a result to write. */
  produced() {
    this.unsent++;
    if (!this.timers.stall) {
      // Taken by nobody for this long while results wait: the reader is gone or stuck.
      this.timers.stall = setTimeout(() => this.cut?.(), this.registry.limits.stalledConnectionMs).unref();
    }
  }

  /** The socket took a result. */
  taken() {
    if (this.unsent > 0) this.unsent--;
    if (this.unsent === 0) {
      clearTimeout(this.timers.stall);
      this.timers.stall = undefined;
    } else this.timers.stall?.refresh();
    if (this.unsent < this.registry.limits.unsentPerConnection) this.wake();
  }

  operationEnded() {
    this.operations--;
    if (this.closing && this.operations <= 0) this.endSoon();
  }

  /** Ends it once its operations have sent their last results, and cuts it if that takes too long. */
  closeWhenIdle() {
    this.closing = true;
    if (this.state !== 'connected') return;
    if (this.operations <= 0) this.endSoon();
    this.timers.grace ??= setTimeout(() => this.cut?.(), this.registry.limits.closeGraceMs).unref();
  }

  /** On the next turn: graphql-sse writes an operation's last result and `complete` after it has ended. */
  private endSoon() {
    setImmediate(() => this.end?.());
  }

  /** The response has ended (or the reservation is freed): everything it counted is given back. */
  closed() {
    if (this.state === 'closed') return;
    this.state = 'closed';
    for (const timer of Object.values(this.timers)) clearTimeout(timer);
    this.registry.forget(this);
    this.releaseReservation?.();
    this.releaseConnection?.();
    this.wake();
  }

  /** Frees an unconnected reservation after the TTL. */
  expireAfter(ms: number, expire: () => void) {
    this.timers.ttl = setTimeout(() => this.state === 'reserved' && expire(), ms).unref();
  }

  private wake() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

/**
 * What every principal holds on `/graphql/stream`, against STREAM_LIMITS: reservations not yet
 * connected, open connections, running operations. Each place is taken before graphql-sse
 * does anything and given back when what took it ends. A merchant principal is watched: when its
 * key stops working, its reservations are freed and its connections end once their operations
 * (whose event streams end with the key) have sent their last result.
 */
export class StreamRegistry {
  private readonly principals = new Map<string, Principal>();
  private readonly byToken = new Map<string, EventStreamConnection>();
  private readonly totals: Record<Counter, number> = { reservations: 0, connections: 0, operations: 0 };

  constructor(
    readonly limits: StreamLimits,
    private readonly watchCaller: WatchCaller,
    /** Frees a reservation in graphql-sse (it holds one per token until connected). */
    private readonly expire: (token: string) => void,
  ) {}

  /** What is held now, by everyone. */
  counts(): Readonly<Record<Counter, number>> {
    return { ...this.totals };
  }

  /**
   * The principal of a caller who is about to take a place (undefined without credentials: it
   * may hold nothing). A merchant's key is watched from here on, while it holds anything.
   */
  principal(actor: Actor | undefined): Principal | undefined {
    const id = principalId(actor);
    if (!id || !actor) return undefined;
    let principal = this.principals.get(id);
    if (principal) return principal;
    principal = new Principal(id);
    this.principals.set(id, principal);
    if (actor.kind === 'merchant') {
      const p = principal;
      const unwatch = this.watchCaller(actor, () => this.keyEnded(p));
      // Found ended at once (it expired meanwhile): already let go of.
      if (this.principals.get(id) === p) p.unwatch = unwatch;
    }
    return principal;
  }

  /** Takes one place of `counter` for `principal`, or refuses (429) when it holds them all. */
  take(principal: Principal | undefined, counter: Counter): Release {
    if (!principal) return () => {};
    const max = this.limitOf(counter);
    if (principal.held[counter] >= max) {
      throw new AppError('RATE_LIMIT_EXCEEDED', TOO_MANY[counter](max, this.limits.reservationTtlMs));
    }
    principal.held[counter]++;
    this.totals[counter]++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      principal.held[counter]--;
      this.totals[counter]--;
      this.dropIfIdle(principal);
    };
  }

  /** A reservation graphql-sse has made under `token`, freed if not connected within the TTL. */
  reserved(principal: Principal, token: string, release: Release): EventStreamConnection {
    const stream = new EventStreamConnection(this, principal, token, release);
    this.byToken.set(token, stream);
    principal.streams.add(stream);
    stream.expireAfter(this.limits.reservationTtlMs, () => this.free(stream));
    return stream;
  }

  /** A distinct-connection stream (no token). */
  distinct(principal: Principal | undefined): EventStreamConnection {
    const stream = new EventStreamConnection(this, principal, null, undefined);
    principal?.streams.add(stream);
    return stream;
  }

  /** The reservation or connection of `token`, if the caller's principal holds it: nobody else may use it. */
  find(token: string, actor: Actor | undefined): EventStreamConnection | undefined {
    const stream = this.byToken.get(token);
    const id = principalId(actor);
    return stream && id && stream.principal?.id === id ? stream : undefined;
  }

  /** Frees every reservation and ends every connection (the server is stopping). */
  closeAll() {
    for (const principal of this.principals.values()) for (const stream of principal.streams) this.free(stream);
  }

  forget(stream: EventStreamConnection) {
    if (stream.token !== null && this.byToken.get(stream.token) === stream) this.byToken.delete(stream.token);
    stream.principal?.streams.delete(stream);
  }

  /** Lets go of a principal that took nothing after all (refused, or its request failed). */
  settle(principal: Principal | undefined) {
    if (principal) this.dropIfIdle(principal);
  }

  /** Ends a stream: a reservation is freed in graphql-sse at once; a connection once idle. */
  private free(stream: EventStreamConnection) {
    if (stream.state === 'reserved') {
      stream.closed();
      if (stream.token !== null) this.expire(stream.token);
    } else stream.closeWhenIdle();
  }

  private keyEnded(principal: Principal) {
    // A new request with the key is refused (403) from now on; what it holds ends.
    if (this.principals.get(principal.id) === principal) this.principals.delete(principal.id);
    principal.unwatch = undefined;
    for (const stream of [...principal.streams]) this.free(stream);
  }

  private dropIfIdle(principal: Principal) {
    if (!principal.idle || principal.streams.size > 0 || this.principals.get(principal.id) !== principal) return;
    this.principals.delete(principal.id);
    principal.unwatch?.();
  }

  private limitOf(counter: Counter) {
    if (counter === 'reservations') return this.limits.reservationsPerPrincipal;
    if (counter === 'connections') return this.limits.connectionsPerPrincipal;
    return this.limits.operationsPerPrincipal;
  }
}

const principalId = (actor: Actor | undefined) =>
  actor?.kind === 'merchant' ? (actor.person ? `session:${actor.person.sessionId}` : `key:${actor.key.kid}`) : actor?.kind === 'operator' ? 'operator' : undefined;

const TOO_MANY: Record<Counter, (max: number, ttlMs: number) => string> = {
  reservations: (max, ttlMs) =>
    `at most ${max} stream reservations may wait to be connected; connect one (each is freed if not connected within ${Math.ceil(ttlMs / 1000)} s)`,
  connections: (max) => `at most ${max} event streams may be open at once for one key (the operator: in all); close one first`,
  operations: (max) => `at most ${max} operations may run at once on event streams for one key (the operator: in all); complete one first`,
};
