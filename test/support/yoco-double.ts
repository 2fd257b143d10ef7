import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local Yoco Online Checkout: the Checkout API's create / get / refund on `apiUrl`, the hosted
 * page at each checkout's `redirectUrl`, and webhooks signed as Yoco signs them (Standard
 * Webhooks, computed here with node:crypto so that the provider's library is checked, not trusted).
 * Shapes follow the documents cited at the top of src/outside/providers/yoco.ts. Tests drive the
 * customer's side with `checkoutPage`, `pay`, `decline`, `expire`, and Yoco's side with `notify`
 * and `failNext`.
 *
 * As strict as Yoco where zarpay depends on it:
 * - Idempotency: the first answer for an `Idempotency-Key` is replayed for 24 hours, status and
 *   body, with `Idempotent-Replayed: true`, "regardless of whether it succeeded or failed": an
 *   injected 5xx is replayed too; another payload under the key is 422
 *   [developer.yoco.com/online/api-reference/idempotency]. ASSUMPTION: a 429 (refused before the
 *   request was processed) is not stored for the key.
 * - Errors: the problem shape Yoco documents, `{ type, title, detail, status, code }`; a 429 carries
 *   `Retry-After` (seconds) and code `rate_limited`
 *   [developer.yoco.com/docs/api/rate-limiting; developer.yoco.com/docs/api/error-codes/rate-limited].
 * - Webhooks: each registered webhook gets its own `whsec_` secret, returned once
 *   (`POST /api/webhooks {name, url}`; developer.yoco.com "Register Webhook"); `notify`, which tests
 *   aim anywhere, signs with `webhookSecret` (or `secret`).
 *
 * Its hosted page has working
 * Pay and Cancel buttons: paying completes the checkout, POSTs the signed `payment.succeeded` to
 * every registered webhook (retrying after 1 s and 5 s, Yoco's schedule shortened) and sends the
 * browser to the checkout's successUrl; cancelling sends it to cancelUrl and leaves the checkout
 * open. That is what the README's production walk drives, with the double as its own process
 * (test/support/yoco-double-server.ts).
 */

export type CheckoutStatus = 'created' | 'started' | 'processing' | 'completed' | 'expired';

export interface DoubleCheckout {
  id: string;
  status: CheckoutStatus;
  amount: number;
  currency: string;
  redirectUrl: string;
  paymentId: string | null;
  successUrl: string | null;
  cancelUrl: string | null;
  failureUrl: string | null;
  metadata: Record<string, unknown> | null;
  lineItems: unknown[] | null;
  merchantId: string;
  processingMode: 'live' | 'test';
  createdDate: string;
  /** Double only: cards declined on the page so far (Yoco lets the customer try again). */
  declines: number;
  /** Double only: refunds accepted. */
  refunds: { refundId: string; amount: number }[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, or the raw text when it is not JSON, or undefined when empty. */
  body: unknown;
}

/**
 * How the next calls fail: an HTTP status (with an optional body and, for 429, `Retry-After`
 * seconds), never answering, or a reset connection. A status answered for an Idempotency-Key is
 * stored and replayed, as Yoco does; `processed: true` does the work first (a 5xx after the
 * refund was made: the answer is lost, not the refund).
 */
export type Fault = number | { status: number; body?: unknown; retryAfter?: number; processed?: boolean } | 'timeout' | 'processed-timeout' | 'reset';

export type EventType = 'payment.succeeded' | 'refund.succeeded' | 'refund.failed';

export interface SignOptions {
  event?: EventType;
  /** Sign with this secret instead of `webhookSecret` (a registered webhook's own). */
  secret?: string;
  /** For refund events: which refund (default the checkout's latest). */
  refundId?: string;
  /** The event's payload differs from the checkout: this amount (cents) or currency (a notification that must not match). */
  amount?: number;
  currency?: string;
  /** 'body': changed after signing; 'secret': signed with another secret; 'stale': ten minutes old; 'no-signature': header left out. */
  tamper?: 'body' | 'secret' | 'stale' | 'no-signature';
  /** Sign as of this moment instead of now. */
  at?: Date;
}

export interface NotifyOptions extends SignOptions {
  to: string;
  /** Wait this long before the first delivery. */
  delayMs?: number;
  /** Deliver the same event this many times (Yoco retries re-sign with a fresh timestamp). */
  times?: number;
  intervalMs?: number;
}

export interface Delivery {
  status?: number;
  error?: string;
}

export interface StartOptions {
  secretKey?: string;
  webhookSecret?: string;
  /** Listen here (default: any free port). */
  port?: number;
}

export interface RegisteredWebhook {
  id: string;
  name: string;
  url: string;
  mode: 'live' | 'test';
}

/** Yoco keeps an Idempotency-Key this long [developer.yoco.com/online/api-reference/idempotency]. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export type YocoDouble = Awaited<ReturnType<typeof startYocoDouble>>;

export async function startYocoDouble(options: StartOptions = {}) {
  const secretKey = options.secretKey ?? `sk_test_${randomBytes(16).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(32).toString('base64')}`;
  const processingMode: 'live' | 'test' = secretKey.startsWith('sk_live_') ? 'live' : 'test';
  const checkouts = new Map<string, DoubleCheckout>();
  const requests: RecordedRequest[] = [];
  const faults: Fault[] = [];
  /** Idempotency-Key → the first answer, replayed for later requests with the key for 24 hours. */
  const idempotent = new Map<string, { payload: string; status: number; body: unknown; at: number }>();
  /** The double's clock, for keys' 24 hours (`advance`). */
  let clockOffsetMs = 0;
  const now = () => Date.now() + clockOffsetMs;
  /** Each registered webhook's own secret. */
  const hookSecrets = new Map<string, string>();
  /** One event per checkout and type: a redelivery is the same event (same ids), as with Yoco. */
  const events = new Map<string, { eventId: string; messageId: string; createdDate: string }>();
  const held = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const webhooks = new Map<string, RegisteredWebhook>();
  /** Deliveries to registered webhooks, oldest first (what `notify` sends is not recorded here). */
  const deliveries: { checkoutId: string; url: string; status?: number; error?: string }[] = [];

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function handle(req: IncomingMessage, res: ServerResponse, text: string) {
    const path = new URL(req.url ?? '/', origin).pathname;
    const body = parse(text);
    if (path.startsWith('/api/')) requests.push({ method: req.method ?? '', path, headers: req.headers, body });
    const page = /^\/checkout\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && page) return hostedPage(res, decodeURIComponent(page[1]!));
    const button = /^\/checkout\/([^/]+)\/(pay|cancel)$/.exec(path);
    if (req.method === 'POST' && button) return pressed(res, decodeURIComponent(button[1]!), button[2] as 'pay' | 'cancel');
    if (!path.startsWith('/api/')) return send(res, 404, error('not_found', 'Not found', 404));
    const key = req.method === 'POST' && typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
    const seen = key === undefined ? undefined : idempotent.get(key);
    if (seen && now() - seen.at >= IDEMPOTENCY_TTL_MS) idempotent.delete(key!);
    const fault = faults.shift();
    if (fault === 'timeout') return void held.add(res);
    if (fault === 'processed-timeout') {
      // Yoco did the work and stored its answer for the key, which never reaches the caller.
      const [status, done] = route(req.method ?? '', path, body);
      if (key !== undefined && !idempotent.has(key)) idempotent.set(key, { payload: `${path} ${text}`, status, body: done, at: now() });
      return void held.add(res);
    }
    if (fault === 'reset') return void req.socket.destroy();
    if (fault !== undefined) {
      const f = typeof fault === 'number' ? { status: fault } : fault;
      const headers: Record<string, string> = f.status === 429 ? { 'retry-after': String(f.retryAfter ?? 1) } : {};
      const answer = f.body ?? (f.status === 429 ? rateLimited() : error(f.status >= 500 ? 'internal_error' : 'invalid_request', `failure injected by the double (${f.status})`, f.status));
      if (key !== undefined && !idempotent.has(key)) {
        if ('processed' in f && f.processed) {
          // Yoco did the work and stored its answer; only the answer was lost on the way back.
          const [status, done] = route(req.method ?? '', path, body);
          idempotent.set(key, { payload: `${path} ${text}`, status, body: done, at: now() });
        } else if (f.status !== 429 && isYocoProblem(answer)) {
          // Yoco's own failure is the request's outcome, replayed for the key. A gateway's page never reached it.
          idempotent.set(key, { payload: `${path} ${text}`, status: f.status, body: answer, at: now() });
        }
      }
      return send(res, f.status, answer, headers);
    }
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return send(res, 403, error('authentication_failed', 'A key is required, but has not been specified.', 403));
    }
    const first = key === undefined ? undefined : idempotent.get(key);
    if (first && first.payload !== `${path} ${text}`) {
      return send(res, 422, error('idempotency_mismatch', 'The request payload does not match the original request.', 422));
    }
    if (first) return send(res, first.status, first.body, { 'idempotent-replayed': 'true' });
    const [status, answer] = route(req.method ?? '', path, body);
    if (key !== undefined) idempotent.set(key, { payload: `${path} ${text}`, status, body: answer, at: now() });
    send(res, status, answer);
  }

  function route(method: string, path: string, body: unknown): [number, unknown] {
    if (method === 'POST' && path === '/api/checkouts') return create(body);
    if (method === 'POST' && path === '/api/webhooks') return register(body);
    if (method === 'GET' && path === '/api/webhooks') return [200, { subscriptions: [...webhooks.values()] }];
    const hook = /^\/api\/webhooks\/([^/]+)$/.exec(path);
    if (method === 'DELETE' && hook) return webhooks.delete(decodeURIComponent(hook[1]!)) ? [200, {}] : [404, error('not_found', 'Webhook not found.', 404)];
    const one = /^\/api\/checkouts\/([^/]+)(\/refund)?$/.exec(path);
    const checkout = one ? checkouts.get(decodeURIComponent(one[1]!)) : undefined;
    if (one && !checkout) return [404, error('not_found', 'Checkout not found.', 404)];
    if (method === 'GET' && one && !one[2]) return [200, view(checkout!)];
    if (method === 'POST' && one?.[2]) return refund(checkout!, body);
    return [404, error('not_found', 'Not found', 404)];
  }

  function create(body: unknown): [number, unknown] {
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    // R2.00 is the smallest amount Yoco's own plugin lets through.
    if (!Number.isInteger(b.amount) || (b.amount as number) < 200) return [400, error('invalid_request', 'amount must be an integer number of cents, at least 200')];
    if (b.currency !== 'ZAR') return [400, error('invalid_request', 'Currently we only support ZAR.')];
    const id = `ch_${randomBytes(12).toString('hex')}`;
    const checkout: DoubleCheckout = {
      id,
      status: 'created',
      amount: b.amount as number,
      currency: 'ZAR',
      redirectUrl: `${origin}/checkout/${id}`,
      paymentId: null,
      successUrl: str(b.successUrl),
      cancelUrl: str(b.cancelUrl),
      failureUrl: str(b.failureUrl),
      metadata: typeof b.metadata === 'object' && b.metadata !== null ? (b.metadata as Record<string, unknown>) : null,
      lineItems: Array.isArray(b.lineItems) ? b.lineItems : null,
      merchantId: 'merchant_double',
      processingMode,
      createdDate: new Date().toISOString(),
      declines: 0,
      refunds: [],
    };
    checkouts.set(id, checkout);
    return [200, view(checkout)];
  }

  /** Yoco returns the secret once, here; there are at most 5 webhooks per account. */
  function register(body: unknown): [number, unknown] {
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (typeof b.name !== 'string' || !b.name || typeof b.url !== 'string' || !/^https?:\/\//.test(b.url)) {
      return [400, error('invalid_request', 'name and url are required')];
    }
    if (webhooks.size >= 5) return [400, error('invalid_request', 'There is a limit of 5 webhooks per account.')];
    const hook: RegisteredWebhook = { id: `sub_${randomBytes(12).toString('hex')}`, name: b.name, url: b.url, mode: processingMode };
    webhooks.set(hook.id, hook);
    // Each webhook its own secret, shown once.
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    hookSecrets.set(hook.id, secret);
    return [200, { ...hook, secret }];
  }

  function pressed(res: ServerResponse, id: string, button: 'pay' | 'cancel') {
    const checkout = checkouts.get(id);
    if (!checkout) return send(res, 404, error('not_found', 'Checkout not found.', 404));
    if (button === 'cancel') return redirect(res, checkout.cancelUrl);
    if (checkout.status === 'expired') return send(res, 400, error('invalid_request', 'This checkout has expired.'));
    if (checkout.status !== 'completed') {
      checkout.status = 'completed';
      checkout.paymentId = `p_${randomBytes(12).toString('hex')}`;
      for (const hook of webhooks.values()) void deliver(id, hook.url, hookSecrets.get(hook.id)!, 0);
    }
    redirect(res, checkout.successUrl);
  }

  /** One registered delivery with Yoco's first retries (immediately, 1 s, 5 s: shortened for tests). */
  async function deliver(id: string, url: string, secret: string, attempt: number): Promise<void> {
    const { body, headers } = signedEvent(id, { secret });
    const record: (typeof deliveries)[number] = { checkoutId: id, url };
    try {
      const res = await fetch(url, { method: 'POST', headers, body: new Uint8Array(body), redirect: 'manual', signal: AbortSignal.timeout(5_000) });
      await res.arrayBuffer();
      record.status = res.status;
      if (res.ok) return void deliveries.push(record);
    } catch (e) {
      record.error = e instanceof Error ? e.message : String(e);
    }
    deliveries.push(record);
    const wait = [1_000, 5_000][attempt];
    if (wait !== undefined) await sleep(wait).then(() => deliver(id, url, secret, attempt + 1));
  }

  function refund(checkout: DoubleCheckout, body: unknown): [number, unknown] {
    if (checkout.status !== 'completed') return [400, error('invalid_request', 'The checkout has not been paid.')];
    if (checkout.processingMode !== 'live') return [400, error('invalid_request', 'Refunds are not supported for transactions made in test mode.')];
    const remaining = checkout.amount - checkout.refunds.reduce((sum, r) => sum + r.amount, 0);
    if (remaining <= 0) return [400, error('invalid_request', 'Payment has already been refunded.')];
    const requested = (body as { amount?: unknown } | undefined)?.amount;
    if (requested !== undefined && (!Number.isInteger(requested) || (requested as number) <= 0 || (requested as number) > remaining)) {
      return [400, error('invalid_request', `amount must be an integer between 1 and ${remaining}`)];
    }
    const refundId = `rfd_${randomBytes(12).toString('hex')}`;
    checkout.refunds.push({ refundId, amount: (requested as number | undefined) ?? remaining });
    return [202, { id: checkout.id, refundId, message: 'Your refund has been processed', status: 'successful' }];
  }

  function hostedPage(res: ServerResponse, id: string) {
    const checkout = checkouts.get(id);
    if (!checkout) return send(res, 404, error('not_found', 'Checkout not found.', 404));
    if (checkout.status === 'created') checkout.status = 'started';
    const action = (button: string) => `<form method="post" action="/checkout/${checkout.id}/${button}"><button data-testid="yoco-${button}">${button}</button></form>`;
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><title>Yoco double</title><p>Pay R ${(checkout.amount / 100).toFixed(2)}</p>${action('pay')}${action('cancel')}`);
  }

  function get(id: string): DoubleCheckout {
    const checkout = checkouts.get(id);
    if (!checkout) throw new Error(`the Yoco double has no checkout ${id}`);
    return checkout;
  }

  function open(id: string): DoubleCheckout {
    const checkout = get(id);
    if (checkout.status === 'completed' || checkout.status === 'expired') throw new Error(`checkout ${id} is already ${checkout.status}`);
    return checkout;
  }

  /** The event body Yoco would send, as documented ("Successful payment", "Successful refund"). */
  function eventFor(id: string, type: EventType, said: { amount?: number; currency?: string; refundId?: string } = {}): Record<string, unknown> {
    const checkout = get(id);
    const key = `${id} ${type}${said.refundId ? ` ${said.refundId}` : ''}`;
    if (!events.has(key)) events.set(key, { eventId: `evt_${randomBytes(12).toString('hex')}`, messageId: `msg_${randomBytes(12).toString('hex')}`, createdDate: new Date().toISOString() });
    const e = events.get(key)!;
    const common = { createdDate: e.createdDate, currency: said.currency ?? checkout.currency, mode: checkout.processingMode, metadata: { checkoutId: id } };
    if (type === 'payment.succeeded') {
      if (checkout.status !== 'completed' || !checkout.paymentId) throw new Error(`Yoco sends payment.succeeded only for a paid checkout; ${id} is ${checkout.status}`);
      const card = { expiryMonth: 2, expiryYear: 30, maskedCard: '************1111', scheme: 'visa' };
      const payload = { id: checkout.paymentId, type: 'payment', ...common, amount: said.amount ?? checkout.amount, paymentMethodDetails: { type: 'card', card }, status: 'succeeded' };
      return { id: e.eventId, type, createdDate: e.createdDate, payload };
    }
    const last = said.refundId ? checkout.refunds.find((r) => r.refundId === said.refundId) : checkout.refunds.at(-1);
    if (!last) throw new Error(`checkout ${id} has no refund to tell about`);
    const payload = { id: last.refundId, type: 'refund', ...common, amount: said.amount ?? last.amount, paymentId: checkout.paymentId, status: type === 'refund.succeeded' ? 'succeeded' : 'failed' };
    return { id: e.eventId, type, createdDate: e.createdDate, payload };
  }

  function signedEvent(id: string, opts: SignOptions = {}): { body: Buffer; headers: Record<string, string> } {
    const type = opts.event ?? 'payment.succeeded';
    const json = JSON.stringify(eventFor(id, type, opts));
    const { messageId } = events.get(`${id} ${type}${opts.refundId ? ` ${opts.refundId}` : ''}`)!;
    const at = opts.tamper === 'stale' ? new Date(Date.now() - 10 * 60_000) : (opts.at ?? new Date());
    const timestamp = String(Math.floor(at.getTime() / 1000));
    const secret = opts.tamper === 'secret' ? `whsec_${randomBytes(32).toString('base64')}` : (opts.secret ?? webhookSecret);
    const signature = `v1,${createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(`${messageId}.${timestamp}.${json}`).digest('base64')}`;
    const sent = opts.tamper === 'body' ? json.replace(/"amount":(\d+)/, (_m, n: string) => `"amount":${Number(n) + 100}`) : json;
    const headers: Record<string, string> = { 'content-type': 'application/json', 'webhook-id': messageId, 'webhook-timestamp': timestamp };
    if (opts.tamper !== 'no-signature') headers['webhook-signature'] = signature;
    return { body: Buffer.from(sent, 'utf8'), headers };
  }

  function sleep(ms: number) {
    return new Promise<void>((resolve) => {
      const t = setTimeout(() => (timers.delete(t), resolve()), ms);
      timers.add(t);
    });
  }

  return {
    /** Pass as the provider's apiUrl (YOCO_API_URL). */
    apiUrl: `${origin}/api`,
    secretKey,
    webhookSecret,
    /** Every API request received, oldest first (hosted-page visits are not API requests). */
    requests,
    checkouts: checkouts as ReadonlyMap<string, DoubleCheckout>,
    webhooks: webhooks as ReadonlyMap<string, RegisteredWebhook>,
    /** Deliveries to registered webhooks after a Pay on the hosted page. */
    deliveries,
    checkout: get,
    /** The next `count` API calls fail with `fault` instead of being processed. */
    failNext(count: number, fault: Fault) {
      for (let i = 0; i < count; i++) faults.push(fault);
    },
    /** Moves the double's clock on (Idempotency-Keys forgotten after 24 hours). */
    advance(ms: number) {
      clockOffsetMs += ms;
    },
    /** A registered webhook's own secret. */
    secretOf(hookId: string): string | undefined {
      return hookSecrets.get(hookId);
    },
    /** The customer's browser opens the checkout's page. */
    checkoutPage(id: string) {
      const checkout = open(id);
      if (checkout.status === 'created') checkout.status = 'started';
      return checkout;
    },
    /** The customer submitted a card and Yoco is charging it. */
    processing(id: string) {
      const checkout = open(id);
      checkout.status = 'processing';
      return checkout;
    },
    /** The charge succeeded: the checkout is completed and has its payment. */
    pay(id: string) {
      const checkout = open(id);
      checkout.status = 'completed';
      checkout.paymentId = `p_${randomBytes(12).toString('hex')}`;
      return checkout;
    },
    /** The card was declined: Yoco shows the page again, where another card may be tried. */
    decline(id: string) {
      const checkout = open(id);
      checkout.status = 'started';
      checkout.declines++;
      return checkout;
    },
    /** Yoco no longer accepts payment for the checkout. */
    expire(id: string) {
      const checkout = open(id);
      checkout.status = 'expired';
      return checkout;
    },
    eventFor,
    signedEvent,
    /** POSTs the signed event to `to` as Yoco would: late, repeatedly, or tampered with when asked. */
    async notify(id: string, opts: NotifyOptions): Promise<Delivery[]> {
      signedEvent(id, opts); // fail now, not after the delay, when Yoco would send nothing
      if (opts.delayMs) await sleep(opts.delayMs);
      const deliveries: Delivery[] = [];
      for (let i = 0; i < (opts.times ?? 1); i++) {
        if (i > 0 && opts.intervalMs) await sleep(opts.intervalMs);
        const { body, headers } = signedEvent(id, opts);
        try {
          const res = await fetch(opts.to, { method: 'POST', headers, body: new Uint8Array(body), redirect: 'manual', signal: AbortSignal.timeout(5_000) });
          await res.arrayBuffer();
          deliveries.push({ status: res.status });
        } catch (e) {
          deliveries.push({ error: e instanceof Error ? e.message : String(e) });
        }
      }
      return deliveries;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function redirect(res: ServerResponse, to: string | null) {
  if (!to) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><p>Done.</p>');
  res.writeHead(303, { location: to }).end();
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/**
 * An error answer in the problem shape Yoco documents: `type` (a page about the code), `title`,
 * `detail`, `status`, `code` [developer.yoco.com/docs/api/error-codes/rate-limited, and its siblings].
 */
function error(code: string, detail: string, status = 400) {
  return { type: `https://developer.yoco.com/docs/api/error-codes/${code.replace(/_/g, '-')}`, title: TITLES[status] ?? 'Error', detail, status, code };
}

