import { randomBytes } from 'node:crypto';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import type { Config } from '../config.ts';
import { formatRand } from '../domain/money.ts';
import type { PaymentLimits } from '../domain/merchant.ts';
import { parseRand } from '../domain/payment-link.ts';
import { classify } from '../http/errors.ts';
import type { PublicLink } from '../services/links.ts';
import type { Services } from '../services/index.ts';
import { chooseLanguage, type Language, LANGUAGE_NAMES, LANGUAGES, type Translate, translator } from './i18n.ts';
import { esc, languageNav, layout, note, statusLine } from './templates.ts';

/**
 * A payment link's public page (CONTRACT §11): `GET /l/{link_id}` shows the merchant's name, the
 * link's description and its amount, or a field for the amount in rand; its form post makes one
 * payment of the link's merchant and answers 303 to that payment's hosted page. Like `/pay/{id}`
 * it needs no JavaScript, speaks en/af/zu and is laid out for a phone first. A closed link
 * (switched off, or single-use and paid) answers 410 and makes nothing; an amount outside the
 * merchant's limits is said on the page, and makes nothing.
 *
 * Anyone may open a link (its address is what the merchant shares), so what one can make is
 * bounded: every request counts against its address's `anonymous` budget (the `linkPage` gate),
 * each link's payments against that link's `payment_init` budget, and an unpaid payment expires.
 */
export async function linkPage(app: FastifyInstance, opts: { services: Services; config: Config }) {
  const { services } = opts;
  await app.register(formbody, { bodyLimit: 4096 });

  app.addHook('onSend', async (_req, reply) => {
    reply.header('Cache-Control', 'no-store');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
  });

  const languageOf = (req: FastifyRequest) => chooseLanguage((req.query as Record<string, unknown> | undefined)?.lang, req.headers['accept-language']);

  const send = (reply: FastifyReply, o: { status?: number; title: string; body: string; path?: string; lang: Language }) => {
    const nonce = randomBytes(16).toString('base64');
    const t = translator(o.lang);
    const footer = o.path ? languageNav(t('language'), o.lang, LANGUAGES.map((lang) => ({ lang, name: LANGUAGE_NAMES[lang], href: `${o.path}?lang=${lang}` }))) : '';
    reply
      .code(o.status ?? 200)
      .header('Content-Security-Policy', `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`)
      .header('Content-Language', o.lang)
      .header('Vary', 'Accept-Language')
      .type('text/html; charset=utf-8')
      .send(layout(o.body, { title: o.title, nonce, lang: o.lang, footer }));
    return reply;
  };

  app.setErrorHandler((error, req, reply) => {
    const { status, unexpected } = classify(error);
    if (unexpected) req.log.error({ err: error }, 'unexpected error on a payment link page');
    const { lang } = languageOf(req);
    const t = translator(lang);
    const text = status === 404 ? t('linkNotFound') : status === 429 ? t('tooMany', { seconds: String(reply.getHeader('retry-after') ?? 60) }) : t('unexpected');
    return send(reply, { status, title: t('sorry'), lang, body: `${statusLine('error', t('sorry'), 'bad')}\n${note(text)}` });
  });

  const gate = { config: { gate: 'linkPage' as const } };

  app.get<{ Params: { id: string } }>('/l/:id', gate, async (req, reply) => {
    const opened = await services.links.open(req.params.id);
    const language = languageOf(req);
    return send(reply, render(opened, language, translator(language.lang)));
  });

  app.post<{ Params: { id: string } }>('/l/:id', gate, async (req, reply) => {
    const language = languageOf(req);
    const t = translator(language.lang);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const typed = typeof body.amount === 'string' ? parseRand(body.amount) : null;
    const outcome = await services.links.pay(req.params.id, typed);
    if (outcome.kind === 'created') return reply.code(303).redirect(`${outcome.paymentUrl}${language.explicit ? `?lang=${language.lang}` : ''}`);
    const opened = await services.links.open(req.params.id);
    if (outcome.kind === 'limited') {
      reply.header('Retry-After', String(outcome.decision.resetSeconds));
      return send(reply, { status: 429, title: t('sorry'), lang: language.lang, body: `${statusLine('error', t('sorry'), 'bad')}\n${note(t('tooMany', { seconds: String(outcome.decision.resetSeconds) }))}` });
    }
    if (outcome.kind === 'closed') return send(reply, render({ ...opened, closed: true }, language, t));
    return send(reply, render(opened, language, t, { problem: outsideText(outcome.limits, t), typed: typeof body.amount === 'string' ? body.amount.slice(0, 32) : '' }));
  });

  // The link's QR code, for a signed, unexpired address (as a payment's, CONTRACT §4).
  app.get<{ Params: { id: string; format: string }; Querystring: Record<string, unknown> }>('/l/:id/qr.:format', gate, async (req, reply) => {
    const q = req.query ?? {};
    const url = services.paymentLinks.verifyLinkQr(req.params.id, q.expires, q.signature);
    reply.header('Cache-Control', 'private, max-age=300');
    if (req.params.format === 'svg') {
      const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
      return reply.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'").type('image/svg+xml').send(svg);
    }
    if (req.params.format !== 'png') return reply.callNotFound();
    return reply.type('image/png').send(await QRCode.toBuffer(url, { type: 'png', width: 512, errorCorrectionLevel: 'M', margin: 4 }));
  });
}

const outsideText = (l: PaymentLimits, t: Translate) => t('amountOutside', { min: formatRand(l.minCents), max: formatRand(l.maxCents) });

function render(o: PublicLink, language: { lang: Language; explicit: boolean }, t: Translate, extra: { problem?: string; typed?: string } = {}) {
  const { link, merchantName } = o;
  const path = `/l/${link.id}`;
  const title = t('title', { merchant: merchantName });
  const top = `<h1 class="merchant" data-testid="merchant-name">${esc(merchantName)}</h1>\n<p class="description" data-testid="description">${esc(link.description)}</p>`;
  if (o.closed) {
    return { status: 410, title, path, lang: language.lang, body: `${top}\n${statusLine('closed', t('linkClosedTitle'), 'bad')}\n${note(t('linkClosed', { merchant: merchantName }))}` };
  }
  const action = `${path}${language.explicit ? `?lang=${language.lang}` : ''}`;
  const range = t('amountRange', { min: formatRand(o.limits.minCents), max: formatRand(o.limits.maxCents) });
  const amountPart =
    link.amountCents !== null
      ? `<p class="amount" data-testid="amount">${esc(formatRand(link.amountCents))}</p>`
      : `<label class="amount" for="amount">${esc(t('amountLabel'))}</label>
<input class="amount" id="amount" name="amount" data-testid="link-amount" inputmode="decimal" autocomplete="off" maxlength="32" required placeholder="100,00" value="${esc(extra.typed ?? '')}">
<p class="note" data-testid="amount-range">${esc(range)}</p>`;
  const problem = extra.problem ? `<p class="problem" role="alert" data-testid="amount-problem">${esc(extra.problem)}</p>\n` : '';
  const label = link.amountCents !== null ? t('pay', { amount: formatRand(link.amountCents) }) : t('payLink');
  const body = `${top}\n${problem}<form method="post" action="${esc(action)}">
${amountPart}
<button type="submit" class="primary" data-testid="pay">${esc(label)}</button>
</form>`;
  return { status: extra.problem ? 422 : 200, title, path, lang: language.lang, body };
}
