import type { FastifyInstance } from 'fastify';
import { success } from '../src/http/envelope.ts';
import type { Services } from '../src/services/index.ts';
import { merchantOf, noQuery } from './request.ts';

/** Webhook signing secrets (CONTRACT §6): the secret is in these answers and nowhere else, ever. */
export function webhookRoutes(app: FastifyInstance, services: Services) {
  app.post('/merchant/webhooks/secret', { config: { rateLimit: 'credentials', access: 'webhooks.manage' } }, async (req, reply) => {
    noQuery(req);
    const s = await services.webhookSecrets.create(merchantOf(req));
    reply.code(201);
    return success({ id: s.id, secret: s.secret, kid: s.kid });
  });

  app.post('/merchant/webhooks/secret/rotate', { config: { rateLimit: 'credentials', access: 'webhooks.manage' } }, async (req, reply) => {
    noQuery(req);
    const s = await services.webhookSecrets.rotate(merchantOf(req));
    reply.code(201);
    return success({ id: s.id, secret: s.secret, kid: s.kid, rotating_kid: s.rotatingKid, rotating_until: s.rotatingUntil?.toISOString() ?? null });
  });
}
