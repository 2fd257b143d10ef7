import { randomBytes } from 'node:crypto';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Actor } from '../domain/actor.ts';
import { isAppError } from '../domain/errors.ts';
import { formatRand } from '../domain/money.ts';
import { EXPIRED, LINK_PAID_ALREADY, type Payment } from '../domain/payment.ts';
import { redirectAllowed } from '../domain/redirect.ts';
import type { PaymentView } from '../services/payment-flow.ts';
import { StaleForm, verifiedActor } from '../http/caller.ts';
import { classify } from '../http/errors.ts';
import type { Services } from '../services/index.ts';
import { supportContactKind } from '../domain/merchant.ts';
import type { PaymentMethod } from '../domain/payment-method.ts';
import { chooseLanguage, type Language, LANGUAGE_NAMES, LANGUAGES, methodName, type Translate, translator } from './i18n.ts';
import { checkoutControls, providerRedirects, redirectOrigins } from './provider-redirects.ts';
import { actionForm, esc, heading, languageNav, layout, linkButton, note, paragraph, payForm, statusLine, supportLine } from './templates.ts';

/** How often the "processing" page reloads itself while the provider confirms. */
const REFRESH_SECONDS = 1;

interface Rendered {
  body: string;
  title: string;
  /** The payment's page, for the language switcher's links (absent on error pages without one). */
  pagePath?: string;
  status?: number;
  refreshSeconds?: number;
  /** Forward the browser there at once (a provider's checkout page). */
  forwardTo?: string;
  /** Origins the page's forms may end up at (a post → result → merchant redirect chain). */
  formOrigins?: string[];
}

/**
 * The hosted payment page (CONTRACT §4): `GET /pay/{id}` shows the payment in its current state;
 * `pay`, `cancel` and (tst/dev) `decline` are plain form posts answered with 303 back to the
 * page (post/redirect/get), so it works without JavaScript. No API key: the unguessable payment
 * id is the capability (the `paymentPage` gate of src/http/caller.ts), and each form carries an
 * HMAC of it against cross-site posts (the `paymentForm` gate), checked before any customer
 * exists for the post.
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

  const send = (reply: FastifyReply, page: Rendered, language: Chosen) => {
    const nonce = randomBytes(16).toString('base64');
    const footer = page.pagePath
      ? languageNav(
          translator(language.lang)('language'),
          language.lang,
          LANGUAGES.map((lang) => ({ lang, name: LANGUAGE_NAMES[lang], href: `${page.pagePath}?lang=${lang}` })),
        )
      : '';
    const html = layout(page.body, {
      title: page.title,
      nonce,
      lang: language.lang,
      footer,
      ...(page.refreshSeconds !== undefined && { refreshSeconds: page.refreshSeconds }),
      ...(page.forwardTo !== undefined && { forwardTo: page.forwardTo }),
    });
    const formAction = ["'self'", ...(page.formOrigins ?? [])].join(' ');
    reply
      .code(page.status ?? 200)
      .header(
        'Content-Security-Policy',
        `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
      )
      .header('Content-Language', language.lang)
      // The same address answers in the browser's language: caches must keep them apart.
      .header('Vary', 'Accept-Language')
      .type('text/html; charset=utf-8')
      .send(html);
  };

  /** The language of this request: `?lang=` (kept across the page's forms), else Accept-Language. */
  const languageOf = (req: FastifyRequest): Chosen => chooseLanguage((req.query as Record<string, unknown> | undefined)?.lang, req.headers['accept-language']);

  // A small icon of our own, so browsers asking for one get an answer instead of a 404.
  const asset = { config: { gate: 'pageAsset' as const } };
  app.get('/favicon.svg', asset, async (_req, reply) =>
    reply.header('Cache-Control', 'public, max-age=86400').type('image/svg+xml').send(FAVICON),
  );
  app.get('/favicon.ico', asset, async (_req, reply) => reply.code(301).redirect('/favicon.svg'));

  app.setErrorHandler((error, req, reply) => {
    const { status, message, unexpected } = classify(error);
    if (unexpected) req.log.error({ err: error }, 'unexpected error on the payment page');
    const language = languageOf(req);
    const t = translator(language.lang);
    const text = (() => {
      if (status === 404) return t('notFound');
      // Over the address's budget: the shopper is told how long to wait, in their language.
      if (status === 429) return t('tooMany', { seconds: String(reply.getHeader('retry-after') ?? 60) });
      if (unexpected) return t('unexpected');
      return error instanceof StaleForm ? t('staleForm') : message;
    })();
    send(reply, { status, title: t('sorry'), body: `${statusLine('error', status === 404 ? t('notFoundTitle') : t('sorry'), 'bad')}\n${note(text)}` }, language);
  });

  const allowed = (view: PaymentView, url: string | null) => redirectAllowed(url, view.redirectDomains, production);

  app.get('/pay/:id', { config: { gate: 'paymentPage' } }, async (req, reply) => {
    const customer = verifiedActor(req, 'customer');
    const view = await services.paymentFlow.view(customer, customer.paymentId);
    const target = redirectTarget(view);
    if (target && allowed(view, target)) return reply.code(303).redirect(target);
    const language = languageOf(req);
    const page = render(view, { token: services.paymentLinks.formToken(view.payment.id), sandbox: !production, allowed, t: translator(language.lang), lang: language });
    send(reply, page, language);
    return reply;
  });

  /**
   * A button's form post; `run` may name where to go next (else back to the page). Its customer
   * comes with a valid form token only: the payment it is for exists (zarpay rendered its page),
   * and `run` finds it again.
   */
  const action = (name: 'pay' | 'cancel' | 'decline', run: (actor: Actor, id: string, form: Record<string, unknown>) => Promise<string | void>) =>
    app.post(`/pay/:id/${name}`, { config: { gate: 'paymentForm' } }, async (req, reply) => {
      const customer = verifiedActor(req, 'customer');
      let next: string | void = undefined;
      try {
        next = await run(customer, customer.paymentId, (req.body ?? {}) as Record<string, unknown>);
      } catch (e) {
        // Pressed after the payment moved on (another tab, a double submit): just show it.
        if (!isAppError(e) || e.code !== 'INVALID_STATUS_TRANSITION') throw e;
      }
      const language = languageOf(req);
      return reply.code(303).redirect(next ? `${next}${language.explicit ? `?lang=${language.lang}` : ''}` : pageUrl(customer.paymentId, language));
    });
  action('pay', async (actor, id, form) => {
    // The way to pay the customer picked (absent when the page offered one only).
    const { redirectUrl } = await services.paymentFlow.pay(actor, id, { method: form.method });
    // To the provider's checkout, through a page of ours (provider-redirects.ts).
    return redirectUrl ? `/pay/${id}/checkout` : undefined;
  });
  action('cancel', async (actor, id) => void (await services.paymentFlow.cancel(actor, id)));
  if (!production) action('decline', async (actor, id) => void (await services.paymentFlow.pay(actor, id, { simulate: 'decline' })));
  providerRedirects(app, { services, send, languageOf });
}

