import { z } from 'zod';
import { PLATFORM_MAX_CENTS } from './merchant.ts';
import { nonBlank, offsetPage, optional, withCode } from './validation.ts';

/**
 * Payment links (CONTRACT §11): a page at `/l/{link_id}` a merchant shares (a QR code, a chat
 * message) whose form makes a payment of the merchant, for the link's fixed amount or one the
 * customer types. A payment made through it names it (`payment_link_id`).
 */
export interface PaymentLink {
  id: string;
  merchantId: string;
  description: string;
  /** Null: the customer types the amount. */
  amountCents: number | null;
  merchantReference: string | null;
  singleUse: boolean;
  active: boolean;
  /** Payments made through it, whatever became of them. */
  paymentsCount: number;
  /** The sum of its captured payments' amounts. */
  capturedCents: number;
  createdAt: Date;
  updatedAt: Date;
}

/** Where a link is opened, and its QR code (content = url; a signed image link as a payment's). */
export interface PaymentLinkAddresses {
  url: string;
  qrCode: { content: string; imageUrl: string };
}

export const createPaymentLinkInput = z
  .strictObject({
    description: nonBlank(200).meta({ description: 'What the customer pays for, shown on the link\'s page (1 to 200 characters)', example: 'Guitar lesson, 45 minutes' }),
    amountCents: optional(
      withCode(
        z
          .number()
          .int('must be a whole number of cents')
          .min(1, `must be within this merchant's payment limits`)
          .max(PLATFORM_MAX_CENTS, `must be within this merchant's payment limits`)
          .meta({ description: 'A fixed amount in cents, within the merchant\'s payment limits; absent or null: the customer types the amount', example: 25000 }),
        'INVALID_AMOUNT',
      ),
    ),
    merchantReference: optional(z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters').meta({ description: 'The merchant\'s own reference for the link', example: 'LESSONS-NOV' })),
    singleUse: optional(z.boolean().meta({ description: 'Closes once one payment through it is captured (default false)' })),
  })
  .meta({ id: 'CreatePaymentLinkRequest' });
export type CreatePaymentLinkInput = z.output<typeof createPaymentLinkInput>;

export const updatePaymentLinkInput = z
  .strictObject({ active: z.boolean({ error: 'must be true or false' }).meta({ description: 'false closes the link; true opens it again' }) })
  .meta({ id: 'UpdatePaymentLinkRequest' });
export type UpdatePaymentLinkInput = z.output<typeof updatePaymentLinkInput>;

/** `GET /api/v1/payment-links`: offset paging like payouts. */
export const listPaymentLinksQuery = z.strictObject({ ...offsetPage });
export type ListPaymentLinksQuery = z.output<typeof listPaymentLinksQuery>;

const uuid = z.uuid().meta({ example: '5d2f0e2b-8a43-4c1e-9a57-3f1c9a527c11' });
const cents = (description: string, example: number) => z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).meta({ format: 'int64', description, example });

export const paymentLinkJsonSchema = z
  .object({
    link_id: uuid,
    url: z.url().meta({ description: 'The link\'s page: {PUBLIC_BASE_URL}/l/{link_id}' }),
    qr_code: z
      .object({
        content: z.url().meta({ description: 'The URL encoded in the QR code, equal to url' }),
        image_url: z.url().meta({ description: 'Signed PNG URL (swap .png for .svg); expires after QR_URL_TTL_MS' }),
      })
      .strict(),
    description: z.string().max(200).meta({ example: 'Guitar lesson, 45 minutes' }),
    amount_cents: cents('The fixed amount; null when the customer types it', 25000).nullable(),
    merchant_reference: z.string().max(64).nullable().meta({ example: 'LESSONS-NOV' }),
    single_use: z.boolean().meta({ description: 'Closes once one payment through it is captured' }),
    active: z.boolean().meta({ description: 'Whether the page takes payments' }),
    payments_count: cents('Payments made through the link, whatever became of them', 3),
    captured_cents: cents('The sum of its captured payments\' amounts', 50000),
    created_at: z.iso.datetime().meta({ example: '2026-11-28T10:15:30.000Z' }),
  })
  .strict()
  .meta({ id: 'PaymentLink' });

export function paymentLinkJson(l: PaymentLink, a: PaymentLinkAddresses): z.input<typeof paymentLinkJsonSchema> {
  return {
    link_id: l.id,
    url: a.url,
    qr_code: { content: a.qrCode.content, image_url: a.qrCode.imageUrl },
    description: l.description,
    amount_cents: l.amountCents,
    merchant_reference: l.merchantReference,
    single_use: l.singleUse,
    active: l.active,
    payments_count: l.paymentsCount,
    captured_cents: l.capturedCents,
    created_at: l.createdAt.toISOString(),
  };
}

/**
 * An amount in rand as a customer types it on the link's page: `100`, `100.50`, `100,50`,
 * `R 100,50`, `R1 000,00` (spaces as thousands separators). Cents, or null when it is not one.
 */
export function parseRand(text: unknown): number | null {
  if (typeof text !== 'string' || text.length > 32) return null;
  const cleaned = text.trim().replace(/^R\s*/i, '').replace(/[\s\u00a0]/g, '');
  const m = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(cleaned);
  if (!m) return null;
  return Number(m[1]) * 100 + (m[2] === undefined ? 0 : Number(m[2].padEnd(2, '0')));
}
