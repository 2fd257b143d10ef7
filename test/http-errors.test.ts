import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, http, payoutBody, type TestMerchant } from './support/client.ts';

let t: TestApp;
let shop: TestMerchant;

beforeAll(async () => {
  t = await startApp();
  shop = await createMerchant(t);
});
afterAll(() => t?.close());

function expectEnvelope(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ status: 'error', error: { code, message: expect.any(String) } });
  expect(res.body.metadata.api_version).toBe('v1');
  expect(Date.parse(res.body.metadata.timestamp)).not.toBeNaN();
}

describe('CONTRACT §2 on the core routes', () => {
  it.each([
    ['invalid JSON', '{"amount_cents":', 'application/json'],
    ['a JSON array', '[1,2]', 'application/json'],
    ['a JSON string', '"hello"', 'application/json'],
    ['JSON null', 'null', 'application/json'],
    ['an empty body', '', 'application/json'],
    ['text/plain', JSON.stringify(payoutBody()), 'text/plain'],
    ['form encoding', 'amount_cents=1', 'application/x-www-form-urlencoded'],
    ['an unknown media type', '{}', 'application/xml'],
  ])('answers %s with 400 INVALID_INPUT', async (_name, rawBody, type) => {
    const res = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, rawBody, headers: { 'content-type': type } });
    expectEnvelope(res, 400, 'INVALID_INPUT');
  });

  it('answers a missing Content-Type on a JSON endpoint with 400 INVALID_INPUT', async () => {
    const res = await fetch(`${t.url}/api/v1/payouts`, {
      method: 'POST',
      headers: { 'x-api-key': shop.key },
      body: new Uint8Array(Buffer.from(JSON.stringify(payoutBody()))),
    });
    expectEnvelope({ status: res.status, body: await res.json() }, 400, 'INVALID_INPUT');
  });

  it('answers a body over 64 KiB with 413 INVALID_INPUT', async () => {
    const body = { ...payoutBody(), description: 'x'.repeat(70 * 1024) };
    expectEnvelope(await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body }), 413, 'INVALID_INPUT');
  });

  it('accepts application/json with a charset', async () => {
    const res = await http(t, 'POST', '/api/v1/payouts', {
      key: shop.key,
      rawBody: JSON.stringify(payoutBody()),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expectEnvelope(res, 400, 'INSUFFICIENT_BALANCE');
  });

  it.each([
    ['GET', '/nowhere'],
    ['GET', '/api/v1/nothing-here'],
    ['DELETE', '/api/v1/payouts/balance'],
    ['PUT', '/api/v1/payouts'],
    ['GET', '/api/v2/payouts'],
  ])('answers %s %s with 404 NOT_FOUND', async (method, path) => {
    expectEnvelope(await http(t, method, path, { key: shop.key }), 404, 'NOT_FOUND');
  });

  it('answers an unexpected failure with 500 INTERNAL_ERROR and no internals', async () => {
    const balances = t.app.services.balances;
    const original = balances.get;
    balances.get = async () => {
      throw new Error('select secret_hash from api_keys -- at Object.<anonymous> (/src/x.ts:1:1)');
    };
    try {
      const res = await http(t, 'GET', '/api/v1/payouts/balance', { key: shop.key });
      expectEnvelope(res, 500, 'INTERNAL_ERROR');
      expect(JSON.stringify(res.body)).not.toMatch(/select|secret_hash|\.ts:|at Object/);
    } finally {
      balances.get = original;
    }
  });

  it('echoes a request id on every response', async () => {
    const res = await http(t, 'GET', '/healthz');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const given = await http(t, 'GET', '/healthz', { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
  });

  it('answers health and readiness without a key', async () => {
    expect((await http(t, 'GET', '/healthz')).body).toEqual({ status: 'success', data: { ok: true } });
    const ready = await http(t, 'GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.data.ok).toBe(true);
  });
});

describe('errors people can act on (CONTRACT §9 error.details)', () => {
  it('lists every problem of a refused body in plain words, the first as the message', async () => {
    const { payment_details: _dropped, ...noDetails } = payoutBody();
    const res = await http(t, 'POST', '/api/v1/payouts', {
      key: shop.key,
      rawBody: `{"amount_cents": 99999999999999999999, "currency": "ZAR", "payout_method": "eft", "foo": 1}`,
      headers: { 'content-type': 'application/json' },
    });
    expectEnvelope(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error.details).toEqual([
      { field: 'amount_cents', message: 'is too large' },
      // The account or a saved payee: which one is missing is said once the body is otherwise right (below).
      { field: 'foo', message: 'is not a known field' },
    ]);
    expect(res.body.error.message).toBe('amount_cents: is too large');
    const missing = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: noDetails });
    expect(missing.body.error).toMatchObject({ message: 'payment_details: is required', details: [{ field: 'payment_details', message: 'is required' }] });
  });

  it('calls query parameters query parameters', async () => {
    const res = await http(t, 'GET', '/api/v1/payouts?foo=1&limit=500', { key: shop.key });
    expectEnvelope(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error.details).toEqual(
      expect.arrayContaining([
        { field: 'query.limit', message: 'must be 1 to 100' },
        { field: 'query.foo', message: 'is not a known field' },
      ]),
    );
  });

  it('keeps an error bounded however long the unknown field', async () => {
    const res = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: { ...payoutBody(), ['x'.repeat(5_000)]: 1 } });
    expect(res.body.error.details[0].field.length).toBeLessThanOrEqual(200);
    expect(res.body.error.message.length).toBeLessThanOrEqual(1000);
  });
});
