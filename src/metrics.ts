import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseHandle } from './db/index.ts';
import type { EventBus } from './services/event-bus.ts';
import type { JobService } from './services/jobs.ts';
import type { StatsService } from './services/stats.ts';

/**
 * The methods the service routes; any other (Node's parser accepts some thirty, WebDAV's among
 * them) is counted as `other`. With route patterns and the statuses the service answers, every
 * label comes from a closed set: no request can add a series.
 */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Prometheus metrics for operators (`/metrics`). One registry per app, so several apps in one
 * process (tests) never share counters. Business gauges are read through the stats service at
 * scrape time, so they are right across restarts and across instances.
 */
export function createMetrics(database: DatabaseHandle, stats: StatsService, events: EventBus, jobs: JobService) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  // Registered before every gauge that queries the database, and read synchronously: a scrape
  // starts the collects in registration order in one pass, and those collects check connections
  // out of this very pool as they start. Read after them, the gauge counted the scrape's own
  // queries (4 "waiting" on an idle service) instead of what the pool was doing.
  if (database.pool) {
    const pool = database.pool;
    new Gauge({
      name: 'zarpay_db_pool_connections',
      help: 'PostgreSQL pool connections by state (total, idle, waiting requests), as the pool reports them before the scrape\'s own queries',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }

  const httpDuration = new Histogram({
    name: 'zarpay_http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  // Every request is counted by the histogram under the same labels; the counter is read from it
  // at scrape time. prom-client builds and looks up a label key on every call, and a second call
  // per request cost ~3% of the service's CPU on a cached read (bench --profile).
  new Counter({
    name: 'zarpay_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
    async collect() {
      const { values } = await httpDuration.get();
      this.reset();
      for (const { metricName, labels, value } of values) {
        if (metricName === 'zarpay_http_request_duration_seconds_count' && value > 0) this.inc(labels, value);
      }
    },
  });
  const graphqlOperations = new Counter({
    name: 'zarpay_graphql_operations_total',
    help: 'GraphQL operations by type, name and outcome (ok, error, refused)',
    labelNames: ['type', 'name', 'outcome'] as const,
    registers: [registry],
  });
  const rateLimitRefusals = new Counter({
    name: 'zarpay_rate_limit_refusals_total',
    help: 'Requests refused with RATE_LIMIT_EXCEEDED, by route',
    labelNames: ['route'] as const,
    registers: [registry],
  });

  new Gauge({
    name: 'zarpay_payouts',
    help: 'Payouts by state, and their gross amount in cents',
    labelNames: ['status', 'measure'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const p of await stats.payoutsByState()) {
        this.set({ status: p.status, measure: 'count' }, p.count);
        this.set({ status: p.status, measure: 'gross_cents' }, p.grossCents);
      }
    },
  });

  // A refund's outcome comes from its provider's notification; one that never came leaves the
  // merchant's money reserved until an operator checks with the provider (`zarpay refund resolve`).
  new Gauge({
    name: 'zarpay_refunds_pending_stale',
    help: 'Refunds still pending longer than REFUND_PENDING_ALERT_MS after they were asked for: check each with its provider and record the outcome (zarpay refund list --stale, zarpay refund resolve)',
    registers: [registry],
    async collect() {
      this.set((await stats.stalePendingRefunds()).stale);
    },
  });
  new Gauge({
    name: 'zarpay_refunds_oldest_pending_seconds',
    help: 'How long ago the oldest refund still pending was asked for (0: none pending)',
    registers: [registry],
    async collect() {
      this.set((await stats.stalePendingRefunds()).oldestSeconds);
    },
  });

  new Gauge({
    name: 'zarpay_sealed_values_unreadable',
    help: 'Bank details (payout_details) and voucher codes (voucher_code) found not to open under the data keys',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      for (const { kind, count } of await stats.sealedUnreadable()) this.set({ kind: kind.replace('-', '_') }, count);
    },
  });

  new Gauge({
    name: 'zarpay_webhook_attempts',
    help: 'Webhook delivery attempts ever made, by outcome (succeeded, failed)',
    labelNames: ['outcome'] as const,
    registers: [registry],
    async collect() {
      const attempts = await stats.webhookAttempts();
      for (const outcome of ['succeeded', 'failed'] as const) this.set({ outcome }, attempts[outcome]);
    },
  });

  new Gauge({
    name: 'zarpay_webhook_deliveries',
    help: 'Webhook deliveries by status; pending is the outbox backlog',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const deliveries = await stats.deliveriesByStatus();
      for (const status of ['pending', 'succeeded', 'failed'] as const) this.set({ status }, deliveries[status]);
    },
  });

  new Gauge({
    name: 'zarpay_webhook_delivery_lag_seconds',
    help: 'From event commit to acknowledged delivery, over the last 5 minutes (p50, p99, max), and the age of the oldest pending delivery',
    labelNames: ['measure'] as const,
    registers: [registry],
    async collect() {
      const lag = await stats.deliveryLag();
      this.set({ measure: 'p50' }, lag.p50);
      this.set({ measure: 'p99' }, lag.p99);
      this.set({ measure: 'max' }, lag.max);
      this.set({ measure: 'oldest_pending' }, lag.oldestPending);
    },
  });

  // Background work: the queues as the database holds them (every runner's), and what this
  // process's runner finished. Queue names come from a closed list (domain/jobs.ts).
  new Gauge({
    name: 'zarpay_jobs',
    help:
      'Background jobs by queue and state: due (waiting for a runner), scheduled (due later), running, failed (waiting for an operator); retrying counts those of the first three whose last try failed (a recurring job that keeps failing stays there)',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      for (const q of await jobs.figures()) {
        for (const state of ['due', 'scheduled', 'running', 'failed', 'retrying'] as const) this.set({ queue: q.queue, state }, q[state]);
      }
    },
  });
  new Gauge({
    name: 'zarpay_jobs_oldest_due_seconds',
    help: 'How long the oldest due job of each queue has waited past its time (0: none waiting)',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      for (const q of await jobs.figures()) this.set({ queue: q.queue }, q.oldestDueSeconds);
    },
  });
  new Counter({
    name: 'zarpay_jobs_finished_total',
    help: 'Job runs this process finished, by queue and outcome: done, retried (a failed try with tries left), failed (gave up)',
    labelNames: ['queue', 'outcome'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [queue, c] of jobs.processed()) {
        this.inc({ queue, outcome: 'done' }, c.processed);
        this.inc({ queue, outcome: 'retried' }, c.retried);
        this.inc({ queue, outcome: 'failed' }, c.failed);
      }
    },
  });
  new Counter({
    name: 'zarpay_jobs_item_failures_total',
    help: 'Items of batch jobs (payments to expire) that failed in this process while the rest of the batch went on; each is passed over for a while',
    labelNames: ['queue'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [queue, c] of jobs.processed()) this.inc({ queue }, c.itemFailures);
    },
  });

  new Counter({
    name: 'zarpay_event_reads_total',
    help: 'Reads of the event log for the open subscriptions in this process (a stalled count with subscribers open: streams are stuck)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(events.readsDone);
    },
  });

  new Gauge({
    name: 'zarpay_subscriptions',
    help: 'Open GraphQL subscriptions (event streams) in this process',
    registers: [registry],
    collect() {
      this.set(events.subscriberCount);
    },
  });

  return {
    registry,
    /** Records one finished HTTP request; `route` is the route pattern (or `unmatched`), never the raw URL. */
    httpRequest(method: string, route: string, status: number, seconds: number) {
      httpDuration.observe({ method: METHODS.has(method) ? method : 'other', route, status: String(status) }, seconds);
      if (status === 429) rateLimitRefusals.inc({ route });
    },
    /** `name` from a closed set (operation-metrics.ts), never the request's own text. */
    graphqlOperation(type: string, name: string, outcome: 'ok' | 'error' | 'refused') {
      graphqlOperations.inc({ type, name, outcome });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
