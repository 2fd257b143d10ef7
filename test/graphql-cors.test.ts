import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, http, type TestMerchant } from './support/client.ts';

/**
 * Cross-origin use of `/graphql`: a dashboard session is a cookie, so a page of another origin
 * must never be told it may read answers sent with credentials. Only the service's own origin
 * (PUBLIC_BASE_URL's) gets `Access-Control-Allow-Credentials`; any other origin may still call
 * with an API key, without credentials.
 */
let t: TestApp;
let shop: TestMerchant;
let own: string;

beforeAll(async () => {
  t = await startApp();
  shop = await createMerchant(t);
  own = new URL(t.config.publicBaseUrl).origin;
});
afterAll(async () => {
  await t?.close();
});

const query = { query: '{ viewer { id } }' };
const post = (origin: string, path = '/graphql') => http(t, 'POST', path, { key: shop.key, body: query, headers: { origin } });
const preflight = (origin: string, path = '/graphql') =>
  fetch(`${t.url}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-api-key' },
  });

describe('CORS on /graphql', () => {
  it('gives another origin no credentials, on the preflight and the request alike', async () => {
    for (const origin of ['https://evil.example', `${own}.evil.example`, 'null']) {
      const pre = await preflight(origin);
      expect(pre.status, origin).toBe(204);
      expect(pre.headers.get('access-control-allow-credentials'), origin).toBeNull();
      const res = await post(origin);
      expect(res.status, origin).toBe(200);
      expect(res.body.data.viewer.id).toBe(shop.id);
      expect(res.headers.get('access-control-allow-credentials'), origin).toBeNull();
    }
  });

  it('still lets another origin call with an API key, without credentials', async () => {
    const pre = await preflight('https://dashboard.partner.example');
    expect(pre.headers.get('access-control-allow-origin')).toMatch(/^(\*|https:\/\/dashboard\.partner\.example)$/);
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-api-key');
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
    const res = await post('https://dashboard.partner.example');
    expect(res.headers.get('access-control-allow-origin')).toMatch(/^(\*|https:\/\/dashboard\.partner\.example)$/);
    expect(res.headers.get('vary') ?? '').toMatch(/origin/i);
  });

  it('allows credentials for the service\'s own origin only', async () => {
    const pre = await preflight(own);
    expect(pre.headers.get('access-control-allow-origin')).toBe(own);
    expect(pre.headers.get('access-control-allow-credentials')).toBe('true');
    const res = await post(own);
    expect(res.headers.get('access-control-allow-origin')).toBe(own);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
  });

  it('applies the same rule to the event stream endpoint', async () => {
    const other = await preflight('https://evil.example', '/graphql/stream');
    expect(other.headers.get('access-control-allow-credentials')).toBeNull();
    const mine = await preflight(own, '/graphql/stream');
    expect(mine.headers.get('access-control-allow-credentials')).toBe('true');
  });
});
