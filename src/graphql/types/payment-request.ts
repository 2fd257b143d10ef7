import { requestPaymentInput } from '../../domain/payment-request.ts';
import { actorOf, builder } from '../builder.ts';
import { validated, validatedInput } from '../validation.ts';
import { PaymentRef, QrCodeRef } from './payment.ts';

/** One-off payment requests (CONTRACT §11): the twin of REST `POST /api/v1/payment-requests`. */

const RequestPaymentInput = builder.inputType('RequestPaymentInput', {
  description: 'A payment request to e-mail a customer (REST `POST /api/v1/payment-requests`, camelCase).',
  fields: (t) => ({
    amountCents: t.field({ type: 'Money', required: true, description: 'Cents, within the merchant\'s payment limits (INVALID_AMOUNT otherwise).' }),
    description: t.string({ required: true, description: 'What the customer pays for, in the e-mail and on the payment page (1 to 200 characters).' }),
    customerEmail: t.string({ required: true, description: 'Where the request goes; kept as the payment\'s customer e-mail (its confirmation goes there too).' }),
    merchantOrderId: t.string({ description: 'The merchant\'s order id (unique per merchant: the same request again replays it and sends nothing more); absent: `request-{uuid}`.' }),
  }),
});

const PaymentRequestPayload = builder.simpleObject('PaymentRequestPayload', {
  description: 'The payment the request made, and where the customer pays it.',
  fields: (t) => ({
    payment: t.field({ type: PaymentRef, description: 'The payment, status CREATED, with the customer\'s e-mail.' }),
    paymentUrl: t.string({ description: 'The hosted payment page the e-mail links to.' }),
    qrCode: t.field({ type: QrCodeRef, description: 'A QR code of the page.' }),
    emailQueued: t.boolean({ description: 'True: the e-mail is on its way (retried until the mail server takes it). False: a replay of an earlier request; nothing is sent again.' }),
  }),
});

builder.mutationFields((t) => ({
  requestPayment: t.field({
    type: PaymentRequestPayload,
    description:
      'Makes a payment and e-mails the customer its page (merchant only; REST `POST /api/v1/payment-requests`). By e-mail only: an SMS never carries a link. Rate limit: payment init. Errors: VALIDATION_FAILED (also when e-mail is off: SMTP_URL not set), INVALID_AMOUNT (outside the merchant\'s payment limits), DUPLICATE_ORDER_ID, FORBIDDEN for the operator and for roles other than owner.',
    authScopes: { merchant: true },
    args: { input: t.arg({ type: RequestPaymentInput, required: true, description: 'The request.', validate: validated(requestPaymentInput) }) },
    resolve: async (_r, { input }, ctx) => {
      const made = await ctx.services.paymentRequests.send(actorOf(ctx), validatedInput(requestPaymentInput, input));
      return { payment: made.payment, paymentUrl: made.links.paymentUrl, qrCode: made.links.qrCode, emailQueued: made.created };
    },
  }),
}));
