import { AppError } from '../../domain/errors.ts';
import type { RecordedEvent } from '../../domain/events.ts';
import type { Payout } from '../../domain/payout.ts';
import { stepUpInput } from '../../domain/payee.ts';
import { createPayoutInput } from '../../domain/payout-input.ts';
import { optional } from '../../domain/validation.ts';
import { reasonSchema } from '../../domain/validation.ts';
import { actorOf, builder } from '../builder.ts';
import { connectionArgsSchema, type KeysetRequest, keysetConnection, selects } from '../keyset.ts';
import { validated, validatedInput } from '../validation.ts';
import { PayoutMethodEnum, PayoutStatusEnum } from './enums.ts';
import { MerchantRef } from './merchant.ts';

export const PayoutRef = builder.loadableObjectRef<Payout, string>('Payout', {
  load: async (ids, ctx) =>
    (await ctx.services.payouts.getMany(actorOf(ctx), ids)).map((p) => p ?? new AppError('PAYOUT_NOT_FOUND', 'payout not found')),
});

PayoutRef.implement({
  description: 'An EFT payout (spec "Payout"; REST `GET /api/v1/payouts/{id}`). Amounts are in cents.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID', description: 'The payout id.' }),
    merchantId: t.expose('merchantId', { type: 'UUID', description: 'The merchant who created it.' }),
    merchant: t.field({ type: MerchantRef, description: 'The merchant who created it.', resolve: (p) => p.merchantId }),
    amountCents: t.expose('amountCents', { type: 'Money', description: 'What the recipient receives.' }),
    feeCents: t.expose('feeCents', { type: 'Money', description: 'The payout fee, fixed when the payout was created.' }),
    grossAmountCents: t.expose('grossAmountCents', { type: 'Money', description: 'What the payout costs the balance, in cents: amountCents + feeCents; reserved at creation, deducted on completion, released on rejection or failure.' }),
    currency: t.exposeString('currency', { description: 'Always `ZAR`.' }),
    status: t.expose('status', { type: PayoutStatusEnum, description: 'Where the payout is in its life.' }),
    payoutMethod: t.expose('payoutMethod', { type: PayoutMethodEnum, description: 'Always EFT.' }),
    merchantReference: t.exposeString('merchantReference', { nullable: true, description: 'The merchant\'s own unique reference, when given.' }),
    description: t.exposeString('description', { nullable: true, description: 'The merchant\'s description, when given.' }),
    metadata: t.expose('metadata', { type: 'JSON', nullable: true, description: 'The merchant\'s free-form data, as given.' }),
    externalTransferId: t.string({
      nullable: true,
      description: 'The bank transfer reference, once completed.',
      resolve: (p) => (p.status === 'completed' ? p.externalTransferId : null),
    }),
    failureReason: t.string({ nullable: true, description: 'Why the transfer failed, once failed.', resolve: (p) => (p.status === 'failed' ? p.failureReason : null) }),
    rejectionReason: t.string({
      nullable: true,
      description: 'Why the operator rejected it, once rejected (`cancelled by account manager` for a cancellation).',
      resolve: (p) => (p.status === 'rejected' ? p.rejectionReason : null),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true, description: 'When the transfer completed.' }),
    returnedAt: t.expose('returnedAt', { type: 'DateTime', nullable: true, description: 'When the bank gave a completed payout back (its status stays COMPLETED; its amount came back to the balance, its fee stays); null otherwise.' }),
    returnReason: t.exposeString('returnReason', { nullable: true, description: 'Why the bank gave it back (`AC04 closed account`); null otherwise.' }),
  }),
});

