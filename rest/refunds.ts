import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../src/domain/errors.ts';
import { idempotencyKeyInput } from '../src/domain/payment-input.ts';
import { createRefundInput, listMerchantRefundsQuery, listRefundsQuery, refundJson } from '../src/domain/refund.ts';
import { parseInput } from '../src/domain/validation.ts';
import { success } from '../src/http/envelope.ts';
import type { Services } from '../src/services/index.ts';
import { jsonObjectBody, merchantOf, noQuery } from './request.ts';
import { parseWire } from './wire.ts';

/** The optional `Idempotency-Key` header (CONTRACT §4 rules); sent twice it is ambiguous, so refused. */
function idempotencyKey(req: FastifyRequest): string | undefined {
  const value = req.headers['idempotency-key'];
  if (Array.isArray(value)) throw new AppError('VALIDATION_FAILED', 'Idempotency-Key: send it once');
  return value === undefined ? undefined : parseInput(idempotencyKeyInput, value, 'Idempotency-Key');
}

/** A refund's body is optional (every field has a default): no body at all is a full refund. */
function refundBody(req: FastifyRequest): Record<string, unknown> {
  const length = req.headers['content-length'];
  if (req.body === undefined && req.headers['content-type'] === undefined && (length === undefined || length === '0')) return {};
  return jsonObjectBody(req);
}

/** CONTRACT §10 "Refunds": create and read a payment's refunds, the merchant's every refund, and one refund by id. */
export function refundRoutes(app: FastifyInstance, services: Services) {
  app.post<{ Params: { id: string } }>('/payments/:id/refunds', { config: { rateLimit: 'refund', access: 'refunds.create' } }, async (req, reply) => {
    noQuery(req);
    const input = parseWire(createRefundInput, refundBody(req));
    const { refund, created } = await services.refunds.create(merchantOf(req), req.params.id, input, idempotencyKey(req));
    reply.code(created ? 201 : 200);
    return success(refundJson(refund));
  });

  app.get<{ Params: { id: string } }>('/payments/:id/refunds', { config: { rateLimit: 'payment_status', access: 'read' } }, async (req) => {
    const page = parseWire(listRefundsQuery, req.query ?? {}, 'query');
    const { refunds, total } = await services.refunds.ofPayment(merchantOf(req), req.params.id, page);
    return success({ refunds: refunds.map(refundJson), total });
  });

  app.get('/refunds', { config: { rateLimit: 'payment_status', access: 'read' } }, async (req) => {
    const query = parseWire(listMerchantRefundsQuery, req.query ?? {}, 'query');
    const { refunds, total } = await services.refunds.list(merchantOf(req), query);
    return success({ refunds: refunds.map(refundJson), total });
  });

  app.get<{ Params: { id: string } }>('/refunds/:id', { config: { rateLimit: 'payment_status', access: 'read' } }, async (req) => {
    noQuery(req);
    return success(refundJson(await services.refunds.get(merchantOf(req), req.params.id)));
  });
}
