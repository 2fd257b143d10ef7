import { z } from 'zod';
import type { Balance, BalanceBreakdown } from '../../domain/balance.ts';
import { creditInput } from '../../domain/balance.ts';
import { AppError } from '../../domain/errors.ts';
import { actorOf, builder } from '../builder.ts';
import { validated, validatedInput } from '../validation.ts';
import { MerchantRef } from './merchant.ts';

export const BalanceRef = builder.objectRef<Balance>('Balance');

const TotalsRef = builder.objectRef<Balance['totals']>('BalanceTotals').implement({
  description: 'Cumulative totals since the merchant was created (CONTRACT §5).',
  fields: (t) => ({
    grossCents: t.expose('grossCents', { type: 'Money', description: 'Every credit: auto top-up amounts and operator credits.' }),
    feesCents: t.expose('feesCents', { type: 'Money', description: 'Payment fees of credited payments, and fees of completed payouts.' }),
    withdrawalsCents: t.expose('withdrawalsCents', { type: 'Money', description: 'What completed payouts paid out: the sum of their amountCents, in cents.' }),
    refundsCents: t.expose('refundsCents', { type: 'Money', description: 'What succeeded refunds gave back to customers: the sum of their amountCents, in cents.' }),
    returnedCents: t.expose('returnedCents', { type: 'Money', description: 'What the bank gave back of completed payouts (returnedAt set): the sum of their amountCents, in cents; their fees stay.' }),
  }),
});

const BreakdownRef = builder.objectRef<BalanceBreakdown>('BalanceBreakdown').implement({
  description:
    'What made balanceCents, apart, for a bookkeeper to check (REST `breakdown`): paymentsCents − paymentFeesCents + creditsCents − payoutsCents − payoutFeesCents − refundsCents + returnsCents = balanceCents. Summed from the ledger\'s journal when asked.',
  fields: (t) => ({
    paymentsCents: t.expose('paymentsCents', { type: 'Money', description: 'Captured payments credited to the balance (auto top-up), at their full amount.' }),
    paymentFeesCents: t.expose('paymentFeesCents', { type: 'Money', description: 'The fees of those payments.' }),
    creditsCents: t.expose('creditsCents', { type: 'Money', description: 'Operator credits: money put in from outside (a top-up), not a sale.' }),
    payoutsCents: t.expose('payoutsCents', { type: 'Money', description: 'What completed payouts sent to the bank.' }),
    payoutFeesCents: t.expose('payoutFeesCents', { type: 'Money', description: 'The fees of completed payouts.' }),
    refundsCents: t.expose('refundsCents', { type: 'Money', description: 'What succeeded refunds gave back to customers.' }),
    returnsCents: t.expose('returnsCents', { type: 'Money', description: 'Payouts the bank gave back, credited to the balance again.' }),
  }),
});

BalanceRef.implement({
  description: 'The payout balance (spec "Balance"; REST `GET /api/v1/payouts/balance`).',
  fields: (t) => ({
    merchantId: t.expose('merchantId', { type: 'UUID', description: 'Whose balance.' }),
    balanceCents: t.expose('balanceCents', { type: 'Money', description: 'The total balance for payouts: grossCents − feesCents − withdrawalsCents − refundsCents + returnedCents.' }),
    reservedCents: t.expose('reservedCents', { type: 'Money', description: 'Held for pending, approved and processing payouts and pending refunds.' }),
    availableCents: t.expose('availableCents', { type: 'Money', description: 'What a new payout may reserve, in cents: balanceCents − reservedCents, never below 0.' }),
    totals: t.expose('totals', { type: TotalsRef, description: 'Cumulative totals.' }),
    breakdown: t.field({
      type: BreakdownRef,
      description: 'What made balanceCents, apart: payments and credits in, fees, payouts, refunds and returns out and in (REST `breakdown`).',
      resolve: (b, _a, ctx) => ctx.services.balances.breakdown(actorOf(ctx), b.merchantId),
    }),
    currency: t.exposeString('currency', { description: 'Always `ZAR`.' }),
  }),
});

builder.objectField(MerchantRef, 'balance', (t) =>
  t.loadable({
    type: BalanceRef,
    description: 'The merchant\'s payout balance.',
    load: async (ids: string[], ctx) => (await ctx.services.balances.getMany(actorOf(ctx), ids)).map((b) => b ?? new AppError('NOT_FOUND', 'merchant not found')),
    resolve: (m) => m.id,
  }),
);

builder.queryFields((t) => ({
  balance: t.field({
    type: BalanceRef,
    description:
      'The payout balance: the caller\'s own, or the named merchant\'s for the operator (REST `GET /api/v1/payouts/balance`). Rate limit: balance check. Errors: FORBIDDEN for another merchant\'s id, VALIDATION_FAILED when the operator names none.',
    authScopes: { merchant: true, operator: true },
    args: { merchantId: t.arg({ type: 'UUID', description: 'The operator names the merchant; a merchant may only name itself.' }) },
    resolve: (_r, { merchantId }, ctx) => ctx.services.balances.get(actorOf(ctx), merchantId),
  }),
  ledgerVerification: t.field({
    type: 'JSON',
    description: 'Recomputes every balance from the journal and checks the ledger invariants: `{ ok, problems, … }` (operator only; CLI `zarpay ledger verify`). Errors: FORBIDDEN for a merchant.',
    authScopes: { operator: true },
    resolve: (_r, _a, ctx) => ctx.services.balances.verify(actorOf(ctx)),
  }),
}));

/** creditBalance's arguments: the credit's input, and the merchant it is for. */
const creditArgs = creditInput.extend({ merchantId: z.string() });

const BalancePayload = builder.simpleObject('BalancePayload', {
  description: 'The balance after the change.',
  fields: (t) => ({ balance: t.field({ type: BalanceRef, description: 'The balance.' }) }),
});

builder.mutationFields((t) => ({
  creditBalance: t.field({
    type: BalancePayload,
    description: 'Credits a merchant\'s payout balance through the ledger: money arriving from outside (operator only; CLI `zarpay balance credit`). Errors: NOT_FOUND for an unknown merchant, VALIDATION_FAILED, FORBIDDEN for a merchant.',
    authScopes: { operator: true },
    args: {
      merchantId: t.arg({ type: 'UUID', required: true, description: 'The merchant.' }),
      amountCents: t.arg({ type: 'Money', required: true, description: 'Cents to credit, greater than 0.' }),
      memo: t.arg.string({ description: 'Why (kept in the journal).' }),
    },
    validate: validated(creditArgs),
    resolve: async (_r, args, ctx) => {
      const { merchantId, ...input } = validatedInput(creditArgs, args);
      return { balance: await ctx.services.balances.credit(actorOf(ctx), merchantId, input) };
    },
  }),
}));
