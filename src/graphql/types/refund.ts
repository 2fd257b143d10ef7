import { z } from 'zod';
import { idempotencyKeyInput } from '../../domain/payment-input.ts';
import { createRefundInput, type Refund, REFUND_STATUSES } from '../../domain/refund.ts';
import { offsetPage, parseInput, reasonSchema } from '../../domain/validation.ts';
import { actorOf, builder } from '../builder.ts';
import { connectionArgsSchema, keysetConnection, selects } from '../keyset.ts';
import { MerchantRef } from './merchant.ts';
import { validated, validatedInput } from '../validation.ts';
import { PaymentRef } from './payment.ts';

const upper = <T extends string>(values: readonly T[], descriptions: Record<T, string>) =>
  Object.fromEntries(values.map((v) => [v.toUpperCase(), { value: v, description: descriptions[v] }])) as Record<Uppercase<T>, { value: T; description: string }>;

export const RefundStatusEnum = builder.enumType('RefundStatus', {
  description: 'Where a refund is in its life (CONTRACT §10). REST writes these in lower case.',
  values: upper(REFUND_STATUSES, {
    pending: 'Asked of the provider; its amount is reserved on the balance.',
    succeeded: 'The provider gave the money back; the amount left the balance (refundsCents). Terminal.',
    failed: 'The provider failed or refused it; the reservation was released. Terminal.',
  }),
});

const RefundOutcomeEnum = builder.enumType('RefundOutcome', {
  description: 'How a refund ends.',
  values: upper(['succeeded', 'failed'] as const, { succeeded: 'The money went back.', failed: 'The money did not go back.' }),
});

export const RefundRef = builder.objectRef<Refund>('Refund').implement({
  description: 'Money of a captured payment given back to its customer (REST `GET /api/v1/refunds/{id}`). Amounts are in cents.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID', description: 'The refund id (REST refund_id).' }),
    paymentId: t.expose('paymentId', { type: 'UUID', description: 'The payment refunded.' }),
    merchantId: t.expose('merchantId', { type: 'UUID', description: 'Whose payment it refunds.' }),
    status: t.expose('status', { type: RefundStatusEnum, description: 'Where the refund is in its life.' }),
    amountCents: t.expose('amountCents', { type: 'Money', description: 'What goes back, in cents.' }),
    currency: t.exposeString('currency', { description: 'Always `ZAR`.' }),
    reason: t.exposeString('reason', { nullable: true, description: 'Why, as the merchant said.' }),
    merchantReference: t.exposeString('merchantReference', { nullable: true, description: 'The merchant\'s own reference.' }),
    failureReason: t.string({ nullable: true, description: 'Why it failed; null unless FAILED.', resolve: (r) => (r.status === 'failed' ? (r.failureReason ?? 'failed') : null) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was asked for.' }),
    completedAt: t.field({ type: 'DateTime', nullable: true, description: 'When it succeeded or failed; null while PENDING.', resolve: (r) => (r.status === 'pending' ? null : r.completedAt) }),
    payment: t.field({ type: PaymentRef, description: 'The payment refunded.', resolve: (r) => r.paymentId }),
  }),
});

builder.objectFields(PaymentRef, (t) => ({
  refundedCents: t.expose('refundedCents', { type: 'Money', description: 'The sum of the payment\'s succeeded refunds, in cents (the status stays CAPTURED).' }),
  refunds: t.loadableList({
    type: RefundRef,
    description: 'The payment\'s refunds, newest first.',
    load: (paymentIds: string[], ctx) => ctx.services.refunds.ofPayments(actorOf(ctx), paymentIds),
    resolve: (p) => p.id,
  }),
}));

builder.objectField(MerchantRef, 'refunds', (t) =>
  t.connection(
    {
      type: RefundRef,
      description:
        'Every refund of the merchant, of all its payments, newest first (REST `GET /api/v1/refunds`; the dashboard\'s refunds list): `viewer { refunds(first: 25) { … } }`, or the operator\'s `merchant(id) { refunds }`. Rate limit: payment status.',
      validate: validated(connectionArgsSchema),
      args: { status: t.arg({ type: RefundStatusEnum, description: 'Only refunds in this state.' }) },
      resolve: (m, args, ctx, info) => {
        const actor = actorOf(ctx);
        const filter = { merchantId: m.id, status: args.status };
        // The page and its total are one statement; without totalCount the count is not read.
        const both = (page: Parameters<typeof ctx.services.refunds.page>[1]) => ctx.services.refunds.page(actor, { ...filter, ...page });
        return keysetConnection(
          'refund',
          args,
          async (page) => (await both(page)).page,
          async () => (await both({ after: null, before: null, limit: 1, inverted: false })).total,
          selects(info, 'totalCount') ? { page: both } : undefined,
        );
      },
    },
    { description: 'A page of a merchant\'s refunds, newest first, with how many match on all pages.' },
    { description: 'One refund of the page, with its cursor.' },
  ),
);

const RefundPaymentInput = builder.inputType('RefundPaymentInput', {
  description: 'A refund (REST `POST /api/v1/payments/{id}/refunds` body, camelCase, with the payment and the Idempotency-Key).',
  fields: (t) => ({
    paymentId: t.field({ type: 'UUID', required: true, description: 'The captured payment to refund.' }),
    amountCents: t.field({ type: 'Money', description: 'Cents to give back; left out: all that is still refundable. Null is refused (VALIDATION_FAILED), never read as "all".' }),
    reason: t.string({ description: 'Why, at most 200 characters.' }),
    merchantReference: t.string({ description: 'The merchant\'s own reference, at most 64 characters.' }),
    idempotencyKey: t.string({ description: 'The REST Idempotency-Key header: the same key and input replay; another input is CONFLICT.' }),
  }),
});