/** A payout's history: the events of the outbox, as their webhooks carried them. */
const PayoutHistoryEventRef = builder.objectRef<RecordedEvent>('PayoutHistoryEvent').implement({
  description: 'One event of a payout, as sent to the merchant\'s webhook.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID', description: 'The event id: webhook-id and X-Service-Event-Id of its deliveries.' }),
    type: t.exposeString('type', { description: '`payout.created`, `payout.approved`, …' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was recorded.' }),
    data: t.expose('data', { type: 'JSON', description: 'The webhook body\'s data: the payout as it was then, in the REST shape.' }),
  }),
});

builder.objectField(PayoutRef, 'events', (t) =>
  t.loadableList({
    type: PayoutHistoryEventRef,
    description: 'Every event of this payout, oldest first (one query for a whole page of payouts).',
    load: (payoutIds: string[], ctx) => ctx.services.eventHistory.forPayouts(actorOf(ctx), payoutIds),
    resolve: (payout) => payout.id,
  }),
);

builder.queryFields((t) => ({
  payout: t.field({
    type: PayoutRef,
    description: 'One payout (REST `GET /api/v1/payouts/{id}`): a merchant its own, the operator any. Rate limit: payout status. Errors: PAYOUT_NOT_FOUND, also for another merchant\'s id.',
    authScopes: { merchant: true, operator: true },
    args: { id: t.arg({ type: 'UUID', required: true, description: 'The payout id.' }) },
    resolve: (_r, { id }) => id,
  }),
  payouts: t.connection({
    type: PayoutRef,
    description:
      'Payouts, newest first (REST `GET /api/v1/payouts`). A merchant sees its own; the operator every merchant\'s, or one with merchantId. Rate limit: payout status. Errors: FORBIDDEN when a merchant names another merchant.',
    authScopes: { merchant: true, operator: true },
    validate: validated(connectionArgsSchema),
    args: {
      status: t.arg({ type: PayoutStatusEnum, description: 'Only payouts in this state.' }),
      merchantId: t.arg({ type: 'UUID', description: 'Only this merchant\'s (the operator; a merchant may only name itself).' }),
    },
    resolve: (_r, args, ctx, info) => {
      const actor = actorOf(ctx);
      const filter = { merchantId: args.merchantId, status: args.status };
      // Asked for its totalCount, the page is read with it: one statement instead of two.
      const withTotal = selects(info, 'totalCount') ? { page: (page: KeysetRequest) => ctx.services.payouts.pageWithTotal(actor, { ...filter, ...page }) } : undefined;
      return keysetConnection(
        'payout',
        args,
        (page) => ctx.services.payouts.page(actor, { ...filter, ...page }),
        () => ctx.services.payouts.count(actor, filter),
        withTotal,
      );
    },
  }, { description: 'A page of payouts, newest first, with how many match the filter on all pages.' }, { description: 'One payout of the page, with its cursor.' }),
}));

export const PaymentDetailsInput = builder.inputType('PaymentDetailsInput', {
  description: 'The South African bank account an EFT payout is paid into (spec "Payment details").',
  fields: (t) => ({
    accountNumber: t.string({ required: true, description: '5 to 20 digits.' }),
    branchCode: t.string({ required: true, description: 'A South African bank\'s universal branch code (6 digits, e.g. 250655 for FNB); any other is INVALID_PAYMENT_DETAILS.' }),
    accountHolder: t.string({ required: true, description: 'The account holder\'s full name.' }),
    bankName: t.string({ required: true, description: 'The bank, e.g. First National Bank.' }),
  }),
});

const StepUpInput = builder.inputType('StepUpInput', {
  description: 'The signed-in person proving once more that it is them: their password again, and their second factor when they have one.',
  fields: (t) => ({
    password: t.string({ required: true, description: 'The password they sign in with (FORBIDDEN on `stepUp.password` when wrong; five wrong ones in 15 minutes: RATE_LIMIT_EXCEEDED).' }),
    code: t.string({ required: false, description: 'For a person with a second factor: the 6 digits their authenticator app shows now, or one of their recovery codes (FORBIDDEN on `stepUp.code` when missing or wrong).' }),
  }),
});

