import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../src/domain/errors.ts';
import { paymentStatusJson } from '../src/domain/payment.ts';
import type { Services } from '../src/services/index.ts';
import { feeRatesOf } from '../src/services/payments.ts';
import { principal } from './auth.ts';
import { jsonObjectBody } from './body.ts';
import { success } from './envelope.ts';

/** The optional `Idempotency-Key` header; sent twice it is ambiguous, so refused. */
function idempotencyKey(req: FastifyRequest): string | undefined {
  const value = req.headers['idempotency-key'];
  if (Array.isArray(value)) throw new AppError('VALIDATION_FAILED', 'Idempotency-Key: send it once');
  return value;
}

export function paymentRoutes(app: FastifyInstance, services: Services) {
  app.post('/payments/init', { config: { rateLimit: 'payment_init' } }, async (req) => {
    const body = jsonObjectBody(req);
    const { merchant } = principal(req);
    const data = await services.payments.init(merchant.id, body, idempotencyKey(req), feeRatesOf(merchant));
    return success(data, true);
  });

  app.get<{ Params: { id: string } }>('/payments/:id', { config: { rateLimit: 'payment_status' } }, async (req) => {
    return success(paymentStatusJson(await services.payments.get(req.params.id, principal(req).merchant.id)));
  });
}
