import type { DbOrTx } from './index.ts';
import { statement } from './statement.ts';

/** Totals across every merchant, for the operator's overview and /metrics: never one merchant's data. */

const payoutsByStateStatement = statement<Record<string, never>, { status: string; n: number; gross: string }>(
  'payouts by state',
  `select status, count(*) as n, coalesce(sum(gross_amount_cents), 0) as gross from payouts group by status`,
);

/** Payouts per state with their gross amounts (states with none are left out). */
export async function payoutsByState(db: DbOrTx): Promise<{ status: string; count: number; grossCents: number }[]> {
  const rows = await payoutsByStateStatement.run(db, {});
  return rows.map((r) => ({ status: r.status, count: Number(r.n), grossCents: Number(r.gross) }));
}

const attemptsStatement = statement<Record<string, never>, { succeeded: boolean; n: number }>(
  'webhook attempts by outcome',
  `select succeeded, count(*) as n from webhook_attempts group by succeeded`,
);

/** Webhook attempts ever made, by outcome. */
export async function webhookAttemptCounts(db: DbOrTx): Promise<{ succeeded: number; failed: number }> {
  const rows = await attemptsStatement.run(db, {});
  return {
    succeeded: Number(rows.find((r) => r.succeeded)?.n ?? 0),
    failed: Number(rows.find((r) => !r.succeeded)?.n ?? 0),
  };
}

const deliveriesStatement = statement<Record<string, never>, { status: string; n: number }>(
  'webhook deliveries by status',
  `select status, count(*) as n from webhook_deliveries group by status`,
);

/** Webhook deliveries by status. */
export async function deliveryCounts(db: DbOrTx): Promise<Record<'pending' | 'succeeded' | 'failed', number>> {
  const rows = await deliveriesStatement.run(db, {});
  const of = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { pending: of('pending'), succeeded: of('succeeded'), failed: of('failed') };
}

const lagStatement = statement<Record<string, never>, { p50: number | null; p99: number | null; max: number | null; oldest: number | null }>(
  'webhook delivery lag',
  `select
     percentile_cont(0.5) within group (order by extract(epoch from d.completed_at - e.created_at)) as p50,
     percentile_cont(0.99) within group (order by extract(epoch from d.completed_at - e.created_at)) as p99,
     max(extract(epoch from d.completed_at - e.created_at)) as max,
     (select extract(epoch from now() - min(created_at)) from webhook_deliveries where status = 'pending') as oldest
   from webhook_deliveries d join events e on e.id = d.event_id
   where d.status = 'succeeded' and d.completed_at > now() - interval '5 minutes'`,
);

/**
 * Seconds from event commit to acknowledged delivery over the last 5 minutes (median, 99th
 * percentile, longest), and the age in seconds of the oldest delivery still pending; 0 for none.
 */
export async function deliveryLag(db: DbOrTx): Promise<{ p50: number; p99: number; max: number; oldestPending: number }> {
  const [r] = await lagStatement.run(db, {});
  return { p50: Number(r?.p50 ?? 0), p99: Number(r?.p99 ?? 0), max: Number(r?.max ?? 0), oldestPending: Number(r?.oldest ?? 0) };
}

const reservedStatement = statement<Record<string, never>, { s: string }>(
  'the sum reserved across balances',
  `select coalesce(sum(reserved_cents), 0) as s from balances`,
);

/** The gross amounts held for payouts not yet finished, across every merchant. */
export async function reservedCents(db: DbOrTx): Promise<number> {
  const [row] = await reservedStatement.run(db, {});
  return Number(row!.s);
}

const oldestPendingStatement = statement<Record<string, never>, { at: Date | null }>(
  'the oldest pending payout',
  `select min(created_at) as at from payouts where status = 'pending'`,
);

/** When the oldest payout awaiting approval was created; null when none awaits. */
export async function oldestPendingPayoutAt(db: DbOrTx): Promise<Date | null> {
  const [row] = await oldestPendingStatement.run(db, {});
  return row!.at ? new Date(row!.at) : null;
}

const auditCountStatement = statement<{ action: string }, { n: number }>(
  'audit entries of one action',
  `select count(*) as n from audit_log where action = :action::text`,
);

/** How many times the audit log recorded `action` (e.g. `payment.notification_mismatch`). */
export async function auditCount(db: DbOrTx, action: string): Promise<number> {
  const [row] = await auditCountStatement.run(db, { action });
  return Number(row?.n ?? 0);
}

const refundsStatement = statement<Record<string, never>, { pending: number; failed: number }>(
  'refunds pending and failed',
  `select count(*) filter (where status = 'pending') as pending, count(*) filter (where status = 'failed') as failed from refunds`,
);

/** Refunds still waiting for their provider, and refunds that failed (the money did not go back). */
export async function refundCounts(db: DbOrTx): Promise<{ pending: number; failed: number }> {
  const [row] = await refundsStatement.run(db, {});
  return { pending: Number(row?.pending ?? 0), failed: Number(row?.failed ?? 0) };
}

const stalePendingStatement = statement<{ alertMs: number }, { stale: number; oldest_at: Date | null; oldest: number | null }>(
  'refunds pending too long',
  `select count(*) filter (where created_at < now() - :alertMs::bigint * interval '1 millisecond') as stale,
          min(created_at) as oldest_at, extract(epoch from now() - min(created_at)) as oldest
     from refunds where status = 'pending'`,
);

/**
 * Refunds pending for longer than `alertMs` since they were asked for (their outcome never came:
 * an operator must check with the provider), and when the oldest pending one was asked for (null,
 * and 0 seconds old, when none is pending).
 */
export async function stalePendingRefunds(db: DbOrTx, alertMs: number): Promise<{ stale: number; oldestAt: Date | null; oldestSeconds: number }> {
  const [row] = await stalePendingStatement.run(db, { alertMs });
  return { stale: Number(row?.stale ?? 0), oldestAt: row?.oldest_at ? new Date(row.oldest_at) : null, oldestSeconds: Number(row?.oldest ?? 0) };
}

const owedStatement = statement<Record<string, never>, { status: string; n: number }>(
  'refunds owed for late money by state',
  `select refund_status as status, count(*) as n from payment_attempts where refund_status is not null group by refund_status`,
);

/**
 * Money owed back for late money, by where its refund is: not yet confirmed (to ask the provider,
 * or asked), given back, or failed (an operator must give it back by hand).
 */
export async function owedRefundCounts(db: DbOrTx): Promise<{ open: number; succeeded: number; failed: number }> {
  const rows = await owedStatement.run(db, {});
  const of = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { open: of('pending') + of('requested'), succeeded: of('succeeded'), failed: of('failed') };
}
