import { requireMerchant } from '../../domain/actor.ts';
import type { Merchant, PaymentLimits } from '../../domain/merchant.ts';
import { createMerchantInput, merchantSettingsInput, updateMerchantInput } from '../../domain/merchant.ts';
import { actorOf, builder } from '../builder.ts';
import { validated, validatedInput } from '../validation.ts';
import { ApiKeyRef } from './api-key.ts';

/** The ways to pay a hosted page offers (CONTRACT §11), REST's `card` and `instant_eft`. */
export const PaymentMethodEnum = builder.enumType('PaymentMethod', {
  description: 'A way the customer pays on the hosted page.',
  values: {
    CARD: { value: 'card', description: 'A card, through Yoco (the sandbox\'s test card outside production when no card provider is configured).' },
    INSTANT_EFT: { value: 'instant_eft', description: 'Instant EFT straight from the customer\'s bank, through Ozow.' },
  } as const,
});

export const MerchantRef = builder.loadableObjectRef<Merchant, string>('Merchant', {
  load: async (ids, ctx) => (await ctx.services.merchants.getMany(actorOf(ctx), ids)).map((m) => m ?? new Error('merchant not found')),
});

const PaymentLimitsRef = builder.objectRef<PaymentLimits>('PaymentLimits').implement({
  description: 'The amounts a merchant takes, in cents (INVALID_AMOUNT outside them); the account manager sets them (CLI `zarpay merchant limits`).',
  fields: (t) => ({
    minCents: t.expose('minCents', { type: 'Money', description: 'The smallest payment the merchant takes (REST min_cents).' }),
    maxCents: t.expose('maxCents', { type: 'Money', description: 'The largest payment the merchant takes (REST max_cents).' }),
  }),
});

const PaymentLimitsInput = builder.inputType('PaymentLimitsInput', {
  description: 'A merchant\'s payment limits, both bounds: 100 to 10000000 cents each, minCents not above maxCents.',
  fields: (t) => ({
    minCents: t.field({ type: 'Money', required: true, description: 'The smallest payment, in cents.' }),
    maxCents: t.field({ type: 'Money', required: true, description: 'The largest payment, in cents.' }),
  }),
});

MerchantRef.implement({
  description: 'A merchant: its fees, settings and (through its fields) balance, keys and webhook secrets. A merchant sees only itself.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID', description: 'The merchant id (REST merchant_id).' }),
    name: t.exposeString('name', { description: 'The trading name the hosted payment page shows.' }),
    webhookUrl: t.exposeString('webhookUrl', { nullable: true, description: 'Where payout and payment events are delivered; null: nowhere.' }),
    paymentFeeBps: t.exposeInt('paymentFeeBps', { description: 'The proportional payment fee in basis points (250 = 2.5 %).' }),
    paymentFeeFixedCents: t.expose('paymentFeeFixedCents', { type: 'Money', description: 'The fixed payment fee added to the proportional one.' }),
    payoutFeeCents: t.expose('payoutFeeCents', { type: 'Money', description: 'The flat fee of each payout, fixed when it is created.' }),
    autoTopup: t.exposeBoolean('autoTopup', { description: 'Whether captured payments credit their net amount to the payout balance.' }),
    redirectDomains: t.exposeStringList('redirectDomains', { description: 'Hosts the hosted page may redirect customers to.' }),
    supportContact: t.exposeString('supportContact', {
      nullable: true,
      description: 'Where customers get help (e-mail address, phone number or http(s) page), shown on the hosted payment page.',
    }),
    supportEmail: t.exposeString('supportEmail', { nullable: true, description: 'The support e-mail address the merchant set (REST support_email), shown on the hosted page.' }),
    supportPhone: t.exposeString('supportPhone', { nullable: true, description: 'The support phone number the merchant set (REST support_phone), shown on the hosted page.' }),
    paymentMethods: t.field({
      type: [PaymentMethodEnum],
      nullable: true,
      description: 'The ways to pay its hosted page offers, within those the service runs (REST payment_methods); null: every one the service has.',
      resolve: (m) => m.paymentMethods,
    }),
    paymentLimits: t.field({
      type: PaymentLimitsRef,
      description: 'The amounts the merchant takes (REST payment_limits); 5500 to 300000 cents unless the account manager set others.',
      resolve: (m) => m.paymentLimits,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the merchant was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When its settings last changed.' }),
  }),
});

builder.objectField(MerchantRef, 'apiKeys', (t) =>
  t.loadableList({
    type: ApiKeyRef,
    description: 'The merchant\'s secret key records (never the keys themselves), newest first.',
    load: (merchantIds: string[], ctx) => ctx.services.keys.listMany(actorOf(ctx), merchantIds),
    resolve: (m) => m.id,
  }),
);

builder.queryFields((t) => ({
  viewer: t.field({
    type: MerchantRef,
    description: 'The merchant whose API key made this request (merchant only: FORBIDDEN for the operator, who uses merchant(id)). Counts against the balance-check rate limit.',
    authScopes: { merchant: true },
    resolve: (_r, _a, ctx) => requireMerchant(actorOf(ctx)).merchant,
  }),
  merchant: t.field({
    type: MerchantRef,
    nullable: true,
    description: 'One merchant, by id; null when there is none (operator only: FORBIDDEN for a merchant, who uses viewer).',
    authScopes: { operator: true },
    args: { id: t.arg({ type: 'UUID', required: true, description: 'The merchant id.' }) },
    resolve: async (_r, { id }, ctx) => (await ctx.services.merchants.getMany(actorOf(ctx), [id]))[0] ?? null,
  }),
  merchants: t.field({
    type: [MerchantRef],
    description: 'Every merchant, oldest first (operator only: FORBIDDEN for a merchant).',
    authScopes: { operator: true },
    resolve: (_r, _a, ctx) => ctx.services.merchants.list(actorOf(ctx)),
  }),
}));

