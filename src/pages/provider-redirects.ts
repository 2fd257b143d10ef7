import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { verifiedActor } from '../http/caller.ts';
import { formatRand } from '../domain/money.ts';
import type { PaymentView } from '../services/payment-flow.ts';
import type { Services } from '../services/index.ts';
import { type Language, type Translate, translator } from './i18n.ts';
import { actionForm, esc, heading, note, statusLine } from './templates.ts';

/** What the page's `send` renders (payment-page.ts `Rendered`, the part used here). */
interface HandOffPage {
  title: string;
  body: string;
  pagePath: string;
  forwardTo?: string;
}

/**
 * The hosted page's side of a redirecting provider (Yoco): the hand-off to the provider's
 * checkout and the way back. Kept apart from the page's own look (payment-page.ts), which calls
 * `providerRedirects` once and `checkoutControls` on its "processing" view.
 *
 * - `GET /pay/{id}/checkout`: where "pay" sends the customer. A form post may only redirect to
 *   origins the page's CSP `form-action` lists, and the provider's checkout address is not known
 *   in advance, so the post lands on this page of ours, which sends the browser on at once
 *   (`<meta http-equiv="refresh">`, no JavaScript) and offers the link as well.
 * - `GET|POST /pay/{id}/return`: the provider's success, cancel and failure return address. Anyone can
 *   open it, so it proves nothing by itself: zarpay asks the provider, applies the answer, and
 *   shows the page.
 */
export function providerRedirects<L extends { lang: Language }>(
  app: FastifyInstance,
  opts: {
    services: Services;
    send: (reply: FastifyReply, page: HandOffPage, language: L) => void;
    languageOf: (req: FastifyRequest) => L;
  },
) {
  const { services, send, languageOf } = opts;
  // Views and the way back: the payment's address is the credential, as for the page itself.
  const gate = { config: { gate: 'paymentPage' as const } };

  app.get('/pay/:id/checkout', gate, async (req, reply) => {
    const customer = verifiedActor(req, 'customer');
    const view = await services.paymentFlow.view(customer, customer.paymentId);
    if (!view.checkoutUrl) return reply.code(303).redirect(`/pay/${view.payment.id}`);
    const language = languageOf(req);
    send(reply, handOff(view, view.checkoutUrl, translator(language.lang)), language);
    return reply;
  });

  const back = async (req: FastifyRequest, reply: FastifyReply) => {
    const customer = verifiedActor(req, 'customer');
    const payment = await services.paymentFlow.returned(customer, customer.paymentId);
    return reply.code(303).redirect(`/pay/${payment.id}`);
  };
  app.get('/pay/:id/return', gate, back);
  // Ozow sends the browser back with a form post of its response variables: they are never read
  // (the browser could send anything); the provider is asked, as for a plain return.
  app.post('/pay/:id/return', gate, back);
}

function handOff(view: PaymentView, checkoutUrl: string, t: Translate): HandOffPage {
  const p = view.payment;
  return {
    title: t('title', { merchant: view.merchantName }),
    pagePath: `/pay/${p.id}`,
    forwardTo: checkoutUrl,
    body: [
      heading(view.merchantName, formatRand(p.amountCents), t('order', { order: p.merchantOrderId }), p.description),
      statusLine(p.status, t('toCheckout'), 'wait'),
      `<p><a href="${esc(checkoutUrl)}" data-testid="checkout-link" rel="noreferrer">${esc(t('continueToCheckout'))}</a></p>`,
    ].join('\n'),
  };
}

/**
 * On the "processing" page of a payment whose provider has a checkout page: the way back to it
 * (the customer left it, or paid and came back before the provider's notification), and cancel,
 * which asks the provider before it cancels. Empty for providers without a page (the sandbox).
 */
export function checkoutControls(view: PaymentView, o: { token: string; cancelAction: string; t: Translate }): string {
  if (!view.checkoutUrl) return '';
  return [
    '',
    `<p><a href="${esc(view.checkoutUrl)}" data-testid="checkout-link" rel="noreferrer">${esc(o.t('backToCheckout'))}</a></p>`,
    actionForm(o.cancelAction, o.token, 'cancel', o.t('cancel'), 'secondary'),
    note(o.t('paidWaiting')),
  ].join('\n');
}

/** The merchant's allow-listed return addresses, which a cancel's redirect chain may end at (CSP `form-action`). */
export function redirectOrigins(view: PaymentView, allowed: (v: PaymentView, url: string | null) => boolean): string[] {
  const p = view.payment;
  return [...new Set([p.successUrl, p.cancelUrl, p.failureUrl].filter((u) => allowed(view, u)).map((u) => new URL(u!).origin))];
}
