import type { FastifyInstance } from 'fastify';
import { apiKeyJson } from '../src/domain/api-key.ts';
import { success } from '../src/http/envelope.ts';
import type { Services } from '../src/services/index.ts';
import { merchantOf, noQuery } from './request.ts';

export function merchantRoutes(app: FastifyInstance, services: Services) {
  app.post('/merchant/api-keys/secret/regenerate', { config: { rateLimit: 'credentials' } }, async (req, reply) => {
    noQuery(req);
    const { apiKey, fullKey } = await services.keys.regenerate(merchantOf(req));
    reply.code(201);
    return success({ api_key: apiKeyJson(apiKey), full_key: fullKey });
  });
}
