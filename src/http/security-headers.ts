import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Part of the first onRequest hook: a minimal set of security headers on every response, errors
 * included. API answers carry merchant data and keys, so no cache may keep them. The hosted
 * payment pages set their own Content-Security-Policy.
 */
export function securityHeaders(req: FastifyRequest, reply: FastifyReply): void {
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Referrer-Policy', 'no-referrer');
  if (req.url.startsWith('/api/') || req.url.startsWith('/graphql')) reply.header('Cache-Control', 'no-store');
}
