import { sql } from 'kysely';
import { type Actor, requireOperator } from '../domain/actor.ts';
import { PAYOUT_STATUSES, type PayoutStatus } from '../domain/payout.ts';
import type { ServiceDeps } from './deps.ts';

export interface PayoutStateStats {
  status: PayoutStatus;
  count: number;
  grossCents: number;
}

export interface OperatorStats {
  payouts: PayoutStateStats[];
  /** Sum of gross amounts held for pending, approved and processing payouts. */
  reservedCents: number;
  /** Gross amount of payouts awaiting approval: the operator's queue. */
  pendingApprovalCents: number;
  oldestPendingPayoutAt: Date | null;
  /** Webhook deliveries that gave up after every retry (redeliver them with the CLI). */
  deliveriesFailed: number;
  /** Webhook deliveries still to be made or retried: the outbox backlog. */
  deliveriesPending: number;
}

export interface DeliveryLag {
  /** Seconds from event commit to acknowledged delivery over the last 5 minutes. */
  p50: number;
  p99: number;
  max: number;
  /** Age in seconds of the oldest delivery still pending. */
  oldestPending: number;
}

/**
 * What an operator needs to work the approval queue at a glance, and what /metrics reports:
 * totals across merchants, never one merchant's data.
 */
export class StatsService {
  constructor(private readonly deps: ServiceDeps) {}

  /** Payouts per state with their gross amounts (states with none are left out). */
  async payoutsByState(): Promise<{ status: string; count: number; grossCents: number }[]> {
    const rows = await this.deps.db
      .selectFrom('payouts')
      .select(['status', sql<number>`count(*)`.as('n'), sql<string>`coalesce(sum(gross_amount_cents), 0)`.as('gross')])
      .groupBy('status')
      .execute();
    return rows.map((r) => ({ status: r.status, count: Number(r.n), grossCents: Number(r.gross) }));
  }

  /** Webhook attempts ever made, by outcome. */
  async webhookAttempts(): Promise<{ succeeded: number; failed: number }> {
    const rows = await this.deps.db.selectFrom('webhook_attempts').select(['succeeded', sql<number>`count(*)`.as('n')]).groupBy('succeeded').execute();
    return {
      succeeded: Number(rows.find((r) => r.succeeded)?.n ?? 0),
      failed: Number(rows.find((r) => !r.succeeded)?.n ?? 0),
    };
  }

  /** Webhook deliveries by status; `pending` is the outbox backlog. */
  async deliveriesByStatus(): Promise<Record<'pending' | 'succeeded' | 'failed', number>> {
    const rows = await this.deps.db.selectFrom('webhook_deliveries').select(['status', sql<number>`count(*)`.as('n')]).groupBy('status').execute();
    const of = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
    return { pending: of('pending'), succeeded: of('succeeded'), failed: of('failed') };
  }

  async deliveryLag(): Promise<DeliveryLag> {
    const { rows } = await sql<{ p50: number | null; p99: number | null; max: number | null; oldest: number | null }>`
      select
        percentile_cont(0.5) within group (order by extract(epoch from d.completed_at - e.created_at)) as p50,
        percentile_cont(0.99) within group (order by extract(epoch from d.completed_at - e.created_at)) as p99,
        max(extract(epoch from d.completed_at - e.created_at)) as max,
        (select extract(epoch from now() - min(created_at)) from webhook_deliveries where status = 'pending') as oldest
      from webhook_deliveries d join events e on e.id = d.event_id
      where d.status = 'succeeded' and d.completed_at > now() - interval '5 minutes'`.execute(this.deps.db);
    const r = rows[0];
    return { p50: Number(r?.p50 ?? 0), p99: Number(r?.p99 ?? 0), max: Number(r?.max ?? 0), oldestPending: Number(r?.oldest ?? 0) };
  }

  async overview(actor: Actor): Promise<OperatorStats> {
    requireOperator(actor);
    const [rows, reserved, oldest, deliveries] = await Promise.all([
      this.payoutsByState(),
      this.deps.db.selectFrom('balances').select(sql<string>`coalesce(sum(reserved_cents), 0)`.as('s')).executeTakeFirstOrThrow(),
      this.deps.db.selectFrom('payouts').select(sql<Date | null>`min(created_at)`.as('at')).where('status', '=', 'pending').executeTakeFirstOrThrow(),
      this.deliveriesByStatus(),
    ]);
    const byStatus = new Map(rows.map((r) => [r.status, r]));
    const payouts = PAYOUT_STATUSES.map((status) => ({
      status,
      count: byStatus.get(status)?.count ?? 0,
      grossCents: byStatus.get(status)?.grossCents ?? 0,
    }));
    return {
      payouts,
      reservedCents: Number(reserved.s),
      pendingApprovalCents: payouts.find((p) => p.status === 'pending')!.grossCents,
      oldestPendingPayoutAt: oldest.at ? new Date(oldest.at) : null,
      deliveriesFailed: deliveries.failed,
      deliveriesPending: deliveries.pending,
    };
  }
}
