import { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { type CounterStore, WINDOW_MS } from './counters.ts';

/**
 * The counters in Redis, shared by every instance without a database write: one atomic
 * rate-limiter-flexible consume (a Lua script) per request. The limiter is asked to count, never
 * to decide: its own limit is out of reach, and the service compares the count with the budget.
 * No offline queue: while Redis is down a command fails at once (the service then counts in
 * memory) instead of waiting for a reconnect with the request hanging on it. Connected on first
 * use, so a process that never counts (a worker) never opens it.
 */
export function redisCounterStore(url: string, keyPrefix: string): CounterStore {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 1000, lazyConnect: true });
  const limiter = new RateLimiterRedis({
    keyPrefix,
    points: Number.MAX_SAFE_INTEGER,
    duration: WINDOW_MS / 1000,
    storeClient: redis,
    rejectIfRedisNotReady: true,
  });
  const store: CounterStore = {
    kind: 'redis',
    consume: (key, points) => limiter.consume(key, points).catch((e: unknown) => (e instanceof RateLimiterRes ? e : Promise.reject(e))),
    ready() {
      if (redis.status === 'ready') return Promise.resolve();
      if (redis.status === 'wait') redis.connect().catch((e) => store.onError?.(e));
      // Right after start-up: wait for the connection briefly (once), rather than counting the
      // first requests in memory only.
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        redis.once('ready', () => (clearTimeout(timer), resolve()));
      });
    },
    close: async () => void redis.disconnect(),
  };
  redis.on('error', (e) => store.onError?.(e));
  return store;
}
