import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config, RateLimitedOperation } from '../src/config.ts';
import { sendError } from '../src/http/reply.ts';
import { rateLimitExceeded, rateLimitHeaders } from '../src/http/rate-limits.ts';
import type { Services } from '../src/services/index.ts';
import { merchantRoutes } from './merchant.ts';
import { docsRoutes } from './openapi/routes.ts';
import { paymentRoutes } from './payments.ts';
import { payoutRoutes } from './payouts.ts';
import { refundRoutes } from './refunds.ts';
import { statementRoutes } from './statements.ts';
import { webhookRoutes } from './webhooks.ts';
import { merchantOf } from './request.ts';
import { restField } from './wire.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The budget this route counts against: `app.get(url, { config: { rateLimit: 'balance' } }, handler)`. */
    rateLimit?: RateLimitedOperation;
  }
}

/**
 * The `/api/v1` adapter: parse, call a service, wrap in the envelope. Every route comes in by the
 * `api` gate (src/http/caller.ts): a valid, active key of this environment, checked before the
 * body is read, so an unauthenticated caller learns nothing about its body's validity, and a
 * request without a valid key counts against its address's `anonymous` budget instead (429 once
 * that is spent). The merchant's own budget for the route's operation is counted next, in this
 * adapter's onRequest hook, also before the body: malformed bodies count too, and every response
 * of a limited route (success, 4xx, 429) carries the RateLimit headers.
 */
async function restApi(app: FastifyInstance, opts: { services: Services }) {
  const { services } = opts;
  // Problems with a use case's input name its fields as REST callers know them (`payment_details.branch_code`).
  app.setErrorHandler((error, req, reply) => sendError(error, req, reply, restField));
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, gate: 'api' };
  });
  // A callback, like the app's other hooks: an async hook costs a promise and a turn of the
  // microtask queue more on every request.
  app.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: (e?: Error) => void) => {
    const operation = req.routeOptions.config.rateLimit;
    if (!operation) return done();
    services.rateLimits.consume(merchantOf(req).merchant.id, operation).then((decision) => {
      if (!decision) return done();
      reply.headers(rateLimitHeaders(decision));
      done(decision.allowed ? undefined : rateLimitExceeded(decision));
    }, done);
  });
  payoutRoutes(app, services);
  paymentRoutes(app, services);
  refundRoutes(app, services);
  merchantRoutes(app, services);
  statementRoutes(app, services);
  webhookRoutes(app, services);
}

/** Mounts REST on the app: `/api/v1`, and its OpenAPI document and reference page. */
export function rest(app: FastifyInstance, services: Services, config: Config) {
  app.register(restApi, { prefix: '/api/v1', services });
  app.register(docsRoutes, { publicBaseUrl: config.publicBaseUrl, serviceEnv: config.serviceEnv });
}