/** Where a finished payment sends the customer, before the allow-list check. */
function redirectTarget({ payment: p }: PaymentView): string | null {
  if (p.status === 'captured') return p.intentType === 'purchase_and_redeem' ? p.successUrl : null;
  if (p.status === 'failed') return p.failureUrl;
  if (p.status === 'cancelled') return p.cancelUrl;
  return null;
}

/** The hosted page's controls for each way to pay (CONTRACT §11). */
const METHOD_TEST_IDS: Record<PaymentMethod, string> = { card: 'method-card', instant_eft: 'method-instant-eft' };

interface Chosen {
  lang: Language;
  /** Chosen with `?lang=`: the page's own links and forms keep it. */
  explicit: boolean;
}

const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#047857"/><text x="16" y="22" font-family="sans-serif" font-size="18" font-weight="700" fill="#fff" text-anchor="middle">R</text></svg>`;

/** The page's address, keeping a language chosen with `?lang=`. */
const pageUrl = (id: string, language: Chosen) => `/pay/${id}${language.explicit ? `?lang=${language.lang}` : ''}`;

interface RenderOptions {
  token: string;
  sandbox: boolean;
  allowed: (v: PaymentView, url: string | null) => boolean;
  t: Translate;
  lang: Chosen;
}

/**
 * Where "Back to ⟨merchant⟩" goes when the final state has no redirect of its own: another of
 * the payment's allow-listed addresses (success, cancel, failure), else the merchant's first
 * allow-listed domain, else its support page. Null when the merchant gave none of these.
 */
function backTo(view: PaymentView, allowed: RenderOptions['allowed']): string | null {
  const p = view.payment;
  for (const url of [p.successUrl, p.cancelUrl, p.failureUrl]) if (url && allowed(view, url)) return new URL(url).origin + '/';
  const domain = view.redirectDomains[0];
  if (domain) return `https://${domain}/`;
  if (view.supportContact && supportContactKind(view.supportContact) === 'url') return view.supportContact;
  return null;
}

