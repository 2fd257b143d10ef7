import { Redis } from 'ioredis';
import pg from 'pg';
import { pino } from 'pino';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { RateLimitedOperation } from '../config.ts';
import type { ServiceDeps } from './deps.ts';

/** The outcome of one request against its operation's per-merchant, per-minute budget. */
export interface RateLimitDecision {
  allowed: boolean;
  /** The budget per window (`RateLimit-Limit`). */
  limit: number;
  /** What is left in this window after this request (`RateLimit-Remaining`). */
  remaining: number;
  /** Seconds until the window resets (`RateLimit-Reset`, and `Retry-After` when refused). */
  resetSeconds: number;
}

/** Where the counters live: decides whether several instances share one budget. */
export type RateLimitStore = 'redis' | 'postgres' | 'memory' | 'off';

const WINDOW_SECONDS = 60;
const PG_TABLE = 'rate_limit_counters';
/** A failing store is logged at most this often, not once per request. */
const STORE_ERROR_LOG_INTERVAL_MS = 30_000;

/**
 * What one instance holds of a merchant's budget for one operation in the current window: the
 * points it took from the shared store and how many of them it has spent.
 */
interface Lease {
  /** When the store's window ends (ms since the epoch). */
  resetAt: number;
  granted: number;
  used: number;
  /** The store's count after this instance's last lease: every instance's points, ours included. */
  storeConsumed: number;
  /** The store had no points left to give: refuse once `granted` is spent, until `resetAt`. */
  exhausted: boolean;
  /** A lease on its way; concurrent requests wait for it instead of asking again. */
  pending?: Promise<void> | undefined;
}

/** A lease asks for this share of what the store still has, so one instance cannot hoard it all. */
const LEASE_SHARE = 4;
const SWEEP_EVERY_MS = 60_000;

/**
 * Per-merchant, per-operation, per-minute budgets (spec "Limits", CONTRACT §1 `RATE_LIMITS`),
 * counted by rate-limiter-flexible in a fixed 60-second window.
 *
 * Store: `REDIS_URL` → Redis (shared by every instance, no database writes); else `DATABASE_URL`
 * → a PostgreSQL table (shared); else (embedded) → process memory, one exact count per request.
 *
 * A shared store is not asked on every request. An instance leases points from it, a quarter of
 * what the store has left at a time (at least one), in one atomic increment, and spends them
 * from memory; only when they run out does it go back for more. The store's count is therefore
 * never below what the instances have spent, so no merchant ever gets more than its budget,
 * whatever the number of instances. With one instance the counts are exact (it leases
 * everything there is); with several, points leased by one instance and not spent when the
 * budget runs out elsewhere are lost for that window, so a merchant may be refused a few
 * requests early, never late. A budget of N costs about 4·ln(N) store round trips per window
 * instead of N.
 *
 * A failing store (Redis or PostgreSQL down) never fails the request: the decision falls back
 * to an in-memory counter of this instance, with a warning logged at most every 30 s. Limits
 * then hold per instance instead of across instances until the store is back.
 */
export class RateLimitService {
  readonly store: RateLimitStore;
  private readonly limiters = new Map<RateLimitedOperation, RateLimiterAbstract>();
  private readonly fallbacks = new Map<RateLimitedOperation, RateLimiterMemory>();
  /** By `${operation}:${merchantId}`, for a shared store only. */
  private readonly leases = new Map<string, Lease>();
  private readonly sweeper: NodeJS.Timeout | undefined;
  private readonly redis: Redis | undefined;
  private readonly pool: pg.Pool | undefined;
  private tableReady: Promise<void> | undefined;
  private redisReady: Promise<void> | undefined;
  private lastStoreErrorLog = 0;
  private readonly log;

