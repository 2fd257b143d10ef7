import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Data at rest (CONTRACT §9): bank details and voucher codes are sealed with AES-256-GCM, the
 * cipher and layout that protect webhook secrets, plus the id of the key that sealed them so the
 * key can rotate (`zarpay rotate-data-key`). The associated data names what the value is and
 * whose it is (`payout-details:<payout id>`), so a ciphertext copied onto another row, or into
 * another column, does not open.
 *
 * Envelope: version (1 byte, 1) | kid length (1 byte) | kid (ASCII) | iv (12) | tag (16) | ciphertext.
 */

const VERSION = 1;
const IV = 12;
const TAG = 16;

/** What a sealed value is: part of the associated data, so one kind never opens as another. */
export type SealPurpose = 'payout-details' | 'voucher-code' | 'payout-batch-file' | 'totp-secret' | 'payee-details' | 'bank-report';

/**
 * What a keyed digest is of: a sealed value, or a request's canonical hash (`request`). A
 * request's hash covers its bank details and the customer's contact, so it is kept keyed: a
 * dump alone cannot test guesses against it.
 */
export type DigestPurpose = SealPurpose | 'request';

export interface DataKeyMaterial {
  kid: string;
  key: Buffer;
}

export class SealError extends Error {
  override name = 'SealError';
}

export interface Keyring {
  /** The kid new values are sealed with. */
  readonly currentKid: string;
  seal(purpose: SealPurpose, id: string, plaintext: string): Buffer;
  /** Opens a value sealed under any key of the ring; SealError when none fits or it was tampered with. */
  open(purpose: SealPurpose, id: string, sealed: Buffer): string;
  /** The kid a value was sealed with (whether or not the ring still has that key). */
  kidOf(sealed: Buffer): string;
  /**
   * A keyed digest (HMAC-SHA256) for uniqueness and look-ups of sealed values: it never changes
   * with a data-key rotation, and without SERVICE_SECRET a dump's digests cannot be brute-forced.
   */
  digest(purpose: DigestPurpose, plaintext: string): Buffer;
  /**
   * Each key's check value (HMAC-SHA256 of a fixed text under the key), by kid: stored with the
   * data, it tells whether a key is the one that sealed under its kid, without showing the key.
   */
  checks(): { kid: string; check: Buffer }[];
}

/** What a key's check value is an HMAC of. */
const CHECK_TEXT = 'zarpay data-key check v1';

/**
 * The ring of a service: the `DATA_KEY` keys (the first seals), and always the key derived from
 * SERVICE_SECRET, which seals when there is no DATA_KEY and keeps opening what it sealed after a
 * DATA_KEY is introduced.
 */
export function createKeyring(serviceSecret: string, dataKeys: readonly DataKeyMaterial[] = []): Keyring {
  const derived = Buffer.from(hkdfSync('sha256', serviceSecret, 'zarpay', 'data-at-rest v1', 32));
  // A fingerprint, not a secret: it tells an operator which key sealed a value.
  const derivedKid = `ss-${createHmac('sha256', derived).update('kid').digest('hex').slice(0, 8)}`;
  const ring = new Map<string, Buffer>();
  for (const k of dataKeys) ring.set(k.kid, k.key);
  if (!ring.has(derivedKid)) ring.set(derivedKid, derived);
  const currentKid = dataKeys[0]?.kid ?? derivedKid;
  const digestKey = createHmac('sha256', serviceSecret).update('zarpay sealed-digest v1').digest();
  const aad = (purpose: SealPurpose, id: string) => Buffer.from(`${purpose}:${id}`);

  return {
    currentKid,
    seal(purpose, id, plaintext) {
      const key = ring.get(currentKid)!;
      const iv = randomBytes(IV);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(aad(purpose, id));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const kid = Buffer.from(currentKid, 'ascii');
      return Buffer.concat([Buffer.from([VERSION, kid.length]), kid, iv, cipher.getAuthTag(), body]);
    },
    open(purpose, id, sealed) {
      const { kid, iv, tag, body } = parse(sealed);
      const key = ring.get(kid);
      if (!key) throw new SealError(`sealed with key ${kid}, which is not in DATA_KEY (nor derived from SERVICE_SECRET)`);
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv);
        decipher.setAAD(aad(purpose, id));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
      } catch {
        throw new SealError(`a sealed ${purpose} value of ${id} does not open under key ${kid}`);
      }
    },
    kidOf: (sealed) => parse(sealed).kid,
    digest: (purpose, plaintext) => createHmac('sha256', digestKey).update(`${purpose}:${plaintext}`).digest(),
    checks: () => [...ring].map(([kid, key]) => ({ kid, check: createHmac('sha256', key).update(CHECK_TEXT).digest() })),
  };
}

function parse(value: Buffer) {
  // Embedded PostgreSQL hands bytea back as a plain Uint8Array: read it as a Buffer either way.
  const sealed = Buffer.isBuffer(value) ? value : Buffer.from(value);
  if (sealed.length < 2 || sealed[0] !== VERSION) throw new SealError('not a sealed value of a known version');
  const kidLength = sealed[1]!;
  const start = 2 + kidLength;
  if (sealed.length < start + IV + TAG) throw new SealError('sealed value is truncated');
  return {
    kid: sealed.subarray(2, start).toString('ascii'),
    iv: sealed.subarray(start, start + IV),
    tag: sealed.subarray(start + IV, start + IV + TAG),
    body: sealed.subarray(start + IV + TAG),
  };
}

/** The plaintext of a sealed value, or null when it will not open under any key of the ring. */
export function openOrNull(keyring: Keyring, purpose: SealPurpose, id: string, sealed: Buffer): string | null {
  try {
    return keyring.open(purpose, id, sealed);
  } catch (e) {
    if (e instanceof SealError) return null;
    throw e;
  }
}

/** The kid a sealed value names, or `?` when it is not even a sealed value. */
export function kidOrUnknown(keyring: Keyring, sealed: Buffer): string {
  try {
    return keyring.kidOf(sealed);
  } catch {
    return '?';
  }
}

/** What an operator sees of an account number: `****` and the last four digits. */
export function maskAccountNumber(accountNumber: string): string {
  return `****${accountNumber.slice(-4)}`;
}

/** A short fingerprint of a key, for logs that must say which key is in use without showing it. */
export const keyFingerprint = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);