function supportLink(contact: string): { href: string; text: string } | null {
  switch (supportContactKind(contact)) {
    case 'email':
      return { href: `mailto:${contact}`, text: contact };
    case 'phone':
      return { href: `tel:${contact.replace(/[^+0-9]/g, '')}`, text: contact };
    case 'url':
      return { href: contact, text: contact.replace(/^https?:\/\//, '').replace(/\/$/, '') };
    default:
      return null;
  }
}

function render(view: PaymentView, o: RenderOptions): Rendered {
  const { t } = o;
  const p: Payment = view.payment;
  const amount = formatRand(p.amountCents);
  const merchant = view.merchantName;
  const top = heading(merchant, amount, t('order', { order: p.merchantOrderId }), p.description);
  const title = t('title', { merchant });
  const pagePath = `/pay/${p.id}`;
  const contact = view.supportContact ? supportLink(view.supportContact) : null;
  const support = contact ? supportLine(t('support', { merchant }), contact) : '';
  const back = backTo(view, o.allowed);
  /** The way out of a final page: a link back to the shop, or words saying so. */
  const exit = (primary: 'back' | 'tryAgain') =>
    back
      ? linkButton(back, primary === 'tryAgain' ? 'try-again' : 'back', primary === 'tryAgain' ? t('tryAgain') : t('back', { merchant }), primary === 'tryAgain' ? '' : 'secondary') +
        (primary === 'tryAgain' ? `\n${linkButton(back, 'back', t('back', { merchant }), 'secondary')}` : '')
      : note(t('closeAndReturn', { merchant }));
  const action = (name: string) => `${pagePath}/${name}${o.lang.explicit ? `?lang=${o.lang.lang}` : ''}`;
  switch (p.status) {
    case 'created': {
      const origins = [p.successUrl, p.cancelUrl, p.failureUrl].filter((u) => o.allowed(view, u)).map((u) => new URL(u!).origin);
      const body = [
        top,
        ...(view.methods.length > 1
          ? [
              payForm(action('pay'), o.token, {
                legend: t('chooseMethod'),
                label: t('pay', { amount }),
                chosen: view.chosenMethod,
                choices: view.methods.map((m) => ({ value: m, testId: METHOD_TEST_IDS[m], label: methodName(view.methodProviders[m] ?? m, t) })),
              }),
            ]
          : [paragraph(t('method', { method: methodName(view.provider, t) }), 'method', 'payment-method'), actionForm(action('pay'), o.token, 'pay', t('pay', { amount }), 'primary')]),
        actionForm(action('cancel'), o.token, 'cancel', t('cancel'), 'secondary'),
        o.sandbox ? actionForm(action('decline'), o.token, 'decline', t('decline'), 'warn') : '',
        o.sandbox ? note(t('sandbox')) : '',
        support,
      ].join('\n');
      return { title, body, pagePath, formOrigins: [...new Set(origins)] };
    }
    case 'initiated':
    case 'awaiting_webhook':
      return {
        title,
        pagePath,
        refreshSeconds: REFRESH_SECONDS,
        body: `${top}\n${statusLine(p.status, t('processing'), 'wait')}\n${note(t('keepOpen'))}${checkoutControls(view, { token: o.token, cancelAction: action('cancel'), t })}\n${support}`,
        ...(view.checkoutUrl && { formOrigins: redirectOrigins(view, o.allowed) }),
      };
    case 'captured':
      return {
        title,
        pagePath,
        body:
          p.intentType === 'purchase'
            ? `${top}\n${statusLine('captured', t('captured'), 'ok')}\n${paragraph(t('voucherIntro'), '')}\n<p class="voucher" data-testid="voucher-code">${esc(view.voucherCode ?? '')}</p>\n${note(t('voucherKeep'))}\n${exit('back')}\n${support}`
            : `${top}\n${statusLine('captured', t('captured'), 'ok')}\n${note(t('redeemed', { merchant }))}\n${exit('back')}\n${support}`,
      };
    case 'failed':
      // Expired: not finished within PAYMENT_EXPIRES_AFTER_MS; paying now is no longer possible.
      if (p.failureReason === LINK_PAID_ALREADY) {
        return { title, pagePath, body: `${top}\n${statusLine('failed', t('linkPaid'), 'bad')}\n${note(t('linkPaidNote'))}\n${exit('back')}\n${support}` };
      }
      if (p.failureReason === EXPIRED) {
        return { title, pagePath, body: `${top}\n${statusLine('failed', t('expired'), 'bad')}\n${note(t('expiredNote'))}\n${exit('back')}\n${support}` };
      }
      return { title, pagePath, body: `${top}\n${statusLine('failed', t('declined'), 'bad')}\n${note(t('notCharged'))}\n${exit('tryAgain')}\n${support}` };
    case 'cancelled':
      return { title, pagePath, body: `${top}\n${statusLine('cancelled', t('cancelled'), 'bad')}\n${note(t('notCharged'))}\n${exit('back')}\n${support}` };
  }
}
