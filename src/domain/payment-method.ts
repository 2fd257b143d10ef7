/**
 * The ways a customer pays on the hosted page (CONTRACT §11): `card` (Yoco, or the sandbox's
 * test card) and `instant_eft` (Ozow's Pay by Bank). Which are offered is the environment's
 * (the providers configured) and, within those, the merchant's (`payment_methods`).
 */
export const PAYMENT_METHODS = ['card', 'instant_eft'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const isPaymentMethod = (v: unknown): v is PaymentMethod => typeof v === 'string' && (PAYMENT_METHODS as readonly string[]).includes(v);
