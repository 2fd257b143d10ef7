import { AppError } from '../../domain/errors.ts';
import type { Balance } from '../../domain/payout.ts';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';

export const BalanceRef = builder.objectRef<Balance>('Balance');

const TotalsRef = builder.objectRef<Balance['totals']>('BalanceTotals').implement({
  fields: (t) => ({
    grossCents: t.expose('grossCents', { type: 'Money' }),
    feesCents: t.expose('feesCents', { type: 'Money' }),
    withdrawalsCents: t.expose('withdrawalsCents', { type: 'Money' }),
  }),
});

BalanceRef.implement({
  fields: (t) => ({
    merchantId: t.expose('merchantId', { type: 'UUID' }),
    balanceCents: t.expose('balanceCents', { type: 'Money' }),
    reservedCents: t.expose('reservedCents', { type: 'Money' }),
    availableCents: t.expose('availableCents', { type: 'Money' }),
    totals: t.expose('totals', { type: TotalsRef }),
    currency: t.exposeString('currency'),
  }),
});

/**
 * The merchant a field acts for: the caller's own, or for the operator the one named by
 * `merchantId` (which the operator must give).
 */
export function actingMerchant(ctx: GraphQLContext, merchantId: string | null | undefined): string {
  if (ctx.principal) return ctx.principal.merchant.id;
  if (!merchantId) throw new AppError('VALIDATION_FAILED', 'merchantId: required for the operator');
  return merchantId;
}

builder.queryFields((t) => ({
  balance: t.field({
    type: BalanceRef,
    description: 'The payout balance: the caller\'s own, or (operator) the named merchant\'s.',
    authScopes: { merchant: true, operator: true },
    args: { merchantId: t.arg({ type: 'UUID', description: 'Operator only.' }) },
    resolve: (_r, { merchantId }, ctx) => ctx.services.balances.get(actingMerchant(ctx, merchantId)),
  }),
}));

const BalancePayload = builder.simpleObject('BalancePayload', {
  fields: (t) => ({ balance: t.field({ type: BalanceRef }) }),
});

builder.mutationFields((t) => ({
  creditBalance: t.field({
    type: BalancePayload,
    description: 'Credits a merchant\'s payout balance through the ledger (operator).',
    authScopes: { operator: true },
    args: {
      merchantId: t.arg({ type: 'UUID', required: true }),
      amountCents: t.arg({ type: 'Money', required: true }),
      memo: t.arg.string(),
    },
    resolve: async (_r, { merchantId, amountCents, memo }, ctx) => ({
      balance: await ctx.services.balances.credit(merchantId, { amount_cents: amountCents, ...(memo != null && { memo }) }),
    }),
  }),
}));

builder.queryFields((t) => ({
  ledgerVerification: t.field({
    type: 'JSON',
    description: 'Recomputes every balance from the journal (CONTRACT §5 invariants).',
    authScopes: { operator: true },
    resolve: (_r, _a, ctx) => ctx.services.balances.verify(),
  }),
}));
