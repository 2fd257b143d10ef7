import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checksum, generateKey } from '../src/domain/api-key.ts';
import { addressKey } from '../src/http/anonymous.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, http, type HttpResult, type TestMerchant } from './support/client.ts';
import { formPost, newPayment, pageToken, pathOf } from './support/payments.ts';

const BUDGET = 4;
let t: TestApp;
let shop: TestMerchant;
let payment: Awaited<ReturnType<typeof newPayment>>;

beforeAll(async () => {
  // The test's requests come from 127.0.0.1, a trusted proxy here: each test speaks for clients
  // of its own through X-Forwarded-For, so that no test spends another's budget.
  t = await startApp({ RATE_LIMITS: `anonymous=${BUDGET}`, TRUST_PROXY: '127.0.0.1', SANDBOX_CONFIRM_DELAY_MS: '60000' });
  shop = await createMerchant(t);
  payment = await newPayment(t, shop, { include_qr: true });
});
afterAll(() => t?.close());

let clients = 0;
/** A client address no other test uses. */
const freshAddress = () => `198.51.100.${++clients}`;
const from = (address: string, headers: Record<string, string> = {}) => ({ 'x-forwarded-for': address, ...headers });

type Send = (address: string) => Promise<HttpResult>;

/** What a client without valid credentials may send; each spends the budget. */
const anonymous: Record<string, Send> = {
  'a malformed key on REST': (a) => http(t, 'GET', '/api/v1/payouts/balance', { key: 'nope', headers: from(a) }),
  'no key on REST': (a) => http(t, 'GET', '/api/v1/payouts', { headers: from(a) }),
  'an unknown kid on REST': (a) => http(t, 'GET', '/api/v1/payouts/balance', { key: generateKey('tst').fullKey, headers: from(a) }),
  'a known kid with a wrong secret on REST': (a) => http(t, 'GET', '/api/v1/payouts/balance', { key: wrongSecret(), headers: from(a) }),
  'the hosted page': (a) => http(t, 'GET', pathOf(payment.payment_url), { headers: from(a) }),
  'a QR image': (a) => http(t, 'GET', pathOf(payment.qr_code!.image_url), { headers: from(a) }),
  'a provider webhook': (a) => http(t, 'POST', '/providers/sandbox/webhook', { body: { forged: true }, headers: from(a) }),
  'keyless /graphql': (a) => http(t, 'POST', '/graphql', { body: { query: '{ __typename }' }, headers: from(a) }),
  'a bad key on /graphql': (a) => http(t, 'POST', '/graphql', { key: 'nope', body: { query: '{ viewer { id } }' }, headers: from(a) }),
  'a bad operator token on /graphql/stream': (a) => http(t, 'GET', '/graphql/stream', { headers: from(a, { authorization: 'Bearer nope' }) }),
  'the API reference': (a) => http(t, 'GET', '/docs', { headers: from(a) }),
  'an unknown route': (a) => http(t, 'GET', '/wp-login.php', { headers: from(a) }),
};

/** The shop's kid with a secret that is not its own (valid format and checksum). */
function wrongSecret() {
  const prefix = `sec1-tst-${shop.kid}-${'x'.repeat(43)}-`;
  return prefix + checksum(prefix);
}

async function spend(send: Send, address: string): Promise<HttpResult[]> {
  const seen = [];
  for (let i = 0; i < BUDGET; i++) seen.push(await send(address));
  return seen;
}