const TITLES: Record<number, string> = { 400: 'Bad Request', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict', 422: 'Unprocessable Entity', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable' };

const isYocoProblem = (body: unknown) => typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string';

/** Yoco's documented 429 body [developer.yoco.com/docs/api/rate-limiting]. */
function rateLimited() {
  return { type: 'https://developer.yoco.com/docs/api/error-codes/rate-limited', title: 'Too Many Requests', detail: 'You have exceeded the rate limit for this API end-point.', status: 429, code: 'rate_limited' };
}

function parse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v : null);

/** The Checkout object as Yoco's API returns it (the double's bookkeeping left out). */
function view(checkout: DoubleCheckout) {
  const { declines: _declines, refunds: _refunds, createdDate: _created, ...yoco } = checkout;
  return { ...yoco, totalDiscount: null, totalTaxAmount: null, subtotalAmount: null, externalId: null };
}

/** The settings that point a zarpay service at this double, as an operator sets them for Yoco. */
export function yocoSettings(yoco: YocoDouble): { YOCO_SECRET_KEY: string; YOCO_WEBHOOK_SECRET: string; YOCO_API_URL: string } {
  return { YOCO_SECRET_KEY: yoco.secretKey, YOCO_WEBHOOK_SECRET: yoco.webhookSecret, YOCO_API_URL: yoco.apiUrl };
}
