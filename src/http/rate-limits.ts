import { AppError } from '../domain/errors.ts';
import type { RateLimitDecision } from '../services/rate-limits.ts';

/** `RateLimit-*` headers (IETF draft, delta seconds) of one decision, for REST and GraphQL alike. */
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
