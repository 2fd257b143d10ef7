import type { FastifyRequest } from 'fastify';
import type { Principal } from '../src/services/keys.ts';
import type { Services } from '../src/services/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

/** The `X-API-Key` header as sent; a repeated header is not a key. */
export function apiKeyHeader(req: FastifyRequest): string | undefined {
  const value = req.headers['x-api-key'];
  return typeof value === 'string' ? value : undefined;
}

/** onRequest hook for `/api/v1`: every endpoint needs a valid, active key of this environment. */
export function requireMerchant(services: Services) {
  return async (req: FastifyRequest) => {
    req.principal = await services.keys.authenticate(apiKeyHeader(req));
  };
}

export function principal(req: FastifyRequest): Principal {
  if (!req.principal) throw new Error('route registered without requireMerchant');
  return req.principal;
}
