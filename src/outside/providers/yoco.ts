/**
 * Yoco Online Checkout (developer.yoco.com), South Africa's card acquirer for small merchants:
 * the customer pays on Yoco's hosted page and Yoco tells us by a signed webhook.
 *
 * Operations used, all on `apiUrl` (default {@link YOCO_API_URL}), all authenticated with
 * `Authorization: Bearer <secret key>` (sk_test_… or sk_live_…)
 * [developer.yoco.com/docs/checkout-api/authentication]:
 *
 * - Create a checkout: `POST /checkouts`, `Idempotency-Key: <attemptId>`, JSON body `amount`
 *   (integer cents), `currency` ("ZAR", the only one Yoco takes), `successUrl`, `cancelUrl`,
 *   `failureUrl`, `metadata` (a map: we put `attemptId` and `paymentId`), and, when there is a
 *   description, `lineItems: [{ displayName, quantity: 1, pricingDetails: { price } }]`. The answer
 *   is the Checkout object: we read `id` ("ch_…", our providerRef) and `redirectUrl` (Yoco's page)
 *   [developer.yoco.com/online/api-reference/checkout/payments/accept-payments, "Accept a payment"].
 *   Idempotency: the same key within 24 hours answers with the first request's status and body and
 *   `Idempotent-Replayed: true`, "regardless of whether it succeeded or failed"; 409 while the
 *   first is still being processed; 422 when the payload differs
 *   [developer.yoco.com/online/api-reference/idempotency; developer.yoco.com/docs/checkout-api/errors].
 * - Get a checkout: `GET /checkouts/{id}`, reading `status` and `paymentId`. No Yoco reference page
 *   for it turned up; Yoco's own WooCommerce plugin (yoco-payment-gateway, PaymentStatusScheduler)
 *   polls exactly this and treats `status === "completed"` as paid, with `paymentId` the payment.
 * - Refund a checkout: `POST /checkouts/{id}/refund`, `Idempotency-Key` (zarpay's refund id), body
 *   `{ amount }` (cents; we always send it, so a partial refund is never taken for a full one).
 *   202 with `{ id, refundId, message, status }`, status "successful" meaning accepted for
 *   processing; the result comes later as a `refund.succeeded` or `refund.failed` webhook, whose
 *   payload is the Refund object: `id` (the `refundId` above), `amount`, `currency`, `paymentId`,
 *   `status`, `mode`, `metadata.checkoutId`. Only checkouts made with live keys can be refunded
 *   [developer.yoco.com/online/api-reference/checkout/refunds/accept-refunds;
 *   developer.yoco.com/online/api-reference/webhooks/events/successful-refund, …/failed-refund].
 * - Errors: a JSON problem `{ type, title, detail, status, code }`; 429 `rate_limited` comes with
 *   `Retry-After` in seconds, to be waited out before retrying
 *   [developer.yoco.com/docs/api/rate-limiting; developer.yoco.com/docs/api/error-codes/rate-limited].
 * - Webhooks: headers `webhook-id`, `webhook-timestamp` (unix seconds), `webhook-signature`
 *   ("v1,<base64 HMAC-SHA256 of id.timestamp.rawbody>", the Standard Webhooks scheme), secret
 *   "whsec_…" returned once when the webhook is registered (`POST /webhooks {name, url}`); Yoco
 *   recommends refusing timestamps more than 3 minutes from now, and re-signs each retry with a new
 *   timestamp [developer.yoco.com/online/api-reference/webhooks/verifying-events]. Event body
 *   `{ id: "evt_…", type, createdDate, payload }`, type one of `payment.succeeded`,
 *   `refund.succeeded`, `refund.failed`; a payment's payload has `id` ("p_…"), `status`
 *   ("succeeded"), `amount`, `currency`, `mode` ("live"/"test") and `metadata.checkoutId`
 *   [developer.yoco.com/online/api-reference/webhooks/events/successful-payment].
 *
 * Checkout status → AttemptState (queryAttempt):
 *   completed                    → succeeded (paymentRef = paymentId)
 *   anything else                → pending   (created, started, processing: made; page opened; a
 *                                             card being charged; and whatever else Yoco says)
 *   HTTP 404                     → refused   (ProviderRefusedError: a checkout Yoco itself named)
 *
 * Yoco documents no expiry of a checkout: neither an `expired` status nor "404 means it is gone"
 * is in its documentation (the accept-payments and webhooks pages name only `payment.succeeded`,
 * `refund.succeeded` and `refund.failed`), so neither is taken as a fact that nobody paid. An
 * abandoned checkout stays pending here, and the payment ends by zarpay's own rule instead
 * (PAYMENT_EXPIRES_AFTER_MS, tasks/payment-expiry.ts): Yoco is asked once more, and money that
 * still arrives afterwards is refunded.
 *
 * What the docs leave open, and what we chose:
 * - Declines. Yoco documents no failed-payment webhook and no failed checkout status: a declined
 *   card leaves the customer on Yoco's page free to try another, so a decline is not the
 *   checkout's outcome. This provider therefore never reports `failed`; an abandoned checkout ends
 *   by the expiry rule. A `payment.failed` event, should one ever arrive, is ignored (null) for the same
 *   reason: a success may still follow on the same checkout.
 * - Error bodies: we read Yoco's documented problem fields (`code`, `detail`, `title`) and, for
 *   older answers, the fields Yoco's plugin reads (`errorCode`, `errorMessage`, `description`).
 * - 409 (a request with the same key still in progress) and 429 are reported as unavailable:
 *   both say "try again later", not "no". A 429's `Retry-After` (seconds, or an HTTP date) is
 *   honoured: until it has passed this adapter sends Yoco nothing and answers "rate limited"
 *   with the time still to wait (`retryAfterMs`), which the job runner waits out. ASSUMPTION:
 *   the wait applies to the whole API, not only the end-point that answered 429 (Yoco does not
 *   publish its limits; waiting more is the safe side).
 * - Because Yoco replays even a failed first answer for 24 hours, retrying a create that got a
 *   Yoco 5xx with the same attemptId may get the same 5xx back; a new attempt gets a new key.
 * - Refunds retried after a 5xx: the same key is asked again (a timeout, a reset or a gateway's
 *   502/504 prove nothing: the refund may exist). Only a 5xx that Yoco replays for the key
 *   (`Idempotent-Replayed: true`) with a body in Yoco's own error shape is taken as proof that
 *   the first request created nothing (`createdNothing`): Yoco stored that failure as the
 *   request's outcome, so a fresh key is then safe and the only way forward. ASSUMPTION: Yoco
 *   stores a failure only when the operation did not happen; its documents say failures are
 *   replayed, not what a replayed failure did.
 * - A `payment.succeeded` carries what was taken (`amount` in cents, `currency`), as every sample
 *   event of Yoco's shows; zarpay compares them with the attempt (CONTRACT §10: a mismatch
 *   captures nothing). One without them is refused (VALIDATION_FAILED, so Yoco sends it again)
 *   rather than trusted. ASSUMPTION: Yoco always sends both. The same holds for `refund.succeeded`
 *   and `refund.failed`, whose Refund payload documents `amount` and `currency` too: compared
 *   with the refund, a mismatch settles nothing (issue 31).
 * - Refund outcomes: Yoco's Checkout API documents no way to read a refund (the refund read it
 *   documents lives on another API with other credentials), so this provider has no
 *   `queryRefund`: a refund's outcome is known from `refund.succeeded` / `refund.failed` only,
 *   and a refund whose notification never comes stays pending until it is overdue
 *   (REFUND_PENDING_ALERT_MS) and an operator records what Yoco's portal shows (`zarpay refund
 *   resolve`). ASSUMPTION: "successful" in the refund answer means accepted, not paid.
 * - Timestamps are checked against Yoco's 3 minutes, inside the library's fixed 5.
 * - An event whose `payload.mode` is not the secret key's mode (sk_live_ vs sk_test_) is ignored:
 *   Yoco sends both modes to the same endpoint, and a test payment must never capture a live one.
 */
