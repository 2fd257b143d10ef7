import type { FastifyInstance } from 'fastify';
import type { Services } from '../src/services/index.ts';
import { balanceJson, payoutJson } from '../src/domain/wire.ts';
import { principal } from './auth.ts';
import { success } from './envelope.ts';
import { jsonObjectBody } from './body.ts';

export function payoutRoutes(app: FastifyInstance, services: Services) {
  app.get('/payouts/balance', { config: { rateLimit: 'balance' } }, async (req) => {
    return success(balanceJson(await services.balances.get(principal(req).merchant.id)));
  });

  app.post('/payouts', { config: { rateLimit: 'payout_create' } }, async (req, reply) => {
    const body = jsonObjectBody(req);
    const { merchant } = principal(req);
    const { payout, created } = await services.payouts.create(merchant.id, body, merchant.payoutFeeCents);
    reply.code(created ? 201 : 200);
    return success(payoutJson(payout));
  });

  app.get<{ Params: { id: string } }>('/payouts/:id', { config: { rateLimit: 'payout_status' } }, async (req) => {
    return success(payoutJson(await services.payouts.get(req.params.id, principal(req).merchant.id)));
  });

  app.get('/payouts', { config: { rateLimit: 'payout_status' } }, async (req) => {
    const { payouts, total } = await services.payouts.list({ merchantId: principal(req).merchant.id }, req.query);
    return success({ payouts: payouts.map(payoutJson), total });
  });
}
