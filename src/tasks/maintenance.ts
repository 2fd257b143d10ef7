import { QUEUE } from '../domain/jobs.ts';
import type { Task } from '../jobs/task.ts';
import type { PaymentService } from '../services/payments.ts';
import type { RateLimitService } from '../services/rate-limits.ts';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Idempotency keys are kept 24 hours (CONTRACT §4); this recurring job forgets the older ones,
 * hourly. One job for the whole deployment (its key), due again after each run: whichever
 * runner is free runs it; a failure is retried, visible on its row, and never final.
 */
export function purgeTask(payments: PaymentService): Task<Record<string, never>> {
  return {
    queue: QUEUE.purge,
    concurrency: 1,
    leaseMs: 5 * 60 * 1000,
    retryDelaysMs: [60_000, 5 * 60_000, 15 * 60_000],
    recurring: { key: 'hourly', everyMs: HOUR_MS },
    async run() {
      await payments.purgeExpiredKeys();
    },
  };
}

/**
 * The PostgreSQL rate-limit counters keep a row per key and window: this recurring job deletes
 * the ended windows every minute, so the table holds about two minutes of keys whatever
 * addresses arrive. Registered only where the counters live in PostgreSQL.
 */
export function rateLimitSweepTask(rateLimits: RateLimitService): Task<Record<string, never>> {
  return {
    queue: QUEUE.rateLimitSweep,
    concurrency: 1,
    leaseMs: 60_000,
    retryDelaysMs: [5_000, 30_000, 60_000],
    recurring: { key: 'minutely', everyMs: 60_000 },
    async run() {
      await rateLimits.sweep();
    },
  };
}
