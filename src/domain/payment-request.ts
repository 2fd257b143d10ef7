import { z } from 'zod';
import { PLATFORM_MAX_CENTS } from './merchant.ts';
import { type Payment, PAYMENT_STATUSES } from './payment.ts';
import { nonBlank, optional, withCode } from './validation.ts';

/**
 * A one-off payment request (CONTRACT §11, docs/links.md): the owner names the amount, what it is
 * for and the customer's e-mail; zarpay makes the payment and e-mails the customer its page. By
 * e-mail only: an SMS from zarpay never carries a link.
 */
export const requestPaymentInput = z
  .strictObject({
    amountCents: withCode(
      z
        .number()
        .int('must be a whole number of cents')
        .min(1, "must be within this merchant's payment limits")
        .max(PLATFORM_MAX_CENTS, "must be within this merchant's payment limits")
        .meta({ description: "Cents, within the merchant's payment limits", example: 45000 }),
      'INVALID_AMOUNT',
    ),
    description: nonBlank(200).meta({ description: 'What the customer pays for, in the e-mail and on the payment page (1 to 200 characters)', example: 'Invoice 1042: plumbing' }),
    customerEmail: z.email('must be an e-mail address').max(254, 'must be at most 254 characters').meta({ description: 'Where the request goes', example: 'thandi@example.co.za' }),
    merchantOrderId: optional(
      z.string().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters').meta({
        description: "The merchant's order id (unique per merchant: the same request again replays it and sends nothing more); absent: zarpay makes one, `request-{uuid}`",
        example: 'INV-1042',
      }),
    ),
  })
  .meta({ id: 'PaymentRequestRequest' });
export type RequestPaymentInput = z.output<typeof requestPaymentInput>;

/** `POST /api/v1/payment-requests` answers this: the payment, where it is paid, and whether the e-mail is on its way. */
export const paymentRequestJsonSchema = z
  .object({
    payment_id: z.uuid().meta({ example: '3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11' }),
    status: z.enum(PAYMENT_STATUSES).meta({ description: '`created` for a new request; a replay gives the payment as it is now' }),
    payment_url: z.url().meta({ description: 'The hosted payment page the e-mail links to: {PUBLIC_BASE_URL}/pay/{payment_id}' }),
    qr_code: z
      .object({
        content: z.url().meta({ description: 'The URL encoded in the QR code, equal to payment_url' }),
        image_url: z.url().meta({ description: 'Signed PNG URL (swap .png for .svg); expires QR_URL_TTL_MS after the payment was made' }),
      })
      .strict(),
    customer_email: z.email().meta({ description: 'Where the request went', example: 'thandi@example.co.za' }),
    email_queued: z.boolean().meta({ description: 'true: the e-mail is on its way (retried until the mail server takes it); false: a replay of an earlier request (the same merchant_order_id and input), nothing sent again' }),
  })
  .strict()
  .meta({ id: 'PaymentRequest' });

/** The answer's `data`, from what the request made and the address it went to. */
export function paymentRequestJson(
  r: { payment: Pick<Payment, 'id' | 'status'>; links: { paymentUrl: string; qrCode: { content: string; imageUrl: string } }; created: boolean },
  customerEmail: string,
): z.input<typeof paymentRequestJsonSchema> {
  return {
    payment_id: r.payment.id,
    status: r.payment.status,
    payment_url: r.links.paymentUrl,
    qr_code: { content: r.links.qrCode.content, image_url: r.links.qrCode.imageUrl },
    customer_email: customerEmail,
    email_queued: r.created,
  };
}
