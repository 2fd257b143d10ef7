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
  const authenticate = requireMerchant(opts.services);
  const countRequest = rateLimit(opts.services);
  // onRequest, so an unauthenticated caller learns nothing about its body's validity. After
  // authentication, routes declaring `config: { rateLimit }` count against the merchant's budget.
  // One hook for both: each hook costs every request a turn of Fastify's hook runner.
  app.addHook('onRequest', async (req, reply) => {
    await authenticate(req);
    await countRequest(req, reply);
  });
  payoutRoutes(app, opts.services);
  merchantRoutes(app, opts.services);
  paymentRoutes(app, opts.services);
  webhookRoutes(app, opts.services);
}
