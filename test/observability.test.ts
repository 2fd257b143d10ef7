import { readdirSync, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_QUERY } from '../src/graphql/graphiql.ts';
import { KNOWN_OPERATION_NAMES } from '../src/graphql/operation-metrics.ts';
import { RequestLogger } from '../src/http/request-logger.ts';
import { startApp, type TestApp, usingPostgres } from './support/app.ts';
import { createMerchant, credit, gql, http, payoutBody, type TestMerchant } from './support/client.ts';
import { eventually } from './support/receiver.ts';

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
    // The line is written once the response has gone (onResponse).
    await eventually(async () => lines.some((l) => l.reqId === 'trace-77'));
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

  it("a request's own log lines carry its id, from a child logger made only when it logs", () => {
    const written: Record<string, unknown>[] = [];
    const parent = pino({ level: 'info' }, { write: (line: string) => written.push(JSON.parse(line)) });
    const child = vi.spyOn(parent, 'child');
    const log = new RequestLogger(parent, { reqId: 'trace-78' }, {});
    expect(child).not.toHaveBeenCalled();
    log.warn({ code: 'X' }, 'something odd');
    log.info('and more');
    log.debug('not at this level');
    expect(child).toHaveBeenCalledTimes(1);
    expect(written).toMatchObject([
      { level: 40, reqId: 'trace-78', code: 'X', msg: 'something odd' },
      { level: 30, reqId: 'trace-78', msg: 'and more' },
    ]);
    log.level = 'debug';
    log.debug('now it is');
    expect(written.at(-1)).toMatchObject({ level: 20, reqId: 'trace-78', msg: 'now it is' });
  });

  it('names the merchant for GraphQL requests too', async () => {
    await gql(t, '{ balance { availableCents } }', {}, { key: shop.key });
    await eventually(async () => lines.some((l) => l.route === '/graphql' && l.merchant_id === shop.id));
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
    await gql(t, '{ balance { availableCents } }', {}, { operator: true, headers: { 'x-request-id': 'secrets-last' } });
    // Every line is in once the last request's is (lines are written in order).
    await eventually(async () => lines.some((l) => l.reqId === 'secrets-last'));
    for (const secret of [shop.key, shop.key.split('-')[3]!, newKey, newKey.split('-')[3]!, accountNumber, t.config.operatorToken, t.config.serviceSecret]) {
      expect(raw).not.toContain(secret);
    }
    shop = { ...shop, key: newKey };
  });
});

describe('/metrics', () => {
  it('exposes request, GraphQL, payout and runtime metrics in Prometheus format', async () => {
    await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(500) });
    await gql(t, 'query Dashboard { balance { availableCents } }', {}, { key: shop.key });
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
    expect(text).toMatch(/zarpay_graphql_operations_total\{type="query",name="Dashboard",outcome="ok"\} 1/);
    expect(text).toMatch(/zarpay_payouts\{status="pending",measure="count"\} \d+/);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text).toMatch(/zarpay_webhook_deliveries\{status="pending"\} \d+/);
    expect(text).toMatch(/zarpay_webhook_delivery_lag_seconds\{measure="oldest_pending"\} [\d.]+/);
    expect(text).toContain('zarpay_webhook_attempts');
  });
});

describe('/metrics has a bounded number of series, whatever callers send', () => {
  const scrape = async () => (await fetch(`${t.url}/metrics`)).text();
  /** The series of one metric: its label sets. */
  const series = (text: string, name: string) => new Set(text.split('\n').filter((l) => l.startsWith(`${name}{`)).map((l) => l.slice(0, l.lastIndexOf(' '))));
  const random = () => Math.random().toString(36).slice(2, 10);

  it('1,000 operation names, unknown URLs and odd methods, without credentials, add no label values', async () => {
    const odd = async (i: number) => {
      await gql(t, `mutation M${random()} { __typename }`);
      await http(t, 'GET', `/${random()}/${random()}?x=${random()}`);
      await http(t, 'POST', `/api/v1/payouts/${random()}/${random()}`, { body: {} });
      await http(t, i % 2 ? 'PROPFIND' : 'MKCOL', `/graphql/${random()}`);
    };
    // The first of each kind may add its series (`other`, `unmatched`); no later one may.
    await gql(t, `query Q${random()} { __typename }`);
    await odd(0);
    await odd(1);
    const before = await scrape();
    for (let i = 0; i < 1_000; i++) {
      await gql(t, `query Q${random()} { __typename }`);
      if (i % 10 === 0) await odd(i / 10);
    }
    const after = await scrape();
    for (const name of ['zarpay_graphql_operations_total', 'zarpay_http_requests_total', 'zarpay_http_request_duration_seconds_bucket', 'zarpay_rate_limit_refusals_total']) {
      expect([...series(after, name)].filter((s) => !series(before, name).has(s)), name).toEqual([]);
    }
    expect(after).toMatch(/zarpay_graphql_operations_total\{type="query",name="other",outcome="ok"\} \d{4}/);
    expect(after).toMatch(/zarpay_http_requests_total\{method="GET",route="unmatched",status="404"\}/);
    expect(after).toMatch(/zarpay_http_requests_total\{method="other",route="unmatched",status="404"\}/);
    // 4,000 requests: on a busy two-core machine with the embedded database, half a minute.
  }, 120_000);

  it('names every operation that zarpay\'s documentation and GraphiQL use', () => {
    const texts = [DEFAULT_QUERY, readFileSync('README.md', 'utf8'), ...readdirSync('docs').map((f) => readFileSync(`docs/${f}`, 'utf8'))];
    const named = new Set(texts.flatMap((text) => [...text.matchAll(/\b(?:query|mutation|subscription)\s+([A-Z]\w*)\s*[({]/g)].map((m) => m[1]!)));
    expect(named.size).toBeGreaterThan(0);
    for (const name of named) expect(KNOWN_OPERATION_NAMES.has(name), name).toBe(true);
  });
});

describe.skipIf(!usingPostgres)('the database pool gauge (needs PostgreSQL: the embedded database has no pool)', () => {
  it('reads what pg.Pool reports on an idle service, not the scrape\'s own queries', async () => {
    // Nothing in the background: the only queries are the scrape's own.
    const quiet = await startApp({ RUN_DISPATCHER: 'false', RUN_RECONCILER: 'false' });
    try {
      const pool = quiet.database.pool!;
      const gauge = (scrape: string) =>
        Object.fromEntries(['total', 'idle', 'waiting'].map((state) => [state, Number(new RegExp(`^zarpay_db_pool_connections\\{state="${state}"\\} (\\d+)$`, 'm').exec(scrape)?.[1])]));
      // The first scrape finds a pool that has not yet opened what the scrape needs, the later ones a warm one.
      for (let scrape = 0; scrape < 3; scrape++) {
        while (pool.waitingCount > 0 || pool.idleCount < pool.totalCount) await new Promise((r) => setTimeout(r, 20));
        const before = { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
        const text = await (await fetch(`${quiet.url}/metrics`)).text();
        expect(gauge(text)).toEqual(before);
        expect(gauge(text).waiting).toBe(0);
      }
      expect(pool.totalCount).toBeGreaterThan(0);
    } finally {
      await quiet.close();
    }
  });
});