/**
 * GraphQL's payout input: the REST body's, plus the step-up a person signed in to the dashboard
 * gives when they type a new account (REST is for keys, which never step up).
 */
const createPayoutGraphqlInput = createPayoutInput.extend({ stepUp: optional(stepUpInput) });

const CreatePayoutInput = builder.inputType('CreatePayoutInput', {
  description: 'A new payout (REST `POST /api/v1/payouts` body, camelCase, plus `stepUp` for a person typing a new account).',
  fields: (t) => ({
    stepUp: t.field({ type: StepUpInput, description: 'A person signed in to the dashboard who types a new account (paymentDetails, not a saved payee) gives their password again here (FORBIDDEN on `stepUp.password` without it). Not needed for a payee, and never with an API key.' }),
    amountCents: t.field({ type: 'Money', required: true, description: 'What the recipient receives, greater than 0.' }),
    currency: t.string({ required: true, description: 'Must be `ZAR` (INVALID_CURRENCY otherwise).' }),
    payoutMethod: t.field({ type: PayoutMethodEnum, required: true, description: 'EFT.' }),
    paymentDetails: t.field({ type: PaymentDetailsInput, description: 'The bank account (INVALID_PAYMENT_DETAILS when a field is wrong); or payeeId instead.' }),
    payeeId: t.field({ type: 'UUID', description: 'A saved payee to pay (`payees`), instead of paymentDetails: its bank account is used. NOT_FOUND when unknown or removed.' }),
    merchantReference: t.string({ description: 'Unique per merchant, at most 100 characters: the same input replays the payout; another is CONFLICT.' }),
    description: t.string({ description: 'At most 500 characters.' }),
    metadata: t.field({ type: 'JSON', description: 'Free-form data, returned as given.' }),
  }),
});

const CreatePayoutPayload = builder.simpleObject('CreatePayoutPayload', {
  description: 'The payout created, or replayed by its merchantReference.',
  fields: (t) => ({
    payout: t.field({ type: PayoutRef, description: 'The payout.' }),
    created: t.boolean({ description: 'False when merchantReference replayed an existing payout (REST answers 200 instead of 201).' }),
  }),
});

const PayoutPayload = builder.simpleObject('PayoutPayload', {
  description: 'The payout after the operator\'s move.',
  fields: (t) => ({ payout: t.field({ type: PayoutRef, description: 'The payout.' }) }),
});

builder.mutationFields((t) => ({
  createPayout: t.field({
    type: CreatePayoutPayload,
    description:
      'Creates a pending payout and reserves its gross amount at once (merchant only; REST `POST /api/v1/payouts`). Rate limit: payout create. A person signed in to the dashboard who types a new account (paymentDetails, not a saved payee) gives `stepUp` too; an API key never does. Errors: VALIDATION_FAILED, INVALID_CURRENCY, INVALID_PAYOUT_METHOD, INVALID_PAYMENT_DETAILS, INSUFFICIENT_BALANCE (the message gives the available and the required cents), CONFLICT for a merchantReference reused with other values, FORBIDDEN for the operator, and on `stepUp.password` or `stepUp.code` when a person\'s step-up is missing or wrong.',
    authScopes: { merchant: true },
    args: { input: t.arg({ type: CreatePayoutInput, required: true, description: 'The payout.', validate: validated(createPayoutGraphqlInput) }) },
    resolve: (_r, { input }, ctx) => {
      const { stepUp, ...payout } = validatedInput(createPayoutGraphqlInput, input);
      return ctx.services.payouts.create(actorOf(ctx), payout, stepUp);
    },
  }),
}));

