import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Services } from '../services/index.ts';
import { linkPage } from './link-page.ts';
import { paymentPage } from './payment-page.ts';
import { providerWebhooks } from './provider-webhooks.ts';
import { qrRoutes } from './qr.ts';

/**
 * Everything outside `/api/v1` that customers and providers reach without an API key: the hosted
 * payment page (with its hand-off to a provider's checkout and the way back), QR images and
 * provider notifications. Each is its own encapsulated context, so the page's form parser and
 * HTML errors stay with the page. Each route's gate (src/http/caller.ts) names what it takes
 * instead of a key: the payment's address, the page's form token, a signed QR link, a provider's
 * signature. Every request to them counts against its address's `anonymous` budget, whatever it
 * carries.
 */
export async function pages(app: FastifyInstance, opts: { services: Services; config: Config }) {
  await app.register(paymentPage, opts);
  await app.register(linkPage, opts);
  await app.register(qrRoutes, opts);
  await app.register(providerWebhooks, opts);
}
