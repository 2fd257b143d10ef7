import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimitedOperation } from '../src/config.ts';
import { AppError } from '../src/domain/errors.ts';
import type { RateLimitDecision } from '../src/services/rate-limits.ts';
import type { Services } from '../src/services/index.ts';
import { principal } from './auth.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The budget this route counts against: `app.get(url, { config: { rateLimit: 'balance' } }, handler)`. */
    rateLimit?: RateLimitedOperation;
  }
}

/** `RateLimit-*` headers (IETF draft, delta seconds) of one decision, shared by REST and GraphQL. */
export function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(d.limit),
    'RateLimit-Remaining': String(d.remaining),
    'RateLimit-Reset': String(d.resetSeconds),
  };
  if (!d.allowed) headers['Retry-After'] = String(d.resetSeconds);
  return headers;
}

export const rateLimitExceeded = (d: RateLimitDecision) =>
  new AppError('RATE_LIMIT_EXCEEDED', `rate limit of ${d.limit} requests per minute exceeded; retry after ${d.resetSeconds} s`);

/**
 * onRequest hook for `/api/v1`, registered after authentication: a route that declares
 * `config: { rateLimit }` counts against its merchant's budget before its body is even read,
 * so malformed bodies count too and every response of the route (success, 4xx, 429) carries
 * the headers.
 */
export function rateLimit(services: Services) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const operation = req.routeOptions.config.rateLimit;
    if (!operation) return;
    const decision = await services.rateLimits.consume(principal(req).merchant.id, operation);
    if (!decision) return;
    reply.headers(rateLimitHeaders(decision));
    if (!decision.allowed) throw rateLimitExceeded(decision);
  };
}
