import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { type Actor, OPERATOR, OPERATOR_NAME } from '../domain/actor.ts';
import { AppError } from '../domain/errors.ts';
import type { KeyService } from '../services/keys.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who sent the request, once authenticated (the request log names the merchant). */
    actor?: Actor;
  }
}

/** Constant-time check of `Authorization: Bearer <token>`. */
export function bearerMatches(header: string | null | undefined, token: string): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  // Compare digests, not the texts: equal lengths always, so timing tells nothing of the
  // token's length either.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(header.slice('Bearer '.length)), digest(token));
}

/** A header sent once; a repeated header is no credential. */
const single = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);

/**
 * Who a request comes from: the merchant of `X-API-Key`, the operator of
 * `Authorization: Bearer`, or nobody (undefined). Credentials that are present but wrong are
 * refused (401 UNAUTHORIZED; a revoked or expired key 403 FORBIDDEN), never ignored.
 */
export async function authenticate(keys: KeyService, operatorToken: string, headers: IncomingHttpHeaders): Promise<Actor | undefined> {
  const authorization = single(headers.authorization);
  if (authorization !== undefined) {
    if (!bearerMatches(authorization, operatorToken)) throw new AppError('UNAUTHORIZED', 'invalid operator token');
    if (headers['x-api-key'] !== undefined) throw new AppError('UNAUTHORIZED', 'send an API key or the operator token, not both');
    // Who is at the console, for the audit log: the token is shared, so this is what the
    // operator's CLI says (ZARPAY_OPERATOR or the login name), not a credential.
    const name = single(headers['x-operator-name']);
    return name !== undefined && OPERATOR_NAME.test(name) ? Object.freeze({ kind: 'operator', name }) : OPERATOR;
  }
  if (headers['x-api-key'] === undefined) return undefined;
  return keys.authenticate(single(headers['x-api-key']));
}
