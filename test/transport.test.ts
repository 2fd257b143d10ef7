import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRD_PROVIDER, startApp, type TestApp, usingPostgres } from './support/app.ts';
import { createMerchant, credit, gql, http, payoutBody, type TestMerchant } from './support/client.ts';

let t: TestApp;
let shop: TestMerchant;

beforeAll(async () => {
  t = await startApp();
  shop = await createMerchant(t);
  await credit(t, shop.id, 10_000);
});
afterAll(() => t?.close());

const post = (contentType: string | undefined, rawBody: string, path = '/api/v1/payouts') =>
  http(t, 'POST', path, { key: shop.key, rawBody, ...(contentType !== undefined && { headers: { 'content-type': contentType } }) });

describe('content types', () => {
  const json = JSON.stringify(payoutBody(100));

  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8'])('accepts %s', async (type) => {
    const res = await post(type, json);
    expect(res.status).toBe(201);
  });

  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/jsonx',
    'application/json-patch+json',
    'application/xml',
    '',
  ])('refuses a JSON body sent as %j with 400 INVALID_INPUT', async (type) => {
    const res = await post(type, json);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', error: { code: 'INVALID_INPUT' }, metadata: { api_version: 'v1' } });
  });

  it('refuses a body without Content-Type', async () => {
    const res = await fetch(`${t.url}/api/v1/payouts`, { method: 'POST', headers: { 'x-api-key': shop.key }, body: new Blob([json]) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.code).toBe('INVALID_INPUT');
  });

  it('refuses bodies over 64 KiB with 413 INVALID_INPUT, on REST and GraphQL', async () => {
    const big = JSON.stringify({ ...payoutBody(100), description: 'x'.repeat(70_000) });
    const res = await post('application/json', big);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('INVALID_INPUT');
    const g = await http(t, 'POST', '/graphql', { key: shop.key, body: { query: `{ viewer { id } } # ${'x'.repeat(70_000)}` } });
    expect(g.status).toBe(413);
    expect(g.body.error.code).toBe('INVALID_INPUT');
    const total = (await http(t, 'GET', '/api/v1/payouts', { key: shop.key })).body.data.total;
    expect(total).toBe(3);
  });
});

describe('security headers', () => {
  it.each([
    ['GET', '/healthz', undefined],
    ['GET', '/api/v1/payouts/balance', 'no-store'],
    ['GET', '/api/v1/nowhere', 'no-store'],
    ['POST', '/graphql', 'no-store'],
    ['GET', '/nowhere', undefined],
  ])('%s %s carries nosniff, no-referrer and its cache policy', async (method, path, cache) => {
    const res = await http(t, method, path, { key: shop.key, ...(method === 'POST' && { body: { query: '{ viewer { id } }' } }) });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    if (cache) expect(res.headers.get('cache-control')).toBe(cache);
  });

  it('also on errors', async () => {
    const res = await http(t, 'GET', '/api/v1/payouts/balance', { key: 'wrong' });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('GraphQL refuses a malformed key with 401 and a code', async () => {
    const res = await gql(t, '{ viewer { id } }', {}, { key: 'sec1-tst-bad' });
    expect(res.status).toBe(401);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
  });
});

// prd needs PostgreSQL (CONTRACT §1); embedded runs cannot start it.
describe.skipIf(!usingPostgres)('plain HTTP in prd (needs PostgreSQL: prd requires DATABASE_URL)', () => {
  let prd: TestApp;
  beforeAll(async () => {
    prd = await startApp({
      SERVICE_ENV: 'prd',
      OPERATOR_TOKEN: 'operator-token-for-prd-transport-test',
      SERVICE_SECRET: 'a-service-secret-of-at-least-32-characters',
      ...PRD_PROVIDER,
    });
  });
  afterAll(() => prd?.close());

  it('is refused with 403 FORBIDDEN on the API, GraphQL and unknown paths', async () => {
    for (const [method, path] of [['GET', '/api/v1/payouts/balance'], ['POST', '/graphql'], ['GET', '/nowhere']] as const) {
      const res = await http(prd, method, path, { ...(method === 'POST' && { body: { query: '{ __typename }' } }) });
      expect(res.status, path).toBe(403);
      expect(res.body.error.code, path).toBe('FORBIDDEN');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('ignores X-Forwarded-Proto unless TRUST_PROXY is set', async () => {
    const res = await http(prd, 'GET', '/api/v1/payouts/balance', { headers: { 'x-forwarded-proto': 'https' } });
    expect(res.status).toBe(403);
  });

  it('keeps the health checks reachable', async () => {
    expect((await http(prd, 'GET', '/healthz')).status).toBe(200);
    expect((await http(prd, 'GET', '/readyz')).status).toBe(200);
  });

  it('accepts X-Forwarded-Proto: https from a trusted proxy', async () => {
    const proxied = await startApp({
      SERVICE_ENV: 'prd',
      OPERATOR_TOKEN: 'operator-token-for-prd-transport-test',
      SERVICE_SECRET: 'a-service-secret-of-at-least-32-characters',
      ...PRD_PROVIDER,
      TRUST_PROXY: 'true',
    });
    try {
      const https = { 'x-forwarded-proto': 'https' };
      const m = await http(proxied, 'POST', '/graphql', {
        body: { query: 'mutation { createMerchant(input: { name: "P" }) { fullKey } }' },
        headers: { ...https, authorization: 'Bearer operator-token-for-prd-transport-test' },
      });
      expect(m.status).toBe(200);
      const fullKey = m.body.data.createMerchant.fullKey as string;
      expect(fullKey.startsWith('sec1-prd-')).toBe(true);
      expect((await http(proxied, 'GET', '/api/v1/payouts/balance', { key: fullKey, headers: https })).status).toBe(200);
      const plain = await http(proxied, 'GET', '/api/v1/payouts/balance', { key: fullKey });
      expect(plain.status).toBe(403);
      expect(plain.body.error.code).toBe('FORBIDDEN');
    } finally {
      await proxied.close();
    }
  });
});
