import { z } from 'zod';
import { INTENT_TYPES } from './payment.ts';
import { type CodeRule, parseInput } from './validation.ts';

/** Spec "Limits": R55 to R3000. */
export const MIN_PAYMENT_CENTS = 5500;
export const MAX_PAYMENT_CENTS = 300000;

const url = (httpsOnly: boolean) =>
  z
    .url({ protocol: httpsOnly ? /^https$/ : /^https?$/, error: httpsOnly ? 'must be an https URL' : 'must be an http(s) URL' })
    .max(2048, 'must be at most 2048 characters');

/**
 * `POST /api/v1/payments/init`. Strict: an unknown field is VALIDATION_FAILED, like payouts.
 * URLs must be https in `prd`; the sandbox (`tst`/`dev`) allows http (spec "Versioning" 3).
 */
export function initPaymentSchema(httpsOnly: boolean) {
  return z.strictObject({
    intent_type: z.enum(INTENT_TYPES, { error: 'must be purchase or purchase_and_redeem' }).default('purchase_and_redeem'),
    amount: z
      .number()
      .int('must be a whole number of cents')
      .min(5500, 'must be 5500 to 300000 cents')
      .max(300000, 'must be 5500 to 300000 cents'),
    currency: z.string().refine((c) => c === 'ZAR', 'only ZAR is supported'),
    merchant_order_id: z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
    include_qr: z.boolean().default(false),
    success_url: url(httpsOnly).optional(),
    cancel_url: url(httpsOnly).optional(),
    failure_url: url(httpsOnly).optional(),
    webhook_url: url(httpsOnly).optional(),
    customer_info: z
      .strictObject({
        email: z.email('must be an e-mail address').max(254).optional(),
        phone: z.string().regex(/^\+?[0-9 ()-]{7,20}$/, 'must be a phone number').optional(),
      })
      .refine((c) => c.email !== undefined || c.phone !== undefined, 'needs email and/or phone')
      .optional(),
  });
}
export type InitPaymentInput = z.output<ReturnType<typeof initPaymentSchema>>;

/**
 * CONTRACT §2: a missing or non-numeric amount is VALIDATION_FAILED like any field; a number that
 * is not a whole number in range is INVALID_AMOUNT. A currency that is a string but not ZAR is
 * INVALID_CURRENCY; a missing or non-string one is VALIDATION_FAILED.
 */
function paymentCodes(body: unknown): CodeRule {
  const raw = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  return (path) => {
    const [field] = path;
    if (path.length !== 1) return undefined;
    if (field === 'amount' && typeof raw.amount === 'number') return 'INVALID_AMOUNT';
    if (field === 'currency' && typeof raw.currency === 'string') return 'INVALID_CURRENCY';
    return undefined;
  };
}

const schemas = { strict: initPaymentSchema(true), lax: initPaymentSchema(false) };

export function parseInitPayment(body: unknown, httpsOnly: boolean): InitPaymentInput {
  return parseInput(httpsOnly ? schemas.strict : schemas.lax, body, paymentCodes(body));
}

/** `Idempotency-Key`: printable ASCII without spaces, as the spec's `{order}-{timestamp}-{random}`. */
export const idempotencyKeySchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, 'Idempotency-Key must be 1 to 255 printable characters without spaces');

export const settleOutcomeSchema = z.enum(['captured', 'failed', 'cancelled'], {
  error: 'outcome must be captured, failed or cancelled',
});
