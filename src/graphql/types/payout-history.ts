import type { EventRecord } from '../../services/events-query.ts';
import { builder } from '../builder.ts';
import { PayoutRef } from './payout.ts';

/**
 * A payout's history for dashboards: the events of the outbox, as their webhooks carried them.
 * (The live event types of subscriptions are defined with the subscriptions.)
 */
const PayoutHistoryEventRef = builder.objectRef<EventRecord>('PayoutHistoryEvent').implement({
  description: 'One event of a payout, as sent to the merchant\'s webhook.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID', description: 'The event id: webhook-id and X-Service-Event-Id of its deliveries.' }),
    type: t.exposeString('type', { description: 'payout.created, payout.approved, …' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    data: t.expose('data', { type: 'JSON', description: 'The webhook body\'s data: the payout as it was then (REST shape).' }),
  }),
});

builder.objectField(PayoutRef, 'events', (t) =>
  t.field({
    type: [PayoutHistoryEventRef],
    description: 'Every event of this payout, oldest first (batched: one query for a whole page).',
    resolve: (payout, _a, ctx) => ctx.loaders.payoutEvents.load(payout.id),
  }),
);
