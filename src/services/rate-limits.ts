import { createHmac } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { pino } from 'pino';
import { ANONYMOUS, type Config, type RateLimitBudget, type RateLimitedOperation } from '../config.ts';
import { type Count, type CounterStore, MemoryCounters } from '../outside/counters.ts';
import { postgresCounterStore } from '../outside/postgres-counters.ts';
import { redisCounterStore } from '../outside/redis-counters.ts';
import type { ServiceDeps } from './deps.ts';

/** The outcome of one request against its budget for the current minute. */
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

/** A failing store is logged at most this often, not once per request. */
const STORE_ERROR_LOG_INTERVAL_MS = 30_000;
/** Keys one budget counts in this process's memory (the embedded store, or while the store fails). */
const MEMORY_KEYS = 50_000;
/** Keys whose refusal this process remembers until their window ends. */
const REFUSALS_KEPT = 10_000;

/**
 * Per-minute budgets (spec "Limits", CONTRACT §1 and §9 `RATE_LIMITS`): each merchant's, per
 * operation, and each client address's `anonymous` one, counted in a fixed 60-second window.
 *
 * Store: `REDIS_URL` → Redis (shared by every instance, no database writes); else `DATABASE_URL`
 * → a PostgreSQL table (shared); else (embedded) → process memory. Every counted request is
 * counted atomically in the shared store, which answers with the new count, so the count is
 * exact on any number of instances: a merchant gets its whole budget, and not one request more,
 * whichever instances its requests reach, and `RateLimit-Remaining` is the store's own count.
 * Redis runs rate-limiter-flexible's Lua script once per request; PostgreSQL runs one upsert per
 * request while a connection of its pool is free, and one per batch of the requests that queued
 * meanwhile when all are busy (postgres-counters.ts), exact all the same.
 *
 * The one thing kept in memory beside a shared store is a refusal: the store's count only grows
 * until the window ends, so a key refused once is refused until then, from memory, and a client
 * hammering a 429 costs the store nothing. That memo, and the memory counters, are bounded LRU
 * caches, so no number of distinct addresses can grow this process.
 *
 * A failing store (Redis or PostgreSQL down) never fails the request: the decision falls back to
 * an in-memory counter of this instance, with a warning logged at most every 30 s. Limits then
 * hold per instance instead of across instances until the store is back.
 */
export class RateLimitService {
  readonly store: RateLimitStore;
  /** The memory store, or a shared store's fallback. */
  private readonly memory = new Map<RateLimitBudget, MemoryCounters>();
  /** `${budget}:${id}` → when its refusal ends (ms since the epoch). */
  private readonly refusals = new LRUCache<string, number>({ max: REFUSALS_KEPT });
  /** The store's keys are prefixed by the deployment's namespace. */
  private readonly namespace: string;
  private ready = false;
  private readying: Promise<void> | undefined;
  private lastStoreErrorLog = 0;
  private readonly log;

  /**
   * `counters`: the shared store (Redis or PostgreSQL), or none to count in memory; with
   * RATE_LIMITS=off nothing is counted at all.
   */
  constructor(
    private readonly deps: ServiceDeps,
    private readonly counters: CounterStore | null,
  ) {
    const { config } = deps;
    this.log = pino({ level: config.logLevel, name: 'rate-limits' });
    this.namespace = namespace(config);
    this.store = !config.rateLimits ? 'off' : (counters?.kind ?? 'memory');
    if (counters) counters.onError = (e) => this.storeFailed(e);
  }

  /**
   * A budget's memory counters, made at its first count: each holds room for MEMORY_KEYS keys, and
   * a service on a shared store that never falls back never needs them.
   */
  private memoryOf(budget: RateLimitBudget): MemoryCounters {
    let counters = this.memory.get(budget);
    if (!counters) this.memory.set(budget, (counters = new MemoryCounters(MEMORY_KEYS)));
    return counters;
  }

  /** The budget of `budget`, or `undefined` when rate limiting is off. */
  limitOf(budget: RateLimitBudget): number | undefined {
    return this.deps.config.rateLimits?.[budget];
  }

