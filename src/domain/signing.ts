import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * HMAC helpers. Every use gets its own key derived from SERVICE_SECRET and a purpose label, so a
 * signature made for one purpose (a QR URL) is worthless for another (a provider callback).
 */
export function deriveKey(serviceSecret: string, purpose: string): Buffer {
  return createHmac('sha256', serviceSecret).update(`zarpay ${purpose} v1`).digest();
}

export function hmacHex(key: Buffer, message: string | Buffer): string {
  return createHmac('sha256', key).update(message).digest('hex');
}

/** Constant-time check of a hex HMAC; anything malformed is simply "no". */
export function hmacMatches(key: Buffer, message: string | Buffer, presented: unknown): boolean {
  if (typeof presented !== 'string' || !/^[0-9a-f]{64}$/i.test(presented)) return false;
  const expected = Buffer.from(hmacHex(key, message), 'hex');
  // Hex reads the same in either case.
  return timingSafeEqual(expected, Buffer.from(presented, 'hex'));
}

/** The message a QR image URL signs: the payment and the moment the URL stops working. */
export const qrMessage = (paymentId: string, expires: number) => `qr:${paymentId}:${expires}`;

/** The hidden form token of the hosted page: ties a form post to one payment. */
export const formMessage = (paymentId: string) => `pay-form:${paymentId}`;
