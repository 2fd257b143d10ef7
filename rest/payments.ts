import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../src/domain/errors.ts';
import { idempotencyKeyInput, initiatePaymentInput, listPaymentsQuery } from '../src/domain/payment-input.ts';
import { paymentInitiationJson, paymentJson } from '../src/domain/payment-json.ts';
import { parseInput } from '../src/domain/validation.ts';
import { success } from '../src/http/envelope.ts';
import type { Services } from '../src/services/index.ts';
import { jsonObjectBody, merchantOf, noQuery } from './request.ts';
import { parseWire, restField } from './wire.ts';

/** The optional `Idempotency-Key` header; sent twice it is ambiguous, so refused. */
function idempotencyKey(req: FastifyRequest): string | undefined {
  const value = req.headers['idempotency-key'];
  if (Array.isArray(value)) throw new AppError('VALIDATION_FAILED', 'Idempotency-Key: send it once');
  return value === undefined ? undefined : parseInput(idempotencyKeyInput, value, 'Idempotency-Key');
}

export function paymentRoutes(app: FastifyInstance, services: Services) {
  app.post('/payments/init', { config: { rateLimit: 'payment_init', access: 'payments.create' } }, async (req) => {
    noQuery(req);
    const input = parseWire(initiatePaymentInput, jsonObjectBody(req));
    const initiation = await services.payments.init(merchantOf(req), input, idempotencyKey(req));
    const answer = success(paymentInitiationJson(initiation), true);
    // Outside `data`, so a replay's `data` stays the same whatever the allow-list is now.
    if (initiation.warnings.length === 0) return answer;
    return { ...answer, metadata: { ...answer.metadata, warnings: initiation.warnings.map((w) => ({ field: restField([w.field]), message: w.message })) } };
  });

  app.get<{ Params: { id: string } }>('/payments/:id', { config: { rateLimit: 'payment_status', access: 'read' } }, async (req) => {
    noQuery(req);
    return success(paymentJson(await services.payments.get(merchantOf(req), req.params.id)));
  });

  // CONTRACT §9: offset paging like payouts, newest first, the same shape as one payment.
  app.get('/payments', { config: { rateLimit: 'payment_status', access: 'read' } }, async (req) => {
    const query = parseWire(listPaymentsQuery, req.query ?? {}, 'query');
    const { payments, total } = await services.payments.list(merchantOf(req), query);
    return success({ payments: payments.map(paymentJson), total });
  });
}
