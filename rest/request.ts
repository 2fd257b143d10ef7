import type { FastifyRequest } from 'fastify';
import type { MerchantActor } from '../src/domain/actor.ts';
import { z } from 'zod';
import { AppError } from '../src/domain/errors.ts';
import { verifiedActor } from '../src/http/caller.ts';
import { parseWire } from './wire.ts';

/** The merchant who sent a request of `/api/v1` (every route there comes in by the `api` gate: a merchant's key). */
export const merchantOf = (req: FastifyRequest): MerchantActor => verifiedActor(req, 'merchant');

/** The parsed body of a JSON endpoint: present, sent as application/json, and an object. */
export function jsonObjectBody(req: FastifyRequest): Record<string, unknown> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) throw new AppError('INVALID_INPUT', 'Content-Type must be application/json');
  const body = req.body;
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError('INVALID_INPUT', 'request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

const NO_QUERY = z.strictObject({});

/**
 * For routes that take no query parameters: one sent anyway is refused (`query.foo: is not a
 * known field`), as unknown body fields are, so a typo such as `?limt=5` never passes silently.
 */
export function noQuery(req: FastifyRequest): void {
  const query = req.query as Record<string, unknown> | undefined;
  if (query && Object.keys(query).length > 0) parseWire(NO_QUERY, query, 'query');
}
