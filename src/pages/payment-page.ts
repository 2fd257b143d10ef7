import { randomBytes } from 'node:crypto';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Actor } from '../domain/actor.ts';
import { AppError, isAppError } from '../domain/errors.ts';
import { formatRand } from '../domain/money.ts';
import type { Payment } from '../domain/payment.ts';
import { redirectAllowed } from '../domain/redirect.ts';
import type { PaymentView } from '../services/payment-flow.ts';
import { classify } from '../http/errors.ts';
import type { Services } from '../services/index.ts';
import { actionForm, esc, heading, layout, note, statusLine } from './templates.ts';

/** How often the "processing" page reloads itself while the provider confirms. */
const REFRESH_SECONDS = 1;

interface Rendered {
  body: string;
  title: string;
  status?: number;
  refreshSeconds?: number;
  /** Origins the page's forms may end up at (a post → result → merchant redirect chain). */
  formOrigins?: string[];
}

/**
 * The hosted payment page (CONTRACT §4): `GET /pay/{id}` shows the payment in its current state;
 * `pay`, `cancel` and (tst/dev) `decline` are plain form posts answered with 303 back to the
 * page (post/redirect/get), so it works without JavaScript. No API key: the unguessable payment
 * id is the capability, and each form carries an HMAC of it against cross-site posts.
 */
export async function paymentPage(app: FastifyInstance, opts: { services: Services; config: Config }) {
  const { services, config } = opts;
  const production = config.serviceEnv === 'prd';
  // Form bodies are parsed here only: /api/v1 still refuses anything but JSON.
  await app.register(formbody, { bodyLimit: 4096 });

  app.addHook('onSend', async (_req, reply) => {
    reply.header('Cache-Control', 'no-store');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('X-Content-Type-Options', 'nosniff');
    // The page's URL is a capability: never leak it to the merchant's site in a Referer.
    reply.header('Referrer-Policy', 'no-referrer');
  });

  const send = (reply: FastifyReply, page: Rendered) => {
    const nonce = randomBytes(16).toString('base64');
    const html = layout(page.body, { title: page.title, nonce, ...(page.refreshSeconds !== undefined && { refreshSeconds: page.refreshSeconds }) });
    const formAction = ["'self'", ...(page.formOrigins ?? [])].join(' ');
    reply
      .code(page.status ?? 200)
      .header(
        'Content-Security-Policy',
        `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
      )
      .type('text/html; charset=utf-8')
      .send(html);
  };

  app.setErrorHandler((error, req, reply) => {
    const { status, message, unexpected } = classify(error);
    if (unexpected) req.log.error({ err: error }, 'unexpected error on the payment page');
    const text = status === 404 ? 'This payment does not exist.' : unexpected ? 'Something went wrong. Please try again.' : message;
    send(reply, { status, title: 'Payment', body: `${statusLine('error', status === 404 ? 'Payment not found' : 'Sorry', 'bad')}\n${note(text)}` });
  });

  const allowed = (view: PaymentView, url: string | null) => redirectAllowed(url, view.redirectDomains, production);
  // Whoever holds the page's address is its customer: the unguessable id is the capability.
  const customer = (id: string): Actor => ({ kind: 'customer', paymentId: id });

  app.get<{ Params: { id: string } }>('/pay/:id', async (req, reply) => {
    const view = await services.paymentFlow.view(customer(req.params.id), req.params.id);
    const target = redirectTarget(view);
    if (target && allowed(view, target)) return reply.code(303).redirect(target);
    send(reply, render(view, services.paymentLinks.formToken(view.payment.id), !production, allowed));
    return reply;
  });

  const action = (name: 'pay' | 'cancel' | 'decline', run: (actor: Actor, id: string) => Promise<unknown>) =>
    app.post<{ Params: { id: string } }>(`/pay/:id/${name}`, async (req: FastifyRequest<{ Params: { id: string } }>, reply) => {
      const actor = customer(req.params.id);
      const { payment } = await services.paymentFlow.view(actor, req.params.id);
      const token = (req.body as Record<string, unknown> | undefined)?.token;
      if (!services.paymentLinks.formTokenMatches(payment.id, token)) {
        throw new AppError('FORBIDDEN', 'This form is not valid any more. Go back and reload the payment page.');
      }
      try {
        await run(actor, payment.id);
      } catch (e) {
        // Pressed after the payment moved on (another tab, a double submit): just show it.
        if (!isAppError(e) || e.code !== 'INVALID_STATUS_TRANSITION') throw e;
      }
      return reply.code(303).redirect(`/pay/${payment.id}`);
    });
  action('pay', (actor, id) => services.paymentFlow.pay(actor, id));
  action('cancel', (actor, id) => services.paymentFlow.cancel(actor, id));
  if (!production) action('decline', (actor, id) => services.paymentFlow.pay(actor, id, { simulate: 'decline' }));
}

/** Where a finished payment sends the customer, before the allow-list check. */
function redirectTarget({ payment: p }: PaymentView): string | null {
  if (p.status === 'captured') return p.intentType === 'purchase_and_redeem' ? p.successUrl : null;
  if (p.status === 'failed') return p.failureUrl;
  if (p.status === 'cancelled') return p.cancelUrl;
  return null;
}

function render(view: PaymentView, token: string, sandbox: boolean, allowed: (v: PaymentView, url: string | null) => boolean): Rendered {
  const p: Payment = view.payment;
  const amount = formatRand(p.amountCents);
  const top = heading(view.merchantName, amount, p.merchantOrderId);
  const title = `Pay ${view.merchantName}`;
  switch (p.status) {
    case 'created': {
      const base = `/pay/${p.id}`;
      const origins = [p.successUrl, p.cancelUrl, p.failureUrl].filter((u) => allowed(view, u)).map((u) => new URL(u!).origin);
      const body = [
        top,
        actionForm(`${base}/pay`, token, 'pay', `Pay ${amount}`, 'primary'),
        actionForm(`${base}/cancel`, token, 'cancel', 'Cancel'),
        sandbox ? actionForm(`${base}/decline`, token, 'decline', 'Simulate a decline', 'warn') : '',
        sandbox ? note('Sandbox: no real money moves.') : '',
      ].join('\n');
      return { title, body, formOrigins: [...new Set(origins)] };
    }
    case 'initiated':
    case 'awaiting_webhook':
      return {
        title,
        refreshSeconds: REFRESH_SECONDS,
        body: `${top}\n${statusLine(p.status, 'Processing your payment…', 'wait')}\n${note('This page updates by itself. Please keep it open.')}`,
      };
    case 'captured':
      return {
        title,
        body:
          p.intentType === 'purchase'
            ? `${top}\n${statusLine('captured', 'Payment successful', 'ok')}\n<p>Your voucher code:</p>\n<p class="voucher" data-testid="voucher-code">${esc(view.voucherCode ?? '')}</p>\n${note('Keep this code: you need it to use your voucher.')}`
            : `${top}\n${statusLine('captured', 'Payment successful', 'ok')}\n${note(`Your voucher has been redeemed with ${view.merchantName}. You can close this page.`)}`,
      };
    case 'failed':
      return { title, body: `${top}\n${statusLine('failed', 'Payment declined', 'bad')}\n${note('You have not been charged.')}` };
    case 'cancelled':
      return { title, body: `${top}\n${statusLine('cancelled', 'Payment cancelled', 'bad')}\n${note('You have not been charged.')}` };
  }
}
