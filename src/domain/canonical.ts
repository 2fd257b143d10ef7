import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level, so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1))); // an object's keys are unique: none compare equal
    }
    return v;
  });
}

/**
 * sha256 of the canonical JSON: "identical payload" means equal JSON values, key order ignored.
 * Never stored as it is (it covers bank details and contacts): see `requestDigest`.
 */
export function payloadHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/**
 * What is stored to recognise a request again (a payout's `merchant_reference`, a payment's
 * order id or Idempotency-Key): the canonical hash, keyed with the service's digest key.
 */
export function requestDigest(keyring: { digest(purpose: 'request', plaintext: string): Buffer }, value: unknown): string {
  return keyring.digest('request', payloadHash(value)).toString('hex');
}
