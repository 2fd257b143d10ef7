import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { RateLimitService } from '../src/services/rate-limits.ts';
import { startApp, type TestApp, usingPostgres } from './support/app.ts';
import { createMerchant, credit, gql, http, payoutBody, type TestMerchant } from './support/client.ts';

let t: TestApp;
let shop: TestMerchant;

beforeAll(async () => {
  t = await startApp({ RATE_LIMITS: 'balance=3,payout_status=4,payout_create=2,credentials=1' });
  shop = await createMerchant(t);
  await credit(t, shop.id, 100_000);
});
afterAll(() => t?.close());

const headersOf = (h: Headers) => ({
  limit: h.get('ratelimit-limit'),
  remaining: h.get('ratelimit-remaining'),
  reset: Number(h.get('ratelimit-reset')),
});

describe('REST rate limits', () => {
  it('counts the balance per merchant, with headers on every response and 429 + Retry-After over the limit', async () => {
    const m = await createMerchant(t);
    const seen = [];
    for (let i = 0; i < 5; i++) seen.push(await http(t, 'GET', '/api/v1/payouts/balance', { key: m.key }));
    expect(seen.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
    expect(seen.map((r) => headersOf(r.headers).remaining)).toEqual(['2', '1', '0', '0', '0']);
    for (const r of seen) {
      expect(r.headers.get('ratelimit-limit')).toBe('3');
      expect(headersOf(r.headers).reset).toBeGreaterThanOrEqual(1);
      expect(headersOf(r.headers).reset).toBeLessThanOrEqual(60);
    }
    const refused = seen[3]!;
    expect(refused.body).toMatchObject({ status: 'error', error: { code: 'RATE_LIMIT_EXCEEDED' }, metadata: { api_version: 'v1' } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(seen[0]!.headers.get('retry-after')).toBeNull();
    // Another merchant has its own budget; another operation of the same merchant too.
    expect((await http(t, 'GET', '/api/v1/payouts/balance', { key: shop.key })).status).toBe(200);
    expect((await http(t, 'GET', '/api/v1/payouts', { key: m.key })).status).toBe(200);
  });

  it('shares one payout_status budget between one payout and the list, and counts refused input', async () => {
    const m = await createMerchant(t);
    await credit(t, m.id, 10_000);
    const created = await http(t, 'POST', '/api/v1/payouts', { key: m.key, body: payoutBody(100) });
    expect(created.headers.get('ratelimit-limit')).toBe('2');
    // A malformed body still counts and still carries the headers.
    const bad = await http(t, 'POST', '/api/v1/payouts', { key: m.key, rawBody: '{nope', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('ratelimit-remaining')).toBe('0');
    expect((await http(t, 'POST', '/api/v1/payouts', { key: m.key, body: payoutBody(100) })).status).toBe(429);
    const id = created.body.data.id;
    const codes = [];
    for (const path of [`/payouts/${id}`, '/payouts', `/payouts/${id}`, '/payouts?limit=1', '/payouts']) {
      codes.push((await http(t, 'GET', `/api/v1${path}`, { key: m.key })).status);
    }
    expect(codes).toEqual([200, 200, 200, 200, 429]);
  });

  it('limits key regeneration under credentials', async () => {
    const m = await createMerchant(t);
    const first = await http(t, 'POST', '/api/v1/merchant/api-keys/secret/regenerate', { key: m.key });
    expect(first.status).toBe(201);
    expect(first.headers.get('ratelimit-limit')).toBe('1');
    const again = await http(t, 'POST', '/api/v1/merchant/api-keys/secret/regenerate', { key: first.body.data.full_key });
    expect(again.status).toBe(429);
    expect(again.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
  });

  it('does not count unauthenticated requests against anyone', async () => {
    const res = await http(t, 'GET', '/api/v1/payouts/balance', { key: 'nope' });
    expect(res.status).toBe(401);
    expect(res.headers.get('ratelimit-limit')).toBeNull();
  });
});

describe('GraphQL rate limits', () => {
  it('counts GraphQL fields against their REST twins and refuses with RATE_LIMIT_EXCEEDED', async () => {
    const m = await createMerchant(t);
    expect((await http(t, 'GET', '/api/v1/payouts/balance', { key: m.key })).status).toBe(200);
    // viewer { balance } is one balance check, not two.
    const one = await gql(t, '{ viewer { id balance { balanceCents } } }', {}, { key: m.key });
    expect(one.body.errors).toBeUndefined();
    expect(headersOf(one.headers)).toMatchObject({ limit: '3', remaining: '1' });
    // Aliases do not batch around the limit: two more balance checks than are left.
    const two = await gql(t, '{ a: balance { balanceCents } b: balance { balanceCents } }', {}, { key: m.key });
    expect(two.status).toBe(429);
    expect(two.body.errors?.[0]?.extensions).toEqual({ code: 'RATE_LIMIT_EXCEEDED' });
    expect(two.body.data ?? null).toBeNull();
    expect(Number(two.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(headersOf(two.headers).remaining).toBe('0');
    // REST sees the same budget exhausted.
    expect((await http(t, 'GET', '/api/v1/payouts/balance', { key: m.key })).status).toBe(429);
  });

  it('counts fragments and mutations, and leaves the operator alone', async () => {
    const m = await createMerchant(t);
    await credit(t, m.id, 10_000);
    const q = 'query { ...F } fragment F on Query { payouts(first: 1) { totalCount } }';
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await gql(t, q, {}, { key: m.key })).body.errors?.[0]?.extensions?.code ?? 'ok');
    expect(statuses).toEqual(['ok', 'ok', 'ok', 'ok', 'RATE_LIMIT_EXCEEDED']);
    const create = `mutation($i: CreatePayoutInput!) { createPayout(input: $i) { payout { id } } }`;
    const input = { amountCents: 100, currency: 'ZAR', payoutMethod: 'EFT', paymentDetails: { accountNumber: '62012345678', branchCode: '250655', accountHolder: 'A B', bankName: 'FNB' } };
    const results = [];
    for (let i = 0; i < 3; i++) results.push((await gql(t, create, { i: input }, { key: m.key })).body.errors?.[0]?.extensions?.code ?? 'ok');
    expect(results).toEqual(['ok', 'ok', 'RATE_LIMIT_EXCEEDED']);
    const total = (await http(t, 'GET', '/api/v1/payouts/balance', { key: m.key })).body.data.reserved_cents;
    expect(total).toBe(200);
    for (let i = 0; i < 6; i++) {
      const res = await gql(t, `{ payouts(merchantId: "${m.id}") { totalCount } }`, {}, { operator: true });
      expect(res.body.errors).toBeUndefined();
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
  });
});

describe('the limiter service', () => {
  it('is off with RATE_LIMITS=off and says so', async () => {
    const svc = new RateLimitService({ db: t.database.db, config: { ...t.config, rateLimits: null } });
    expect(svc.store).toBe('off');
    expect(await svc.consume(shop.id, 'balance')).toBeNull();
  });

  it('uses PostgreSQL when there is a database server and no Redis', async () => {
    expect(t.app.services.rateLimits.store).toBe(t.config.databaseUrl ? 'postgres' : 'memory');
  });

  it('fails open to a per-instance memory counter when the store is down', async () => {
    const config = loadConfig({ ...process.env, SERVICE_ENV: 'tst', RATE_LIMITS: 'balance=2', DATA_DIR: t.config.dataDir, LOG_LEVEL: 'silent', REDIS_URL: 'redis://127.0.0.1:1' });
    const svc = new RateLimitService({ db: t.database.db, config });
    try {
      expect(svc.store).toBe('redis');
      const ds = [];
      for (let i = 0; i < 3; i++) ds.push(await svc.consume(shop.id, 'balance'));
      expect(ds.map((d) => d?.allowed)).toEqual([true, true, false]);
    } finally {
      await svc.close();
    }
  });

  it.skipIf(!process.env.REDIS_URL)('shares the budget across instances through Redis (needs Redis: set REDIS_URL)', async () => {
    const config = loadConfig({ SERVICE_ENV: 'tst', RATE_LIMITS: 'balance=3', DATA_DIR: t.config.dataDir, LOG_LEVEL: 'silent', REDIS_URL: process.env.REDIS_URL! });
    const a = new RateLimitService({ db: t.database.db, config });
    const b = new RateLimitService({ db: t.database.db, config });
    try {
      const merchant = crypto.randomUUID();
      const ds = [await a.consume(merchant, 'balance'), await b.consume(merchant, 'balance'), await a.consume(merchant, 'balance'), await b.consume(merchant, 'balance')];
      expect(ds.map((d) => [d?.allowed, d?.remaining])).toEqual([[true, 2], [true, 1], [true, 0], [false, 0]]);
    } finally {
      await a.close();
      await b.close();
    }
  });

});

describe.skipIf(!usingPostgres)('leases from the shared PostgreSQL store (needs PostgreSQL: set DATABASE_URL)', () => {
  const services = (limit: number, n: number) => {
    const config = loadConfig({ SERVICE_ENV: 'tst', RATE_LIMITS: `balance=${limit}`, DATA_DIR: t.config.dataDir, LOG_LEVEL: 'silent', DATABASE_URL: t.config.databaseUrl! });
    return Array.from({ length: n }, () => new RateLimitService({ db: t.database.db, config }));
  };

  it('is exact on one instance and asks the store a few times per window, not once per request', async () => {
    const [svc] = services(1000, 1);
    const store = (svc as unknown as { limiters: Map<string, { consume: (...a: unknown[]) => unknown }> }).limiters.get('balance')!;
    const spy = vi.spyOn(store, 'consume');
    try {
      const merchant = crypto.randomUUID();
      const ds = [];
      for (let i = 0; i < 1002; i++) ds.push(await svc!.consume(merchant, 'balance'));
      expect(ds.filter((d) => d?.allowed)).toHaveLength(1000);
      expect(ds.slice(0, 3).map((d) => d?.remaining)).toEqual([999, 998, 997]);
      expect(ds.slice(998).map((d) => [d?.allowed, d?.remaining])).toEqual([[true, 1], [true, 0], [false, 0], [false, 0]]);
      expect(spy.mock.calls.length).toBeLessThan(40);
    } finally {
      await svc!.close();
    }
  });

  it('never lets instances together go over the budget, under concurrent load', async () => {
    const instances = services(200, 3);
    try {
      const merchant = crypto.randomUUID();
      const ds = await Promise.all(Array.from({ length: 600 }, (_, i) => instances[i % 3]!.consume(merchant, 'balance')));
      const allowed = ds.filter((d) => d?.allowed).length;
      expect(allowed).toBeLessThanOrEqual(200);
      // Points leased by one instance and unspent when the others ran dry are lost for the window.
      expect(allowed).toBeGreaterThanOrEqual(180);
      const refused = ds.find((d) => !d?.allowed)!;
      expect(refused.resetSeconds).toBeGreaterThanOrEqual(1);
      expect(refused.resetSeconds).toBeLessThanOrEqual(60);
    } finally {
      for (const svc of instances) await svc.close();
    }
  });
});
