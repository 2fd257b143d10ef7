import type { FastifyInstance } from 'fastify';
import type { Services } from '../src/services/index.ts';
import { apiKeyJson } from '../src/domain/wire.ts';
import { principal } from './auth.ts';
import { success } from './envelope.ts';

export function merchantRoutes(app: FastifyInstance, services: Services) {
  app.post('/merchant/api-keys/secret/regenerate', { config: { rateLimit: 'credentials' } }, async (req, reply) => {
    const { apiKey, fullKey } = await services.keys.regenerate(principal(req).key.id);
    reply.code(201);
    return success({ api_key: apiKeyJson(apiKey), full_key: fullKey });
  });
}
