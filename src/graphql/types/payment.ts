import { AppError } from '../../domain/errors.ts';
import type { Payment, PaymentAttempt } from '../../domain/payment.ts';
import { idempotencyKeyInput, initiatePaymentInput, listPaymentsQuery } from '../../domain/payment-input.ts';
import { parseInput } from '../../domain/validation.ts';
import { actorOf, builder } from '../builder.ts';
import { connectionArgsSchema, keysetConnection } from '../keyset.ts';
import { validated, validatedInput } from '../validation.ts';
import { IntentTypeEnum, PaymentOutcomeEnum, PaymentStatusEnum } from './enums.ts';

/** The payments connection's filters beside status: REST's list filters under their GraphQL names. */
const paymentFilters = listPaymentsQuery.pick({ merchantOrderId: true, createdFrom: true, createdTo: true, q: true });

const PaymentAttemptRef = builder.objectRef<PaymentAttempt>('PaymentAttempt').implement({
  description: 'One attempt to take the payment with a provider (REST latest_attempt).',
  fields: (t) => ({
    status: t.exposeString('status', { description: 'The attempt\'s state with the provider, lower case as in REST: `pending`, `succeeded`, `failed`, `cancelled` or `expired` (the provider no longer takes payment for it: the customer may pay again).' }),
    provider: t.exposeString('provider', { description: 'The payment provider\'s name: `yoco`, or `sandbox` outside prd.' }),
    providerRef: t.exposeString('providerRef', { nullable: true, description: 'The provider\'s reference; null until it answered.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the attempt started.' }),
  }),
});

export const PaymentRef = builder.loadableObjectRef<Payment, string>('Payment', {
  load: async (ids, ctx) =>
    (await ctx.services.payments.getMany(actorOf(ctx), ids)).map((p) => p ?? new AppError('PAYMENT_NOT_FOUND', 'payment not found')),
});

PaymentRef.implement({
  description: 'A payment through the hosted payment page (spec "Payment"; REST `GET /api/v1/payments/{id}`). Amounts are in cents.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID', description: 'The payment id.' }),
    paymentId: t.expose('id', { type: 'UUID', description: 'The same as id (REST payment_id).' }),
    merchantId: t.expose('merchantId', { type: 'UUID', description: 'The merchant who initiated it.' }),
    merchantOrderId: t.exposeString('merchantOrderId', { description: 'The merchant\'s order id, unique per merchant.' }),
    description: t.exposeString('description', { nullable: true, description: 'What is being bought, shown on the payment page.' }),
    intentType: t.expose('intentType', { type: IntentTypeEnum, description: 'What happens after payment.' }),
    status: t.expose('status', { type: PaymentStatusEnum, description: 'Where the payment is in its life.' }),
    failureReason: t.exposeString('failureReason', {
      nullable: true,
      description:
        'Why a FAILED payment failed, when zarpay decided it: `expired` (not finished within PAYMENT_EXPIRES_AFTER_MS of its creation); `link_paid_already` (made through a single-use payment link another payment paid first: what the customer paid goes back); null otherwise.',
    }),
    amount: t.expose('amountCents', { type: 'Money', description: 'The amount in cents, within the merchant\'s payment limits when it was made.' }),
    currency: t.exposeString('currency', { description: 'Always `ZAR`.' }),
    feeCents: t.expose('feeCents', { type: 'Money', description: 'The platform fee, fixed at initiation.' }),
    netAmountCents: t.expose('netAmountCents', {
      type: 'Money',
      nullable: true,
      description: 'What the merchant receives, in cents: amount − feeCents; credited to the payout balance on capture when auto top-up is on; null once FAILED or CANCELLED (nothing is credited).',
    }),
    voucherCode: t.exposeString('voucherCode', { nullable: true, description: 'The voucher issued on capture, for the merchant to redeem; null until issued. A viewer (session or key) reads it masked: `****-****-****-` and the last four digits.' }),
    voucherRedeemed: t.exposeBoolean('voucherRedeemed', { description: 'Whether the voucher was redeemed (PURCHASE_AND_REDEEM redeems it at capture).' }),
    latestAttempt: t.expose('latestAttempt', { type: PaymentAttemptRef, nullable: true, description: 'The latest attempt; null until the customer starts paying.' }),
    paymentUrl: t.string({ description: 'The hosted payment page.', resolve: (p, _a, ctx) => ctx.services.payments.links(p).paymentUrl }),
    qrCode: t.field({
      type: QrCodeRef,
      description: 'A QR code of paymentUrl, to show or print while the payment is unpaid (its image link is signed and valid until createdAt + QR_URL_TTL_MS).',
      resolve: (p, _a, ctx) => ctx.services.payments.qrCode(p),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was initiated.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true, description: 'When it reached a terminal state.' }),
  }),
});

