import { createHmac, randomBytes } from 'node:crypto';

/**
 * Webhook secrets and signatures, CONTRACT §6 (Standard Webhooks):
 * - secret: `whsec_` + base64url of 32 random bytes, drawn so the 43 characters hold no `-` or
 *   `_`; the same text then decodes to the same bytes as standard base64, so Standard Webhooks
 *   libraries (which decode base64) verify with the secret exactly as we hand it out.
 * - signature: `v1,` + base64 HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{raw body}`.
 */

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
const SECRET_BODY = /^[A-Za-z0-9]{43}$/;

export function generateWebhookSecret(): string {
  for (;;) {
    const text = randomBytes(32).toString('base64url');
    // About one draw in four has neither character; the expected number of draws is ~4.
    if (SECRET_BODY.test(text)) return WEBHOOK_SECRET_PREFIX + text;
  }
}

/** The 32 key bytes of a `whsec_` secret. */
export function webhookSecretKey(secret: string): Buffer {
  const body = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : '';
  if (!SECRET_BODY.test(body)) throw new Error('not a whsec_ secret');
  return Buffer.from(body, 'base64url');
}

/** One `v1,<base64>` signature. */
export function signWebhook(key: Buffer, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * The `webhook-signature` header value for a set of keys, newest first (the active secret, then
 * the one rotating out); `undefined` when there is no key, and the delivery goes out unsigned.
 */
export function signatureHeader(keys: Buffer[], id: string, timestamp: number, body: string): string | undefined {
  if (keys.length === 0) return undefined;
  return keys.map((k) => signWebhook(k, id, timestamp, body)).join(' ');
}

/** A short public identifier of a webhook secret: `whk_` + 12 lowercase base32 characters. */
export function newWebhookKid(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = randomBytes(12);
  let out = '';
  for (const b of bytes) out += alphabet[b & 31];
  return `whk_${out}`;
}
