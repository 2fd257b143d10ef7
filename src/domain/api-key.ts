import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { z } from 'zod';
import { ROLES, type Role } from './people.ts';

/**
 * Secret API keys, CONTRACT §3: `sec1-{env}-{kid}-{secret}-{checksum}`.
 * - kid: 12 lowercase base32 characters (RFC 4648 alphabet, lower case)
 * - secret: 32 random bytes in base62, always 43 characters (no `-`)
 * - checksum: CRC32 over everything before it (`sec1-{env}-{kid}-{secret}-`), 6 base62 characters
 */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const KEY_PATTERN = /^sec1-(prd|tst|dev)-([a-z2-7]{12})-([0-9A-Za-z]{43})-([0-9A-Za-z]{6})$/;

export function toBase62(bytes: Uint8Array, width: number): string {
  let n = BigInt('0x' + (Buffer.from(bytes).toString('hex') || '0'));
  let out = '';
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(width, '0');
}

function base62Number(n: number, width: number): string {
  let out = '';
  let rest = n;
  while (rest > 0) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out.padStart(width, '0');
}

export function checksum(prefix: string): string {
  return base62Number(crc32(prefix) >>> 0, 6);
}

export function newKid(): string {
  const bytes = randomBytes(12);
  return Array.from(bytes, (b) => BASE32[b & 31]).join('');
}

export interface ParsedKey {
  env: string;
  kid: string;
  secret: string;
  checksum: string;
}

export interface GeneratedKey extends ParsedKey {
  fullKey: string;
}

export function generateKey(env: string): GeneratedKey {
  const kid = newKid();
  const secret = toBase62(randomBytes(32), 43);
  const prefix = `sec1-${env}-${kid}-${secret}-`;
  const sum = checksum(prefix);
  return { env, kid, secret, checksum: sum, fullKey: prefix + sum };
}

/** Parses and checks the format and checksum; `null` for anything that is not a well-formed key. */
export function parseKey(raw: string): ParsedKey | null {
  const m = KEY_PATTERN.exec(raw);
  if (!m) return null;
  const [, env, kid, secret, sum] = m as unknown as [string, string, string, string, string];
  if (checksum(`sec1-${env}-${kid}-${secret}-`) !== sum) return null;
  return { env, kid, secret, checksum: sum };
}

export function displayMask(env: string, kid: string, sum: string): string {
  return `sec1-${env}-${kid}…${sum}`;
}

/** Keyed hash stored at rest: HMAC-SHA256 peppered with a key derived from SERVICE_SECRET. */
export function hashSecret(pepper: Buffer, secret: string): Buffer {
  return createHmac('sha256', pepper).update(secret).digest();
}

/** Constant-time comparison of a presented secret against the stored hash. */
export function secretMatches(pepper: Buffer, secret: string, storedHash: Uint8Array): boolean {
  const presented = hashSecret(pepper, secret);
  return storedHash.length === presented.length && timingSafeEqual(presented, storedHash);
}

export const API_KEY_STATUSES = ['active', 'revoked', 'expired'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

/**
 * Who issued a key (CONTRACT §11): the merchant's first credentials, the operator, or one of the
 * merchant's people. A key issued by a key has the same issuer as the key that issued it.
 */
export const KEY_ISSUERS = ['merchant', 'operator', 'person'] as const;
export type KeyIssuerKind = (typeof KEY_ISSUERS)[number];

/** A key's issuer and the most it may do (src/domain/access.ts): never more than its issuer may. */
export type KeyIssuer = { readonly by: 'merchant' | 'operator'; readonly role: Role } | { readonly by: 'person'; readonly personId: string; readonly role: Role };

/** A secret key's record; the key itself exists only in the answer that issued it. */
export interface ApiKeyRecord {
  id: string;
  merchantId: string;
  kid: string;
  env: string;
  type: string;
  status: ApiKeyStatus;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  displayMask: string;
  issuedBy: KeyIssuerKind;
  /** The person who issued it, when `issuedBy` is `person`. */
  issuedByPersonId: string | null;
  /** The most this key may do (src/domain/access.ts). */
  role: Role;
}

/** The issuer of a key, as a new key issued by it (or in its place) inherits it. */
export const issuerOf = (k: Pick<ApiKeyRecord, 'issuedBy' | 'issuedByPersonId' | 'role'>): KeyIssuer =>
  k.issuedBy === 'person' ? { by: 'person', personId: k.issuedByPersonId!, role: k.role } : { by: k.issuedBy, role: k.role };

/** The public JSON shape of a key record (spec "API key record"). */
export const apiKeyRecordJson = z
  .object({
    id: z.uuid(),
    kid: z.string().length(12).regex(/^[a-z2-7]{12}$/).meta({ example: 'nq6r2bxkbbi3' }),
    env: z.enum(['prd', 'tst', 'dev']),
    type: z.literal('secret'),
    status: z.enum(API_KEY_STATUSES),
    created_at: z.iso.datetime(),
    display_mask: z.string().max(32).meta({ description: 'Enough of the key to recognise it', example: 'sec1-tst-nq6r2bxkbbi3…3pgar0' }),
    expires_at: z.iso.datetime().optional(),
    revoked_at: z.iso.datetime().optional(),
    issued_by: z.enum(KEY_ISSUERS).meta({ description: "Who issued it: the merchant's first credentials, the operator, or one of its people" }),
    issued_by_person_id: z.uuid().nullable().meta({ description: 'The person who issued it, when issued_by is person; removing them revokes it' }),
    role: z.enum(ROLES).meta({ description: 'The most it may do: its issuer\'s role (docs/access.md)' }),
  })
  .strict()
  .meta({ id: 'ApiKey' });

export function apiKeyJson(k: ApiKeyRecord): z.input<typeof apiKeyRecordJson> {
  return {
    id: k.id,
    kid: k.kid,
    env: k.env as 'prd' | 'tst' | 'dev',
    type: 'secret',
    status: k.status,
    created_at: k.createdAt.toISOString(),
    display_mask: k.displayMask,
    ...(k.expiresAt && { expires_at: k.expiresAt.toISOString() }),
    ...(k.revokedAt && { revoked_at: k.revokedAt.toISOString() }),
    issued_by: k.issuedBy,
    issued_by_person_id: k.issuedByPersonId,
    role: k.role,
  };
}