export const QrCodeRef = builder.simpleObject('PaymentQrCode', {
  description: 'A QR code of the payment page.',
  fields: (t) => ({
    content: t.string({ description: 'The URL the QR code encodes: paymentUrl.' }),
    imageUrl: t.string({ description: 'Signed PNG link, valid 24 hours; .svg instead of .png works with the same query.' }),
  }),
});

const CustomerInfoInput = builder.inputType('CustomerInfoInput', {
  description: 'Who to send the customer\'s confirmation to: email and/or phone.',
  fields: (t) => ({
    email: t.string({ description: 'An e-mail address.' }),
    phone: t.string({ description: 'A phone number in international (E.164) form, such as +27825550123 (spaces allowed; kept without them); gets the confirmation by SMS when SMS_URL is set. VALIDATION_FAILED otherwise.' }),
  }),
});

const InitiatePaymentInput = builder.inputType('InitiatePaymentInput', {
  description: 'A new payment (REST `POST /api/v1/payments/init` body, camelCase).',
  fields: (t) => ({
    intentType: t.field({ type: IntentTypeEnum, description: 'Default PURCHASE_AND_REDEEM.' }),
    amount: t.field({ type: 'Money', required: true, description: 'Cents, within the merchant\'s payment limits (Merchant.paymentLimits; INVALID_AMOUNT otherwise).' }),
    currency: t.string({ required: true, description: 'Must be `ZAR` (INVALID_CURRENCY otherwise).' }),
    merchantOrderId: t.string({ required: true, description: 'Unique per merchant, at most 255 characters: the same input replays; another is DUPLICATE_ORDER_ID.' }),
    includeQr: t.boolean({ description: 'Also return a QR code of the page. Default false.' }),
    successUrl: t.string({ description: 'Where the customer goes after paying (allow-listed domains; https in prd).' }),
    cancelUrl: t.string({ description: 'Where the customer goes after cancelling.' }),
    failureUrl: t.string({ description: 'Where the customer goes after a failure.' }),
    webhookUrl: t.string({ description: 'Receives this payment\'s events instead of the merchant\'s URL.' }),
    customerInfo: t.field({ type: CustomerInfoInput, description: 'Who to confirm the payment to.' }),
    description: t.string({ description: 'What is being bought, at most 200 characters; shown on the payment page.' }),
    idempotencyKey: t.string({ description: 'The REST Idempotency-Key header: the same key and input replay; another input is CONFLICT. One namespace per merchant with REST.' }),
  }),
});

const RedirectWarningRef = builder.simpleObject('RedirectWarning', {
  description: 'A return address of the payment that will not be followed; the payment page shows the result instead.',
  fields: (t) => ({
    field: t.string({ description: 'Which input: successUrl, cancelUrl or failureUrl.' }),
    message: t.string({ description: 'Why, in words.' }),
  }),
});

const InitiatePaymentPayload = builder.simpleObject('InitiatePaymentPayload', {
  description: 'The payment and where the customer pays it.',
  fields: (t) => ({
    payment: t.field({ type: PaymentRef, description: 'The payment, status CREATED (or as it is now, for a replay).' }),
    paymentUrl: t.string({ description: 'The hosted payment page to send the customer to.' }),
    qrCode: t.field({ type: QrCodeRef, nullable: true, description: 'Present when includeQr was true.' }),
    warnings: t.field({
      type: [RedirectWarningRef],
      description: 'Return addresses the hosted page will not send the customer to (host not in the allow-list, or in prd not https on 443); empty when none.',
    }),
  }),
});

const PaymentPayload = builder.simpleObject('PaymentPayload', {
  description: 'The payment after the change.',
  fields: (t) => ({ payment: t.field({ type: PaymentRef, description: 'The payment.' }) }),
});

/** initiatePayment's input: the payment's input and the Idempotency-Key, which is not part of it. */
const initiateArgs = initiatePaymentInput.extend({ idempotencyKey: idempotencyKeyInput.nullish() });

