import { z } from 'zod';
import { ERROR_STATUS } from '../../src/domain/errors.ts';
import { PAYMENT_STATUSES } from '../../src/domain/payment.ts';
import { PAYOUT_STATUSES } from '../../src/domain/payout-state.ts';

/**
 * The response shapes of `src/domain/wire.ts` as zod schemas, for the OpenAPI document and for
 * the test that checks real responses against it.
 */

const uuid = z.uuid().meta({ example: '3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11' });
const timestamp = z.iso.datetime().meta({ example: '2026-11-22T10:15:30.000Z' });
const cents = (description: string, example: number) => z.number().int().meta({ description, example });

export const metadataSchema = z
  .object({ timestamp, api_version: z.literal('v1') })
  .meta({ id: 'Metadata', description: 'Present on payment initiation and on every error.' });

export const errorSchema = z
  .object({
    status: z.literal('error'),
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS]),
      message: z.string().meta({ example: 'amount_cents: amount_cents must be greater than 0' }),
    }),
    metadata: metadataSchema,
  })
  .meta({ id: 'Error' });

export const payoutSchema = z
  .object({
    id: uuid,
    merchant_id: uuid,
    amount_cents: cents('What the recipient receives', 25000),
    fee_cents: cents('Calculated at request time and locked for this payout', 500),
    gross_amount_cents: cents('amount_cents + fee_cents: reserved, then deducted', 25500),
    currency: z.literal('ZAR'),
    status: z.enum(PAYOUT_STATUSES),
    payout_method: z.literal('eft'),
    merchant_reference: z.string().optional(),
    description: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    external_transfer_id: z.string().optional().meta({ description: 'When status is completed' }),
    failure_reason: z.string().optional().meta({ description: 'When status is failed' }),
    rejection_reason: z.string().optional().meta({ description: 'When status is rejected' }),
    created_at: timestamp,
    updated_at: timestamp,
    completed_at: timestamp.optional().meta({ description: 'When status is completed' }),
  })
  .strict()
  .meta({ id: 'Payout' });

export const balanceSchema = z
  .object({
    merchant_id: uuid,
    balance_cents: cents('Total balance for payouts', 100000),
    reserved_cents: cents('Reserved for pending, approved and processing payouts', 25500),
    totals: z.object({
      gross_cents: cents('All credits', 100000),
      fees_cents: cents('Payment fees and fees of completed payouts', 500),
      withdrawals_cents: cents('amount_cents of completed payouts', 25000),
    }),
    available_cents: cents('balance_cents - reserved_cents', 74500),
    currency: z.literal('ZAR'),
  })
  .strict()
  .meta({ id: 'Balance' });

export const apiKeySchema = z
  .object({
    id: uuid,
    kid: z.string().meta({ example: 'nq6r2bxkbbi3' }),
    env: z.enum(['prd', 'tst', 'dev']),
    type: z.literal('secret'),
    status: z.enum(['active', 'revoked', 'expired']),
    created_at: timestamp,
    display_mask: z.string().meta({ example: 'sec1-tst-nq6r2bxkbbi3…3pgar0' }),
    expires_at: timestamp.optional(),
    revoked_at: timestamp.optional(),
  })
  .strict()
  .meta({ id: 'ApiKey' });

export const paymentInitiationSchema = z
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

export const paymentSchema = z
  .object({
    payment_id: uuid,
    status: z.enum(PAYMENT_STATUSES),
    amount: cents('Amount in cents', 12345),
    currency: z.literal('ZAR'),
    fee_cents: cents('Platform fee, fixed at initiation', 309),
    net_amount_cents: cents('amount - fee_cents: credited to the balance on capture with auto top-up', 12036),
    latest_attempt: z
      .object({
        status: z.string().meta({ example: 'succeeded' }),
        provider: z.string().meta({ example: 'sandbox' }),
        provider_ref: z.string().meta({ example: 'sbx_fca14468fc9de4c463ac4359' }),
        created_at: timestamp,
      })
      .strict()
      .optional()
      .meta({ description: 'Absent until the customer starts checkout' }),
  })
  .strict()
  .meta({ id: 'Payment' });

const whsec = z.string().regex(/^whsec_[A-Za-z0-9]{43}$/).meta({ description: 'The signing secret, shown once', example: 'whsec_' + 'Q'.repeat(43) });

export const webhookSecretSchema = z
  .object({ id: uuid, secret: whsec, kid: z.string().meta({ example: 'wk_3f1c9a52' }) })
  .strict()
  .meta({ id: 'WebhookSecret' });

export const rotatedWebhookSecretSchema = z
  .object({
    id: uuid,
    secret: whsec,
    kid: z.string(),
    rotating_kid: z.string().nullable().meta({ description: 'The previous secret, still signing until rotating_until (null if there was none)' }),
    rotating_until: timestamp.nullable(),
  })
  .strict()
  .meta({ id: 'RotatedWebhookSecret' });

/** `{status: "success", data}`, optionally with metadata. */
export function successOf<T extends z.ZodType>(data: T, withMetadata = false) {
  return z
    .object({ status: z.literal('success'), data, ...(withMetadata ? { metadata: metadataSchema } : {}) })
    .strict();
}
