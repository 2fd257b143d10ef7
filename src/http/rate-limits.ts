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

/** The refusal of a request over its budget; `what` names what was counted, when it is not a merchant's operation. */
export const rateLimitExceeded = (d: RateLimitDecision, what = 'requests') =>
  new AppError('RATE_LIMIT_EXCEEDED', `rate limit of ${d.limit} ${what} per minute exceeded; retry after ${d.resetSeconds} s`);
