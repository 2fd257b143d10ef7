import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, gql, http, payoutBody, type TestMerchant } from './support/client.ts';

let t: TestApp;
let shop: TestMerchant;
const lines: Record<string, any>[] = [];
let raw = '';

beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    raw += chunk.toString();
    for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line));
  });
  t = await startApp({ LOG_LEVEL: 'info' }, { logStream: stream });
  shop = await createMerchant(t, { payoutFeeCents: 100 });
  await credit(t, shop.id, 50_000);
});
afterAll(() => t?.close());

describe('request logs', () => {
  it('writes one JSON line per request with route, status, duration, merchant and request id', async () => {
    const res = await http(t, 'GET', '/api/v1/payouts/balance', { key: shop.key, headers: { 'x-request-id': 'trace-77' } });
    expect(res.headers.get('x-request-id')).toBe('trace-77');
    await new Promise((r) => setTimeout(r, 50));
    const mine = lines.filter((l) => l.reqId === 'trace-77');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      msg: 'request',
      method: 'GET',
      route: '/api/v1/payouts/balance',
      status: 200,
      merchant_id: shop.id,
      duration_ms: expect.any(Number),
    });
  });

  it('names the merchant for GraphQL requests too', async () => {
    await gql(t, '{ balance { availableCents } }', {}, { key: shop.key });
    await new Promise((r) => setTimeout(r, 50));
    expect(lines.some((l) => l.route === '/graphql' && l.merchant_id === shop.id)).toBe(true);
  });

  it('never writes keys, secrets or bank account numbers', async () => {
    const accountNumber = '98765432109';
    await http(t, 'POST', '/api/v1/payouts', {
      key: shop.key,
      body: payoutBody(1_000, { payment_details: { ...payoutBody().payment_details, account_number: accountNumber } }),
    });
    await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: { ...payoutBody(), payment_details: { account_number: accountNumber } } });
    const regenerated = await http(t, 'POST', '/api/v1/merchant/api-keys/secret/regenerate', { key: shop.key });
    const newKey = regenerated.body.data.full_key as string;
    await http(t, 'GET', '/api/v1/payouts/balance', { key: newKey });
    await http(t, 'GET', '/api/v1/payouts/balance', { key: shop.key.replace(/.$/, 'x') });
    await gql(t, '{ balance { availableCents } }', {}, { operator: true });
    await new Promise((r) => setTimeout(r, 100));
    expect(raw.length).toBeGreaterThan(0);
    for (const secret of [shop.key, shop.key.split('-')[3]!, newKey, newKey.split('-')[3]!, accountNumber, t.config.operatorToken, t.config.serviceSecret]) {
      expect(raw).not.toContain(secret);
    }
    shop = { ...shop, key: newKey };
  });
});

describe('/metrics', () => {
  it('exposes request, GraphQL, payout and runtime metrics in Prometheus format', async () => {
    await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(500) });
    await gql(t, 'query Dash { balance { availableCents } }', {}, { key: shop.key });
    const res = await fetch(`${t.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    const count = (scrape: string, name: string) =>
      Number(new RegExp(`^${name}\\{method="POST",route="/api/v1/payouts",status="201"\\} (\\d+)$`, 'm').exec(scrape)?.[1]);
    expect(count(text, 'zarpay_http_requests_total')).toBeGreaterThanOrEqual(1);
    expect(count(text, 'zarpay_http_requests_total')).toBe(count(text, 'zarpay_http_request_duration_seconds_count'));
    expect(text).toContain('zarpay_http_request_duration_seconds_bucket');
    // Counted, not re-added, on every scrape.
    await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(500) });
    const again = await (await fetch(`${t.url}/metrics`)).text();
    expect(count(again, 'zarpay_http_requests_total')).toBe(count(text, 'zarpay_http_requests_total') + 1);
    expect(text).toMatch(/zarpay_graphql_operations_total\{type="query",name="Dash",outcome="ok"\} 1/);
    expect(text).toMatch(/zarpay_payouts\{status="pending",measure="count"\} \d+/);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text).toMatch(/zarpay_webhook_deliveries\{status="pending"\} \d+/);
    expect(text).toMatch(/zarpay_webhook_delivery_lag_seconds\{measure="oldest_pending"\} [\d.]+/);
    expect(text).toContain('zarpay_webhook_attempts');
  });
});
