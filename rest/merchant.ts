import type { FastifyInstance } from 'fastify';
import { apiKeyJson } from '../src/domain/api-key.ts';
import { merchantSettingsInput, merchantSettingsJson } from '../src/domain/merchant.ts';
import { success } from '../src/http/envelope.ts';
import type { Services } from '../src/services/index.ts';
import { jsonObjectBody, merchantOf, noQuery } from './request.ts';
import { parseWire } from './wire.ts';

export function merchantRoutes(app: FastifyInstance, services: Services) {
  app.post('/merchant/api-keys/secret/regenerate', { config: { rateLimit: 'credentials', access: 'keys.manage' } }, async (req, reply) => {
    noQuery(req);
    const { apiKey, fullKey } = await services.keys.regenerate(merchantOf(req));
    reply.code(201);
    return success({ api_key: apiKeyJson(apiKey), full_key: fullKey });
  });

  // CONTRACT §10: the merchant's own settings, read and changed under the credentials budget.
  app.get('/merchant', { config: { rateLimit: 'credentials', access: 'read' } }, async (req) => {
    noQuery(req);
    return success(merchantSettingsJson(await services.merchants.settings(merchantOf(req))));
  });

  app.patch('/merchant', { config: { rateLimit: 'credentials', access: 'webhooks.manage' } }, async (req) => {
    noQuery(req);
    const input = parseWire(merchantSettingsInput, jsonObjectBody(req));
    return success(merchantSettingsJson(await services.merchants.updateSettings(merchantOf(req), input)));
  });
}
