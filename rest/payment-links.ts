import type { FastifyInstance } from 'fastify';
import { createPaymentLinkInput, listPaymentLinksQuery, type PaymentLink, paymentLinkJson, updatePaymentLinkInput } from '../src/domain/payment-link.ts';
import { success } from '../src/http/envelope.ts';
import type { Services } from '../src/services/index.ts';
import { jsonObjectBody, merchantOf, noQuery } from './request.ts';
import { parseWire } from './wire.ts';

/** CONTRACT §11 "Payment links": create, list, read and switch off a merchant's links. */
export function paymentLinkRoutes(app: FastifyInstance, services: Services) {
  const json = (l: PaymentLink) => paymentLinkJson(l, services.links.addresses(l));

  app.post('/payment-links', { config: { rateLimit: 'payment_init', access: 'payments.create' } }, async (req, reply) => {
    noQuery(req);
    const input = parseWire(createPaymentLinkInput, jsonObjectBody(req));
    const link = await services.links.create(merchantOf(req), input);
    reply.code(201);
    return success(json(link));
  });

  app.get('/payment-links', { config: { rateLimit: 'payment_init', access: 'read' } }, async (req) => {
    const page = parseWire(listPaymentLinksQuery, req.query ?? {}, 'query');
    const { links, total } = await services.links.list(merchantOf(req), page);
    return success({ payment_links: links.map(json), total });
  });

  app.get<{ Params: { id: string } }>('/payment-links/:id', { config: { rateLimit: 'payment_init', access: 'read' } }, async (req) => {
    noQuery(req);
    return success(json(await services.links.get(merchantOf(req), req.params.id)));
  });

  app.patch<{ Params: { id: string } }>('/payment-links/:id', { config: { rateLimit: 'payment_init', access: 'payments.create' } }, async (req) => {
    noQuery(req);
    const input = parseWire(updatePaymentLinkInput, jsonObjectBody(req));
    return success(json(await services.links.update(merchantOf(req), req.params.id, input)));
  });
}