import { z } from 'zod';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { AppError } from '../../domain/errors.ts';
import {
  ProviderRefusedError,
  ProviderUnavailableError,
  type AttemptState,
  type NotificationHeaders,
  type PaymentProvider,
  type ProviderNotification,
  type StartAttempt,
  type StartedAttempt,
} from './port.ts';
import { type ProviderAnswer, type ProviderHttp, providerRequest } from './http.ts';

/** Yoco's real Checkout API address (`YOCO_API_URL` overrides it, e.g. with a local double). */
export const YOCO_API_URL = 'https://payments.yoco.com/api';
/** Yoco's recommended limit on a webhook timestamp's distance from now. */
export const YOCO_WEBHOOK_TOLERANCE_SECONDS = 180;
const DEFAULT_TIMEOUT_MS = 10_000;
const NAME = 'yoco';

export interface YocoOptions {
  /** `YOCO_SECRET_KEY`: sk_live_… or sk_test_…. */
  secretKey: string;
  /** `YOCO_WEBHOOK_SECRET`: the whsec_… secret Yoco returned when the webhook was registered. */
  webhookSecret: string;
  /** `YOCO_API_URL`; defaults to {@link YOCO_API_URL}. */
  apiUrl?: string;
  /** One request's time limit, body included. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const createdCheckout = z.object({ id: z.string().min(1), redirectUrl: z.url({ protocol: /^https?$/ }) });
const fetchedCheckout = z.object({ status: z.string(), paymentId: z.string().min(1).nullish() });
const acceptedRefund = z.object({ refundId: z.string().min(1), status: z.string().optional(), message: z.string().optional() });
const event = z.object({ id: z.string().min(1), type: z.string().min(1), payload: z.unknown() });
const paymentPayload = z.object({
  id: z.string().min(1),
  status: z.string().optional(),
  mode: z.string().optional(),
  // Documented on every payment event: what was taken, checked against the attempt (CONTRACT §10).
  amount: z.number().int().optional(),
  currency: z.string().min(1).optional(),
  metadata: z.object({ checkoutId: z.string().min(1) }),
});
const refundPayload = z.object({
  id: z.string().min(1),
  // Documented on both refund events: what was given back, checked against the refund (issue 31).
  amount: z.number().int().optional(),
  currency: z.string().min(1).optional(),
  mode: z.string().optional(),
  metadata: z.object({ checkoutId: z.string().min(1) }),
});
/** The longest `Retry-After` we wait out in one go; a longer one is asked again after this. */
const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

export function createYocoProvider(options: YocoOptions): YocoProvider {
  return new YocoProvider(options);
}

export class YocoProvider implements PaymentProvider {
  readonly name = NAME;
  private readonly secretKey: string;
  private readonly http: ProviderHttp;
  private readonly webhook: Webhook;
  /** 'live' or 'test' from the key's prefix; undefined for a key of another shape. */
  private readonly mode: string | undefined;
  /** Until then Yoco asked us (429 `Retry-After`) to send nothing. */
  private quietUntil = 0;

