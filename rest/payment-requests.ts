import type { FastifyInstance } from 'fastify';
import { paymentRequestJson, requestPaymentInput } from '../src/domain/payment-request.ts';
import { success } from '../src/http/envelope.ts';
import type { Services } from '../src/services/index.ts';
import { jsonObjectBody, merchantOf, noQuery } from './request.ts';
import { parseWire } from './wire.ts';

/** CONTRACT §11 "Payment links": a one-off payment request, e-mailed to the customer (docs/links.md). */
export function paymentRequestRoutes(app: FastifyInstance, services: Services) {
  app.post('/payment-requests', { config: { rateLimit: 'payment_init', access: 'payments.request' } }, async (req, reply) => {
    noQuery(req);
    const input = parseWire(requestPaymentInput, jsonObjectBody(req));
    const made = await services.paymentRequests.send(merchantOf(req), input);
    reply.code(made.created ? 201 : 200);
    return success(paymentRequestJson(made, input.customerEmail));
  });
}
