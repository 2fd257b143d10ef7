import type { FastifyInstance, FastifyRequest } from 'fastify';
import { success } from '../http/envelope.ts';
import type { Services } from '../services/index.ts';

/**
 * `POST /providers/{name}/webhook` (CONTRACT §9): where payment providers notify zarpay (Yoco's
 * registered webhook; the sandbox posts here too). `/providers/{name}/callback`, the address of
 * the first release, is the same handler, so nothing that still posts there breaks. No API key:
 * each provider authenticates its own notifications over the raw bytes of the body, so JSON is
 * kept unparsed here. A verified event zarpay has no use for is answered 200, so the provider
 * stops resending it.
 */
export async function providerWebhooks(app: FastifyInstance, opts: { services: Services }) {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  const handler = async (req: FastifyRequest<{ Params: { provider: string } }>) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const { paymentId, status } = await opts.services.paymentFlow.notify({ kind: 'provider', provider: req.params.provider }, raw, req.headers);
    return success({ received: true, payment_id: paymentId, status });
  };
  app.post<{ Params: { provider: string } }>('/providers/:provider/webhook', handler);
  app.post<{ Params: { provider: string } }>('/providers/:provider/callback', handler);
}
