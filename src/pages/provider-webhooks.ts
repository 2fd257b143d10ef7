import type { FastifyInstance, FastifyRequest } from 'fastify';
import { verifiedActor } from '../http/caller.ts';
import { success } from '../http/envelope.ts';
import type { Services } from '../services/index.ts';

/**
 * `POST /providers/{name}/webhook` (CONTRACT §9): where payment providers notify zarpay (Yoco's
 * registered webhook; the sandbox posts here too). `/providers/{name}/callback`, the address of
 * the first release, is the same handler, so nothing that still posts there breaks. No API key:
 * each provider authenticates its own notifications over the raw bytes of the body, so JSON is
 * kept unparsed here, and the caller step (src/http/caller.ts, the `providerNotification` gate)
 * has the provider verify them before the handler runs: the provider actor it hands over carries
 * the notification it signed. A verified event zarpay has no use for is answered 200, so the
 * provider stops resending it.
 */
export async function providerWebhooks(app: FastifyInstance, opts: { services: Services }) {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  // Ozow posts its notifications as an HTML form would; its Hash is over the fields as posted.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: 16_384 }, (_req, body, done) => done(null, body));

  const handler = async (req: FastifyRequest) => {
    const { paymentId, status } = await opts.services.paymentFlow.notify(verifiedActor(req, 'provider'));
    return success({ received: true, payment_id: paymentId, status });
  };
  const route = { config: { gate: 'providerNotification' as const } };
  app.post('/providers/:provider/webhook', route, handler);
  app.post('/providers/:provider/callback', route, handler);
}
