import type { OperatorStats, PayoutStateStats } from '../../services/stats.ts';
import { builder } from '../builder.ts';
import { PayoutStatusEnum } from './enums.ts';

const PayoutStateStatsRef = builder.objectRef<PayoutStateStats>('PayoutStateStats').implement({
  fields: (t) => ({
    status: t.expose('status', { type: PayoutStatusEnum }),
    count: t.exposeInt('count'),
    grossCents: t.expose('grossCents', { type: 'Money' }),
  }),
});

const OperatorStatsRef = builder.objectRef<OperatorStats>('OperatorStats').implement({
  fields: (t) => ({
    payouts: t.expose('payouts', { type: [PayoutStateStatsRef] }),
    reservedCents: t.expose('reservedCents', { type: 'Money' }),
    pendingApprovalCents: t.expose('pendingApprovalCents', { type: 'Money' }),
    oldestPendingPayoutAt: t.expose('oldestPendingPayoutAt', { type: 'DateTime', nullable: true }),
    deliveriesFailed: t.exposeInt('deliveriesFailed', { description: 'Webhook deliveries that gave up after every retry' }),
    deliveriesPending: t.exposeInt('deliveriesPending', { description: 'Webhook deliveries still to be made or retried' }),
  }),
});

builder.queryFields((t) => ({
  stats: t.field({
    type: OperatorStatsRef,
    description: 'Payouts by state, amounts reserved and the approval queue (operator).',
    authScopes: { operator: true },
    resolve: (_r, _a, ctx) => ctx.services.stats.overview(),
  }),
}));
