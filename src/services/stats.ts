import { sql } from 'kysely';
import { PAYOUT_STATUSES, type PayoutStatus } from '../domain/payout-state.ts';
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

/** What an operator needs to work the approval queue at a glance. */
export class StatsService {
  constructor(private readonly deps: ServiceDeps) {}

  async overview(): Promise<OperatorStats> {
    const [rows, reserved, oldest, deliveries] = await Promise.all([
      this.deps.db
        .selectFrom('payouts')
        .select(['status', sql<number>`count(*)`.as('n'), sql<string>`coalesce(sum(gross_amount_cents), 0)`.as('gross')])
        .groupBy('status')
        .execute(),
      this.deps.db.selectFrom('balances').select(sql<string>`coalesce(sum(reserved_cents), 0)`.as('s')).executeTakeFirstOrThrow(),
      this.deps.db.selectFrom('payouts').select(sql<Date | null>`min(created_at)`.as('at')).where('status', '=', 'pending').executeTakeFirstOrThrow(),
      this.deps.db
        .selectFrom('webhook_deliveries')
        .select(['status', sql<number>`count(*)`.as('n')])
        .where('status', 'in', ['pending', 'failed'])
        .groupBy('status')
        .execute(),
    ]);
    const deliveriesIn = (status: string) => Number(deliveries.find((d) => d.status === status)?.n ?? 0);
    const byStatus = new Map(rows.map((r) => [r.status, r]));
    const payouts = PAYOUT_STATUSES.map((status) => ({
      status,
      count: Number(byStatus.get(status)?.n ?? 0),
      grossCents: Number(byStatus.get(status)?.gross ?? 0),
    }));
    return {
      payouts,
      reservedCents: Number(reserved.s),
      pendingApprovalCents: payouts.find((p) => p.status === 'pending')!.grossCents,
      oldestPendingPayoutAt: oldest.at ? new Date(oldest.at) : null,
      deliveriesFailed: deliveriesIn('failed'),
      deliveriesPending: deliveriesIn('pending'),
    };
  }
}
