import type { FastifyReply, FastifyRequest } from 'fastify';
import { failure } from './envelope.ts';
import { classify, type FieldNamer } from './errors.ts';

/** Answers an error in the specification's envelope; faults are logged, refusals are not. */
export function sendError(error: unknown, req: FastifyRequest, reply: FastifyReply, nameField?: FieldNamer) {
  const c = classify(error, nameField);
  if (c.unexpected) req.log.error({ err: error }, 'unexpected error');
  else if (c.status >= 500) req.log.warn({ code: c.code }, c.message);
  reply.code(c.status).send(failure(c.code, c.message, c.details));
}
