import { z } from 'zod';
import { PLATFORM_MAX_CENTS } from './merchant.ts';
import { INTENT_TYPES, PAYMENT_STATUSES } from './payment.ts';
import { E164_EXAMPLE, toE164 } from './phone.ts';
import { sastDayStart } from './statement.ts';
import { offsetPage, optional, withCode } from './validation.ts';

/** The inputs of the payment use cases, as both adapters parse them (see validation.ts). */


/**
 * An address the payment hands out or calls. http is accepted here; in `prd` the service
 * refuses anything but https (spec "Versioning" 3), so one schema serves every environment.
 */
const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048, 'must be at most 2048 characters');

export const customerInfoInput = z
  .strictObject({
    email: optional(z.email('must be an e-mail address').max(254, 'must be at most 254 characters')),
    // Kept in E.164, the form SMS gateways take (CONTRACT §10); formatting spaces are dropped.
    phone: optional(
      z
        .string()
        .max(32, 'must be at most 32 characters')
        .refine((s) => toE164(s) !== null, `must be a phone number in international (E.164) form, such as ${E164_EXAMPLE}`)
        .transform((s) => toE164(s)!)
        .meta({ description: 'E.164, such as +27825550123 (spaces allowed); gets the confirmation by SMS', example: E164_EXAMPLE, maxLength: 32, pattern: '^\\+[0-9 ().-]{6,31}$' }),
    ),
  })
  .refine((c) => c.email !== undefined || c.phone !== undefined, 'needs email and/or phone')
  .meta({ id: 'CustomerInfo', description: 'Who to send the confirmation to' });

export const initiatePaymentInput = z
  .strictObject({
    /** Default `purchase_and_redeem` (applied by the service: see `withDefaults`). */
    intentType: optional(z.enum(INTENT_TYPES, { error: 'must be purchase or purchase_and_redeem' })),
    amount: withCode(
      // The merchant's payment limits (CONTRACT §11) are checked where the payment is written,
      // against the merchant's row; here only what no merchant's limits can hold.
      z
        .number()
        .int('must be a whole number of cents')
        .min(-PLATFORM_MAX_CENTS, `must be within this merchant's payment limits (at most ${PLATFORM_MAX_CENTS} cents for any merchant)`)
        .max(PLATFORM_MAX_CENTS, `must be within this merchant's payment limits (at most ${PLATFORM_MAX_CENTS} cents for any merchant)`)
        .meta({ description: "Cents, within the merchant's payment limits (GET /api/v1/merchant `payment_limits`; 5500 to 300000 unless the account manager set others)", example: 12345 }),
      'INVALID_AMOUNT',
    ),
    currency: withCode(
      z
        .string()
        .refine((c) => c === 'ZAR', 'only ZAR is supported')
        .transform(() => 'ZAR' as const)
        .meta({ description: 'Must be `ZAR`', example: 'ZAR', enum: ['ZAR'] }),
      'INVALID_CURRENCY',
    ),
    merchantOrderId: z
      .string()
      .min(1, 'must not be empty')
      .max(255, 'must be at most 255 characters')
      .meta({ description: 'Unique per merchant', example: 'ORD-1001' }),
    /** Default false. */
    includeQr: optional(z.boolean()),
    successUrl: optional(url),
    cancelUrl: optional(url),
    failureUrl: optional(url),
    webhookUrl: optional(url),
    customerInfo: optional(customerInfoInput),
    description: optional(
      z.string().max(200, 'must be at most 200 characters').meta({ description: 'What is being bought, shown on the payment page', example: 'Two tickets, Saturday 20:00' }),
    ),
  })
  .meta({ id: 'InitiatePaymentRequest' });
export type InitiatePaymentInput = z.output<typeof initiatePaymentInput>;

/**
 * An initiation with its defaults filled in. The input itself keeps only what the caller gave:
 * an Idempotency-Key replays a request as given (CONTRACT §4: equal JSON values), while
 * `merchant_order_id` replays a payment with the same parameters, defaults included.
 */
export function withDefaults(input: InitiatePaymentInput) {
  return { ...input, intentType: input.intentType ?? 'purchase_and_redeem', includeQr: input.includeQr ?? false };
}

/** The URL fields of an initiation, which `prd` requires to be https. */
export const PAYMENT_URL_FIELDS = ['successUrl', 'cancelUrl', 'failureUrl', 'webhookUrl'] as const;

/** `Idempotency-Key`: printable ASCII without spaces, as the spec's `{order}-{timestamp}-{random}`. */
export const idempotencyKeyInput = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, 'must be 1 to 255 printable characters without spaces')
  .meta({ minLength: 1, maxLength: 255 });

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A bound of a creation window: a day (YYYY-MM-DD, in Africa/Johannesburg, whole) or an instant
 * (ISO 8601 with its offset). Parsed into the exclusive bound's instant for `end` (the day after,
 * or the instant plus a millisecond), so both bounds are inclusive as a caller reads them.
 */
const windowBound = (end: boolean) =>
  z
    .string()
    .refine((v) => (DAY.test(v) ? !Number.isNaN(sastDayStart(v).getTime()) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v) : z.iso.datetime({ offset: true }).safeParse(v).success), 'must be a date (YYYY-MM-DD) or an ISO 8601 timestamp with its offset')
    .transform((v) => {
      if (!DAY.test(v)) return new Date(Date.parse(v) + (end ? 1 : 0));
      return end ? new Date(sastDayStart(v).getTime() + 86_400_000) : sastDayStart(v);
    })
    .meta({ maxLength: 35, example: end ? '2026-11-24' : '2026-11-24T00:00:00+02:00' });

/**
 * `GET /api/v1/payments`: offset paging like payouts, with filters by status, by the merchant's
 * order id, and by creation (`created_from`, `created_to`: both included; a day is a SAST day).
 */
export const listPaymentsQuery = z.strictObject({
  ...offsetPage,
  status: optional(z.enum(PAYMENT_STATUSES, { error: `must be one of ${PAYMENT_STATUSES.join(', ')}` })),
  merchantOrderId: optional(z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters').meta({ description: 'Only the payment of this order id', example: 'ORD-1001' })),
  createdFrom: optional(windowBound(false).meta({ description: 'Created at or after: a day (YYYY-MM-DD, Africa/Johannesburg, from its start) or an ISO 8601 timestamp' })),
  createdTo: optional(windowBound(true).meta({ description: 'Created at or before: a day (YYYY-MM-DD, Africa/Johannesburg, to its end) or an ISO 8601 timestamp' })),
  q: optional(
    z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(255, 'must be at most 255 characters')
      .meta({
        description:
          'Search: payments whose order id is or starts with this text, whose amount is this text read as rand (`100,50`, `100.50`, `R 100`), or whose customer e-mail is this address (exactly, any case). A payment matching any reading is found.',
        example: '100,50',
      }),
  ),
});
export type ListPaymentsQuery = z.output<typeof listPaymentsQuery>;