const MerchantInput = builder.inputType('MerchantInput', {
  description: 'A merchant\'s settings. On create, name is required; on update, only what is given changes.',
  fields: (t) => ({
    name: t.string({ description: 'The trading name shown on the payment page (1 to 200 characters).' }),
    webhookUrl: t.string({ description: 'Where events are delivered (http(s); https in prd). Null clears it.' }),
    paymentFeeBps: t.int({ description: 'Payment fee in basis points, 0 to 10000.' }),
    paymentFeeFixedCents: t.field({ type: 'Money', description: 'Fixed payment fee in cents, 0 to 1000000.' }),
    payoutFeeCents: t.field({ type: 'Money', description: 'Flat payout fee in cents, 0 to 1000000.' }),
    autoTopup: t.boolean({ description: 'Credit captured payments (net of fees) to the payout balance.' }),
    redirectDomains: t.stringList({ description: 'Replaces the allow-listed redirect domains (at most 50).' }),
    addRedirectDomains: t.stringList({ description: 'Adds to the allow-listed redirect domains (update only).' }),
    paymentLimits: t.field({ type: PaymentLimitsInput, description: 'The merchant\'s payment limits (update only; CLI `zarpay merchant limits`).' }),
    supportContact: t.string({
      description: 'Where customers get help: an e-mail address, a phone number or an http(s) page (at most 200 characters). Null or "" clears it.',
    }),
  }),
});

const MerchantSettingsInput = builder.inputType('MerchantSettingsInput', {
  description: 'A merchant\'s change to its own settings (REST `PATCH /api/v1/merchant`, camelCase): only what is given changes.',
  fields: (t) => ({
    webhookUrl: t.string({ description: 'Where events are delivered (http(s); in prd https and never a private address). Null clears it.' }),
    allowedRedirectDomains: t.stringList({ description: 'Replaces the hosts the hosted page may send customers back to (at most 50).' }),
    supportEmail: t.string({ description: 'The support e-mail address shown on the hosted page. Null clears it.' }),
    supportPhone: t.string({ description: 'The support phone number shown on the hosted page. Null clears it.' }),
    paymentMethods: t.field({
      type: [PaymentMethodEnum],
      description: 'The ways to pay the hosted page offers (REST payment_methods), within those the service runs; null offers every one.',
    }),
  }),
});

const MerchantPayload = builder.simpleObject('MerchantPayload', {
  description: 'The merchant as changed.',
  fields: (t) => ({ merchant: t.field({ type: MerchantRef, description: 'The merchant.' }) }),
});

const CreateMerchantPayload = builder.simpleObject('CreateMerchantPayload', {
  description: 'A new merchant and its first secret key.',
  fields: (t) => ({
    merchant: t.field({ type: MerchantRef, description: 'The new merchant.' }),
    apiKey: t.field({ type: ApiKeyRef, description: 'Its first key\'s record.' }),
    fullKey: t.string({ description: 'The complete secret key; shown once, never again.' }),
  }),
});

builder.mutationFields((t) => ({
  createMerchant: t.field({
    type: CreateMerchantPayload,
    description: 'Creates a merchant with an empty balance and its first secret key (operator only; CLI `zarpay merchant create`). Errors: VALIDATION_FAILED (fields in `details`), FORBIDDEN for a merchant.',
    authScopes: { operator: true },
    args: { input: t.arg({ type: MerchantInput, required: true, description: 'Its settings; name is required.', validate: validated(createMerchantInput) }) },
    resolve: (_r, { input }, ctx) => ctx.services.merchants.create(actorOf(ctx), validatedInput(createMerchantInput, input)),
  }),
  updateMerchantSettings: t.field({
    type: MerchantPayload,
    description:
      'The calling merchant changes its own settings (REST `PATCH /api/v1/merchant`): webhook URL, redirect allow-list, support e-mail and phone. Rate limit: credentials. Errors: VALIDATION_FAILED (fields in `details`), FORBIDDEN for the operator (who uses updateMerchant).',
    authScopes: { merchant: true },
    args: { input: t.arg({ type: MerchantSettingsInput, required: true, description: 'What changes.', validate: validated(merchantSettingsInput) }) },
    resolve: async (_r, { input }, ctx) => ({
      merchant: await ctx.services.merchants.updateSettings(actorOf(ctx), validatedInput(merchantSettingsInput, input)),
    }),
  }),
  updateMerchant: t.field({
    type: MerchantPayload,
    description: 'Changes a merchant\'s settings (operator only; CLI `zarpay merchant update`). Errors: NOT_FOUND, VALIDATION_FAILED, FORBIDDEN for a merchant.',
    authScopes: { operator: true },
    args: {
      id: t.arg({ type: 'UUID', required: true, description: 'The merchant id.' }),
      input: t.arg({ type: MerchantInput, required: true, description: 'What changes.', validate: validated(updateMerchantInput) }),
    },
    resolve: async (_r, { id, input }, ctx) => ({
      merchant: await ctx.services.merchants.update(actorOf(ctx), id, validatedInput(updateMerchantInput, input)),
    }),
  }),
}));
