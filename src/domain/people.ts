import { createHash, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * The merchant dashboard's people (CONTRACT §10): roles, passwords, and the tokens of invites,
 * sessions and the CSRF check. Pure rules; the data layer stores only digests of tokens and a
 * memory-hard hash of each password.
 */

export const ROLES = ['owner', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** A person as the dashboard and the API show them. */
export interface Person {
  id: string;
  merchantId: string;
  email: string;
  role: Role;
  /** Whether the invite was accepted (a password is set). */
  active: boolean;
  createdAt: Date;
}

/** Who a session stands for: the person, their role, the session (for revocation). */
export interface SessionPerson {
  readonly personId: string;
  readonly email: string;
  readonly role: Role;
  readonly sessionId: string;
}

/** An invite link is valid this long, once (CONTRACT §10). */
export const INVITE_TTL_MS = 72 * 3600_000;
/** A session ends this long after sign-in, whatever happens. */
export const SESSION_MAX_MS = 12 * 3600_000;
/** …or after this long without a request. */
export const SESSION_IDLE_MS = 30 * 60_000;
/** At most this many wrong passwords per person and address… */
export const SIGN_IN_FAILURES = 5;
/** At most this many wrong passwords per person from every address together: then the account is locked… */
export const SIGN_IN_ACCOUNT_FAILURES = 10;
/** …within this window (for both counts). */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const PASSWORD_MIN = 12;
/** A password reset link works this long, once. */
export const RESET_TTL_MS = 60 * 60_000;
/** At most this many reset e-mails per person within RESET_TTL_MS (more asks answer the same and send nothing). */
export const RESETS_PER_HOUR = 3;

/** The dashboard's languages (the hosted page's, CONTRACT §9). */
export const PERSON_LANGUAGES = ['en', 'af', 'zu'] as const;
export type PersonLanguage = (typeof PERSON_LANGUAGES)[number];

export const SESSION_COOKIE = 'zarpay_session';
export const CSRF_COOKIE = 'zarpay_csrf';
export const CSRF_HEADER = 'x-csrf-token';

export const emailSchema = z
  .string()
  .trim()
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an e-mail address')
  .transform((e) => e.toLowerCase());
export const roleSchema = z.enum(ROLES);
export const passwordSchema = z.string().min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`).max(1024);

export const inviteInput = z.object({ email: emailSchema, role: roleSchema });
export const signInInput = z.object({
  email: z.string().max(254).transform((e) => e.trim().toLowerCase()),
  password: z.string().max(1024),
  /** The second factor's code (or a recovery code), on the second step of a sign-in that needs one. */
  code: z.string().trim().max(32).optional(),
});
export const forgotPasswordInput = z.object({ email: z.string().max(254).transform((e) => e.trim().toLowerCase()) });
export const resetPasswordInput = z.object({ token: z.string().min(1).max(200), password: passwordSchema });
export const inviteStateInput = z.object({ token: z.string().min(1).max(200) });
export const setPasswordInput = z.object({ token: z.string().min(1).max(200), password: passwordSchema });

/** A fresh random token (invite link, session cookie): 32 bytes, base64url. */
export const newToken = () => randomBytes(32).toString('base64url');
/** What is stored of a token. */
export const tokenDigest = (token: string) => createHash('sha256').update(token).digest();

/** The CSRF token of a session: derived from its cookie, so nothing more is stored, and useless without it. */
export function csrfToken(serviceSecret: string, sessionToken: string): string {
  return createHmac('sha256', serviceSecret).update(`zarpay csrf v1\0${sessionToken}`).digest('base64url');
}

export function csrfMatches(serviceSecret: string, sessionToken: string, given: string | undefined): boolean {
  if (typeof given !== 'string') return false;
  const want = Buffer.from(csrfToken(serviceSecret, sessionToken));
  const got = Buffer.from(given);
  return got.length === want.length && timingSafeEqual(got, want);
}

// scrypt with N = 2^15, r = 8: 32 MiB and some tens of milliseconds per guess (OWASP's minimum is
// N = 2^17 with r = 8, p = 1 or its equivalents; 2^15 with p = 3 has the same cost in time).
const SCRYPT = { N: 2 ** 15, r: 8, p: 3, maxmem: 64 * 1024 * 1024 } as const;
const KEY_LEN = 32;

function scryptAsync(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LEN, { ...params, maxmem: SCRYPT.maxmem }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash` (base64url): the parameters travel with the hash, so they can grow later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A hash of no password, checked against when the person is unknown, so that takes as long as a wrong password. */
let decoy: Promise<string> | undefined;

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const text = stored ?? (await (decoy ??= hashPassword(newToken())));
  const [kind, n, r, p, salt, hash] = text.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const key = await scryptAsync(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  const want = Buffer.from(hash, 'base64url');
  return stored !== null && key.length === want.length && timingSafeEqual(key, want);
}
