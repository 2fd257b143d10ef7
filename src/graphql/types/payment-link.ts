import { requireMerchant } from '../../domain/actor.ts';
import { createPaymentLinkInput, type PaymentLink, updatePaymentLinkInput } from '../../domain/payment-link.ts';
import { actorOf, builder } from '../builder.ts';
import { connectionArgsSchema, keysetConnection } from '../keyset.ts';
import { validated, validatedInput } from '../validation.ts';
import { PaymentRef } from './payment.ts';

/** Payment links (CONTRACT §11): the twins of REST `/api/v1/payment-links`. */

export const PaymentLinkRef = builder.loadableObjectRef<PaymentLink, string>('PaymentLink', {
  load: async (ids, ctx) => (await ctx.services.links.getMany(actorOf(ctx), ids)).map((l) => l ?? new Error('payment link not found')),
});

const PaymentLinkQrRef = builder.simpleObject('PaymentLinkQrCode', {
  description: 'A payment link\'s QR code.',
  fields: (t) => ({
    content: t.string({ description: 'The URL the QR code holds: the link\'s url.' }),
    imageUrl: t.string({ description: 'A signed PNG image of it (swap .png for .svg); expires after QR_URL_TTL_MS.' }),
  }),
});

PaymentLinkRef.implement({
  description: 'A page the merchant shares (REST link): customers pay through it, each payment carrying the link (Payment.paymentLink).',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID', description: 'The link id (REST link_id).' }),
    merchantId: t.expose('merchantId', { type: 'UUID', description: 'The merchant whose payments it makes.' }),
    url: t.string({ description: 'The link\'s page: {PUBLIC_BASE_URL}/l/{id}.', resolve: (l, _a, ctx) => ctx.services.links.addresses(l).url }),
    qrCode: t.field({ type: PaymentLinkQrRef, description: 'Its QR code.', resolve: (l, _a, ctx) => ctx.services.links.addresses(l).qrCode }),
    description: t.exposeString('description', { description: 'What the customer pays for.' }),
    amountCents: t.expose('amountCents', { type: 'Money', nullable: true, description: 'The fixed amount; null when the customer types it.' }),
    merchantReference: t.exposeString('merchantReference', { nullable: true, description: 'The merchant\'s own reference.' }),
    singleUse: t.exposeBoolean('singleUse', { description: 'Closes once one of its payments is captured.' }),
    active: t.exposeBoolean('active', { description: 'Whether its page takes payments.' }),
    paymentsCount: t.exposeInt('paymentsCount', { description: 'Payments made through it, whatever became of them.' }),
    capturedCents: t.expose('capturedCents', { type: 'Money', description: 'The sum of its captured payments\' amounts.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
  }),
});

builder.objectField(PaymentRef, 'paymentLink', (t) =>
  t.field({
    type: PaymentLinkRef,
    nullable: true,
    description: 'The payment link it was made through (REST payment_link_id); null otherwise.',
    resolve: (p) => p.paymentLinkId,
  }),
);

const CreatePaymentLinkInput = builder.inputType('CreatePaymentLinkInput', {
  description: 'A new payment link (REST `POST /api/v1/payment-links`, camelCase).',
  fields: (t) => ({
    description: t.string({ required: true, description: 'What the customer pays for (1 to 200 characters).' }),
    amountCents: t.field({ type: 'Money', description: 'A fixed amount within the merchant\'s payment limits; null or absent: the customer types it.' }),
    merchantReference: t.string({ description: 'The merchant\'s own reference (at most 64 characters).' }),
    singleUse: t.boolean({ description: 'Close once one payment through it is captured (default false).' }),
  }),
});

const PaymentLinkPayload = builder.simpleObject('PaymentLinkPayload', {
  description: 'The payment link.',
  fields: (t) => ({ paymentLink: t.field({ type: PaymentLinkRef, description: 'The link.' }) }),
});

builder.queryFields((t) => ({
  paymentLink: t.field({
    type: PaymentLinkRef,
    description: 'One payment link (REST `GET /api/v1/payment-links/{link_id}`): a merchant its own, the operator any. Rate limit: payment init. Errors: NOT_FOUND, also for another merchant\'s id.',
    authScopes: { merchant: true, operator: true },
    args: { id: t.arg({ type: 'UUID', required: true, description: 'The link id.' }) },
    resolve: (_r, { id }, ctx) => ctx.services.links.get(actorOf(ctx), id),
  }),
  paymentLinks: t.connection(
    {
      type: PaymentLinkRef,
      description: 'Payment links, newest first. A merchant sees its own; the operator every merchant\'s, or one with merchantId. Rate limit: payment init. Errors: FORBIDDEN when a merchant names another merchant.',
      authScopes: { merchant: true, operator: true },
      validate: validated(connectionArgsSchema),
      args: { merchantId: t.arg({ type: 'UUID', description: 'Only this merchant\'s (the operator; a merchant may only name itself).' }) },
      resolve: (_r, args, ctx) => {
        const actor = actorOf(ctx);
        return keysetConnection(
          'payment-link',
          args,
          (page) => ctx.services.links.page(actor, { merchantId: args.merchantId, ...page }),
          () => ctx.services.links.count(actor, args.merchantId),
        );
      },
    },
    { description: 'A page of payment links, newest first, with how many there are on all pages.' },
    { description: 'One payment link of the page, with its cursor.' },
  ),
}));

builder.mutationFields((t) => ({
  createPaymentLink: t.field({
    type: PaymentLinkPayload,
    description: 'Creates a payment link (merchant only; REST `POST /api/v1/payment-links`). Rate limit: payment init. Errors: VALIDATION_FAILED, INVALID_AMOUNT (a fixed amount outside the merchant\'s payment limits), FORBIDDEN for the operator.',
    authScopes: { merchant: true },
    args: { input: t.arg({ type: CreatePaymentLinkInput, required: true, description: 'The link.', validate: validated(createPaymentLinkInput) }) },
    resolve: async (_r, { input }, ctx) => {
      requireMerchant(actorOf(ctx));
      return { paymentLink: await ctx.services.links.create(actorOf(ctx), validatedInput(createPaymentLinkInput, input)) };
    },
  }),
  updatePaymentLink: t.field({
    type: PaymentLinkPayload,
    description: 'Switches a payment link off (active: false) or on again (merchant only; REST `PATCH /api/v1/payment-links/{link_id}`). Rate limit: payment init. Errors: NOT_FOUND, also for another merchant\'s id; FORBIDDEN for the operator.',
    authScopes: { merchant: true },
    args: {
      id: t.arg({ type: 'UUID', required: true, description: 'The link id.' }),
      active: t.arg.boolean({ required: true, description: 'false closes the link; true opens it again.' }),
    },
    resolve: async (_r, { id, active }, ctx) => ({
      paymentLink: await ctx.services.links.update(actorOf(ctx), id, validatedInput(updatePaymentLinkInput, { active })),
    }),
  }),
}));
