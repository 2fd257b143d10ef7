import { LRUCache } from 'lru-cache';

/** Every budget counts in a fixed window of a minute, starting with the key's first request. */
export const WINDOW_MS = 60_000;

interface Window {
  consumed: number;
  /** When the window ends (ms since the epoch). */
  resetAt: number;
}

/** What one count left: the same two facts rate-limiter-flexible's RateLimiterRes gives. */
export interface Count {
  /** Requests counted in the window, this one included. */
  consumedPoints: number;
  msBeforeNext: number;
}

/**
 * Fixed one-minute windows kept in this process for at most `maxKeys` keys. Whatever keys
 * arrive (every IPv6 address of a /64 a caller may cycle through), memory stays bounded: past
 * `maxKeys`, the key seen least recently is forgotten, and should it come back, its count starts
 * again. Forgetting only ever lets a key through, never refuses one early.
 */
export class MemoryCounters {
  private readonly windows: LRUCache<string, Window>;

  constructor(maxKeys: number) {
    this.windows = new LRUCache({ max: maxKeys });
  }

  /** Counts one request of `key`, for `points` points. */
  consume(key: string, points = 1, now = Date.now()): Count {
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { consumed: 0, resetAt: now + WINDOW_MS };
      this.windows.set(key, window);
    }
    window.consumed += points;
    return { consumedPoints: window.consumed, msBeforeNext: window.resetAt - now };
  }

  get size(): number {
    return this.windows.size;
  }
}

/**
 * The counters port: where rate-limit windows are counted. `redis` and `postgres` are shared by
 * every instance (exact budgets across instances); `memory` is this process's own (the embedded
 * database has one process anyway). Each `consume` adds the points to the key's window,
 * atomically in a shared store, and answers the window's count: as exact on ten instances as on one.
 */
export interface CounterStore {
  readonly kind: 'redis' | 'postgres' | 'memory';
  /** Counts `points` for `key` (a budget's prefix and the merchant or address); rejects when the store fails. */
  consume(key: string, points: number): Promise<Count>;
  /** Connects (or makes its table) before the first count; rejects, to be tried again, when it cannot. */
  ready(): Promise<void>;
  /** Forgets ended windows (a shared store that keeps rows; the others forget by themselves). */
  sweep?(): Promise<void>;
  close(): Promise<void>;
  /** Hears a store failing (a dropped connection) outside any count. */
  onError?: (e: unknown) => void;
}

/** This process's counters, as a store: for the embedded database, where one process is all there is. */
export function memoryCounterStore(maxKeys: number): CounterStore {
  const counters = new MemoryCounters(maxKeys);
  return {
    kind: 'memory',
    consume: async (key, points) => counters.consume(key, points),
    ready: async () => {},
    close: async () => {},
  };
}