const RefundPayload = builder.simpleObject('RefundPayload', {
  description: 'The refund after the change.',
  fields: (t) => ({ refund: t.field({ type: RefundRef, description: 'The refund.' }) }),
});

const RefundListRef = builder.simpleObject('RefundList', {
  description: 'A page of refunds, newest first, and how many match.',
  fields: (t) => ({
    refunds: t.field({ type: [RefundRef], description: 'The page.' }),
    total: t.int({ description: 'How many refunds match, on every page.' }),
  }),
});

const refundArgs = createRefundInput.extend({ paymentId: z.uuid(), idempotencyKey: idempotencyKeyInput.nullish() });
const listPage = z.strictObject({ ...offsetPage });

builder.queryFields((t) => ({
  refund: t.field({
    type: RefundRef,
    description: 'One refund (REST `GET /api/v1/refunds/{id}`): a merchant its own, the operator any. Rate limit: payment status. Errors: REFUND_NOT_FOUND, also for another merchant\'s id.',
    authScopes: { merchant: true, operator: true },
    args: { id: t.arg({ type: 'UUID', required: true, description: 'The refund id.' }) },
    resolve: (_r, { id }, ctx) => ctx.services.refunds.get(actorOf(ctx), id),
  }),
  refunds: t.field({
    type: RefundListRef,
    description: 'Refunds, newest first (CLI `zarpay refund list`): a merchant its own, the operator every merchant\'s or one\'s; optionally one payment\'s. Errors: FORBIDDEN when a merchant names another merchant.',
    authScopes: { merchant: true, operator: true },
    args: {
      merchantId: t.arg({ type: 'UUID', description: 'Only this merchant\'s (the operator; a merchant may only name itself).' }),
      paymentId: t.arg({ type: 'UUID', description: 'Only this payment\'s.' }),
      stale: t.arg.boolean({ description: 'Only refunds still PENDING longer than REFUND_PENDING_ALERT_MS (24 hours) after they were asked for: their provider\'s outcome never came (CLI `zarpay refund list --stale`; resolveRefund).' }),
      limit: t.arg.int({ description: 'Page size, 1 to 100 (default 50).' }),
      offset: t.arg.int({ description: 'How many to skip (default 0).' }),
    },
    resolve: (_r, args, ctx) => {
      const page = parseInput(listPage, { limit: args.limit ?? undefined, offset: args.offset ?? undefined }, 'arguments');
      return ctx.services.refunds.list(actorOf(ctx), { merchantId: args.merchantId, paymentId: args.paymentId, stale: args.stale, ...page });
    },
  }),
}));

builder.mutationFields((t) => ({
  refundPayment: t.field({
    type: RefundPayload,
    description:
      'Refunds a captured payment in full or in part (merchant only; REST `POST /api/v1/payments/{id}/refunds`: the same rules and idempotency). Rate limit: refund. Errors: VALIDATION_FAILED (an amount below 1 or above what is still refundable), INVALID_STATUS_TRANSITION (not captured), INSUFFICIENT_BALANCE, PAYMENT_NOT_FOUND, CONFLICT, FORBIDDEN for the operator.',
    authScopes: { merchant: true },
    args: { input: t.arg({ type: RefundPaymentInput, required: true, description: 'The refund.', validate: validated(refundArgs) }) },
    resolve: async (_r, args, ctx) => {
      const { paymentId, idempotencyKey, ...input } = validatedInput(refundArgs, args.input);
      const { refund } = await ctx.services.refunds.create(actorOf(ctx), paymentId, input, idempotencyKey ?? undefined);
      return { refund };
    },
  }),
  settleRefund: t.field({
    type: RefundPayload,
    description: 'Ends a pending refund as its provider would (operator only, tst/dev only: FORBIDDEN in prd; CLI `zarpay refund settle`; audited). Errors: REFUND_NOT_FOUND, INVALID_STATUS_TRANSITION for a refund already ended.',
    authScopes: { operator: true },
    args: {
      id: t.arg({ type: 'UUID', required: true, description: 'The refund id.' }),
      outcome: t.arg({ type: RefundOutcomeEnum, required: true, description: 'How it ends.' }),
    },
    resolve: async (_r, { id, outcome }, ctx) => ({ refund: await ctx.services.refunds.settle(actorOf(ctx), id, outcome) }),
  }),
  resolveRefund: t.field({
    type: RefundPayload,
    description:
      'Records how a refund went, as the operator learnt it from the provider, for a refund still PENDING longer than REFUND_PENDING_ALERT_MS (24 hours) whose provider never said (operator only, every environment; CLI `zarpay refund resolve`). Applied as the provider\'s word would be: the ledger, the merchant\'s refund.succeeded or refund.failed, once; audited with the note. Errors: REFUND_NOT_FOUND, INVALID_STATUS_TRANSITION for a refund already ended or not yet pending that long, VALIDATION_FAILED for an empty note.',
    authScopes: { operator: true },
    args: {
      id: t.arg({ type: 'UUID', required: true, description: 'The refund id.' }),
      outcome: t.arg({ type: RefundOutcomeEnum, required: true, description: 'What the provider says happened.' }),
      note: t.arg.string({ required: true, description: 'How the operator knows (1 to 500 characters), for the audit log; never shown to the merchant.', validate: validated(reasonSchema) }),
    },
    resolve: async (_r, { id, outcome, note }, ctx) => ({ refund: await ctx.services.refunds.resolve(actorOf(ctx), id, outcome, note) }),
  }),
}));