  constructor(options: YocoOptions) {
    // Messages name the setting, never its value.
    if (!options.secretKey || /\s/.test(options.secretKey)) throw new Error('YOCO_SECRET_KEY is empty or contains whitespace');
    this.secretKey = options.secretKey;
    this.mode = /^sk_(live|test)_/.exec(options.secretKey)?.[1];
    try {
      this.webhook = new Webhook(options.webhookSecret);
    } catch {
      throw new Error('YOCO_WEBHOOK_SECRET is not a whsec_… secret');
    }
    const url = new URL(options.apiUrl ?? YOCO_API_URL);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('YOCO_API_URL must be an http(s) address');
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new Error('the Yoco timeout must be a positive integer of milliseconds');
    this.http = {
      name: NAME,
      label: 'Yoco',
      apiUrl: url.toString().replace(/\/+$/, ''),
      timeoutMs,
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      clean: (message) => this.clean(message),
    };
  }

  async startAttempt(attempt: StartAttempt): Promise<StartedAttempt> {
    if (!Number.isSafeInteger(attempt.amountCents) || attempt.amountCents <= 0) throw new RangeError('amountCents must be a positive integer');
    if (attempt.currency !== 'ZAR') throw new RangeError('Yoco takes ZAR only');
    const body = {
      amount: attempt.amountCents,
      currency: attempt.currency,
      successUrl: attempt.returnUrls.success,
      cancelUrl: attempt.returnUrls.cancel,
      failureUrl: attempt.returnUrls.failure,
      metadata: { attemptId: attempt.attemptId, paymentId: attempt.paymentId },
      // Yoco's page lists line items; one line is how a description gets shown there.
      ...(attempt.description
        ? { lineItems: [{ displayName: attempt.description, quantity: 1, pricingDetails: { price: attempt.amountCents } }] }
        : {}),
    };
    const res = await this.request('create checkout', 'POST', '/checkouts', { body, idempotencyKey: attempt.attemptId });
    if (!res.ok) throw this.refused('create checkout', res);
    const checkout = this.read('create checkout', createdCheckout, res);
    return { providerRef: checkout.id, redirectUrl: checkout.redirectUrl };
  }

