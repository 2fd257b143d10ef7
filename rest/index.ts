import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config, RateLimitedOperation } from '../src/config.ts';
import { countRefusal } from '../src/http/anonymous.ts';
import { sendError } from '../src/http/reply.ts';
import { rateLimitExceeded, rateLimitHeaders } from '../src/http/rate-limits.ts';
import type { Services } from '../src/services/index.ts';
import { merchantRoutes } from './merchant.ts';
import { docsRoutes } from './openapi/routes.ts';
import { paymentRoutes } from './payments.ts';
import { payoutRoutes } from './payouts.ts';
import { webhookRoutes } from './webhooks.ts';
import { restField } from './wire.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The budget this route counts against: `app.get(url, { config: { rateLimit: 'balance' } }, handler)`. */
    rateLimit?: RateLimitedOperation;
  }
}

/**
 * The `/api/v1` adapter: authenticate, parse, call a service, wrap in the envelope. Every route
 * needs a valid, active key of this environment. Authentication and counting run in one
 * onRequest hook, before the body is read: an unauthenticated caller learns nothing about its
 * body's validity, malformed bodies count too, and every response of a limited route (success,
 * 4xx, 429) carries the RateLimit headers. A request without a valid key counts against its
 * address's `anonymous` budget instead (429 once that is spent).
 */
async function restApi(app: FastifyInstance, opts: { services: Services }) {
  const { services } = opts;
  // Problems with a use case's input name its fields as REST callers know them (`payment_details.branch_code`).
  app.setErrorHandler((error, req, reply) => sendError(error, req, reply, restField));
  // This hook counts the anonymous budget itself, once it knows whether the key is valid.
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, anonymous: 'self' };
  });
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const header = req.headers['x-api-key'];
    try {
      req.actor = await services.keys.authenticate(typeof header === 'string' ? header : undefined);
    } catch (e) {
      throw await countRefusal(services, req, reply, e);
    }
    const operation = req.routeOptions.config.rateLimit;
    if (!operation) return;
    const decision = await services.rateLimits.consume(req.actor.merchant.id, operation);
    if (!decision) return;
    reply.headers(rateLimitHeaders(decision));
    if (!decision.allowed) throw rateLimitExceeded(decision);
  });
  payoutRoutes(app, services);
  paymentRoutes(app, services);
  merchantRoutes(app, services);
  webhookRoutes(app, services);
}

/** Mounts REST on the app: `/api/v1`, and its OpenAPI document and reference page. */
export function rest(app: FastifyInstance, services: Services, config: Config) {
  app.register(restApi, { prefix: '/api/v1', services });
  app.register(docsRoutes, { publicBaseUrl: config.publicBaseUrl, serviceEnv: config.serviceEnv });
}
