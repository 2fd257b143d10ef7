import type { FastifyInstance } from 'fastify';
import { balanceJson, balanceQuery } from '../src/domain/balance.ts';
import { createPayoutInput, listPayoutsQuery } from '../src/domain/payout-input.ts';
import { payoutJson } from '../src/domain/payout-json.ts';
import { success } from '../src/http/envelope.ts';
import type { Services } from '../src/services/index.ts';
import { jsonObjectBody, merchantOf, noQuery } from './request.ts';
import { parseWire } from './wire.ts';

export function payoutRoutes(app: FastifyInstance, services: Services) {
  app.get('/payouts/balance', { config: { rateLimit: 'balance', access: 'read' } }, async (req) => {
    const query = parseWire(balanceQuery, req.query ?? {}, 'query');
    if (!query.include) return success(balanceJson(await services.balances.get(merchantOf(req))));
    const { balance, breakdown } = await services.balances.getWithBreakdown(merchantOf(req));
    return success(balanceJson(balance, breakdown));
  });

  app.post('/payouts', { config: { rateLimit: 'payout_create', access: 'payouts.create' } }, async (req, reply) => {
    noQuery(req);
    const input = parseWire(createPayoutInput, jsonObjectBody(req));
    const { payout, created } = await services.payouts.create(merchantOf(req), input);
    reply.code(created ? 201 : 200);
    return success(payoutJson(payout));
  });

  app.get<{ Params: { id: string } }>('/payouts/:id', { config: { rateLimit: 'payout_status', access: 'read' } }, async (req) => {
    noQuery(req);
    return success(payoutJson(await services.payouts.get(merchantOf(req), req.params.id)));
  });

  app.get('/payouts', { config: { rateLimit: 'payout_status', access: 'read' } }, async (req) => {
    const query = parseWire(listPayoutsQuery, req.query ?? {}, 'query');
    const { payouts, total } = await services.payouts.list(merchantOf(req), query);
    return success({ payouts: payouts.map(payoutJson), total });
  });
}
