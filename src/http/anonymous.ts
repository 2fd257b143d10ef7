import type { FastifyReply, FastifyRequest } from 'fastify';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { RateLimitService } from '../services/rate-limits.ts';
import { rateLimitExceeded, rateLimitHeaders } from './rate-limits.ts';

/** The one budget every address that does not parse shares. */
export const UNPARSEABLE = 'unparseable';

/**
 * The IP address in what the socket or a trusted proxy (`X-Forwarded-For`) gave as the client:
 * a port (`203.0.113.9:443`, `[2001:db8::1]:443`) and brackets are stripped, an IPv6 zone is
 * dropped, and an IPv4-mapped IPv6 address is folded to the IPv4 address it carries. Null when
 * no IP address is there. Strict (Node's `net.isIP`): `127.1` or `0x7f.0.0.1`, which some
 * parsers accept, are no address.
 */
export function clientIp(raw: string): string | null {
  let text = raw.trim();
  if (text.length > 64) return null;
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(text);
  const ported = /^([^:]+):(\d{1,5})$/.exec(text);
  const port = bracketed?.[2] ?? ported?.[2];
  if (port !== undefined && Number(port) > 65535) return null;
  if (bracketed) text = bracketed[1]!;
  else if (ported) text = ported[1]!;
  const family = isIP(text);
  if (family === 0 || (bracketed && family !== 6)) return null;
  if (family === 4) return text;
  // `ipaddr.process` folds an IPv4-mapped address; the zone (`%eth0`) names the receiver's interface, not the client.
  return ipaddr.process(text.replace(/%.*$/, '')).toString();
}

/**
 * What the anonymous budget is kept by: an IPv4 address, or an IPv6 address's /64 (one
 * subscriber's network, whose 2^64 addresses a caller could otherwise take turns with).
 * IPv4-mapped IPv6 addresses count as the IPv4 address they carry. Whatever does not parse
 * shares one budget, `unparseable`: junk written in a different way each time buys nothing.
 */
export function addressKey(raw: string): string {
  const ip = clientIp(raw);
  if (ip === null) return UNPARSEABLE;
  const address = ipaddr.parse(ip);
  if (address.kind() === 'ipv4') return address.toString();
  return `${(address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
}

/** At most one warning a minute per server about unparseable client addresses, with how many came since the last. */
const UNPARSEABLE_LOG_EVERY_MS = 60_000;
const unparseableLog = new WeakMap<object, { since: number; loggedAt: number }>();

function logUnparseable(req: FastifyRequest) {
  let state = unparseableLog.get(req.server);
  if (!state) unparseableLog.set(req.server, (state = { since: 0, loggedAt: -Infinity }));
  state.since++;
  const now = Date.now();
  if (now - state.loggedAt < UNPARSEABLE_LOG_EVERY_MS) return;
  req.log.warn(
    { address: req.ip.slice(0, 80), unparseable_since_last_warning: state.since },
    'a client address is not an IP address: such requests share the anonymous budget "unparseable" (a proxy writing something odd into X-Forwarded-For?)',
  );
  state.loggedAt = now;
  state.since = 0;
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
  const key = addressKey(req.ip);
  if (key === UNPARSEABLE) logUnparseable(req);
  const d = await rateLimits.consumeAnonymous(key);
  if (!d) return;
  reply.headers(rateLimitHeaders(d));
  if (!d.allowed) throw rateLimitExceeded(d, 'requests without valid credentials from this address');
}