builder.queryFields((t) => ({
  payment: t.field({
    type: PaymentRef,
    description: 'One payment (REST `GET /api/v1/payments/{id}`): a merchant its own, the operator any. Rate limit: payment status. Errors: PAYMENT_NOT_FOUND, also for another merchant\'s id.',
    authScopes: { merchant: true, operator: true },
    args: { id: t.arg({ type: 'UUID', required: true, description: 'The payment id.' }) },
    resolve: (_r, { id }) => id,
  }),
  payments: t.connection({
    type: PaymentRef,
    description:
      'Payments, newest first. A merchant sees its own; the operator every merchant\'s, or one with merchantId. Rate limit: payment status. Errors: FORBIDDEN when a merchant names another merchant.',
    authScopes: { merchant: true, operator: true },
    validate: validated(connectionArgsSchema),
    args: {
      status: t.arg({ type: PaymentStatusEnum, description: 'Only payments in this state.' }),
      merchantId: t.arg({ type: 'UUID', description: 'Only this merchant\'s (the operator; a merchant may only name itself).' }),
      merchantOrderId: t.arg.string({ description: 'Only the payment of this order id.' }),
      createdFrom: t.arg.string({ description: 'Created at or after: a day (YYYY-MM-DD, Africa/Johannesburg, from its start) or an ISO 8601 timestamp with its offset.' }),
      createdTo: t.arg.string({ description: 'Created at or before: a day (YYYY-MM-DD, Africa/Johannesburg, to its end) or an ISO 8601 timestamp with its offset.' }),
      search: t.arg.string({
        description:
          'REST `q`: payments whose order id is or starts with this text, whose amount is this text read as rand ("100,50", "100.50", "R 100"), or whose customer e-mail is this address (exactly, any case).',
      }),
    },
    resolve: (_r, args, ctx) => {
      const actor = actorOf(ctx);
      const parsed = parseInput(paymentFilters, { merchantOrderId: args.merchantOrderId, createdFrom: args.createdFrom, createdTo: args.createdTo, q: args.search }, 'arguments');
      const filter = {
        merchantId: args.merchantId,
        status: args.status,
        merchantOrderId: parsed.merchantOrderId,
        createdFrom: parsed.createdFrom,
        createdTo: parsed.createdTo,
        q: parsed.q,
      };
      return keysetConnection('payment', args, (page) => ctx.services.payments.page(actor, { ...filter, ...page }), () => ctx.services.payments.count(actor, filter));
    },
  }, { description: 'A page of payments, newest first, with how many match the filter on all pages.' }, { description: 'One payment of the page, with its cursor.' }),
}));

builder.mutationFields((t) => ({
  initiatePayment: t.field({
    type: InitiatePaymentPayload,
    description:
      'Initiates a payment and returns its hosted page (merchant only; REST `POST /api/v1/payments/init`: the same rules and idempotency). Rate limit: payment init. Errors: VALIDATION_FAILED, INVALID_AMOUNT, INVALID_CURRENCY, CONFLICT (an idempotencyKey reused with another input), DUPLICATE_ORDER_ID, FORBIDDEN for the operator.',
    authScopes: { merchant: true },
    args: { input: t.arg({ type: InitiatePaymentInput, required: true, description: 'The payment.', validate: validated(initiateArgs) }) },
    resolve: async (_r, args, ctx) => {
      const { idempotencyKey, ...input } = validatedInput(initiateArgs, args.input);
      const { payment, links, warnings } = await ctx.services.payments.init(actorOf(ctx), input, idempotencyKey ?? undefined);
      return { payment, paymentUrl: links.paymentUrl, qrCode: links.qrCode, warnings };
    },
  }),
  settlePayment: t.field({
    type: PaymentPayload,
    description: 'Ends an open payment with this outcome, as the provider or customer would (operator only, tst/dev only: FORBIDDEN in prd; CLI `zarpay payment settle`). Errors: PAYMENT_NOT_FOUND, INVALID_STATUS_TRANSITION for a payment already ended.',
    authScopes: { operator: true },
    args: {
      id: t.arg({ type: 'UUID', required: true, description: 'The payment id.' }),
      outcome: t.arg({ type: PaymentOutcomeEnum, required: true, description: 'How it ends.' }),
    },
    resolve: async (_r, { id, outcome }, ctx) => ({ payment: await ctx.services.paymentFlow.settle(actorOf(ctx), id, outcome) }),
  }),
  reconcilePayment: t.field({
    type: PaymentPayload,
    description:
      'Asks the payment provider about the payment\'s attempt in flight now and applies its answer, as the reconciler does after RECONCILE_AFTER_MS (operator, every environment; audited). Errors: PAYMENT_NOT_FOUND, SERVICE_UNAVAILABLE when the provider cannot answer.',
    authScopes: { operator: true },
    args: { id: t.arg({ type: 'UUID', required: true, description: 'The payment id.' }) },
    resolve: async (_r, { id }, ctx) => ({ payment: await ctx.services.paymentFlow.reconcile(actorOf(ctx), id) }),
  }),
}));

/** The customer's details as the merchant gave them at initiation (`customerInfo`), for the dashboard's payment page. */
const PaymentCustomerRef = builder.objectRef<{ email: string | null; phone: string | null }>('PaymentCustomer').implement({
  description: 'Who the payment\'s confirmation goes to, as given at initiation (`customerInfo`).',
  fields: (t) => ({
    email: t.exposeString('email', { nullable: true, description: 'The customer\'s e-mail address, when given.' }),
    phone: t.exposeString('phone', { nullable: true, description: 'The customer\'s phone number (E.164), when given.' }),
  }),
});

builder.objectField(PaymentRef, 'customer', (t) =>
  t.loadable({
    type: PaymentCustomerRef,
    nullable: true,
    description: 'The customer details given at initiation (`customerInfo`); null when none were given.',
    load: (ids: string[], ctx) => ctx.services.payments.customers(actorOf(ctx), ids),
    resolve: (payment) => payment.id,
  }),
);
