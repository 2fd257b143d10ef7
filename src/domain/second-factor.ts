import { createHash, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { z } from 'zod';

/**
 * A person's second factor (CONTRACT §11): a time-based one-time password (TOTP, RFC 6238:
 * HMAC-SHA1, 6 digits, 30-second steps, as every authenticator app reads an `otpauth://` URI),
 * and recovery codes for a lost phone. Pure rules; the secret is sealed and the codes digested
 * before they reach the database.
 */

const PERIOD = 30;
const DIGITS = 6;
/** One step either side of now: a phone's clock a little off, a code typed as it turned. */
const WINDOW = 1;
export const RECOVERY_CODES = 10;

/** A new secret: 20 random bytes (RFC 4226's recommended length), in base32. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

const totp = (secret: string, email: string) =>
  new TOTP({ issuer: 'zarpay', label: email, algorithm: 'SHA1', digits: DIGITS, period: PERIOD, secret: Secret.fromBase32(secret) });

/** The `otpauth://totp/...` URI an authenticator app scans (as a QR code) or is given by hand. */
export const totpUri = (secret: string, email: string): string => totp(secret, email).toString();

/** The code of a secret at an instant (for tests and the person's own device; never sent by zarpay). */
export const totpCode = (secret: string, at = Date.now()): string => totp(secret, '').generate({ timestamp: at });

/**
 * The time step a code belongs to, if it is the secret's code within one step of `at` and later
 * than the last accepted step (a code is never accepted twice, RFC 6238 §5.2); null otherwise.
 */
export function acceptedStep(secret: string, code: string, lastStep: number | null, at = Date.now()): number | null {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totp(secret, '').validate({ token, timestamp: at, window: WINDOW });
  if (delta === null) return null;
  const step = Math.floor(at / 1000 / PERIOD) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten recovery codes, `xxxxx-xxxxx` (about 49 bits each), shown once. */
export function newRecoveryCodes(n = RECOVERY_CODES): string[] {
  const one = () => Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return Array.from({ length: n }, () => {
    const c = one();
    return `${c.slice(0, 5)}-${c.slice(5)}`;
  });
}

/** Whether what was typed looks like a recovery code rather than a TOTP code. */
export const isRecoveryCode = (code: string) => /^[a-z0-9]{10}$/i.test(code.replace(/[\s-]/g, '')) && !/^\d+$/.test(code.replace(/[\s-]/g, ''));

/** What is stored of a recovery code: a digest of it as typed in any case, with or without its dash. */
export const recoveryDigest = (code: string) => createHash('sha256').update(`zarpay recovery v1\0${code.replace(/[\s-]/g, '').toLowerCase()}`).digest();

export const codeSchema = z.string().trim().min(6, 'must be the 6-digit code or a recovery code').max(32);