  /**
   * Counts one request of `merchantId` against `operation`, for `units` of its budget (a GraphQL
   * request asking for many rows spends several, in the same one atomic count). `null` when
   * rate limiting is off. Never throws for a store failure (see the class comment).
   */
  consume(merchantId: string, operation: RateLimitedOperation, units = 1): Promise<RateLimitDecision | null> {
    return this.count(operation, merchantId, units);
  }

  /**
   * Counts one request from `address` (a client address, or the network it stands for) against
   * the `anonymous` budget. `null` when rate limiting is off.
   */
  consumeAnonymous(address: string): Promise<RateLimitDecision | null> {
    return this.count(ANONYMOUS, address);
  }

  private async count(budget: RateLimitBudget, id: string, points = 1): Promise<RateLimitDecision | null> {
    const limit = this.limitOf(budget);
    if (limit === undefined) return null;
    if (!this.counters) return decision(limit, this.memoryOf(budget).consume(id, points));
    const refusal = `${budget}:${id}`;
    const until = this.refusals.get(refusal);
    if (until !== undefined && until > Date.now()) return decision(limit, { consumedPoints: limit + 1, msBeforeNext: until - Date.now() });
    let counted: Count;
    try {
      if (!this.ready) await this.storeReady();
      counted = await this.counters.consume(`${this.namespace}_${budget}:${id}`, points);
    } catch (e) {
      this.storeFailed(e);
      return decision(limit, this.memoryOf(budget).consume(id, points));
    }
    const d = decision(limit, counted);
    if (!d.allowed) this.refusals.set(refusal, Date.now() + counted.msBeforeNext);
    return d;
  }

  async close(): Promise<void> {
    await this.counters?.close();
  }

  /** Forgets ended windows of a store that keeps them (PostgreSQL): a recurring job, every minute. */
  async sweep(): Promise<void> {
    if (!this.counters?.sweep) return;
    if (!this.ready) await this.storeReady();
    await this.counters.sweep();
  }

  /** Whether the store keeps ended windows until swept. */
  get needsSweeping(): boolean {
    return this.counters?.sweep !== undefined;
  }

  /**
   * Right after start-up the store may not be connected yet: wait for it briefly (once), rather
   * than counting the first requests in memory only.
   */
  private storeReady(): Promise<void> {
    this.readying ??= this.counters!.ready();
    return this.readying.then(
      () => void (this.ready = true),
      (e: unknown) => {
        // Retried on the next request.
        this.readying = undefined;
        throw e;
      },
    );
  }

  private storeFailed(e: unknown) {
    const now = Date.now();
    if (now - this.lastStoreErrorLog < STORE_ERROR_LOG_INTERVAL_MS) return;
    this.lastStoreErrorLog = now;
    this.log.warn({ store: this.store, err: (e as Error)?.message }, 'rate-limit store failing; counting in memory on this instance');
  }
}

/**
 * The store's keys are prefixed by a tag derived from SERVICE_SECRET (which every instance of
 * one deployment shares): deployments sharing one Redis never count each other's addresses.
 */
function namespace(config: Config): string {
  return createHmac('sha256', config.serviceSecret).update('zarpay rate-limit namespace v1').digest('hex').slice(0, 12);
}

function decision(limit: number, count: Count): RateLimitDecision {
  return {
    allowed: count.consumedPoints <= limit,
    limit,
    remaining: Math.max(0, limit - count.consumedPoints),
    resetSeconds: Math.max(1, Math.ceil(count.msBeforeNext / 1000)),
  };
}

/**
 * The shared store the settings name: `REDIS_URL` → Redis; else `DATABASE_URL` → a PostgreSQL
 * table; else (embedded: one process) none, and the service counts in memory. None either when
 * rate limiting is off.
 */
export function counterStoreFor(config: Config): CounterStore | null {
  if (!config.rateLimits) return null;
  if (config.redisUrl) return redisCounterStore(config.redisUrl, 'zarpay_rl');
  if (config.databaseUrl) return postgresCounterStore(config.databaseUrl);
  return null;
}
