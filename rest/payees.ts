import type { FastifyInstance } from 'fastify';
import { payeeJson } from '../src/domain/payee.ts';
import { success } from '../src/http/envelope.ts';
import type { Services } from '../src/services/index.ts';
import { merchantOf, noQuery } from './request.ts';

/**
 * Saved payees, read over REST: a machine pays one by its id (`payee_id` on `POST /payouts`).
 * Adding and removing them are an owner's in the dashboard (GraphQL `createPayee`, with the
 * password re-entered): no API key may, so REST has no route for them.
 */
export function payeeRoutes(app: FastifyInstance, services: Services) {
  app.get('/payees', { config: { rateLimit: 'payout_status', access: 'read' } }, async (req) => {
    noQuery(req);
    return success({ payees: (await services.payees.list(merchantOf(req))).map(payeeJson) });
  });
}
