import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError, isAppError } from '../src/domain/errors.ts';
import { ProviderRefusedError, ProviderUnavailableError, type ProviderNotification, type StartAttempt } from '../src/outside/providers/port.ts';
import { createYocoProvider, YOCO_API_URL, type YocoProvider } from '../src/outside/providers/yoco.ts';
import { eventually } from './support/receiver.ts';
import { startYocoDouble, type YocoDouble } from './support/yoco-double.ts';

let double: YocoDouble;
let yoco: YocoProvider;

beforeEach(async () => {
  double = await startYocoDouble();
  yoco = providerFor(double);
});
afterEach(() => double.close());

function providerFor(d: YocoDouble, overrides: { secretKey?: string; timeoutMs?: number; apiUrl?: string } = {}) {
  return createYocoProvider({ secretKey: d.secretKey, webhookSecret: d.webhookSecret, apiUrl: d.apiUrl, timeoutMs: 1_000, ...overrides });
}

function attempt(overrides: Partial<StartAttempt> = {}): StartAttempt {
  const paymentId = randomUUID();
  return {
    attemptId: randomUUID(),
    paymentId,
    amountCents: 12_345,
    currency: 'ZAR',
    description: 'Airtime voucher R123.45',
    returnUrls: {
      success: `http://localhost:8080/pay/${paymentId}/return?outcome=success`,
      cancel: `http://localhost:8080/pay/${paymentId}/return?outcome=cancel`,
      failure: `http://localhost:8080/pay/${paymentId}/return?outcome=failure`,
    },
    ...overrides,
  };
}

/** What the caller gets, or the AppError code / error class it throws. */
function outcome(fn: () => unknown): unknown {
  try {
    return fn();
  } catch (e) {
    return isAppError(e) ? e.code : e;
  }
}

/** Signs an arbitrary body with the double's secret, as Yoco would, for bodies the double never sends. */
function signed(body: string, secret = double.webhookSecret, at = new Date()) {
  const id = `msg_${randomBytes(8).toString('hex')}`;
  const headers = { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign(id, at, body) };
  return { body: Buffer.from(body), headers };
}

describe('startAttempt', () => {
  it('creates a checkout with the key, the idempotency key and the documented fields, and returns its page', async () => {
    const a = attempt();
    const started = await yoco.startAttempt(a);

    expect(started.providerRef).toMatch(/^ch_/);
    expect(started.redirectUrl).toBe(double.checkout(started.providerRef).redirectUrl);
    const [req] = double.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/api/checkouts' });
    expect(req!.headers.authorization).toBe(`Bearer ${double.secretKey}`);
    expect(req!.headers['idempotency-key']).toBe(a.attemptId);
    expect(req!.body).toEqual({
      amount: 12_345,
      currency: 'ZAR',
      successUrl: a.returnUrls.success,
      cancelUrl: a.returnUrls.cancel,
      failureUrl: a.returnUrls.failure,
      metadata: { attemptId: a.attemptId, paymentId: a.paymentId },
      lineItems: [{ displayName: 'Airtime voucher R123.45', quantity: 1, pricingDetails: { price: 12_345 } }],
    });
  });

  it('a retried start with the same attemptId gives the same checkout', async () => {
    const a = attempt();
    const first = await yoco.startAttempt(a);
    const again = await yoco.startAttempt(a);

    expect(again).toEqual(first);
    expect(double.checkouts.size).toBe(1);
    expect(double.requests.map((r) => r.headers['idempotency-key'])).toEqual([a.attemptId, a.attemptId]);
  });

  it('sends no line items without a description', async () => {
    await yoco.startAttempt(attempt({ description: undefined }));
    expect(double.requests[0]!.body).not.toHaveProperty('lineItems');
  });
});

