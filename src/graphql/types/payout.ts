import type { DefaultConnectionArguments } from '@pothos/plugin-relay';
import { AppError } from '../../domain/errors.ts';
import type { Payout } from '../../domain/payout.ts';
import type { PayoutStatus } from '../../domain/payout-state.ts';
import { connectionArgsSchema } from '../../domain/validation.ts';
import type { PayoutFilter } from '../../services/payouts.ts';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { keysetConnection } from '../keyset.ts';
import { PayoutMethodEnum, PayoutStatusEnum } from './enums.ts';
import { MerchantRef } from './merchant.ts';

export const PayoutRef = builder.objectRef<Payout>('Payout');

PayoutRef.implement({
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    merchantId: t.expose('merchantId', { type: 'UUID' }),
    merchant: t.field({
      type: MerchantRef,
      resolve: async (p, _a, ctx) => (await ctx.loaders.merchant.load(p.merchantId))!,
    }),
    amountCents: t.expose('amountCents', { type: 'Money', description: 'What the recipient receives.' }),
    feeCents: t.expose('feeCents', { type: 'Money', description: 'Fixed when the payout was created.' }),
    grossAmountCents: t.expose('grossAmountCents', { type: 'Money', description: 'amountCents + feeCents: reserved, then deducted.' }),
    currency: t.exposeString('currency'),
    status: t.expose('status', { type: PayoutStatusEnum }),
    payoutMethod: t.expose('payoutMethod', { type: PayoutMethodEnum }),
    merchantReference: t.exposeString('merchantReference', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    metadata: t.expose('metadata', { type: 'JSON', nullable: true }),
    externalTransferId: t.string({ nullable: true, resolve: (p) => (p.status === 'completed' ? p.externalTransferId : null) }),
    failureReason: t.string({ nullable: true, resolve: (p) => (p.status === 'failed' ? p.failureReason : null) }),
    rejectionReason: t.string({ nullable: true, resolve: (p) => (p.status === 'rejected' ? p.rejectionReason : null) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
  }),
});

/** A Relay page of payouts, newest first, over the creation sequence. */
function payoutPage(ctx: GraphQLContext, filter: PayoutFilter, args: DefaultConnectionArguments) {
  return keysetConnection(
    'payout',
    args,
    async (page) => (await ctx.services.payouts.page(filter, page)).map((i) => ({ node: i.payout, seq: i.seq })),
    () => ctx.services.payouts.count(filter),
  );
}

builder.queryFields((t) => ({
  payout: t.field({
    type: PayoutRef,
    description: 'One payout; another merchant\'s id is PAYOUT_NOT_FOUND.',
    authScopes: { merchant: true, operator: true },
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: async (_r, { id }, ctx) => {
      const payout = await ctx.loaders.payout.load(id);
      if (!payout) throw new AppError('PAYOUT_NOT_FOUND', 'payout not found');
      return payout;
    },
  }),
  payouts: t.connection(
    {
      type: PayoutRef,
      description: 'Payouts, newest first. The operator sees every merchant\'s, or one with merchantId.',
      authScopes: { merchant: true, operator: true },
      validate: { schema: connectionArgsSchema },
      args: {
        status: t.arg({ type: PayoutStatusEnum }),
        merchantId: t.arg({ type: 'UUID', description: 'Operator only.' }),
      },
      resolve: (_r, args, ctx) => {
        const filter: PayoutFilter = {};
        if (ctx.principal) filter.merchantId = ctx.principal.merchant.id;
        else if (args.merchantId) filter.merchantId = args.merchantId;
        if (args.status) filter.status = args.status as PayoutStatus;
        return payoutPage(ctx, filter, args) as never;
      },
    },
    {
      fields: (c) => ({
        totalCount: c.int({ description: 'Payouts matching the filter, on all pages.', resolve: (conn) => (conn as unknown as { totalCount: () => Promise<number> }).totalCount() }),
      }),
    },
  ),
}));

const PaymentDetailsInput = builder.inputType('PaymentDetailsInput', {
  fields: (t) => ({
    accountNumber: t.string({ required: true }),
    branchCode: t.string({ required: true, description: 'Exactly 6 digits.' }),
    accountHolder: t.string({ required: true }),
    bankName: t.string({ required: true }),
  }),
});

const CreatePayoutInput = builder.inputType('CreatePayoutInput', {
  fields: (t) => ({
    amountCents: t.field({ type: 'Money', required: true }),
    currency: t.string({ required: true, description: '`ZAR`.' }),
    payoutMethod: t.field({ type: PayoutMethodEnum, required: true }),
    paymentDetails: t.field({ type: PaymentDetailsInput, required: true }),
    merchantReference: t.string({ description: 'Unique per merchant; a replay with the same parameters returns the payout.' }),
    description: t.string(),
    metadata: t.field({ type: 'JSON' }),
  }),
});

const CreatePayoutPayload = builder.simpleObject('CreatePayoutPayload', {
  fields: (t) => ({
    payout: t.field({ type: PayoutRef }),
    created: t.boolean({ description: 'False when merchantReference replayed an existing payout.' }),
  }),
});

const PayoutPayload = builder.simpleObject('PayoutPayload', {
  fields: (t) => ({ payout: t.field({ type: PayoutRef }) }),
});

builder.mutationFields((t) => ({
  createPayout: t.field({
    type: CreatePayoutPayload,
    authScopes: { merchant: true },
    args: { input: t.arg({ type: CreatePayoutInput, required: true }) },
    resolve: (_r, { input }, ctx) => {
      const body: Record<string, unknown> = {
        amount_cents: input.amountCents,
        currency: input.currency,
        payout_method: input.payoutMethod,
        payment_details: {
          account_number: input.paymentDetails.accountNumber,
          branch_code: input.paymentDetails.branchCode,
          account_holder: input.paymentDetails.accountHolder,
          bank_name: input.paymentDetails.bankName,
        },
      };
      if (input.merchantReference != null) body.merchant_reference = input.merchantReference;
      if (input.description != null) body.description = input.description;
      if (input.metadata != null) body.metadata = input.metadata;
      const { merchant } = ctx.principal!;
      return ctx.services.payouts.create(merchant.id, body, merchant.payoutFeeCents);
    },
  }),
}));

/** The operator's payout moves (CONTRACT §8 names). */
builder.mutationFields((t) => {
  const id = t.arg({ type: 'UUID', required: true });
  const op = { type: PayoutPayload, authScopes: { operator: true } } as const;
  return {
    approvePayout: t.field({ ...op, args: { id }, resolve: async (_r, a, ctx) => ({ payout: await ctx.services.payouts.approve(a.id) }) }),
    rejectPayout: t.field({
      ...op,
      args: { id, reason: t.arg.string({ required: true }) },
      resolve: async (_r, a, ctx) => ({ payout: await ctx.services.payouts.reject(a.id, a.reason) }),
    }),
    startPayoutTransfer: t.field({ ...op, args: { id }, resolve: async (_r, a, ctx) => ({ payout: await ctx.services.payouts.startTransfer(a.id) }) }),
    completePayout: t.field({
      ...op,
      args: { id, externalTransferId: t.arg.string() },
      resolve: async (_r, a, ctx) => ({ payout: await ctx.services.payouts.complete(a.id, a.externalTransferId) }),
    }),
    failPayout: t.field({
      ...op,
      args: { id, reason: t.arg.string({ required: true }) },
      resolve: async (_r, a, ctx) => ({ payout: await ctx.services.payouts.fail(a.id, a.reason) }),
    }),
    cancelPayout: t.field({
      ...op,
      description: 'Cancels a pending payout: it becomes rejected, "cancelled by account manager".',
      args: { id },
      resolve: async (_r, a, ctx) => ({ payout: await ctx.services.payouts.cancel(a.id) }),
    }),
  };
});
