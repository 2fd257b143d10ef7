import type { FastifyInstance } from 'fastify';
import { success } from '../http/envelope.ts';
import type { Services } from '../services/index.ts';

/**
 * `POST /providers/{provider}/callback`: where payment providers confirm attempts (the sandbox
 * provider calls it over HTTP too). No API key: each provider authenticates its own callbacks,
 * over the raw bytes of the body, so JSON is kept unparsed here.
 */
export async function providerCallbacks(app: FastifyInstance, opts: { services: Services }) {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  app.post<{ Params: { provider: string } }>('/providers/:provider/callback', async (req) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const payment = await opts.services.paymentFlow.confirm({ kind: 'provider', provider: req.params.provider }, raw, req.headers);
    return success({ received: true, payment_id: payment.id, status: payment.status });
  });
}
