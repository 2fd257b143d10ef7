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
 * Per-merchant, per-operation, per-minute budgets (spec "Limits", CONTRACT §1 `RATE_LIMITS`),
 * counted by rate-limiter-flexible in a fixed 60-second window.
 *
 * Store: `REDIS_URL` → Redis (shared by every instance, no database writes); else `DATABASE_URL`
 * → a PostgreSQL table (shared, one upsert per counted request, none once a merchant is over
 * its budget thanks to the in-memory block); else (embedded) → process memory.
 *
 * A failing store (Redis or PostgreSQL down) never fails the request: the decision falls back
 * to an in-memory counter of this instance, with a warning logged at most every 30 s. Limits
 * then hold per instance instead of across instances until the store is back.
 */
export class RateLimitService {
  readonly store: RateLimitStore;
  private readonly limiters = new Map<RateLimitedOperation, RateLimiterAbstract>();
  private readonly fallbacks = new Map<RateLimitedOperation, RateLimiterMemory>();
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
      // waiting for a reconnect with the request hanging on it.
      this.redis = new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 1000 });
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
  }

  private limiterFor(common: { keyPrefix: string; points: number; duration: number }): RateLimiterAbstract {
    // Once a merchant has used its budget, refuse from memory until the window ends: no
    // round trip to the store for a client that keeps hammering.
    const block = { inMemoryBlockOnConsumed: common.points };
    if (this.redis) return new RateLimiterRedis({ ...common, ...block, storeClient: this.redis, rejectIfRedisNotReady: true });
    if (this.pool) {
      return new RateLimiterPostgres({ ...common, ...block, storeClient: this.pool, storeType: 'pool', tableName: PG_TABLE, tableCreated: true });
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
      await this.storeReady();
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

  async close(): Promise<void> {
    this.redis?.disconnect();
    await this.pool?.end();
  }

  /**
   * Right after start-up the store may not be connected yet: wait for it briefly (once), rather
   * than counting the first requests in memory only.
   */
  private storeReady(): Promise<void> {
    if (this.redis) {
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
