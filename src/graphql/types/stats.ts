import type { OperatorStats, PayoutStateStats } from '../../services/stats.ts';
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

const OperatorStatsRef = builder.objectRef<OperatorStats>('OperatorStats').implement({
  description: 'The operator\'s overview (`zarpay stats`).',
  fields: (t) => ({
    payouts: t.expose('payouts', { type: [PayoutStateStatsRef], description: 'Payouts by state.' }),
    reservedCents: t.expose('reservedCents', { type: 'Money', description: 'Held for pending, approved and processing payouts, all merchants.' }),
    pendingApprovalCents: t.expose('pendingApprovalCents', { type: 'Money', description: 'Gross amount awaiting approval: the operator\'s queue.' }),
    oldestPendingPayoutAt: t.expose('oldestPendingPayoutAt', { type: 'DateTime', nullable: true, description: 'The oldest payout awaiting approval.' }),
    deliveriesFailed: t.exposeInt('deliveriesFailed', { description: 'Webhook deliveries that gave up after every retry.' }),
    deliveriesPending: t.exposeInt('deliveriesPending', { description: 'Webhook deliveries still to be made or retried.' }),
    mismatchedNotifications: t.exposeInt('mismatchedNotifications', {
      description: 'Provider "paid" notifications whose amount or currency did not match their attempt: nothing was captured and the money goes back (audit log `payment.notification_mismatch`).',
    }),
    refundsPending: t.exposeInt('refundsPending', { description: 'Refunds waiting for their provider\'s outcome.' }),
    refundsFailed: t.exposeInt('refundsFailed', { description: 'Refunds the provider failed or refused.' }),
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
