import {
  auditCount,
  deliveryCounts,
  deliveryLag,
  oldestPendingPayoutAt,
  owedRefundCounts,
  payoutsByState,
  refundCounts,
  reservedCents,
  stalePendingRefunds,
  webhookAttemptCounts,
} from '../db/stats.ts';
import { type SealedPurpose, unreadableCounts } from '../db/sealed-data.ts';
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
  /** Provider "paid" notifications whose amount or currency did not match their attempt (nothing captured; the money goes back). */
  mismatchedNotifications: number;
  /** Refunds waiting for their provider's outcome. */
  refundsPending: number;
  /**
   * Refunds pending longer than REFUND_PENDING_ALERT_MS: their outcome never came. Check with the
   * provider, then `zarpay refund resolve` (`zarpay refund list --stale` lists them).
   */
  refundsPendingStale: number;
  /** When the oldest pending refund was asked for; null when none is pending. */
  oldestPendingRefundAt: Date | null;
  /** Refunds the provider failed or refused. */
  refundsFailed: number;
  /** Provider refund notifications whose amount or currency did not match the refund: they settled nothing. */
  mismatchedRefundNotifications: number;
  /** Money that arrived for a payment that had already ended, being given back: not yet confirmed by the provider. */
  refundsOwedPending: number;
  /** Such money the provider says it gave back. */
  refundsOwedSucceeded: number;
  /** Such money the provider refused to give back, or failed to: an operator gives it back by hand. */
  refundsOwedFailed: number;
  /** Sealed values found not to open under the data keys, by kind. */
  sealedValuesUnreadable: UnreadableCount[];
}

export interface UnreadableCount {
  kind: SealedPurpose;
  count: number;
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
  payoutsByState(): Promise<{ status: string; count: number; grossCents: number }[]> {
    return payoutsByState(this.deps.db);
  }

  /** Webhook attempts ever made, by outcome. */
  webhookAttempts(): Promise<{ succeeded: number; failed: number }> {
    return webhookAttemptCounts(this.deps.db);
  }

  /** Webhook deliveries by status; `pending` is the outbox backlog. */
  deliveriesByStatus(): Promise<Record<'pending' | 'succeeded' | 'failed', number>> {
    return deliveryCounts(this.deps.db);
  }

  /** Sealed values found not to open under the data keys, by kind (both kinds, 0 for none). */
  async sealedUnreadable(): Promise<UnreadableCount[]> {
    const counts = await unreadableCounts(this.deps.db);
    return (Object.keys(counts) as SealedPurpose[]).map((kind) => ({ kind, count: counts[kind] }));
  }

  deliveryLag(): Promise<DeliveryLag> {
    return deliveryLag(this.deps.db);
  }

  /** Refunds pending past REFUND_PENDING_ALERT_MS, and the oldest pending one's age. */
  stalePendingRefunds(): Promise<{ stale: number; oldestAt: Date | null; oldestSeconds: number }> {
    return stalePendingRefunds(this.deps.db, this.deps.config.refundPendingAlertMs);
  }

  async overview(actor: Actor): Promise<OperatorStats> {
    requireOperator(actor);
    const [rows, reserved, oldest, deliveries, unreadable, mismatched, refunds, stale, refundMismatches, owed] = await Promise.all([
      this.payoutsByState(),
      reservedCents(this.deps.db),
      oldestPendingPayoutAt(this.deps.db),
      this.deliveriesByStatus(),
      this.sealedUnreadable(),
      auditCount(this.deps.db, 'payment.notification_mismatch'),
      refundCounts(this.deps.db),
      this.stalePendingRefunds(),
      auditCount(this.deps.db, 'refund.notification_mismatch'),
      owedRefundCounts(this.deps.db),
    ]);
    const byStatus = new Map(rows.map((r) => [r.status, r]));
    const payouts = PAYOUT_STATUSES.map((status) => ({
      status,
      count: byStatus.get(status)?.count ?? 0,
      grossCents: byStatus.get(status)?.grossCents ?? 0,
    }));
    return {
      payouts,
      reservedCents: reserved,
      pendingApprovalCents: payouts.find((p) => p.status === 'pending')!.grossCents,
      oldestPendingPayoutAt: oldest,
      deliveriesFailed: deliveries.failed,
      deliveriesPending: deliveries.pending,
      sealedValuesUnreadable: unreadable,
      mismatchedNotifications: mismatched,
      refundsPending: refunds.pending,
      refundsPendingStale: stale.stale,
      oldestPendingRefundAt: stale.oldestAt,
      refundsFailed: refunds.failed,
      mismatchedRefundNotifications: refundMismatches,
      refundsOwedPending: owed.open,
      refundsOwedSucceeded: owed.succeeded,
      refundsOwedFailed: owed.failed,
    };
  }
}
