import type { OperatorStats, PayoutStateStats, UnreadableCount } from '../../services/stats.ts';
import { actorOf, builder } from '../builder.ts';
import { PayoutStatusEnum } from './enums.ts';

const PayoutStateStatsRef = builder.objectRef<PayoutStateStats>('PayoutStateStats').implement({
  description: 'Payouts in one state.',
  fields: (t) => ({
    status: t.expose('status', { type: PayoutStatusEnum, description: 'The state.' }),
    count: t.exposeInt('count', { description: 'How many payouts are in it.' }),
    grossCents: t.expose('grossCents', { type: 'Money', description: 'Their gross amounts together.' }),
  }),
});

const SealedKindEnum = builder.enumType('SealedValueKind', {
  description: 'What a value sealed with the data key is.',
  values: { PAYOUT_DETAILS: { value: 'payout-details', description: 'A payout\'s bank details.' }, VOUCHER_CODE: { value: 'voucher-code', description: 'A voucher\'s code.' } } as const,
});

const UnreadableCountRef = builder.objectRef<UnreadableCount>('UnreadableSealedValues').implement({
  description: 'Sealed values of one kind that will not open under the data keys (found by a view or the rotation).',
  fields: (t) => ({
    kind: t.expose('kind', { type: SealedKindEnum, description: 'What they are.' }),
    count: t.exposeInt('count', { description: 'How many.' }),
  }),
});

const OperatorStatsRef = builder.objectRef<OperatorStats>('OperatorStats').implement({
  description: 'The operator\'s overview (`zarpay stats`).',
  fields: (t) => ({
    payouts: t.expose('payouts', { type: [PayoutStateStatsRef], description: 'Payouts by state.' }),
    reservedCents: t.expose('reservedCents', { type: 'Money', description: 'Held for pending, approved and processing payouts, all merchants.' }),
    pendingApprovalCents: t.expose('pendingApprovalCents', { type: 'Money', description: 'Gross amount awaiting approval: the operator\'s queue.' }),
    oldestPendingPayoutAt: t.expose('oldestPendingPayoutAt', { type: 'DateTime', nullable: true, description: 'The oldest payout awaiting approval.' }),
    deliveriesFailed: t.exposeInt('deliveriesFailed', { description: 'Webhook deliveries that gave up after every retry.' }),
    deliveriesPending: t.exposeInt('deliveriesPending', { description: 'Webhook deliveries still to be made or retried.' }),
    sealedValuesUnreadable: t.expose('sealedValuesUnreadable', {
      type: [UnreadableCountRef],
      description: 'Bank details and voucher codes found not to open under the data keys, by kind (`zarpay rotate-data-key --dry-run` looks at every one).',
    }),
    mismatchedNotifications: t.exposeInt('mismatchedNotifications', {
      description: 'Provider "paid" notifications whose amount or currency did not match their attempt: nothing was captured and the money goes back (audit log `payment.notification_mismatch`).',
    }),
    refundsPending: t.exposeInt('refundsPending', { description: 'Refunds waiting for their provider\'s outcome.' }),
    refundsPendingStale: t.exposeInt('refundsPendingStale', {
      description: 'Refunds still pending longer than REFUND_PENDING_ALERT_MS (24 hours) after they were asked for: their provider\'s outcome never came. Check each with the provider, then resolveRefund (`zarpay refund list --stale`, `zarpay refund resolve`).',
    }),
    oldestPendingRefundAt: t.expose('oldestPendingRefundAt', { type: 'DateTime', nullable: true, description: 'When the oldest refund still pending was asked for.' }),
    refundsFailed: t.exposeInt('refundsFailed', { description: 'Refunds the provider failed or refused.' }),
    mismatchedRefundNotifications: t.exposeInt('mismatchedRefundNotifications', {
      description: 'Provider refund notifications whose amount or currency did not match the refund: they settled nothing (audit log `refund.notification_mismatch`).',
    }),
    refundsOwedPending: t.exposeInt('refundsOwedPending', { description: 'Money that arrived for a payment that had already ended, being given back through its provider: not yet confirmed.' }),
    refundsOwedSucceeded: t.exposeInt('refundsOwedSucceeded', { description: 'Such money the provider says it gave back.' }),
    refundsOwedFailed: t.exposeInt('refundsOwedFailed', { description: 'Such money the provider refused, or failed, to give back: an operator gives it back by hand (audit log `payment.refund_failed`).' }),
  }),
});

builder.queryFields((t) => ({
  stats: t.field({
    type: OperatorStatsRef,
    description: 'Payouts by state, amounts reserved and the approval queue (operator only; CLI `zarpay stats`). Errors: FORBIDDEN for a merchant.',
    authScopes: { operator: true },
    resolve: (_r, _a, ctx) => ctx.services.stats.overview(actorOf(ctx)),
  }),
}));