describe('queryAttempt', () => {
  it('follows the checkout from creation to payment', async () => {
    const { providerRef, redirectUrl } = await yoco.startAttempt(attempt());
    expect(await yoco.queryAttempt(providerRef)).toEqual({ status: 'pending' });

    // The customer's browser opens Yoco's page.
    expect((await fetch(redirectUrl!)).status).toBe(200);
    expect(double.checkout(providerRef).status).toBe('started');
    expect(await yoco.queryAttempt(providerRef)).toEqual({ status: 'pending' });

    double.processing(providerRef);
    expect(await yoco.queryAttempt(providerRef)).toEqual({ status: 'pending' });

    const paid = double.pay(providerRef);
    expect(await yoco.queryAttempt(providerRef)).toEqual({ status: 'succeeded', paymentRef: paid.paymentId });
    expect(double.requests.at(-1)).toMatchObject({ method: 'GET', path: `/api/checkouts/${providerRef}` });
    expect(double.requests.at(-1)!.headers.authorization).toBe(`Bearer ${double.secretKey}`);
  });

  it('a declined card leaves the checkout open (the customer may try another), so it stays pending', async () => {
    const { providerRef } = await yoco.startAttempt(attempt());
    double.checkoutPage(providerRef);
    double.decline(providerRef);
    expect(await yoco.queryAttempt(providerRef)).toEqual({ status: 'pending' });

    double.pay(providerRef);
    expect((await yoco.queryAttempt(providerRef)).status).toBe('succeeded');
  });

  it('neither an `expired` status nor a 404 is taken as proof nobody paid (Yoco documents neither): the expiry rule ends the payment', async () => {
    const { providerRef } = await yoco.startAttempt(attempt());
    double.expire(providerRef);
    expect(await yoco.queryAttempt(providerRef)).toEqual({ status: 'pending' });
    await expect(yoco.queryAttempt('ch_neverseen')).rejects.toMatchObject({ name: 'ProviderRefusedError', status: 404 });
  });

  it('a status the docs do not name is pending, not a guess at an outcome', async () => {
    const { providerRef } = await yoco.startAttempt(attempt());
    (double.checkout(providerRef) as { status: string }).status = 'failed';
    expect(await yoco.queryAttempt(providerRef)).toEqual({ status: 'pending' });
  });
});

