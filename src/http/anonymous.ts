import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import ipaddr from 'ipaddr.js';
import { isAppError } from '../domain/errors.ts';
import type { Services } from '../services/index.ts';
import { authenticate } from './auth.ts';
import { rateLimitExceeded, rateLimitHeaders } from './rate-limits.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * How the route meets the per-address `anonymous` budget (CONTRACT §9):
     * - unset: counted unless the request carries valid credentials;
     * - `always`: counted whatever the request carries (the hosted page, QR, providers);
     * - `self`: the route authenticates and counts itself (`countAnonymous`, `countRefusal`);
     * - `exempt`: never counted (health checks).
     */
    anonymous?: 'always' | 'self' | 'exempt';
  }
}

/** Requests already counted, so that no path counts one twice. */
const counted = new WeakSet<FastifyRequest>();

/**
 * What the anonymous budget is kept by: an IPv4 address, or an IPv6 address's /64 (one
 * subscriber's network, whose 2^64 addresses a caller could otherwise take turns with).
 * IPv4-mapped IPv6 addresses count as the IPv4 address they carry.
 */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  return `${(address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
}

/**
 * Counts the request against its address's budget (`req.ip`: behind `TRUST_PROXY`, the client
 * the trusted proxy names). Sets the `RateLimit-*` headers; over the budget, throws 429
 * RATE_LIMIT_EXCEEDED (with `Retry-After`) for the route's own error handler to answer.
 */
export async function countAnonymous(services: Services, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (counted.has(req)) return;
  counted.add(req);
  const d = await services.rateLimits.consumeAnonymous(addressKey(req.ip));
  if (!d) return;
  reply.headers(rateLimitHeaders(d));
  if (!d.allowed) throw rateLimitExceeded(d, 'requests without valid credentials from this address');
}

/** Credentials that were there and wrong (401), or of a revoked or expired key (403). */
const credentialsRefused = (e: unknown) => isAppError(e) && (e.code === 'UNAUTHORIZED' || e.code === 'FORBIDDEN');

/**
 * After authentication failed with `e`: counts a refusal of credentials against the address and
 * returns what to answer: the 429 once the address is over its budget, else `e` itself. Any
 * other failure (the database down) is not the caller's, and is not counted.
 */
export async function countRefusal(services: Services, req: FastifyRequest, reply: FastifyReply, e: unknown): Promise<unknown> {
  if (!credentialsRefused(e)) return e;
  try {
    await countAnonymous(services, req, reply);
    return e;
  } catch (refused) {
    return refused;
  }
}

/**
 * The onRequest hook for every route that does not count by itself, before the body is read:
 * `always` routes count every request; the others count requests that do not prove valid
 * credentials (none, or refused ones: a made-up key cannot buy a way around the budget). The
 * route's own answer to bad credentials is its business; here they only count.
 */
export function anonymousBudget(services: Services, operatorToken: string): onRequestHookHandler {
  return (req, reply, done) => {
    const policy = req.routeOptions.config.anonymous;
    if (policy === 'exempt' || policy === 'self' || services.rateLimits.limitOf('anonymous') === undefined) return done();
    const credentials = req.headers['x-api-key'] !== undefined || req.headers.authorization !== undefined;
    const count = () => countAnonymous(services, req, reply);
    const counting =
      policy === 'always' || !credentials
        ? count()
        : authenticate(services.keys, operatorToken, req.headers).then(
            (actor) => (actor ? undefined : count()),
            () => count(),
          );
    counting.then(() => done(), done);
  };
}
