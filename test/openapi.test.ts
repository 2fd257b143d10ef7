import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, http, op, payoutBody, type TestMerchant } from './support/client.ts';
import { openApiChecker } from './support/openapi.ts';

let t: TestApp;
let shop: TestMerchant;
let checker: ReturnType<typeof openApiChecker>;

beforeAll(async () => {
  t = await startApp();
  shop = await createMerchant(t, { payoutFeeCents: 200 });
  await credit(t, shop.id, 20_000);
  const doc = await http(t, 'GET', '/api/v1/openapi.json');
  expect(doc.status).toBe(200);
  checker = openApiChecker(doc.body);
});
afterAll(() => t?.close());

/** Calls a documented operation and checks the response against the document. */
async function call(method: string, docPath: string, path: string, opts: Parameters<typeof http>[3] = {}) {
  const res = await http(t, method, path, opts);
  checker.check(method, docPath, res);
  return res;
}

/** Makes the next call to a service method fail the way a lost database connection does. */
function failOnce(target: Record<string, any>, method: string, error: Error) {
  const original = target[method];
  target[method] = async () => {
    target[method] = original;
    throw error;
  };
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with the X-API-Key scheme and every /api/v1 operation', async () => {
    const doc = (await http(t, 'GET', '/api/v1/openapi.json')).body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    const operations = Object.entries(doc.paths).flatMap(([p, m]: [string, any]) => Object.keys(m).map((x) => `${x.toUpperCase()} ${p}`));
    expect(operations).toEqual(
      expect.arrayContaining([
        'GET /api/v1/payouts/balance',
        'POST /api/v1/payouts',
        'GET /api/v1/payouts',
        'GET /api/v1/payouts/{payout_id}',
        'POST /api/v1/merchant/api-keys/secret/regenerate',
      ]),
    );
    expect(JSON.stringify(doc)).toContain('"example"');
  });

  it('describes real responses for every documented status', async () => {
    const revoked = await createMerchant(t);
    await op(t, `mutation { revokeApiKey(kid: "${revoked.kid}") { apiKey { status } } }`);
    const unavailable = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

    for (const [path, docPath] of [
      ['/api/v1/payouts/balance', '/api/v1/payouts/balance'],
      ['/api/v1/payouts', '/api/v1/payouts'],
    ] as const) {
      await call('GET', docPath, path, { key: shop.key });
      await call('GET', docPath, path, {});
      await call('GET', docPath, path, { key: revoked.key });
    }
    await call('GET', '/api/v1/payouts', '/api/v1/payouts?limit=500', { key: shop.key });

    const created = await call('POST', '/api/v1/payouts', '/api/v1/payouts', { key: shop.key, body: payoutBody(1_000, { merchant_reference: 'OA-1', metadata: { order: 7 } }) });
    await call('POST', '/api/v1/payouts', '/api/v1/payouts', { key: shop.key, body: payoutBody(1_000, { merchant_reference: 'OA-1', metadata: { order: 7 } }) });
    await call('POST', '/api/v1/payouts', '/api/v1/payouts', { key: shop.key, body: payoutBody(1_001, { merchant_reference: 'OA-1' }) });
    await call('POST', '/api/v1/payouts', '/api/v1/payouts', { key: shop.key, body: payoutBody(1_000_000) });
    await call('POST', '/api/v1/payouts', '/api/v1/payouts', { key: shop.key, body: { ...payoutBody(), description: 'x'.repeat(70_000) } });
    await call('POST', '/api/v1/payouts', '/api/v1/payouts', {});
    await call('POST', '/api/v1/payouts', '/api/v1/payouts', { key: revoked.key, body: payoutBody() });

    const id = created.body.data.id;
    await call('GET', '/api/v1/payouts/{payout_id}', `/api/v1/payouts/${id}`, { key: shop.key });
    await call('GET', '/api/v1/payouts/{payout_id}', `/api/v1/payouts/${crypto.randomUUID()}`, { key: shop.key });
    await call('GET', '/api/v1/payouts/{payout_id}', `/api/v1/payouts/${id}`, {});
    await call('GET', '/api/v1/payouts/{payout_id}', `/api/v1/payouts/${id}`, { key: revoked.key });

    const services = t.app.services;
    for (const [method, path, url, target, fn, opts] of [
      ['GET', '/api/v1/payouts/balance', '/api/v1/payouts/balance', services.balances, 'get', {}],
      ['GET', '/api/v1/payouts', '/api/v1/payouts', services.payouts, 'list', {}],
      ['GET', '/api/v1/payouts/{payout_id}', `/api/v1/payouts/${id}`, services.payouts, 'get', {}],
      ['POST', '/api/v1/payouts', '/api/v1/payouts', services.payouts, 'create', { body: payoutBody() }],
      ['POST', '/api/v1/merchant/api-keys/secret/regenerate', '/api/v1/merchant/api-keys/secret/regenerate', services.keys, 'regenerate', {}],
    ] as const) {
      failOnce(target as any, fn, new Error('unexpected'));
      await call(method, path, url, { key: shop.key, ...opts });
      failOnce(target as any, fn, unavailable);
      await call(method, path, url, { key: shop.key, ...opts });
    }

    await call('POST', '/api/v1/merchant/api-keys/secret/regenerate', '/api/v1/merchant/api-keys/secret/regenerate', {});
    await call('POST', '/api/v1/merchant/api-keys/secret/regenerate', '/api/v1/merchant/api-keys/secret/regenerate', { key: revoked.key });
    const regenerated = await call('POST', '/api/v1/merchant/api-keys/secret/regenerate', '/api/v1/merchant/api-keys/secret/regenerate', { key: shop.key });
    shop = { ...shop, key: regenerated.body.data.full_key };

    // 429 needs a rate-limited app; see the rate limit tests for the headers.
    const missing = checker.documented().filter((k) => !checker.seen.has(k) && !k.endsWith(' 429'));
    expect(missing).toEqual([]);
  });

  it('serves the API reference at /docs from its own assets', async () => {
    const page = await fetch(`${t.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/docs/assets/swagger-ui-bundle.js');
    expect(html).not.toMatch(/https?:\/\/(?!localhost)/);
    for (const asset of ['/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css', '/docs/init.js']) {
      const res = await fetch(t.url + asset);
      expect(res.status, asset).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(10);
    }
    expect((await fetch(`${t.url}/docs/assets/../package.json`)).status).toBe(404);
  });
});
