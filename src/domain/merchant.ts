import { z } from 'zod';
import { nonBlank, optional } from './validation.ts';
import { PAYMENT_METHODS, type PaymentMethod } from './payment-method.ts';

/** A merchant as services return it. */
export interface Merchant {
  id: string;
  name: string;
  webhookUrl: string | null;
  paymentFeeBps: number;
  paymentFeeFixedCents: number;
  payoutFeeCents: number;
  autoTopup: boolean;
  redirectDomains: string[];
  /** Where customers get help: an e-mail address, a phone number or an https page; shown on the payment page. */
  supportContact: string | null;
  /** The support e-mail address and phone number a merchant sets itself (PATCH /api/v1/merchant). */
  supportEmail: string | null;
  supportPhone: string | null;
  /** The ways to pay its hosted page offers, within the environment's; null: every one the environment has. */
  paymentMethods: PaymentMethod[] | null;
  /** The amounts it takes, in cents (CONTRACT §11); the specification's 5500 to 300000 unless the account manager set another. */
  paymentLimits: PaymentLimits;
  createdAt: Date;
  updatedAt: Date;
}

/** A merchant's choice of ways to pay: one or both, each once. */
export const paymentMethodsInput = z
  .array(z.enum(PAYMENT_METHODS, { error: 'must be card or instant_eft' }))
  .min(1, 'must name at least one way to pay (null offers every one)')
  .max(2)
  .refine((v) => new Set(v).size === v.length, 'must name each way to pay once');
/** A merchant's payment limits: the smallest and largest payment it takes, in cents. */
export interface PaymentLimits {
  minCents: number;
  maxCents: number;
}

/** The platform's bounds on any merchant's payment limits (CONTRACT §11). */
export const PLATFORM_MIN_CENTS = 100;
export const PLATFORM_MAX_CENTS = 10_000_000;

/** The specification's limits, every merchant's until the account manager sets its own. */
export const DEFAULT_PAYMENT_LIMITS: PaymentLimits = { minCents: 5500, maxCents: 300_000 };

const limitCents = z
  .number()
  .int('must be a whole number of cents')
  .min(PLATFORM_MIN_CENTS, `must be ${PLATFORM_MIN_CENTS} to ${PLATFORM_MAX_CENTS} cents`)
  .max(PLATFORM_MAX_CENTS, `must be ${PLATFORM_MIN_CENTS} to ${PLATFORM_MAX_CENTS} cents`);

/** A merchant's new payment limits (`zarpay merchant limits`): both bounds, within the platform's, min ≤ max. */
export const paymentLimitsInput = z
  .strictObject({ minCents: limitCents, maxCents: limitCents })
  .refine((l) => l.minCents <= l.maxCents, { message: 'minCents must not be more than maxCents', path: ['minCents'] });

/** How an amount outside a merchant's limits is refused: the message names the range. */
export function outsideLimitsMessage(l: PaymentLimits): string {
  return `must be ${l.minCents} to ${l.maxCents} cents (R${(l.minCents / 100).toFixed(2)} to R${(l.maxCents / 100).toFixed(2)}), this merchant's payment limits`;
}

/** A merchant's webhook URL: http(s) (https in `prd`, which the service checks). */
export const webhookUrlInput = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048, 'must be at most 2048 characters');
const httpUrl = webhookUrlInput;
const domain = z
  .string()
  .max(253, 'must be at most 253 characters')
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$|^localhost$/, 'must be a domain name');
/**
 * A merchant's support contact as the payment page can link it: an e-mail address (mailto:), a
 * phone number (tel:) or an http(s) page.
 */
export const supportContactInput = z
  .string()
  .trim()
  .max(200, 'must be at most 200 characters')
  .refine((v) => supportContactKind(v) !== null, 'must be an e-mail address, a phone number or an http(s) URL');