function expectRefused(res: HttpResult) {
  expect(res.status).toBe(429);
  expect(res.headers.get('ratelimit-limit')).toBe(String(BUDGET));
  expect(res.headers.get('ratelimit-remaining')).toBe('0');
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('the anonymous budget (CONTRACT §9)', () => {
  it.each(Object.entries(anonymous))('counts %s per address, and refuses the one over with 429 and Retry-After', async (_name, send) => {
    const address = freshAddress();
    const allowed = await spend(send, address);
    expect(allowed.map((r) => r.status).filter((s) => s === 429)).toEqual([]);
    expect(allowed.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['3', '2', '1', '0']);
    expectRefused(await send(address));
  });

  it('answers in the shape of the route: the envelope, a GraphQL error, the shopper\'s page', async () => {
    const address = freshAddress();
    await spend(anonymous['no key on REST']!, address);
    const rest = await anonymous['a malformed key on REST']!(address);
    expectRefused(rest);
    expect(rest.body).toMatchObject({ status: 'error', error: { code: 'RATE_LIMIT_EXCEEDED' }, metadata: { api_version: 'v1' } });

    const graphql = await anonymous['keyless /graphql']!(address);
    expectRefused(graphql);
    expect(graphql.body.errors).toEqual([{ message: expect.stringMatching(/per minute exceeded/), extensions: { code: 'RATE_LIMIT_EXCEEDED' } }]);
    expect(graphql.body.data).toBeUndefined();

    const page = await http(t, 'GET', `${pathOf(payment.payment_url)}?lang=af`, { headers: from(address) });
    expectRefused(page);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.body).toContain('Te veel versoeke');
    expect(page.body).toContain(`Wag asseblief ${page.headers.get('retry-after')} sekondes`);

    const qr = await anonymous['a QR image']!(address);
    expectRefused(qr);
    expect(qr.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
  });

  it('is one budget per address, whatever the routes it is spent on', async () => {
    const address = freshAddress();
    const kinds = ['a malformed key on REST', 'the hosted page', 'keyless /graphql', 'a provider webhook'];
    const statuses = [];
    for (const kind of kinds) statuses.push((await anonymous[kind]!(address)).status);
    expect(statuses).not.toContain(429);
    expectRefused(await anonymous['a QR image']!(address));
  });

  it('leaves another address alone, as a trusted proxy names it in X-Forwarded-For', async () => {
    const spent = freshAddress();
    await spend(anonymous['no key on REST']!, spent);
    expectRefused(await anonymous['no key on REST']!(spent));
    const other = await anonymous['no key on REST']!(freshAddress());
    expect(other.status).toBe(401);
    expect(other.headers.get('ratelimit-remaining')).toBe('3');
    // The client is the address the proxy appended last, not what the client wrote before it.
    const forged = await http(t, 'GET', '/api/v1/payouts', { headers: { 'x-forwarded-for': `${freshAddress()}, ${spent}` } });
    expectRefused(forged);
  });

  it('never refuses valid credentials, and never charges them, from a spent address', async () => {
    const address = freshAddress();
    await spend(anonymous['no key on REST']!, address);
    const balance = await http(t, 'GET', '/api/v1/payouts/balance', { key: shop.key, headers: from(address) });
    expect(balance.status).toBe(200);
    expect(balance.headers.get('ratelimit-limit')).toBe('60');
    const viewer = await http(t, 'POST', '/graphql', { key: shop.key, body: { query: '{ viewer { id } }' }, headers: from(address) });
    expect(viewer.body).toEqual({ data: { viewer: { id: shop.id } } });
    const operator = await http(t, 'POST', '/graphql', { body: { query: '{ __typename }' }, headers: from(address, { authorization: `Bearer ${t.config.operatorToken}` }) });
    expect(operator.status).toBe(200);
    // A route that takes no credentials does not charge a request that proves valid ones...
    const docs = await http(t, 'GET', '/docs', { key: shop.key, headers: from(address) });
    expect(docs.status).toBe(200);
    expect(docs.headers.get('ratelimit-limit')).toBeNull();
    // ...and a made-up key buys no way around the budget.
    expectRefused(await http(t, 'GET', '/docs', { key: 'made-up', headers: from(address) }));
  });

  it('counts the hosted page, QR and provider routes even with a valid key', async () => {
    const address = freshAddress();
    for (let i = 0; i < BUDGET; i++) {
      expect((await http(t, 'GET', pathOf(payment.payment_url), { key: shop.key, headers: from(address) })).status).toBe(200);
    }
    expectRefused(await http(t, 'GET', pathOf(payment.qr_code!.image_url), { key: shop.key, headers: from(address) }));
  });

  it('spends a request\'s budget at most once, wherever and whenever its credentials are checked', async () => {
    const consume = vi.spyOn(t.app.services.rateLimits, 'consumeAnonymous');
    const key = { key: shop.key };
    const operator = { authorization: `Bearer ${t.config.operatorToken}` };
    const fresh = await newPayment(t, shop);
    const token = await pageToken(t, fresh.payment_id);
    /** What each request spends: [name, request from an address, times counted]. */
    const cases: [string, Send, number][] = [
      ...Object.entries(anonymous).map(([name, send]): [string, Send, number] => [name, send, 1]),
      ['a valid key on REST', (a) => http(t, 'GET', '/api/v1/payouts/balance', { ...key, headers: from(a) }), 0],
      ['a valid key on /graphql', (a) => http(t, 'POST', '/graphql', { ...key, body: { query: '{ viewer { id } }' }, headers: from(a) }), 0],
      ['the operator on /graphql', (a) => http(t, 'POST', '/graphql', { body: { query: '{ __typename }' }, headers: from(a, operator) }), 0],
      ['a valid key and a bad operator token on /graphql', (a) => http(t, 'POST', '/graphql', { ...key, body: { query: '{ __typename }' }, headers: from(a, { authorization: 'Bearer nope' }) }), 1],
      ['a valid key on the hosted page', (a) => http(t, 'GET', pathOf(payment.payment_url), { ...key, headers: from(a) }), 1],
      ['a valid key on /docs', (a) => http(t, 'GET', '/docs', { ...key, headers: from(a) }), 0],
      ['a made-up key on /docs', (a) => http(t, 'GET', '/docs', { key: 'made-up', headers: from(a) }), 1],
      ['a form post without its token', (a) => http(t, 'POST', `/pay/${fresh.payment_id}/cancel`, { body: {}, headers: from(a) }), 1],
      ['a provider notification without its signature', (a) => http(t, 'POST', '/providers/sandbox/webhook', { body: { forged: true }, headers: from(a) }), 1],
      ['/healthz', (a) => http(t, 'GET', '/healthz', { headers: from(a) }), 0],
    ];
    try {
      for (const [name, send, times] of cases) {
        consume.mockClear();
        const res = await send(freshAddress());
        expect(consume.mock.calls.length, name).toBe(times);
        // Counted once: the address's budget is one request down (an uncounted request may carry a merchant's budget instead).
        if (times) expect(res.headers.get('ratelimit-remaining'), name).toBe(String(BUDGET - 1));
      }
      // A button pressed with the page's own token: counted before the body is read, and not again once the token is checked.
      consume.mockClear();
      const pressed = await formPost(t, `/pay/${fresh.payment_id}/cancel`, { token });
      expect(pressed.status).toBe(303);
      expect(consume).toHaveBeenCalledTimes(1);
    } finally {
      consume.mockRestore();
    }
  });

  it('leaves /healthz and /readyz to the load balancers', async () => {
    const address = freshAddress();
    await spend(anonymous['no key on REST']!, address);
    for (const path of ['/healthz', '/readyz', '/healthz']) {
      const res = await http(t, 'GET', path, { headers: from(address) });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
  });

  it('counts an IPv6 client by its /64, and an IPv4-mapped address as the IPv4 address', async () => {
    const statuses = [];
    for (const address of ['2001:db8:7:7::1', '2001:db8:7:7::2', '2001:db8:7:7:ffff:1:2:3', '2001:db8:7:7::abcd']) {
      statuses.push((await http(t, 'GET', '/api/v1/payouts', { headers: from(address) })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401]);
    expectRefused(await http(t, 'GET', '/api/v1/payouts', { headers: from('2001:db8:7:7:1:2:3:4') }));
    expect((await http(t, 'GET', '/api/v1/payouts', { headers: from('2001:db8:7:8::1') })).status).toBe(401);

    expect(addressKey('2001:DB8:7:7::1')).toBe('2001:db8:7:7::/64');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
  });

  it('parses the address before any budget: a port, brackets or a mapped form is the same client', async () => {
    const statuses = [];
    for (const address of ['198.51.100.250:1234', '198.51.100.250:5678', '[::ffff:198.51.100.250]:443', '::ffff:c633:64fa']) {
      statuses.push((await http(t, 'GET', '/api/v1/payouts', { headers: from(address) })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401]);
    expectRefused(await http(t, 'GET', '/api/v1/payouts', { headers: from('198.51.100.250') }));
    for (const address of ['[2001:db8:9:9::1]:8443', '[2001:db8:9:9::2]', '2001:db8:9:9::3', '[2001:db8:9:9:a:b:c:d]:1']) {
      expect((await http(t, 'GET', '/api/v1/payouts', { headers: from(address) })).status).toBe(401);
    }
    expectRefused(await http(t, 'GET', '/api/v1/payouts', { headers: from('2001:db8:9:9::99') }));

    expect(addressKey('203.0.113.9:80')).toBe('203.0.113.9');
    expect(addressKey('[::ffff:203.0.113.9]:80')).toBe('203.0.113.9');
    expect(addressKey('[2001:db8::1]')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('gives everything unparseable one shared budget, "unparseable", and logs it', async () => {
    const junk = ['unknown', 'not-an-ip', '127.1', '0x7f.0.0.1', '999.1.2.3', '1.2.3.4:99999', '[1.2.3.4]', 'a'.repeat(300)];
    for (const raw of junk) expect(addressKey(raw), raw).toBe('unparseable');
    const statuses = [];
    for (const address of junk.slice(0, BUDGET)) statuses.push((await http(t, 'GET', '/api/v1/payouts', { headers: from(address) })).status);
    expect(statuses).toEqual([401, 401, 401, 401]);
    expectRefused(await http(t, 'GET', '/api/v1/payouts', { headers: from(junk[BUDGET]!) }));
  });

  it('logs an unparseable address, at most once a minute', async () => {
    let logs = '';
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    const logged = await startApp({ RATE_LIMITS: `anonymous=${BUDGET}`, TRUST_PROXY: '127.0.0.1', LOG_LEVEL: 'warn' }, { logStream });
    try {
      for (const address of ['junk-1', 'junk-2', '10.0.0.1:99999']) await http(logged, 'GET', '/api/v1/payouts', { headers: from(address) });
      await vi.waitFor(() => expect(logs).toContain('"address":"junk-1"'));
      expect(logs.match(/not an IP address/g)).toHaveLength(1);
    } finally {
      await logged.close();
    }
  }, 120_000); // a second service: on embedded PostgreSQL, a second database to migrate
});

describe('without a trusted proxy', () => {
  let direct: TestApp;
  beforeAll(async () => {
    direct = await startApp({ RATE_LIMITS: `anonymous=${BUDGET}` });
  });
  afterAll(() => direct?.close());

  it('ignores X-Forwarded-For: a client cannot name itself out of its budget', async () => {
    const statuses = [];
    for (let i = 0; i <= BUDGET; i++) {
      statuses.push((await http(direct, 'GET', '/api/v1/payouts', { headers: { 'x-forwarded-for': `203.0.113.${i}` } })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
  });
});
