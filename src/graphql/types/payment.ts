import type { DefaultConnectionArguments } from '@pothos/plugin-relay';
import { INTENT_TYPES, PAYMENT_STATUSES, type Payment, type PaymentAttempt, type PaymentStatus, TERMINAL_PAYMENT_STATUSES } from '../../domain/payment.ts';
import { feeRatesOf, type PaymentFilter } from '../../services/payments.ts';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { keysetConnection } from '../keyset.ts';
import { connectionArgsSchema } from '../../domain/validation.ts';

const upper = <T extends string>(values: readonly T[]) =>
  Object.fromEntries(values.map((v) => [v.toUpperCase(), { value: v }])) as Record<Uppercase<T>, { value: T }>;

export const PaymentStatusEnum = builder.enumType('PaymentStatus', { values: upper(PAYMENT_STATUSES) });
const IntentTypeEnum = builder.enumType('PaymentIntentType', { values: upper(INTENT_TYPES) });
const PaymentOutcomeEnum = builder.enumType('PaymentOutcome', { values: upper(TERMINAL_PAYMENT_STATUSES) });

const PaymentAttemptRef = builder.objectRef<PaymentAttempt>('PaymentAttempt').implement({
  fields: (t) => ({
    status: t.exposeString('status', { description: 'pending, succeeded, failed or cancelled.' }),
    provider: t.exposeString('provider'),
    providerRef: t.exposeString('providerRef', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const PaymentRef = builder.objectRef<Payment>('Payment');

PaymentRef.implement({
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    paymentId: t.expose('id', { type: 'UUID', description: 'The same as id (REST payment_id).' }),
    merchantId: t.expose('merchantId', { type: 'UUID' }),
    merchantOrderId: t.exposeString('merchantOrderId'),
    intentType: t.expose('intentType', { type: IntentTypeEnum }),
    status: t.expose('status', { type: PaymentStatusEnum }),
    amount: t.expose('amountCents', { type: 'Money', description: 'Cents.' }),
    currency: t.exposeString('currency'),
    feeCents: t.expose('feeCents', { type: 'Money', description: 'Fixed at initiation.' }),
    netAmountCents: t.expose('netAmountCents', { type: 'Money', description: 'amount − feeCents.' }),
    latestAttempt: t.expose('latestAttempt', { type: PaymentAttemptRef, nullable: true }),
    paymentUrl: t.string({ resolve: (p, _a, ctx) => ctx.services.payments.links.paymentUrl(p.id) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
  }),
});

const QrCodeRef = builder.simpleObject('PaymentQrCode', {
  fields: (t) => ({
    content: t.string({ description: 'The URL the QR code encodes: paymentUrl.' }),
    imageUrl: t.string({ description: 'Signed PNG link; .svg instead of .png works with the same query.' }),
  }),
});

const CustomerInfoInput = builder.inputType('CustomerInfoInput', {
  fields: (t) => ({ email: t.string(), phone: t.string() }),
});

const InitiatePaymentInput = builder.inputType('InitiatePaymentInput', {
  fields: (t) => ({
    intentType: t.field({ type: IntentTypeEnum, description: 'Default PURCHASE_AND_REDEEM.' }),
    amount: t.field({ type: 'Money', required: true, description: 'Cents, 5500 to 300000.' }),
    currency: t.string({ required: true, description: '`ZAR`.' }),
    merchantOrderId: t.string({ required: true }),
    includeQr: t.boolean(),
    successUrl: t.string(),
    cancelUrl: t.string(),
    failureUrl: t.string(),
    webhookUrl: t.string(),
    customerInfo: t.field({ type: CustomerInfoInput }),
    idempotencyKey: t.string({ description: 'The REST Idempotency-Key header; the two share one namespace per merchant.' }),
  }),
});

const InitiatePaymentPayload = builder.simpleObject('InitiatePaymentPayload', {
  fields: (t) => ({
    payment: t.field({ type: PaymentRef }),
    paymentUrl: t.string(),
    qrCode: t.field({ type: QrCodeRef, nullable: true }),
  }),
});

const PaymentPayload = builder.simpleObject('PaymentPayload', {
  fields: (t) => ({ payment: t.field({ type: PaymentRef }) }),
});

/** GraphQL's camelCase input onto the REST body, so both hash to the same idempotent payload. */
function restBody(input: typeof InitiatePaymentInput.$inferInput): Record<string, unknown> {
  const map = {
    intentType: 'intent_type',
    amount: 'amount',
    currency: 'currency',
    merchantOrderId: 'merchant_order_id',
    includeQr: 'include_qr',
    successUrl: 'success_url',
    cancelUrl: 'cancel_url',
    failureUrl: 'failure_url',
    webhookUrl: 'webhook_url',
  } as const;
  const body: Record<string, unknown> = {};
  for (const [from, to] of Object.entries(map)) {
    const v = (input as Record<string, unknown>)[from];
    if (v !== undefined && v !== null) body[to] = v;
  }
  if (input.customerInfo) {
    const info: Record<string, unknown> = {};
    if (input.customerInfo.email != null) info.email = input.customerInfo.email;
    if (input.customerInfo.phone != null) info.phone = input.customerInfo.phone;
    body.customer_info = info;
  }
  return body;
}

/** A Relay page of payments, newest first, over the creation sequence. */
function paymentPage(ctx: GraphQLContext, filter: PaymentFilter, args: DefaultConnectionArguments) {
  return keysetConnection(
    'payment',
    args,
    async (page) => (await ctx.services.payments.page(filter, page)).map((i) => ({ node: i.payment, seq: i.seq })),
    () => ctx.services.payments.count(filter),
  );
}

builder.queryFields((t) => ({
  payment: t.field({
    type: PaymentRef,
    description: "One payment; another merchant's id is PAYMENT_NOT_FOUND. The operator sees any.",
    authScopes: { merchant: true, operator: true },
    args: { id: t.arg({ type: 'UUID', required: true }) },
    resolve: (_r, { id }, ctx) => ctx.services.payments.get(id, ctx.principal?.merchant.id),
  }),
  payments: t.connection(
    {
      type: PaymentRef,
      description: "Payments, newest first. The operator sees every merchant's, or one with merchantId.",
      authScopes: { merchant: true, operator: true },
      validate: { schema: connectionArgsSchema },
      args: { status: t.arg({ type: PaymentStatusEnum }), merchantId: t.arg({ type: 'UUID', description: 'Operator only.' }) },
      resolve: (_r, args, ctx) => {
        const filter: PaymentFilter = {};
        if (ctx.principal) filter.merchantId = ctx.principal.merchant.id;
        else if (args.merchantId) filter.merchantId = args.merchantId;
        if (args.status) filter.status = args.status as PaymentStatus;
        return paymentPage(ctx, filter, args) as never;
      },
    },
    {
      fields: (c) => ({
        totalCount: c.int({
          description: 'Payments matching the filter, on all pages.',
          resolve: (conn) => (conn as unknown as { totalCount: () => Promise<number> }).totalCount(),
        }),
      }),
    },
  ),
}));

builder.mutationFields((t) => ({
  initiatePayment: t.field({
    type: InitiatePaymentPayload,
    description: 'POST /api/v1/payments/init: same rules, same idempotency (idempotencyKey = the Idempotency-Key header).',
    authScopes: { merchant: true },
    args: { input: t.arg({ type: InitiatePaymentInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      const { merchant } = ctx.principal!;
      const merchantId = merchant.id;
      const data = await ctx.services.payments.init(merchantId, restBody(input), input.idempotencyKey ?? undefined, feeRatesOf(merchant));
      return {
        payment: await ctx.services.payments.get(data.payment_id, merchantId),
        paymentUrl: data.payment_url,
        qrCode: data.qr_code ? { content: data.qr_code.content, imageUrl: data.qr_code.image_url } : null,
      };
    },
  }),
  settlePayment: t.field({
    type: PaymentPayload,
    description: 'Operator, tst/dev only (FORBIDDEN in prd): ends an open payment with this outcome.',
    authScopes: { operator: true },
    args: { id: t.arg({ type: 'UUID', required: true }), outcome: t.arg({ type: PaymentOutcomeEnum, required: true }) },
    resolve: async (_r, { id, outcome }, ctx) => ({ payment: await ctx.services.payments.flow.settle(id, outcome) }),
  }),
}));