  async queryAttempt(providerRef: string, signal?: AbortSignal): Promise<AttemptState> {
    const res = await this.request('get checkout', 'GET', `/checkouts/${encodeURIComponent(ref(providerRef))}`, { signal });
    // A 404 for a checkout Yoco created is refused like any other 4xx: not proof that nobody paid.
    if (!res.ok) throw this.refused('get checkout', res);
    const checkout = this.read('get checkout', fetchedCheckout, res);
    if (checkout.status === 'completed') return checkout.paymentId ? { status: 'succeeded', paymentRef: checkout.paymentId } : { status: 'succeeded' };
    return { status: 'pending' };
  }

  async refund(providerRef: string, amountCents: number, idempotencyKey: string, signal?: AbortSignal): Promise<{ refundRef: string }> {
    if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new RangeError('amountCents must be a positive integer');
    const path = `/checkouts/${encodeURIComponent(ref(providerRef))}/refund`;
    const res = await this.request('refund checkout', 'POST', path, { body: { amount: amountCents }, idempotencyKey, signal });
    if (!res.ok) throw this.refused('refund checkout', res);
    const refund = this.read('refund checkout', acceptedRefund, res);
    // "successful" is the documented word; Yoco's plugin also accepts "succeeded".
    if (refund.status && refund.status !== 'successful' && refund.status !== 'succeeded') {
      throw new ProviderRefusedError(NAME, res.status, refund.status, this.clean(`Yoco did not accept the refund: ${refund.message ?? refund.status}`));
    }
    return { refundRef: refund.refundId };
  }

  parseNotification(rawBody: Buffer, headers: NotificationHeaders): ProviderNotification | null {
    const id = header(headers, 'webhook-id');
    const timestamp = header(headers, 'webhook-timestamp');
    const signature = header(headers, 'webhook-signature');
    if (!id || !timestamp || !signature) throw new AppError('UNAUTHORIZED', 'missing webhook-id, webhook-timestamp or webhook-signature header');
    try {
      this.webhook.verify(rawBody, { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature }, { jsonParse: false });
    } catch (e) {
      if (!(e instanceof WebhookVerificationError)) throw e;
      throw new AppError('FORBIDDEN', /timestamp|headers/i.test(e.message) ? 'webhook timestamp outside the allowed window' : 'invalid webhook signature');
    }
    // The library has accepted a parseable timestamp within its own 5 minutes; Yoco asks for 3.
    if (Math.abs(Date.now() / 1000 - Number.parseInt(timestamp, 10)) > YOCO_WEBHOOK_TOLERANCE_SECONDS) {
      throw new AppError('FORBIDDEN', 'webhook timestamp outside the allowed window');
    }
    let json: unknown;
    try {
      json = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw new AppError('VALIDATION_FAILED', 'Yoco event: body is not JSON');
    }
    const parsed = event.safeParse(json);
    if (!parsed.success) throw new AppError('VALIDATION_FAILED', 'Yoco event: no id, type or payload');
    const { type } = parsed.data;
    if (type === 'refund.succeeded' || type === 'refund.failed') {
      const refund = refundPayload.safeParse(parsed.data.payload);
      if (!refund.success) throw new AppError('VALIDATION_FAILED', `Yoco ${type} event: payload without id or metadata.checkoutId`);
      const { id: refundRef, amount, currency, mode, metadata } = refund.data;
      if (this.mode && mode && mode !== this.mode) return null;
      // As for a payment: an outcome whose amount cannot be checked must not settle anything.
      if (amount === undefined || currency === undefined) throw new AppError('VALIDATION_FAILED', `Yoco ${type} event: payload without amount or currency`);
      return {
        about: 'refund',
        eventId: parsed.data.id,
        providerRef: metadata.checkoutId,
        refundRef,
        outcome: type === 'refund.succeeded' ? 'succeeded' : 'failed',
        amountCents: amount,
        currency,
        ...(type === 'refund.failed' && { reason: 'Yoco reported the refund failed' }),
      };
    }
    // Anything new is verified but says nothing zarpay acts on.
    if (type !== 'payment.succeeded') return null;
    const payment = paymentPayload.safeParse(parsed.data.payload);
    if (!payment.success) throw new AppError('VALIDATION_FAILED', 'Yoco payment.succeeded event: payload without id, amount, currency or metadata.checkoutId');
    const { id: paymentRef, status, mode, metadata, amount, currency } = payment.data;
    if (status !== undefined && status !== 'succeeded') {
      throw new AppError('VALIDATION_FAILED', 'Yoco payment.succeeded event: payment status is not succeeded');
    }
    if (this.mode && mode && mode !== this.mode) return null;
    // Without them the amount cannot be checked, and an unchecked "paid" must not capture.
    if (amount === undefined || currency === undefined) throw new AppError('VALIDATION_FAILED', 'Yoco payment.succeeded event: payload without amount or currency');
    return { eventId: parsed.data.id, providerRef: metadata.checkoutId, outcome: 'succeeded', paymentRef, amountCents: amount, currency };
  }

