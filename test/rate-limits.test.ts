import { bootOn } from '../src/boot.ts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { createApp } from '../src/server.ts';
import { MemoryCounters } from '../src/outside/counters.ts';
import { PostgresCounters } from '../src/outside/postgres-counters.ts';
import { sweep } from '../src/db/rate-limit-counters.ts';
import { counterStoreFor, RateLimitService } from '../src/services/rate-limits.ts';
import { borrowed, startApp, type TestApp, usingPostgres } from './support/app.ts';
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

  it('answers a read over its budget with 429 whatever the read found: a refused caller learns nothing of what exists', async () => {
    const m = await createMerchant(t);
    await credit(t, m.id, 10_000);
    const created = await http(t, 'POST', '/api/v1/payouts', { key: m.key, body: payoutBody(100) });
    const unknown = '00000000-0000-4000-8000-000000000000';
    // Reads run while they are counted: within the budget each answers as it would, with the headers.
    const within = [
      await http(t, 'GET', `/api/v1/payouts/${created.body.data.id}`, { key: m.key }),
      await http(t, 'GET', `/api/v1/payouts/${unknown}`, { key: m.key }),
      await http(t, 'GET', '/api/v1/payouts?limit=nope', { key: m.key }),
      await http(t, 'GET', '/api/v1/payouts', { key: m.key }),
    ];
    expect(within.map((r) => [r.status, r.headers.get('ratelimit-remaining')])).toEqual([
      [200, '3'],
      [404, '2'],
      [400, '1'],
      [200, '0'],
    ]);
    // Over it, the 429 takes the place of the payout, of the 404 and of the 400 alike.
    for (const path of [`/payouts/${created.body.data.id}`, `/payouts/${unknown}`, '/payouts?limit=nope']) {
      const refused = await http(t, 'GET', `/api/v1${path}`, { key: m.key });
      expect([path, refused.status, refused.body.error?.code]).toEqual([path, 429, 'RATE_LIMIT_EXCEEDED']);
      expect(refused.body.data).toBeUndefined();
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // A statement is streamed with headers of its own (its opening balance): none of them, and
    // none of its body, reach a caller over the balance budget.
    const day = new Date().toISOString().slice(0, 10);
    const statement = (format: string) => http(t, 'GET', `/api/v1/statements?from=${day}&to=${day}&format=${format}`, { key: m.key });
    const counted = [await statement('csv'), await statement('json'), await statement('csv')];
    expect(counted.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(counted[0]!.headers.get('x-opening-balance-cents')).toMatch(/^\d+$/);
    for (const format of ['csv', 'json']) {
      const refused = await statement(format);
      expect([format, refused.status, refused.body.error?.code]).toEqual([format, 429, 'RATE_LIMIT_EXCEEDED']);
      expect(refused.headers.get('content-type')).toContain('application/json');
      expect(refused.headers.get('x-opening-balance-cents')).toBeNull();
      expect(refused.headers.get('content-disposition')).toBeNull();
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
      expect(refused.headers.get('x-request-id')).toBeTruthy();
      expect(refused.headers.get('cache-control')).toBe('no-store');
    }
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

  it('counts a request without a valid key against its address, never against a merchant', async () => {
    const res = await http(t, 'GET', '/api/v1/payouts/balance', { key: 'nope' });
    expect(res.status).toBe(401);
    expect(res.headers.get('ratelimit-limit')).toBe('300');
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
    const svc = new RateLimitService({ db: t.database.db, config: { ...t.config, rateLimits: null } }, null);
    expect(svc.store).toBe('off');
    expect(await svc.consume(shop.id, 'balance')).toBeNull();
  });

  it('uses PostgreSQL when there is a database server and no Redis', async () => {
    expect(t.app.services.rateLimits.store).toBe(t.config.databaseUrl ? 'postgres' : 'memory');
  });

  it('fails open to a per-instance memory counter when the store is down', async () => {
    const config = loadConfig({ ...process.env, SERVICE_ENV: 'tst', RATE_LIMITS: 'balance=2', DATA_DIR: t.config.dataDir, LOG_LEVEL: 'silent', REDIS_URL: 'redis://127.0.0.1:1' });
    const svc = new RateLimitService({ db: t.database.db, config }, counterStoreFor(config));
    try {
      expect(svc.store).toBe('redis');
      const ds = [];
      for (let i = 0; i < 3; i++) ds.push(await svc.consume(shop.id, 'balance'));
      expect(ds.map((d) => d?.allowed)).toEqual([true, true, false]);
    } finally {
      await svc.close();
    }
  });

  it('keeps its memory counters bounded, whatever keys arrive', () => {
    const counters = new MemoryCounters(100);
    for (let i = 0; i < 1000; i++) counters.consume(`198.51.100.${i}`);
    expect(counters.size).toBe(100);
    // A key seen again in its window goes on counting.
    expect(counters.consume('198.51.100.999').consumedPoints).toBe(2);
  });
});

/** A second instance of the service over the same database, with the same settings, as a deployment runs it. */
async function secondInstance(first: TestApp): Promise<{ url: string; close(): Promise<void> }> {
  const app = createApp((await bootOn(first.config, borrowed(first.database))).services);
  const url = await app.start();
  return { url, close: () => app.stop() };
}

/** The specification's balance budget (60/min), alternating between two instances: exact. */
async function expectExactAcrossInstances(env: Record<string, string>) {
  const a = await startApp({ RATE_LIMITS: '', ...env });
  const b = await secondInstance(a);
  try {
    const m = await createMerchant(a);
    const balance = (at: { url: string }) => http(at, 'GET', '/api/v1/payouts/balance', { key: m.key });
    const seen = [];
    for (let i = 0; i < 60; i++) seen.push(await balance(i % 2 === 0 ? a : b));
    expect(seen.map((r) => r.status)).toEqual(Array(60).fill(200));
    expect(seen.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(Array.from({ length: 60 }, (_, i) => String(59 - i)));
    for (const at of [a, b, a]) {
      const over = await balance(at);
      expect(over.status).toBe(429);
      expect(over.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    }
  } finally {
    await b.close();
    await a.close();
  }
}

/** `n` limiter services with the same settings, as `n` instances of one deployment have. */
function instances(n: number, env: Record<string, string>) {
  const config = loadConfig({ SERVICE_ENV: 'tst', DATA_DIR: t.config.dataDir, LOG_LEVEL: 'silent', ...env });
  return Array.from({ length: n }, () => new RateLimitService({ db: t.database.db, config }, counterStoreFor(config)));
}

/**
 * Counts from several instances at once, for several merchants interleaved: each is allowed
 * exactly its budget, with every count from 0 to the budget left reported once, and every
 * refusal says when to retry.
 */
async function expectExactUnderLoad(env: Record<string, string>) {
  const all = instances(3, { RATE_LIMITS: 'balance=100', ...env });
  try {
    const merchants = Array.from({ length: 4 }, () => crypto.randomUUID());
    const ds = await Promise.all(Array.from({ length: 800 }, (_, i) => all[i % 3]!.consume(merchants[i % 4]!, 'balance').then((d) => ({ merchant: i % 4, d: d! }))));
    for (let m = 0; m < 4; m++) {
      const allowed = ds.filter((x) => x.merchant === m && x.d.allowed);
      expect(allowed.map((x) => x.d.remaining).sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    }
    const refused = ds.find((x) => !x.d.allowed)!.d;
    expect(refused.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.resetSeconds).toBeLessThanOrEqual(60);
  } finally {
    for (const svc of all) await svc.close();
  }
}

describe.skipIf(!process.env.REDIS_URL)('exact shared budgets in Redis (needs Redis: set REDIS_URL)', () => {
  const redis = () => ({ REDIS_URL: process.env.REDIS_URL! });

  it('gives 60 balance checks alternating between two instances, and refuses the 61st on either', async () => {
    await expectExactAcrossInstances(redis());
  });

  it('allows exactly the budget from three instances counting at once', async () => {
    await expectExactUnderLoad(redis());
  });

  it('shares an address\'s anonymous budget between instances, and keeps deployments apart', async () => {
    const [a, b] = instances(2, { RATE_LIMITS: 'anonymous=3', ...redis() });
    const [other] = instances(1, { RATE_LIMITS: 'anonymous=3', ...redis(), SERVICE_SECRET: `another deployment ${crypto.randomUUID()}` });
    try {
      // The store's keys carry a namespace of this run's SERVICE_SECRET: no earlier run's count is seen.
      const address = '203.0.113.7';
      const ds = [await a!.consumeAnonymous(address), await b!.consumeAnonymous(address), await a!.consumeAnonymous(address), await b!.consumeAnonymous(address)];
      expect(ds.map((d) => [d?.allowed, d?.remaining])).toEqual([[true, 2], [true, 1], [true, 0], [false, 0]]);
      expect(await other!.consumeAnonymous(address)).toMatchObject({ allowed: true, remaining: 2 });
    } finally {
      for (const svc of [a, b, other]) await svc!.close();
    }
  });
});

describe.skipIf(!usingPostgres)('exact shared budgets in PostgreSQL (needs PostgreSQL: set DATABASE_URL)', () => {
  it('gives 60 balance checks alternating between two instances, and refuses the 61st on either', async () => {
    await expectExactAcrossInstances({});
  });

  it('allows exactly the budget from three instances counting at once', async () => {
    await expectExactUnderLoad({ DATABASE_URL: t.config.databaseUrl! });
  });

  it('asks the store once per counted request, and not at all once a key is refused', async () => {
    const [svc] = instances(1, { RATE_LIMITS: 'balance=5', DATABASE_URL: t.config.databaseUrl! });
    const counts = countingStatements(svc!);
    try {
      const merchant = crypto.randomUUID();
      const ds = [];
      for (let i = 0; i < 10; i++) ds.push(await svc!.consume(merchant, 'balance'));
      expect(ds.map((d) => d?.allowed)).toEqual([true, true, true, true, true, false, false, false, false, false]);
      expect(ds.map((d) => d?.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0, 0, 0, 0]);
      // Five allowed and the first refusal counted; the store's count only grows until the
      // window ends, so the later refusals are answered from memory.
      expect(counts()).toBe(6);
    } finally {
      await svc!.close();
    }
  });

  it('counts the requests that queue while its connections are busy in one statement, exactly', async () => {
    const [svc] = instances(1, { RATE_LIMITS: 'balance=30', DATABASE_URL: t.config.databaseUrl! });
    const counts = countingStatements(svc!);
    try {
      await svc!.consume(crypto.randomUUID(), 'balance');
      const merchants = [crypto.randomUUID(), crypto.randomUUID()];
      const ds = await Promise.all(Array.from({ length: 100 }, (_, i) => svc!.consume(merchants[i % 2]!, 'balance')));
      expect(ds.filter((d) => d?.allowed)).toHaveLength(60);
      for (const m of [0, 1]) {
        const remaining = ds.filter((d, i) => i % 2 === m && d?.allowed).map((d) => d!.remaining);
        expect(remaining).toEqual(Array.from({ length: 30 }, (_, i) => 29 - i));
      }
      expect(counts()).toBeLessThan(20);
    } finally {
      await svc!.close();
    }
  });
});

describe('the PostgreSQL counters\' statements (a pool that records them)', () => {
  it('count a request after a quiet spell at once, and under load carry what arrives within the spacing in one statement', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const sent: string[][] = [];
      const pool = {
        async query(q: { values: unknown[] }) {
          const [keys, points] = q.values.filter(Array.isArray) as [string[], number[]];
          sent.push(keys);
          return { rows: keys.map((key, i) => ({ key, points: points[i], expire: '0' })) };
        },
      };
      const counters = new PostgresCounters(pool as never, 1, 100);
      await counters.consume('a');
      expect(sent).toEqual([['a']]);
      // Within 100 ms of that statement: these wait, and go together.
      const b = counters.consume('b');
      const c = counters.consume('c');
      await vi.advanceTimersByTimeAsync(60);
      expect(sent).toHaveLength(1);
      const b2 = counters.consume('b');
      await vi.advanceTimersByTimeAsync(40);
      expect(sent).toEqual([['a'], ['b', 'c']]);
      expect((await Promise.all([b, c, b2])).map((r) => r.consumedPoints)).toEqual([1, 1, 2]);
      // After a quiet spell, at once again.
      await vi.advanceTimersByTimeAsync(500);
      await counters.consume('d');
      expect(sent).toEqual([['a'], ['b', 'c'], ['d']]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('counting several units of a budget at once (a GraphQL request asking for many rows)', () => {
  /** Units of 30, 25 and 30 against a budget of 60, asked at once: each sees the total before it plus its own. */
  async function expectUnits(env: Record<string, string>) {
    const [svc] = instances(1, { RATE_LIMITS: 'payout_status=60', ...env });
    try {
      const merchant = crypto.randomUUID();
      const ds = await Promise.all([30, 25, 30].map((n) => svc!.consume(merchant, 'payout_status', n)));
      // Counted in the order asked: 30, then 55, then 85, past the budget.
      expect(ds.map((d) => [d!.allowed, d!.remaining])).toEqual([[true, 30], [true, 5], [false, 0]]);
      const last = await svc!.consume(merchant, 'payout_status', 1);
      expect(last).toMatchObject({ allowed: false, remaining: 0 });
    } finally {
      await svc!.close();
    }
  }
  it('in memory', () => expectUnits({}));
  it.skipIf(!usingPostgres)('in PostgreSQL, one statement for the lot (needs PostgreSQL: set DATABASE_URL)', async () => {
    const [svc] = instances(1, { RATE_LIMITS: 'payout_status=60', DATABASE_URL: t.config.databaseUrl! });
    const counts = countingStatements(svc!);
    try {
      await svc!.consume(crypto.randomUUID(), 'payout_status');
      const before = counts();
      const merchant = crypto.randomUUID();
      const d = await svc!.consume(merchant, 'payout_status', 30);
      expect(d).toMatchObject({ allowed: true, remaining: 30 });
      expect(counts() - before).toBe(1);
    } finally {
      await svc!.close();
    }
    await expectUnits({ DATABASE_URL: t.config.databaseUrl! });
  });
  it.skipIf(!process.env.REDIS_URL)('in Redis (needs Redis: set REDIS_URL)', () => expectUnits({ REDIS_URL: process.env.REDIS_URL! }));
});

describe.skipIf(!usingPostgres)('the PostgreSQL counters\' table (needs PostgreSQL: set DATABASE_URL)', () => {
  it('is swept of ended windows, so it holds no more keys than the last minutes brought', async () => {
    const [svc] = instances(1, { RATE_LIMITS: 'anonymous=5', DATABASE_URL: t.config.databaseUrl! });
    const pool = (svc as unknown as { counters: { pool: import('pg').Pool } }).counters.pool;
    const ours = `key like '%anonymous:203.0.113.%'`;
    try {
      for (let i = 0; i < 50; i++) await svc!.consumeAnonymous(`203.0.113.${i}`);
      await pool.query(`update rate_limit_counters set expire = $1 where ${ours} and key not like '%.49'`, [Date.now() - 1]);
      await sweep(pool);
      const { rows } = await pool.query(`select key from rate_limit_counters where ${ours}`);
      expect(rows.map((r) => r.key.split(':').pop())).toEqual(['203.0.113.49']);
    } finally {
      await svc!.close();
    }
  });
});

/** How many counting statements `svc` has sent to PostgreSQL since this was called. */
function countingStatements(svc: RateLimitService): () => number {
  const pool = (svc as unknown as { counters: { pool: { query: (...a: unknown[]) => unknown } } }).counters.pool;
  const spy = vi.spyOn(pool, 'query');
  return () => spy.mock.calls.filter(([q]) => (q as { name?: string }).name === 'zarpay-rate-limit-count').length;
}
