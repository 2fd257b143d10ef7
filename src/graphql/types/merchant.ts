import { AppError } from '../../domain/errors.ts';
import type { Merchant } from '../../domain/payout.ts';
import { builder } from '../builder.ts';
import { ApiKeyRef } from './api-key.ts';
import { BalanceRef } from './balance.ts';

export const MerchantRef = builder.objectRef<Merchant>('Merchant');

MerchantRef.implement({
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    name: t.exposeString('name'),
    webhookUrl: t.exposeString('webhookUrl', { nullable: true }),
    paymentFeeBps: t.exposeInt('paymentFeeBps'),
    paymentFeeFixedCents: t.expose('paymentFeeFixedCents', { type: 'Money' }),
    payoutFeeCents: t.expose('payoutFeeCents', { type: 'Money' }),
    autoTopup: t.exposeBoolean('autoTopup'),
    redirectDomains: t.exposeStringList('redirectDomains'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    balance: t.field({
      type: BalanceRef,
      resolve: async (m, _a, ctx) => {
        const balance = await ctx.loaders.balance.load(m.id);
        if (!balance) throw new AppError('NOT_FOUND', 'merchant not found');
        return balance;
      },
    }),
    apiKeys: t.field({
      type: [ApiKeyRef],
      description: 'The secret key records (never the keys themselves), newest first.',
      resolve: (m, _a, ctx) => ctx.loaders.apiKeys.load(m.id),
    }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    type: MerchantRef,
    description: 'The merchant whose API key made this request.',
    authScopes: { merchant: true },
    resolve: (_r, _a, ctx) => ctx.principal!.merchant,
  }),
  merchant: t.field({
    type: MerchantRef,
    nullable: true,
    authScopes: { operator: true },
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (_r, { id }, ctx) => ctx.loaders.merchant.load(id),
  }),
  merchants: t.field({
    type: [MerchantRef],
    authScopes: { operator: true },
    resolve: (_r, _a, ctx) => ctx.services.merchants.list(),
  }),
}));

const MerchantInput = builder.inputType('MerchantInput', {
  fields: (t) => ({
    name: t.string(),
    webhookUrl: t.string(),
    paymentFeeBps: t.int(),
    paymentFeeFixedCents: t.field({ type: 'Money' }),
    payoutFeeCents: t.field({ type: 'Money' }),
    autoTopup: t.boolean(),
    redirectDomains: t.stringList({ description: 'Replaces the allow-listed redirect domains.' }),
    addRedirectDomains: t.stringList({ description: 'Adds to the allow-listed redirect domains.' }),
  }),
});

/** GraphQL's camelCase input onto the REST field names the shared schemas validate. */
function merchantFields(input: typeof MerchantInput.$inferInput) {
  const out: Record<string, unknown> = {};
  const map = {
    name: 'name',
    webhookUrl: 'webhook_url',
    paymentFeeBps: 'payment_fee_bps',
    paymentFeeFixedCents: 'payment_fee_fixed_cents',
    payoutFeeCents: 'payout_fee_cents',
    autoTopup: 'auto_topup',
    redirectDomains: 'redirect_domains',
    addRedirectDomains: 'add_redirect_domains',
  } as const;
  for (const [from, to] of Object.entries(map)) {
    const v = (input as Record<string, unknown>)[from];
    if (v !== undefined) out[to] = v;
  }
  return out;
}

const MerchantPayload = builder.simpleObject('MerchantPayload', {
  fields: (t) => ({ merchant: t.field({ type: MerchantRef }) }),
});

const CreateMerchantPayload = builder.simpleObject('CreateMerchantPayload', {
  fields: (t) => ({
    merchant: t.field({ type: MerchantRef }),
    apiKey: t.field({ type: ApiKeyRef }),
    fullKey: t.string({ description: 'The complete secret key; shown once.' }),
  }),
});

builder.mutationFields((t) => ({
  createMerchant: t.field({
    type: CreateMerchantPayload,
    authScopes: { operator: true },
    args: { input: t.arg({ type: MerchantInput, required: true }) },
    resolve: (_r, { input }, ctx) => ctx.services.merchants.create(merchantFields(input)),
  }),
  updateMerchant: t.field({
    type: MerchantPayload,
    authScopes: { operator: true },
    args: { id: t.arg({ type: 'UUID', required: true }), input: t.arg({ type: MerchantInput, required: true }) },
    resolve: async (_r, { id, input }, ctx) => ({ merchant: await ctx.services.merchants.update(id, merchantFields(input)) }),
  }),
}));