describe('parseNotification', () => {
  async function paidCheckout() {
    const { providerRef } = await yoco.startAttempt(attempt());
    return double.pay(providerRef);
  }

  it('parses a signed payment.succeeded event', async () => {
    const paid = await paidCheckout();
    const { body, headers } = double.signedEvent(paid.id);
    const event = double.eventFor(paid.id, 'payment.succeeded');

    expect(yoco.parseNotification(body, headers)).toEqual({
      eventId: event.id,
      providerRef: paid.id,
      outcome: 'succeeded',
      paymentRef: paid.paymentId,
      amountCents: paid.amount,
      currency: 'ZAR',
    });
  });

  it('refuses a body changed after signing, another secret and a replayed (stale) timestamp', async () => {
    const paid = await paidCheckout();
    const parse = (opts: Parameters<YocoDouble['signedEvent']>[1]) => {
      const { body, headers } = double.signedEvent(paid.id, opts);
      return outcome(() => yoco.parseNotification(body, headers));
    };
    expect(parse({ tamper: 'body' })).toBe('FORBIDDEN');
    expect(parse({ tamper: 'secret' })).toBe('FORBIDDEN');
    expect(parse({ tamper: 'stale' })).toBe('FORBIDDEN');
    // Yoco recommends 3 minutes: 4 is too old even though the library alone would take up to 5.
    expect(parse({ at: new Date(Date.now() - 240_000) })).toBe('FORBIDDEN');
    expect(parse({ at: new Date(Date.now() + 240_000) })).toBe('FORBIDDEN');
    expect(parse({ at: new Date(Date.now() - 120_000) })).toMatchObject({ outcome: 'succeeded' });
  });

  it('answers UNAUTHORIZED when the signature headers are missing', async () => {
    const paid = await paidCheckout();
    const { body, headers } = double.signedEvent(paid.id, { tamper: 'no-signature' });
    expect(outcome(() => yoco.parseNotification(body, headers))).toBe('UNAUTHORIZED');
    expect(outcome(() => yoco.parseNotification(body, {}))).toBe('UNAUTHORIZED');
    expect(outcome(() => yoco.parseNotification(body, { 'webhook-id': '', 'webhook-timestamp': '1', 'webhook-signature': 'v1,x' }))).toBe('UNAUTHORIZED');
  });

  it('parses refund events by Yoco\'s refund id with what they gave back, and refuses a paid or refund event without amount or currency', () => {
    const event = (type: string, payload: unknown) => signed(JSON.stringify({ id: `evt_${type}`, type, createdDate: new Date().toISOString(), payload }));
    const refundPayload = { id: 'rfd_1', type: 'refund', amount: 900, currency: 'ZAR', paymentId: 'p_1', status: 'succeeded', metadata: { checkoutId: 'ch_1' } };
    const ok = event('refund.succeeded', refundPayload);
    expect(yoco.parseNotification(ok.body, ok.headers)).toEqual({ about: 'refund', eventId: 'evt_refund.succeeded', providerRef: 'ch_1', refundRef: 'rfd_1', outcome: 'succeeded', amountCents: 900, currency: 'ZAR' });
    const failed = event('refund.failed', { ...refundPayload, status: 'failed' });
    expect(yoco.parseNotification(failed.body, failed.headers)).toMatchObject({ about: 'refund', refundRef: 'rfd_1', outcome: 'failed', reason: expect.any(String) });
    const bare = event('refund.failed', {});
    expect(outcome(() => yoco.parseNotification(bare.body, bare.headers))).toBe('VALIDATION_FAILED');
    const unpriced = event('payment.succeeded', { id: 'p_1', status: 'succeeded', metadata: { checkoutId: 'ch_1' } });
    expect(outcome(() => yoco.parseNotification(unpriced.body, unpriced.headers))).toBe('VALIDATION_FAILED');
    // A refund's outcome is checked against the refund as a payment's is: without them it cannot be.
    for (const missing of ['amount', 'currency'] as const) {
      const { [missing]: _gone, ...rest } = refundPayload;
      const unchecked = event('refund.succeeded', rest);
      expect(outcome(() => yoco.parseNotification(unchecked.body, unchecked.headers)), missing).toBe('VALIDATION_FAILED');
    }
  });

  it('returns null for verified events that are not about an outcome', () => {
    const ignored = (type: string, payload: unknown = {}) => {
      const { body, headers } = signed(JSON.stringify({ id: `evt_${type}`, type, createdDate: new Date().toISOString(), payload }));
      return yoco.parseNotification(body, headers);
    };
    expect(ignored('checkout.created')).toBeNull();
    // Undocumented, and not final: Yoco's page lets the customer try another card.
    expect(ignored('payment.failed', { id: 'p_1', status: 'failed', metadata: { checkoutId: 'ch_1' } })).toBeNull();
    // A test-mode payment never settles a live attempt, and the other way round.
    const live = { id: 'p_2', status: 'succeeded', mode: 'live', amount: 6_000, currency: 'ZAR', metadata: { checkoutId: 'ch_1' } };
    expect(ignored('payment.succeeded', live)).toBeNull();
    expect(ignored('payment.succeeded', { ...live, mode: 'test' })).toMatchObject({ providerRef: 'ch_1' });
  });

  it('answers VALIDATION_FAILED for a verified body it does not understand', () => {
    const parse = (raw: string) => {
      const { body, headers } = signed(raw);
      return outcome(() => yoco.parseNotification(body, headers));
    };
    expect(parse('not json')).toBe('VALIDATION_FAILED');
    expect(parse('[]')).toBe('VALIDATION_FAILED');
    expect(parse(JSON.stringify({ type: 'payment.succeeded', payload: {} }))).toBe('VALIDATION_FAILED');
    expect(parse(JSON.stringify({ id: 'evt_1', type: 'payment.succeeded', payload: { id: 'p_1', metadata: {} } }))).toBe('VALIDATION_FAILED');
    expect(parse(JSON.stringify({ id: 'evt_1', type: 'payment.succeeded', payload: { id: 'p_1', status: 'pending', metadata: { checkoutId: 'ch_1' } } }))).toBe('VALIDATION_FAILED');
  });

  it('over HTTP: the same event twice, late and out of order, each verified on its raw bytes', async () => {
    const endpoint = await startWebhookEndpoint(yoco);
    try {
      const first = await paidCheckout();
      const second = await paidCheckout();
      const late = double.notify(first.id, { to: endpoint.url, delayMs: 150, times: 2, intervalMs: 20 });
      await double.notify(second.id, { to: endpoint.url });
      await double.notify(second.id, { to: endpoint.url, tamper: 'secret' });
      expect(await late).toEqual([{ status: 200 }, { status: 200 }]);

      const got = await eventually(async () => (endpoint.results.length >= 4 ? endpoint.results : null), 2_000);
      expect(got.map((r) => r.status)).toEqual([200, 403, 200, 200]);
      expect(got[0]!.notification?.providerRef).toBe(second.id);
      // A redelivery is the same event: the service dedupes on eventId.
      expect(got[2]!.notification).toEqual(got[3]!.notification);
      expect(got[2]!.notification).toMatchObject({ providerRef: first.id, paymentRef: first.paymentId });
    } finally {
      await endpoint.close();
    }
  });

  it('the double sends nothing Yoco would not: no payment.succeeded for an unpaid checkout', async () => {
    const { providerRef } = await yoco.startAttempt(attempt());
    await expect(double.notify(providerRef, { to: 'http://127.0.0.1:9/' })).rejects.toThrow(/paid checkout/);
  });
});