  /**
   * One call to Yoco. Resolves with any 2xx and with the 4xx answers that mean "no"; throws
   * ProviderUnavailableError for everything that means "not now" or "not understood".
   */
  private async request(
    op: string,
    method: 'GET' | 'POST',
    path: string,
    opts: { body?: unknown; idempotencyKey?: string; signal?: AbortSignal | undefined } = {},
  ): Promise<ProviderAnswer> {
    opts.signal?.throwIfAborted();
    const wait = this.quietUntil - Date.now();
    if (wait > 0) {
      throw new ProviderUnavailableError(NAME, 'rate_limited', `Yoco asked us to wait before ${op}: ${Math.ceil(wait / 1000)} s to go`, 429, { retryAfterMs: wait });
    }
    const headers: Record<string, string> = { authorization: `Bearer ${this.secretKey}` };
    if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
    return providerRequest(this.http, {
      op,
      method,
      path,
      headers,
      json: opts.body,
      signal: opts.signal,
      classify: ({ status, headers: answered, body }) => {
        const replayed = answered.get('idempotent-replayed') === 'true';
        if (status >= 500) {
          // A failure Yoco itself stored for this key (see the header: "Refunds retried after a 5xx").
          const createdNothing = replayed && opts.idempotencyKey !== undefined && yocoError(body).code !== undefined;
          throw new ProviderUnavailableError(NAME, 'server_error', this.clean(`Yoco failed ${op}: HTTP ${status}${replayed ? ' (replayed)' : ''}${detail(body)}`), status, { createdNothing });
        }
        if (status === 429) {
          const retryAfterMs = retryAfterMsOf(answered.get('retry-after'));
          if (retryAfterMs !== undefined) this.quietUntil = Math.max(this.quietUntil, Date.now() + retryAfterMs);
          throw new ProviderUnavailableError(NAME, 'rate_limited', `Yoco asked us to slow down (${op}): HTTP 429`, status, retryAfterMs === undefined ? {} : { retryAfterMs });
        }
        if (status === 409) throw new ProviderUnavailableError(NAME, 'busy', `Yoco is still processing an earlier ${op} with the same key: HTTP 409`, status);
      },
    });
  }

  private read<T>(op: string, schema: z.ZodType<T>, res: ProviderAnswer): T {
    const parsed = schema.safeParse(res.body);
    if (!parsed.success) throw new ProviderUnavailableError(NAME, 'bad_response', `Yoco's answer to ${op} is not what its API documents`, res.status);
    return parsed.data;
  }

  private refused(op: string, res: ProviderAnswer): ProviderRefusedError {
    const { code, message } = yocoError(res.body);
    return new ProviderRefusedError(NAME, res.status, code, this.clean(`Yoco refused ${op}: HTTP ${res.status}${code ? ` ${code}` : ''}${message ? `: ${message}` : ''}`));
  }

  /** Yoco's words go into our messages; make sure our key never does, even if Yoco echoes it. */
  private clean(message: string): string {
    return message.split(this.secretKey).join('[redacted]').slice(0, 500);
  }
}

function ref(providerRef: string): string {
  if (!providerRef) throw new RangeError('providerRef is empty');
  return providerRef;
}

function header(headers: NotificationHeaders, name: string): string | undefined {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first ? first : undefined;
}

/** Yoco's documented problem fields (`code`, `detail`, `title`), and those its own plugin reads from older answers. */
function yocoError(body: unknown): { code?: string; message?: string } {
  if (typeof body !== 'object' || body === null) return {};
  const b = body as Record<string, unknown>;
  const pick = (...keys: string[]) => keys.map((k) => b[k]).find((v): v is string => typeof v === 'string' && v.length > 0);
  return { code: pick('code', 'errorCode'), message: pick('detail', 'description', 'errorMessage', 'displayMessage', 'message', 'title') };
}

/** `Retry-After`: whole seconds, or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterMsOf(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const ms = /^\d+$/.test(value.trim()) ? Number(value.trim()) * 1000 : Date.parse(value) - now;
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms));
}

function detail(body: unknown): string {
  const { message } = yocoError(body);
  return message ? `: ${message}` : '';
}
