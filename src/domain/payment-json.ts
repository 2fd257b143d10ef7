import { z } from 'zod';
import { ATTEMPT_STATUSES, EXPIRED, LINK_PAID_ALREADY, type Payment, PAYMENT_STATUSES, type PaymentInitiation } from './payment.ts';

/**
 * The public JSON shapes of a payment (spec "Fields returned by payment …"): REST answers, the
 * webhook's `data` and the CLI print these. Each shape is a schema (for the OpenAPI document)
 * and the one function that writes it, typed against the schema.
 */

const uuid = z.uuid().meta({ example: '3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11' });
const timestamp = z.iso.datetime().meta({ example: '2026-11-22T10:15:30.000Z' });
const cents = (description: string, example: number) =>
  z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).meta({ format: 'int64', description, example });

export const paymentInitiationJsonSchema = z
  .object({
    payment_id: uuid,
    status: z.literal('created'),
    payment_url: z.url().meta({ description: 'The hosted payment page: {PUBLIC_BASE_URL}/pay/{payment_id}' }),
    qr_code: z
      .object({
        content: z.url().meta({ description: 'The URL encoded in the QR code, equal to payment_url' }),
        image_url: z.url().meta({ description: 'Signed PNG URL (swap .png for .svg); expires after 24 hours' }),
      })
      .strict()
      .optional()
      .meta({ description: 'Only when include_qr is true' }),
  })
  .strict()
  .meta({ id: 'PaymentInitiation' });

/** The initiation `data`; a replay gives the same value (the QR link's expiry follows the creation time). */
export function paymentInitiationJson({ payment, links }: PaymentInitiation): z.input<typeof paymentInitiationJsonSchema> {
  return {
    payment_id: payment.id,
    status: 'created',
    payment_url: links.paymentUrl,
    ...(links.qrCode && { qr_code: { content: links.qrCode.content, image_url: links.qrCode.imageUrl } }),
  };
}

export const paymentJsonSchema = z
  .object({
    payment_id: uuid,
    merchant_order_id: z.string().max(255).meta({ description: 'The merchant\'s order id, unique per merchant', example: 'ORD-1001' }),
    description: z.string().max(200).nullable().meta({ description: 'What is being bought, as given at initiation; null when none was', example: 'Two tickets, Saturday 20:00' }),
    status: z.enum(PAYMENT_STATUSES),
    failure_reason: z
      .enum(['expired', 'link_paid_already'])
      .nullable()
      .meta({
        description:
          'Why a failed payment failed, when zarpay decided it: `expired` (not finished within PAYMENT_EXPIRES_AFTER_MS of its creation; its provider was asked once more first); `link_paid_already` (made through a single-use payment link that another payment paid first: what the customer paid goes back). Null otherwise',
      }),
    amount: cents('Amount in cents', 12345),
    currency: z.literal('ZAR'),
    fee_cents: cents('Platform fee, fixed at initiation', 309),
    net_amount_cents: cents('amount - fee_cents: credited to the balance on capture with auto top-up; null once failed or cancelled', 12036).nullable(),
    latest_attempt: z
      .object({
        status: z.enum(ATTEMPT_STATUSES).meta({ example: 'succeeded' }),
        provider: z.string().max(32).meta({ description: 'The payment provider of this attempt', example: 'sandbox' }),
        provider_ref: z.string().max(255).nullable().meta({ description: "The provider's reference", example: 'sbx_fca14468fc9de4c463ac4359' }),
        created_at: timestamp,
      })
      .strict()
      .optional()
      .meta({ description: 'Absent until the customer starts checkout' }),
    voucher_code: z
      .string()
      .regex(/^(\d{4}|\*{4})-(\d{4}|\*{4})-(\d{4}|\*{4})-\d{4}$/)
      .max(19)
      .nullable()
      .meta({ description: 'The voucher issued on capture, for the merchant to redeem; null until issued. A key carrying the viewer role reads it masked (`****-****-****-6604`)', example: '4821-0937-5512-6604' }),
    voucher_redeemed: z.boolean().meta({ description: 'Whether the voucher was redeemed (purchase_and_redeem redeems it at capture)' }),
    refunded_cents: cents('The sum of the succeeded refunds of the payment; the status stays captured', 0),
    payment_link_id: z.uuid().nullable().meta({ description: 'The payment link it was made through (POST /api/v1/payment-links); null otherwise', example: null }),
    created_at: timestamp.meta({ description: 'When it was initiated' }),
  })
  .strict()
  .meta({ id: 'Payment' });

/** The status object of `GET /api/v1/payments/{id}`; `latest_attempt` is absent before any attempt. */
export function paymentJson(p: Payment): z.input<typeof paymentJsonSchema> {
  return {
    payment_id: p.id,
    merchant_order_id: p.merchantOrderId,
    description: p.description,
    status: p.status,
    failure_reason: p.failureReason === EXPIRED || p.failureReason === LINK_PAID_ALREADY ? p.failureReason : null,
    amount: p.amountCents,
    currency: p.currency,
    fee_cents: p.feeCents,
    net_amount_cents: p.netAmountCents,
    ...(p.latestAttempt && {
      latest_attempt: {
        status: p.latestAttempt.status,
        provider: p.latestAttempt.provider,
        provider_ref: p.latestAttempt.providerRef,
        created_at: p.latestAttempt.createdAt.toISOString(),
      },
    }),
    voucher_code: p.voucherCode,
    voucher_redeemed: p.voucherRedeemed,
    refunded_cents: p.refundedCents,
    payment_link_id: p.paymentLinkId,
    created_at: p.createdAt.toISOString(),
  };
}

/**
 * A payment event's `data` (CONTRACT §6): the status object plus `merchant_order_id`, without
 * `voucher_code`. Events are kept in the outbox and streamed to subscribers: a voucher code there
 * would be a spendable code stored in the clear. The merchant reads it from the payment.
 */
export function paymentEventData(p: Payment) {
  const { voucher_code: _code, ...status } = paymentJson(p);
  return status;
}