export function supportContactKind(value: string): 'email' | 'phone' | 'url' | null {
  if (/^[^\s@<>"]+@[^\s@<>"]+\.[A-Za-z]{2,}$/.test(value)) return 'email';
  if (/^\+?[0-9 ()-]{7,20}$/.test(value)) return 'phone';
  if (/^https?:\/\/[^\s<>"]+$/.test(value) && URL.canParse(value)) return 'url';
  return null;
}

/** Where customers write for help (PATCH /api/v1/merchant `support_email`). */
export const supportEmailInput = z.email('must be an e-mail address').max(254, 'must be at most 254 characters').meta({ example: 'help@shop.example.co.za' });
/** Where customers call for help (`support_phone`): 7 to 20 digits, spaces and ()-, an optional leading +. */
export const supportPhoneInput = z.string().regex(/^\+?[0-9 ()-]{7,20}$/, 'must be a phone number').meta({ example: '+27 21 555 0100', maxLength: 21 });

const cents = z.number().int('must be a whole number').min(0, 'must not be negative').max(1_000_000, 'must be at most 1000000');

/** An operator's new merchant (`zarpay merchant create`, GraphQL `createMerchant`). */
export const createMerchantInput = z.strictObject({
  name: nonBlank(200),
  /** Where payout and payment events are delivered; null or absent: nowhere. */
  webhookUrl: httpUrl.nullish().transform((v) => v ?? null),
  paymentFeeBps: optional(z.number().int('must be a whole number').min(0, 'must be 0 to 10000').max(10000, 'must be 0 to 10000')),
  paymentFeeFixedCents: optional(cents),
  payoutFeeCents: optional(cents),
  autoTopup: optional(z.boolean()),
  redirectDomains: optional(z.array(domain).max(50, 'must hold at most 50 domains')),
  supportContact: optional(supportContactInput),
});
export type CreateMerchantInput = z.output<typeof createMerchantInput>;

/** An operator's change to a merchant: only what is given changes; `webhookUrl: null` clears it. */
export const updateMerchantInput = z.strictObject({
  name: optional(nonBlank(200)),
  webhookUrl: httpUrl.nullable().optional(),
  paymentFeeBps: createMerchantInput.shape.paymentFeeBps,
  paymentFeeFixedCents: optional(cents),
  payoutFeeCents: optional(cents),
  autoTopup: optional(z.boolean()),
  /** Replaces the allow-listed redirect domains. */
  redirectDomains: optional(z.array(domain).max(50, 'must hold at most 50 domains')),
  /** Added to the allow-list (`--allow-redirect-domain D`), after any replacement. */
  addRedirectDomains: optional(z.array(domain).max(50, 'must hold at most 50 domains')),
  /** Null clears it. */
  supportEmail: supportEmailInput.nullable().optional(),
  /** Null clears it. */
  supportPhone: supportPhoneInput.nullable().optional(),
  /** Null or an empty string clears it. */
  supportContact: z
    .union([z.literal(''), supportContactInput])
    .nullable()
    .transform((v) => (v === '' ? null : v))
    .optional(),
  /** The ways to pay its page offers; null: every one the environment has. */
  paymentMethods: paymentMethodsInput.nullable().optional(),
  /** The merchant's payment limits, both bounds at once (`zarpay merchant limits`). */
  paymentLimits: optional(paymentLimitsInput),
});
export type UpdateMerchantInput = z.output<typeof updateMerchantInput>;

/**
 * A merchant's change to its own settings (PATCH /api/v1/merchant, GraphQL updateMerchantSettings):
 * only what is given changes; null clears the webhook URL, e-mail or phone. The redirect allow-list
 * is replaced as a whole (CONTRACT §4's rule for redirects is unchanged).
 */
export const merchantSettingsInput = z
  .strictObject({
    webhookUrl: httpUrl.nullable().optional().meta({ description: 'Where events are delivered (https in prd, never to a private address); null clears it', example: 'https://shop.example.co.za/zarpay/webhooks' }),
    allowedRedirectDomains: optional(
      z.array(domain).max(50, 'must hold at most 50 domains').meta({ description: 'Hosts the hosted page may send customers back to (success_url, cancel_url, failure_url); replaces the list', example: ['shop.example.co.za'] }),
    ),
    supportEmail: supportEmailInput.nullable().optional().meta({ description: 'Shown on the hosted payment page; null clears it' }),
    supportPhone: supportPhoneInput.nullable().optional().meta({ description: 'Shown on the hosted payment page; null clears it' }),
    paymentMethods: paymentMethodsInput.nullable().optional().meta({
      description:
        'The ways to pay the hosted page offers (`card`, `instant_eft`), within those the service has configured; null offers every one. A method the service does not run is skipped; if none is left, the page offers what the service has.',
      example: ['instant_eft'],
    }),
  })
  .meta({ id: 'MerchantSettingsChange' });
export type MerchantSettingsInput = z.output<typeof merchantSettingsInput>;

/** The merchant's own settings as it reads them (GET /api/v1/merchant). */
export const merchantSettingsJsonSchema = z
  .object({
    merchant_id: z.uuid(),
    name: z.string().max(200).meta({ example: 'Kettle & Co' }),
    webhook_url: z.string().max(2048).nullable().meta({ format: 'uri', example: 'https://shop.example.co.za/zarpay/webhooks' }),
    allowed_redirect_domains: z.array(z.string().max(253)).max(50).meta({ example: ['shop.example.co.za'] }),
    support_email: z.string().max(254).nullable().meta({ example: 'help@shop.example.co.za' }),
    support_phone: z.string().max(21).nullable().meta({ example: '+27 21 555 0100' }),
    payment_methods: z
      .array(z.enum(PAYMENT_METHODS))
      .max(2)
      .nullable()
      .meta({ description: 'The ways to pay the hosted page offers; null: every one the service has', example: ['card', 'instant_eft'] }),
    payment_limits: z
      .object({
        min_cents: z.int().meta({ description: 'The smallest payment this merchant takes, in cents', example: 5500 }),
        max_cents: z.int().meta({ description: 'The largest payment this merchant takes, in cents', example: 300000 }),
      })
      .strict()
      .meta({ id: 'PaymentLimits', description: 'The amounts this merchant takes (INVALID_AMOUNT outside them); the account manager sets them' }),
  })
  .strict()
  .meta({ id: 'MerchantSettings' });

export function merchantSettingsJson(m: Merchant): z.input<typeof merchantSettingsJsonSchema> {
  return {
    merchant_id: m.id,
    name: m.name,
    webhook_url: m.webhookUrl,
    allowed_redirect_domains: m.redirectDomains,
    support_email: m.supportEmail,
    support_phone: m.supportPhone,
    payment_methods: m.paymentMethods,
    payment_limits: { min_cents: m.paymentLimits.minCents, max_cents: m.paymentLimits.maxCents },
  };
}
