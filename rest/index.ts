import type { FastifyInstance } from 'fastify';
import type { Services } from '../src/services/index.ts';
import { requireMerchant } from './auth.ts';
import { merchantRoutes } from './merchant.ts';
import { paymentRoutes } from './payments.ts';
import { payoutRoutes } from './payouts.ts';
import { rateLimit } from './rate-limit.ts';
import { webhookRoutes } from './webhooks.ts';

/** The `/api/v1` adapter: authenticate, parse, call a service, wrap in the envelope. */
export async function restApi(app: FastifyInstance, opts: { services: Services }) {
  // onRequest, so an unauthenticated caller learns nothing about its body's validity.
  app.addHook('onRequest', requireMerchant(opts.services));
  // After authentication: routes declaring `config: { rateLimit }` count against the merchant's budget.
  app.addHook('onRequest', rateLimit(opts.services));
  payoutRoutes(app, opts.services);
  merchantRoutes(app, opts.services);
  paymentRoutes(app, opts.services);
  webhookRoutes(app, opts.services);
}