describe('when Yoco is down', () => {
  it('a 500 is unavailable; Yoco replays it for the same key (proof that nothing was made), and a gateway\'s 502 proves nothing', async () => {
    const a = attempt();
    double.failNext(1, 500);
    const err = await yoco.startAttempt(a).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'SERVICE_UNAVAILABLE', reason: 'server_error', status: 500, provider: 'yoco', createdNothing: false });
    // Yoco stored its 500 as the request's outcome: the same key gets it again, marked replayed.
    const replayed = await yoco.startAttempt(a).catch((e: unknown) => e);
    expect(replayed).toMatchObject({ reason: 'server_error', status: 500, createdNothing: true });
    expect(double.requests.filter((r) => r.headers['idempotency-key'] === a.attemptId)).toHaveLength(2);
    // After 24 hours Yoco has forgotten the key: the same request is new again.
    double.advance(24 * 60 * 60 * 1000);
    expect(double.checkouts.has((await yoco.startAttempt(a)).providerRef)).toBe(true);

    // A gateway's page (not Yoco's problem body) is not stored for the key: the retry creates.
    const b = attempt();
    double.failNext(1, { status: 502, body: 'Bad Gateway' });
    expect(await yoco.startAttempt(b).catch((e: unknown) => e)).toMatchObject({ status: 502, createdNothing: false });
    const started = await yoco.startAttempt(b);
    expect(double.checkouts.has(started.providerRef)).toBe(true);
  });

  it('a 429 carries Retry-After and Yoco\'s rate_limited body; the adapter sends nothing until it has passed', async () => {
    const quiet = providerFor(double);
    double.failNext(1, { status: 429, retryAfter: 1 });
    const err = await quiet.queryAttempt('ch_any').catch((e: unknown) => e);
    expect(err).toMatchObject({ reason: 'rate_limited', status: 429 });
    expect((err as ProviderUnavailableError).retryAfterMs).toBeGreaterThan(900);
    expect(double.requests.at(-1)).toMatchObject({ method: 'GET', path: '/api/checkouts/ch_any' });
    const sent = double.requests.length;
    const waiting = await quiet.queryAttempt('ch_any').catch((e: unknown) => e);
    expect(waiting).toMatchObject({ reason: 'rate_limited' });
    expect((waiting as ProviderUnavailableError).retryAfterMs).toBeLessThanOrEqual(1_000);
    expect(double.requests.length, 'nothing sent while Yoco asked us to wait').toBe(sent);
    const { startedAt } = { startedAt: Date.now() };
    const created = await eventually(async () => quiet.startAttempt(attempt()).catch(() => null), 5_000);
    expect(created.providerRef).toMatch(/^ch_/);
    expect(Date.now() - startedAt).toBeGreaterThan(500);
  });

  it('the double gives each registered webhook a secret of its own, and signs its deliveries with it', async () => {
    const register = (name: string) =>
      fetch(`${double.apiUrl}/webhooks`, { method: 'POST', headers: { authorization: `Bearer ${double.secretKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ name, url: `http://127.0.0.1:9/${name}` }) }).then((r) => r.json());
    const one = await register('one');
    const two = await register('two');
    expect(one.secret).toMatch(/^whsec_/);
    expect(two.secret).not.toBe(one.secret);
    expect(one.secret).not.toBe(double.webhookSecret);
    expect(double.secretOf(two.id)).toBe(two.secret);
    // What one webhook's secret signed, another's does not verify.
    const { providerRef } = await yoco.startAttempt(attempt());
    const paid = double.pay(providerRef);
    const { body, headers } = double.signedEvent(paid.id, { secret: one.secret });
    expect(() => createYocoProvider({ secretKey: double.secretKey, webhookSecret: one.secret, apiUrl: double.apiUrl }).parseNotification(body, headers)).not.toThrow();
    expect(() => createYocoProvider({ secretKey: double.secretKey, webhookSecret: two.secret, apiUrl: double.apiUrl }).parseNotification(body, headers)).toThrow(/invalid webhook signature/);
  });

  it('the double answers 429 as Yoco documents it', async () => {
    double.failNext(1, { status: 429, retryAfter: 7 });
    const res = await fetch(`${double.apiUrl}/checkouts/ch_any`, { headers: { authorization: `Bearer ${double.secretKey}` } });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await res.json()).toEqual({
      type: 'https://developer.yoco.com/docs/api/error-codes/rate-limited',
      title: 'Too Many Requests',
      detail: 'You have exceeded the rate limit for this API end-point.',
      status: 429,
      code: 'rate_limited',
    });
  });

  it('an answer that never comes is a timeout, within the configured limit', async () => {
    const quick = providerFor(double, { timeoutMs: 200 });
    double.failNext(1, 'timeout');
    const t0 = Date.now();
    const err = await quick.queryAttempt('ch_any').catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ProviderUnavailableError', reason: 'timeout' });
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(inspect(err)).not.toContain(double.secretKey);
  });

  it('a job\'s abort ends a call at once, with the abort itself: not a Yoco that cannot answer', async () => {
    const patient = providerFor(double, { timeoutMs: 20_000 });
    double.failNext(1, 'timeout');
    const asked = double.requests.length;
    const abort = new AbortController();
    const call = patient.queryAttempt('ch_any', abort.signal).catch((e: unknown) => e);
    await eventually(async () => (double.requests.length > asked ? true : null), 10_000);
    abort.abort();
    expect(await call).toMatchObject({ name: 'AbortError' });
    // Already aborted: nothing is sent.
    await expect(patient.refund('ch_any', 100, 'key-1', abort.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(double.requests.length).toBe(asked + 1);
  });

  it('a reset connection and an address where nothing listens are network failures', async () => {
    double.failNext(1, 'reset');
    const reset = await yoco.startAttempt(attempt()).catch((e: unknown) => e);
    expect(reset).toMatchObject({ reason: 'network' });
    expect(inspect(reset)).not.toContain(double.secretKey);

    const gone = await startYocoDouble();
    const apiUrl = gone.apiUrl;
    await gone.close();
    await expect(providerFor(double, { apiUrl }).queryAttempt('ch_any')).rejects.toMatchObject({ reason: 'network' });
  });

  it('503, 429 and 409 (same key still in progress) all mean "try again later"', async () => {
    double.failNext(1, 503);
    double.failNext(1, { status: 429, retryAfter: 0 });
    double.failNext(1, 409);
    await expect(yoco.queryAttempt('ch_any')).rejects.toMatchObject({ reason: 'server_error', status: 503 });
    await expect(yoco.queryAttempt('ch_any')).rejects.toMatchObject({ reason: 'rate_limited' });
    await expect(yoco.startAttempt(attempt())).rejects.toMatchObject({ reason: 'busy' });
  });

  it('a 200 that is not a Checkout is unavailable (bad_response), not a success', async () => {
    const odd = createYocoProvider({
      secretKey: double.secretKey,
      webhookSecret: double.webhookSecret,
      fetch: async () => new Response('{"hello":"world"}', { status: 200 }),
    });
    await expect(odd.startAttempt(attempt())).rejects.toMatchObject({ reason: 'bad_response' });
    await expect(odd.queryAttempt('ch_x')).rejects.toMatchObject({ reason: 'bad_response' });
  });
});

describe('when Yoco refuses', () => {
  it('a wrong key is refused with Yoco\'s message and without the key', async () => {
    const wrongKey = `sk_test_${randomBytes(16).toString('hex')}`;
    const err = await providerFor(double, { secretKey: wrongKey }).startAttempt(attempt()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderRefusedError);
    expect(err).toMatchObject({ status: 403, provider: 'yoco' });
    expect((err as Error).message).toContain('A key is required');
    expect(inspect(err)).not.toContain(wrongKey);
    expect(double.requests[0]!.headers.authorization).toBe(`Bearer ${wrongKey}`);
  });

  it('Yoco\'s words are passed on, but never the secret key even when Yoco echoes it', async () => {
    double.failNext(1, { status: 400, body: { errorCode: 'invalid_request', description: `bad request for ${double.secretKey}` } });
    const err = await yoco.startAttempt(attempt()).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ProviderRefusedError', status: 400, providerCode: 'invalid_request' });
    expect((err as Error).message).toContain('bad request for [redacted]');
    expect(inspect(err)).not.toContain(double.secretKey);

    double.failNext(1, { status: 500, body: { description: `oops ${double.secretKey}` } });
    expect(inspect(await yoco.queryAttempt('ch_x').catch((e: unknown) => e))).not.toContain(double.secretKey);
  });

  it('the same attemptId with a different payload, and an amount Yoco will not take, are refused', async () => {
    const a = attempt();
    await yoco.startAttempt(a);
    await expect(yoco.startAttempt({ ...a, amountCents: 99_999 })).rejects.toMatchObject({ name: 'ProviderRefusedError', status: 422 });
    await expect(yoco.startAttempt(attempt({ amountCents: 100 }))).rejects.toMatchObject({ name: 'ProviderRefusedError', status: 400 });
  });
});

describe('refund', () => {
  let live: YocoDouble;
  let provider: YocoProvider;
  beforeEach(async () => {
    live = await startYocoDouble({ secretKey: `sk_live_${randomBytes(16).toString('hex')}` });
    provider = providerFor(live);
  });
  afterEach(() => live.close());

  it('refunds a paid checkout once, however often it is asked with the same key', async () => {
    const { providerRef } = await provider.startAttempt(attempt());
    live.pay(providerRef);
    const key = randomUUID();

    const { refundRef } = await provider.refund(providerRef, 12_345, key);
    expect(refundRef).toMatch(/^rfd_/);
    expect(await provider.refund(providerRef, 12_345, key)).toEqual({ refundRef });
    expect(live.checkout(providerRef).refunds).toEqual([{ refundId: refundRef, amount: 12_345 }]);
    const req = live.requests.at(-1)!;
    expect(req).toMatchObject({ method: 'POST', path: `/api/checkouts/${providerRef}/refund`, body: { amount: 12_345 } });
    expect(req.headers['idempotency-key']).toBe(key);

    // Its outcome arrives as a refund event, naming the refund by Yoco's id.
    const { body, headers } = live.signedEvent(providerRef, { event: 'refund.succeeded' });
    expect(provider.parseNotification(body, headers)).toMatchObject({ about: 'refund', providerRef, refundRef, outcome: 'succeeded', amountCents: 12_345 });
    // A new key for a refunded checkout is refused with Yoco's reason.
    await expect(provider.refund(providerRef, 12_345, randomUUID())).rejects.toThrow(/already been refunded/);
  });

  it('an unpaid checkout, or one paid in test mode, is not refunded', async () => {
    const { providerRef } = await provider.startAttempt(attempt());
    await expect(provider.refund(providerRef, 12_345, randomUUID())).rejects.toBeInstanceOf(ProviderRefusedError);

    const { providerRef: testRef } = await yoco.startAttempt(attempt());
    double.pay(testRef);
    await expect(yoco.refund(testRef, 12_345, randomUUID())).rejects.toThrow(/test mode/);
  });
});

describe('configuration', () => {
  it('defaults to Yoco\'s real address and never echoes a secret in a configuration error', () => {
    expect(YOCO_API_URL).toBe('https://payments.yoco.com/api');
    const secret = 'whsec_not base64!!';
    const err = outcome(() => createYocoProvider({ secretKey: 'sk_test_x', webhookSecret: secret }));
    expect(String(err)).toMatch(/YOCO_WEBHOOK_SECRET/);
    expect(String(err)).not.toContain(secret);
    expect(String(outcome(() => createYocoProvider({ secretKey: '', webhookSecret: double.webhookSecret })))).toMatch(/YOCO_SECRET_KEY/);
  });
});

/** A stand-in for zarpay's /providers/yoco/webhook route: the provider's verdict per request. */
async function startWebhookEndpoint(provider: YocoProvider) {
  const results: { status: number; notification?: ProviderNotification | null }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        results.push({ status: 200, notification: provider.parseNotification(Buffer.concat(chunks), req.headers) });
        res.writeHead(200).end();
      } catch (e) {
        const status = isAppError(e) ? e.httpStatus : 500;
        results.push({ status });
        res.writeHead(status).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/providers/yoco/webhook`,
    results,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
