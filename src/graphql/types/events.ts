import { AppError } from '../../domain/errors.ts';
import type { Payout } from '../../domain/payout.ts';
import type { PayoutStatus } from '../../domain/payout-state.ts';
import { EVENT_TYPES, type OutboxEvent } from '../../services/outbox.ts';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { PaymentRef } from './payment.ts';
import { PayoutRef } from './payout.ts';

/**
 * Live events over graphql-sse (`/graphql/stream`): the same committed outbox rows the webhooks
 * carry, pushed by every service process connected to the database.
 */

/** A payout as the event recorded it (the webhook's `data`), not as it is now. */
function payoutAsRecorded(data: Record<string, unknown>): Payout {
  const str = (k: string) => (typeof data[k] === 'string' ? (data[k] as string) : null);
  const date = (k: string) => (typeof data[k] === 'string' ? new Date(data[k] as string) : null);
  return {
    id: String(data.id),
    merchantId: String(data.merchant_id),
    amountCents: Number(data.amount_cents),
    feeCents: Number(data.fee_cents),
    grossAmountCents: Number(data.gross_amount_cents),
    currency: String(data.currency ?? 'ZAR'),
    status: data.status as PayoutStatus,
    payoutMethod: 'eft',
    merchantReference: str('merchant_reference'),
    description: str('description'),
    metadata: (data.metadata as Record<string, unknown> | undefined) ?? null,
    externalTransferId: str('external_transfer_id'),
    failureReason: str('failure_reason'),
    rejectionReason: str('rejection_reason'),
    createdAt: date('created_at')!,
    updatedAt: date('updated_at')!,
    completedAt: date('completed_at'),
  };
}

const PayoutEventRef = builder.objectRef<OutboxEvent>('PayoutEvent').implement({
  description: 'A payout event: the payout as it was when the event was recorded.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID', description: 'The event id: the webhook-id and X-Service-Event-Id of its webhook.' }),
    type: t.exposeString('type', { description: 'For example `payout.approved`.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    merchantId: t.expose('merchantId', { type: 'UUID' }),
    payout: t.field({ type: PayoutRef, resolve: (e) => payoutAsRecorded(e.data) }),
    data: t.expose('data', { type: 'JSON', description: 'The webhook body\'s `data`, in the REST shape.' }),
  }),
});

const PaymentEventRef = builder.objectRef<OutboxEvent>('PaymentEvent').implement({
  description: 'A payment event (a payment reached captured, failed or cancelled).',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID', description: 'The event id: the webhook-id and X-Service-Event-Id of its webhook.' }),
    type: t.exposeString('type', { description: 'For example `payment.captured`.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    merchantId: t.expose('merchantId', { type: 'UUID' }),
    paymentId: t.expose('paymentId', { type: 'UUID', nullable: true }),
    payment: t.field({
      type: PaymentRef,
      nullable: true,
      description: 'The payment. Payment events are emitted only on terminal states, which never change, so this is the payment as the event reported it.',
      resolve: async (e, _a, ctx) => {
        if (!e.paymentId) return null;
        try {
          return await ctx.services.payments.get(e.paymentId);
        } catch (err) {
          if (err instanceof AppError && err.code === 'PAYMENT_NOT_FOUND') return null;
          throw err;
        }
      },
    }),
    data: t.expose('data', { type: 'JSON', description: 'The webhook body\'s `data`, in the REST shape.' }),
  }),
});

/**
 * Whose events a caller may see: a merchant only its own (naming another is FORBIDDEN); the
 * operator every merchant's, or the one it names.
 */
export function eventScope(ctx: GraphQLContext, merchantId: string | null | undefined): string | undefined {
  if (ctx.principal) {
    if (merchantId && merchantId !== ctx.principal.merchant.id) throw new AppError('FORBIDDEN', 'merchantId: not your merchant');
    return ctx.principal.merchant.id;
  }
  if (ctx.operator) return merchantId ?? undefined;
  throw new AppError('UNAUTHORIZED', 'missing or invalid credentials');
}

function checkTypes(types: readonly string[] | null | undefined, prefix: string): string[] {
  const list = [...(types ?? [])];
  const bad = list.find((t) => !(t in EVENT_TYPES) || !t.startsWith(prefix));
  if (bad !== undefined) throw new AppError('VALIDATION_FAILED', `types: unknown ${prefix.slice(0, -1)} event type "${bad}"`);
  return list;
}

builder.subscriptionType({});

builder.subscriptionFields((t) => {
  const args = {
    merchantId: t.arg({ type: 'UUID', description: 'A merchant may only name itself; the operator any merchant (absent: all).' }),
    types: t.arg.stringList({ description: 'Only these event types (absent or empty: all).' }),
  };
  const stream = (prefix: string) => (_r: unknown, a: { merchantId?: string | null; types?: readonly string[] | null }, ctx: GraphQLContext) => {
    const merchantId = eventScope(ctx, a.merchantId);
    return ctx.services.events.subscribe({ prefix, types: checkTypes(a.types, prefix), ...(merchantId && { merchantId }) });
  };
  return {
    payoutEvents: t.field({
      type: PayoutEventRef,
      authScopes: { merchant: true, operator: true },
      args,
      subscribe: stream('payout.'),
      resolve: (e: OutboxEvent) => e,
    }),
    paymentEvents: t.field({
      type: PaymentEventRef,
      authScopes: { merchant: true, operator: true },
      args,
      subscribe: stream('payment.'),
      resolve: (e: OutboxEvent) => e,
    }),
  };
});
