/**
 * The background work zarpay does, by queue. A job is one piece of it: a queue (the task that
 * does it), a key (the same work asked for twice is one job: a delivery id, an attempt id), a
 * payload and when it is due. The runner (src/jobs/runner.ts) claims, runs, retries and ends
 * them; the tasks say what a job of their queue means.
 */
export const QUEUE = {
  /** One webhook delivery: POST an event to a merchant's URL (CONTRACT §6). */
  webhook: 'webhook.deliver',
  /** A customer's payment confirmation by e-mail. */
  customerEmail: 'customer.email',
  /** A customer's payment confirmation by SMS (CONTRACT §10). */
  customerSms: 'customer.sms',
  /** Ask a provider how an attempt went, once its notification is late (RECONCILE_AFTER_MS). */
  reconcile: 'payment.reconcile',
  /** End payments never finished in PAYMENT_EXPIRES_AFTER_MS: their provider asked once more, then `failed` as `expired` (every minute). */
  expire: 'payment.expire',
  /** Give back money that arrived for a payment that had already ended. */
  refundOwed: 'payment.refund_owed',
  /** Ask a refund's provider to make it, and how it went when its notification is late (CONTRACT §10). */
  refund: 'refund.request',
  /** The sandbox provider's side: tell zarpay how a sandbox checkout went. */
  sandboxConfirm: 'sandbox.confirm',
  /** Forget idempotency keys past their 24 hours (hourly). */
  purge: 'maintenance.purge',
  /** An e-mail to one of a merchant's people about their own account (a sign-in lock). */
  personEmail: 'person.email',
  /** Apply a stored bank report (camt.054/053) to the payouts it names, in bounded steps (issue 34). */
  bankReport: 'payout.bank_report',
  /** A one-off payment request: the payment's page e-mailed to the customer (CONTRACT §11). */
  paymentRequestEmail: 'payment.request_email',
  /** Delete ended windows of the PostgreSQL rate-limit counters (every minute). */
  rateLimitSweep: 'maintenance.rate_limit_sweep',
} as const;

export type Queue = (typeof QUEUE)[keyof typeof QUEUE];

export const JOB_STATUSES = ['queued', 'running', 'failed'] as const;
/** `queued`: waiting for its time or a free slot; `running`: claimed by a runner now; `failed`: gave up, kept for an operator. */
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A job as the operator sees it (`zarpay jobs list`, GraphQL `jobs`). */
export interface Job {
  id: number;
  queue: string;
  key: string;
  merchantId: string | null;
  status: JobStatus;
  runAt: Date;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** One queue's state, for /metrics and `zarpay jobs stats`. */
export interface QueueStats {
  queue: string;
  /** Queued and due now, not held by a runner. */
  due: number;
  /** Queued for later (a retry's backoff, a reconciliation's wait). */
  scheduled: number;
  running: number;
  failed: number;
  /**
   * Queued again after a failed try (counted among due, scheduled or running too): a retry's
   * backoff, or a recurring job that keeps failing, which never becomes `failed`.
   */
  retrying: number;
  /** Seconds the oldest due job has waited past its time; 0 when none is due. */
  oldestDueSeconds: number;
}