  constructor(private readonly deps: ServiceDeps) {
    const { config } = deps;
    this.log = pino({ level: config.logLevel, name: 'rate-limits' });
    if (!config.rateLimits) {
      this.store = 'off';
      return;
    }
    if (config.redisUrl) {
      this.store = 'redis';
      // No offline queue: while Redis is down a command fails at once (→ fallback) instead of
      // waiting for a reconnect with the request hanging on it. Connected on first use, so a
      // process that never counts (`zarpay dispatcher`) never opens it.
      this.redis = new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 1000, lazyConnect: true });
      this.redis.on('error', (e) => this.storeFailed(e));
    } else if (config.databaseUrl) {
      this.store = 'postgres';
      // A small pool of its own, failing fast, so counting never waits behind (or starves) the
      // money queries of the main pool.
      this.pool = new pg.Pool({
        connectionString: config.databaseUrl,
        max: 4,
        connectionTimeoutMillis: 1000,
        query_timeout: 2000,
        idleTimeoutMillis: 10_000,
      });
      this.pool.on('error', () => {});
    } else {
      this.store = 'memory';
    }
    for (const [operation, points] of Object.entries(config.rateLimits) as [RateLimitedOperation, number][]) {
      const common = { keyPrefix: `zarpay_rl_${operation}`, points, duration: WINDOW_SECONDS };
      this.fallbacks.set(operation, new RateLimiterMemory(common));
      this.limiters.set(operation, this.limiterFor(common));
    }
    if (this.store !== 'memory') {
      this.sweeper = setInterval(() => this.sweep(), SWEEP_EVERY_MS);
      this.sweeper.unref();
    }
  }

  private limiterFor(common: { keyPrefix: string; points: number; duration: number }): RateLimiterAbstract {
    if (this.redis) return new RateLimiterRedis({ ...common, storeClient: this.redis, rejectIfRedisNotReady: true });
    if (this.pool) {
      return new RateLimiterPostgres({ ...common, storeClient: this.pool, storeType: 'pool', tableName: PG_TABLE, tableCreated: true });
    }
    return new RateLimiterMemory(common);
  }

  /** The budget of `operation`, or `undefined` when rate limiting is off. */
  limitOf(operation: RateLimitedOperation): number | undefined {
    return this.deps.config.rateLimits?.[operation];
  }

  /**
   * Counts one request of `merchantId` against `operation`. `null` when rate limiting is off.
   * Never throws for a store failure (see the class comment).
   */
  async consume(merchantId: string, operation: RateLimitedOperation): Promise<RateLimitDecision | null> {
    const limiter = this.limiters.get(operation);
    const limit = this.limitOf(operation);
    if (!limiter || limit === undefined) return null;
    try {
      if (this.store !== 'memory') return await this.spend(limiter, `${operation}:${merchantId}`, merchantId, limit);
      return decision(limit, true, await limiter.consume(merchantId));
    } catch (e) {
      if (e instanceof RateLimiterRes) return decision(limit, false, e);
      this.storeFailed(e);
      try {
        return decision(limit, true, await this.fallbacks.get(operation)!.consume(merchantId));
      } catch (refused) {
        if (refused instanceof RateLimiterRes) return decision(limit, false, refused);
        throw refused;
      }
    }
  }

  /** One point from this instance's lease, leasing more from the shared store when it is spent. */
  private async spend(store: RateLimiterAbstract, id: string, merchantId: string, limit: number): Promise<RateLimitDecision> {
    for (;;) {
      const now = Date.now();
      let lease = this.leases.get(id);
      if (!lease || now >= lease.resetAt) {
        // No window yet: the first lease sets it.
        lease = { resetAt: Number.POSITIVE_INFINITY, granted: 0, used: 0, storeConsumed: 0, exhausted: false };
        this.leases.set(id, lease);
      }
      const resetSeconds = Math.max(1, Math.ceil((lease.resetAt - now) / 1000));
      if (lease.used < lease.granted) {
        lease.used++;
        const remaining = limit - lease.storeConsumed + (lease.granted - lease.used);
        return { allowed: true, limit, remaining: Math.max(0, remaining), resetSeconds };
      }
      if (lease.exhausted) return { allowed: false, limit, remaining: 0, resetSeconds };
      const current = lease;
      current.pending ??= this.extend(store, current, merchantId, limit).finally(() => (current.pending = undefined));
      await current.pending;
    }
  }

  /**
   * Takes more points for `lease` from the store in one atomic increment. The store counts the
   * whole request even when it overshoots the budget; only the part below the budget is granted.
   */
  private async extend(store: RateLimiterAbstract, lease: Lease, merchantId: string, limit: number) {
    await this.storeReady();
    const want = Math.max(1, Math.ceil((limit - lease.storeConsumed) / LEASE_SHARE));
    let res: RateLimiterRes;
    try {
      res = await store.consume(merchantId, want);
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e;
      res = e;
    }
    const before = res.consumedPoints - want;
    lease.granted += Math.min(want, Math.max(0, limit - before));
    lease.storeConsumed = Math.min(limit, res.consumedPoints);
    lease.exhausted = res.consumedPoints >= limit;
    lease.resetAt = Date.now() + res.msBeforeNext;
  }

  /** Forgets leases whose window has ended (or that never got one: the store was failing). */
  private sweep() {
    const now = Date.now();
    for (const [id, lease] of this.leases) {
      if ((now >= lease.resetAt || lease.granted === 0) && !lease.pending) this.leases.delete(id);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.redis?.disconnect();
    await this.pool?.end();
  }

  /**
   * Right after start-up the store may not be connected yet: wait for it briefly (once), rather
   * than counting the first requests in memory only.
   */
  private storeReady(): Promise<void> {
    if (this.redis) {
      if (this.redis.status === 'wait') this.redis.connect().catch((e) => this.storeFailed(e));
      this.redisReady ??= this.redis.status === 'ready' ? Promise.resolve() : new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        this.redis!.once('ready', () => (clearTimeout(timer), resolve()));
      });
      return this.redisReady;
    }
    return this.ensureTable();
  }

  /** The counters' table, created on first use; a failure is retried on the next request. */
  private ensureTable(): Promise<void> {
    if (!this.pool) return Promise.resolve();
    this.tableReady ??= this.pool
      .query(`create table if not exists ${PG_TABLE} (key varchar(255) primary key, points integer not null default 0, expire bigint)`)
      .then(
        () => undefined,
        (e: { code?: string }) => {
          // Two instances creating the table at once: the loser sees a unique violation.
          if (e.code === '23505') return;
          this.tableReady = undefined;
          throw e;
        },
      );
    return this.tableReady;
  }

  private storeFailed(e: unknown) {
    const now = Date.now();
    if (now - this.lastStoreErrorLog < STORE_ERROR_LOG_INTERVAL_MS) return;
    this.lastStoreErrorLog = now;
    this.log.warn({ store: this.store, err: (e as Error)?.message }, 'rate-limit store failing; counting in memory on this instance');
  }
}

function decision(limit: number, allowed: boolean, res: RateLimiterRes): RateLimitDecision {
  return {
    allowed,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}
