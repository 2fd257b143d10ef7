import type { FastifyReply, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import type { RateLimitService } from '../services/rate-limits.ts';
import { rateLimitExceeded, rateLimitHeaders } from './rate-limits.ts';

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
 * Counts one request against its address's budget (`req.ip`: behind `TRUST_PROXY`, the client
 * the trusted proxy names). Sets the `RateLimit-*` headers; over the budget, throws 429
 * RATE_LIMIT_EXCEEDED (with `Retry-After`) for the route's own error handler to answer.
 *
 * Whether a request counts is decided in one place only, the caller step (caller.ts), which calls
 * this at most once per request.
 */
export async function spendAnonymous(rateLimits: RateLimitService, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const d = await rateLimits.consumeAnonymous(addressKey(req.ip));
  if (!d) return;
  reply.headers(rateLimitHeaders(d));
  if (!d.allowed) throw rateLimitExceeded(d, 'requests without valid credentials from this address');
}