/** The operator's payout moves (CONTRACT §7, §8 names). */
builder.mutationFields((t) => {
  const id = t.arg({ type: 'UUID', required: true, description: 'The payout id.' });
  const reason = t.arg.string({ required: true, description: 'Why (1 to 500 characters).', validate: validated(reasonSchema) });
  const op = { type: PayoutPayload, authScopes: { operator: true } } as const;
  return {
    approvePayout: t.field({
      ...op,
      description: 'Approves a pending payout (operator only; CLI `zarpay payout approve`). Errors: PAYOUT_NOT_FOUND, INVALID_STATUS_TRANSITION from any other state, FORBIDDEN for a merchant.',
      args: { id },
      resolve: async (_r, a, ctx) => ({ payout: await ctx.services.payouts.approve(actorOf(ctx), a.id) }),
    }),
    rejectPayout: t.field({
      ...op,
      description: 'Rejects a pending or approved payout and releases its reservation (operator only; CLI `zarpay payout reject`). Errors: PAYOUT_NOT_FOUND, INVALID_STATUS_TRANSITION, VALIDATION_FAILED for a reason out of bounds, FORBIDDEN for a merchant.',
      args: { id, reason },
      resolve: async (_r, a, ctx) => ({ payout: await ctx.services.payouts.reject(actorOf(ctx), a.id, a.reason) }),
    }),
    startPayoutTransfer: t.field({
      ...op,
      description: 'Marks an approved payout\'s transfer as started: processing (operator only; CLI `zarpay payout process`). Errors: PAYOUT_NOT_FOUND, INVALID_STATUS_TRANSITION, FORBIDDEN for a merchant.',
      args: { id },
      resolve: async (_r, a, ctx) => ({ payout: await ctx.services.payouts.startTransfer(actorOf(ctx), a.id) }),
    }),
    completePayout: t.field({
      ...op,
      description: 'Completes a processing payout: its gross amount (amount and fee) is deducted from the balance (operator only; CLI `zarpay payout complete`). Errors: PAYOUT_NOT_FOUND, INVALID_STATUS_TRANSITION, FORBIDDEN for a merchant.',
      args: { id, externalTransferId: t.arg.string({ description: 'The bank transfer reference; generated (`EFT-…`) when absent.', validate: validated(reasonSchema) }) },
      resolve: async (_r, a, ctx) => ({ payout: await ctx.services.payouts.complete(actorOf(ctx), a.id, a.externalTransferId) }),
    }),
    failPayout: t.field({
      ...op,
      description: 'Fails a processing payout and releases its reservation (operator only; CLI `zarpay payout fail`). Errors: PAYOUT_NOT_FOUND, INVALID_STATUS_TRANSITION, VALIDATION_FAILED for a reason out of bounds, FORBIDDEN for a merchant.',
      args: { id, reason },
      resolve: async (_r, a, ctx) => ({ payout: await ctx.services.payouts.fail(actorOf(ctx), a.id, a.reason) }),
    }),
    returnPayout: t.field({
      ...op,
      description:
        'Records by hand the bank\'s return of a completed payout (CONTRACT §11), as an imported report\'s return does: it stays completed and gains returnedAt and returnReason, its amount comes back to the balance (the fee stays), and payout.returned is emitted (operator only; CLI `zarpay payout return`). Errors: PAYOUT_NOT_FOUND, INVALID_STATUS_TRANSITION for a payout not completed or returned already, VALIDATION_FAILED for a reason out of bounds, FORBIDDEN for a merchant.',
      args: { id, reason },
      resolve: async (_r, a, ctx) => ({ payout: await ctx.services.payouts.recordReturn(actorOf(ctx), a.id, a.reason) }),
    }),
    cancelPayout: t.field({
      ...op,
      description: 'Cancels a pending payout: it becomes rejected with the reason "cancelled by account manager" and its reservation is released (operator only; CLI `zarpay payout cancel`). Errors: PAYOUT_NOT_FOUND, INVALID_STATUS_TRANSITION, FORBIDDEN for a merchant.',
      args: { id },
      resolve: async (_r, a, ctx) => ({ payout: await ctx.services.payouts.cancel(actorOf(ctx), a.id) }),
    }),
  };
});
