import { bootOn } from '../src/boot.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR } from '../src/domain/actor.ts';
import { type App, createApp } from '../src/server.ts';
import { borrowed, PRD_PROVIDER, startApp, type TestApp } from './support/app.ts';
import { createMerchant, gql, http, type TestMerchant } from './support/client.ts';
import { openApiChecker } from './support/openapi.ts';
import { newPayment, paymentBody } from './support/payments.ts';

/**
 * Merchant settings over REST (issue 23 item 5; CONTRACT §10), the redirect allow-list a merchant
 * now sets itself, a return address that will not be followed said aloud, and the payment object
 * and list a merchant needs.
 */
let t: TestApp;
let shop: TestMerchant;
let other: TestMerchant;
let checker: ReturnType<typeof openApiChecker>;

beforeAll(async () => {
  t = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '60000' });
  shop = await createMerchant(t, { name: 'Kettle & Co' });
  other = await createMerchant(t, { name: 'Other' });
  checker = openApiChecker((await http(t, 'GET', '/api/v1/openapi.json')).body);
});
afterAll(() => t?.close());

const settings = async (m: TestMerchant = shop) => {
  const res = await http(t, 'GET', '/api/v1/merchant', { key: m.key });
  checker.check('GET', '/api/v1/merchant', res);
  return res;
};
const change = async (body: unknown, m: TestMerchant = shop) => {
  const res = await http(t, 'PATCH', '/api/v1/merchant', { key: m.key, body });
  checker.check('PATCH', '/api/v1/merchant', res);
  return res;
};

describe('GET and PATCH /api/v1/merchant', () => {
  it('reads the merchant\'s own settings', async () => {
    const res = await settings();
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      merchant_id: shop.id,
      name: 'Kettle & Co',
      webhook_url: null,
      allowed_redirect_domains: [],
      support_email: null,
      support_phone: null,
      payment_methods: null,
      payment_limits: { min_cents: 5500, max_cents: 300000 },
    });
  });

  it('changes only what is given; null clears; the next read and GraphQL agree', async () => {
    const first = await change({ webhook_url: 'https://shop.example/hooks', allowed_redirect_domains: ['Shop.Example', 'pay.shop.example'], support_email: 'help@shop.example' });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      webhook_url: 'https://shop.example/hooks',
      allowed_redirect_domains: ['shop.example', 'pay.shop.example'],
      support_email: 'help@shop.example',
      support_phone: null,
    });
    const second = await change({ support_phone: '+27 21 555 0100', webhook_url: null });
    expect(second.body.data).toMatchObject({ webhook_url: null, allowed_redirect_domains: ['shop.example', 'pay.shop.example'], support_email: 'help@shop.example', support_phone: '+27 21 555 0100' });
    expect((await settings()).body.data).toEqual(second.body.data);
    const g = await gql(t, '{ viewer { webhookUrl redirectDomains supportEmail supportPhone } }', {}, { key: shop.key });
    expect(g.body.data.viewer).toEqual({ webhookUrl: null, redirectDomains: ['shop.example', 'pay.shop.example'], supportEmail: 'help@shop.example', supportPhone: '+27 21 555 0100' });
    // Another merchant is untouched.
    expect((await settings(other)).body.data).toMatchObject({ allowed_redirect_domains: [], support_email: null });
    // The hosted page shows the support contact the merchant set.
    const p = await newPayment(t, shop);
    expect(String((await http(t, 'GET', `/pay/${p.payment_id}`)).body)).toContain('help@shop.example');
  });

  it('refuses bad values with VALIDATION_FAILED, naming the fields, and changes nothing', async () => {
    const before = (await settings()).body.data;
    for (const [body, field] of [
      [{ webhook_url: 'ftp://shop.example/x' }, 'webhook_url'],
      [{ webhook_url: 'not a url' }, 'webhook_url'],
      [{ allowed_redirect_domains: ['not a domain'] }, 'allowed_redirect_domains.0'],
      [{ allowed_redirect_domains: 'shop.example' }, 'allowed_redirect_domains'],
      [{ support_email: 'nobody' }, 'support_email'],
      [{ support_phone: 'call me' }, 'support_phone'],
      [{ name: 'Renamed' }, 'name'],
      [{ payment_fee_bps: 0 }, 'payment_fee_bps'],
    ] as const) {
      const res = await change(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect((await http(t, 'PATCH', '/api/v1/merchant', { key: shop.key, rawBody: '{', headers: { 'content-type': 'application/json' } })).body.error.code).toBe('INVALID_INPUT');
    expect((await settings()).body.data).toEqual(before);
    expect((await http(t, 'PATCH', '/api/v1/merchant', { body: {} })).status).toBe(401);
  });

  it('has a GraphQL twin for the merchant, refused to the operator', async () => {
    const m = await createMerchant(t);
    const res = await gql(t, 'mutation($i: MerchantSettingsInput!) { updateMerchantSettings(input: $i) { merchant { redirectDomains supportEmail } } }', { i: { allowedRedirectDomains: ['m.example'], supportEmail: 'a@m.example' } }, { key: m.key });
    expect(res.body.data.updateMerchantSettings.merchant).toEqual({ redirectDomains: ['m.example'], supportEmail: 'a@m.example' });
    expect((await settings(m)).body.data).toMatchObject({ allowed_redirect_domains: ['m.example'], support_email: 'a@m.example' });
    const bad = await gql(t, 'mutation($i: MerchantSettingsInput!) { updateMerchantSettings(input: $i) { merchant { id } } }', { i: { supportEmail: 'nope' } }, { key: m.key });
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    const operator = await gql(t, 'mutation { updateMerchantSettings(input: { supportEmail: "x@y.example" }) { merchant { id } } }', {}, { operator: true });
    expect(operator.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('counts against the credentials budget', async () => {
    const limited = await startApp({ RATE_LIMITS: 'credentials=2' });
    try {
      const m = await createMerchant(limited);
      expect((await http(limited, 'GET', '/api/v1/merchant', { key: m.key })).headers.get('ratelimit-limit')).toBe('2');
      await http(limited, 'PATCH', '/api/v1/merchant', { key: m.key, body: { support_email: 'a@b.example' } });
      const third = await http(limited, 'PATCH', '/api/v1/merchant', { key: m.key, body: { support_email: 'a@b.example' } });
      expect(third.status).toBe(429);
      expect(third.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    } finally {
      await limited.close();
    }
  });
});

describe('the redirect allow-list a merchant sets', () => {
  it('is followed at once, and a return address it does not cover is named in metadata.warnings', async () => {
    const m = await createMerchant(t);
    const body = paymentBody({ success_url: 'https://returns.example/ok', cancel_url: 'https://elsewhere.example/no', intent_type: 'purchase_and_redeem' });
    const before = await http(t, 'POST', '/api/v1/payments/init', { key: m.key, body });
    checker.check('POST', '/api/v1/payments/init', before);
    expect(before.status).toBe(200);
    expect(before.body.metadata.warnings).toEqual([
      { field: 'success_url', message: expect.stringContaining('returns.example is not in the merchant\'s allowed_redirect_domains') },
      { field: 'cancel_url', message: expect.stringContaining('elsewhere.example') },
    ]);
    await change({ allowed_redirect_domains: ['returns.example', 'elsewhere.example'] }, m);
    const after = await http(t, 'POST', '/api/v1/payments/init', { key: m.key, body: paymentBody({ success_url: 'https://returns.example/ok', cancel_url: 'https://elsewhere.example/no' }) });
    expect(after.body.metadata.warnings).toBeUndefined();
    // The replay of the first answers the same data.
    const replay = await http(t, 'POST', '/api/v1/payments/init', { key: m.key, body });
    expect(replay.body.data).toEqual(before.body.data);
    // The hosted page now sends the customer back to the allow-listed address.
    const id = after.body.data.payment_id;
    await gql(t, `mutation { settlePayment(id: "${id}", outcome: CANCELLED) { payment { id } } }`, {}, { operator: true });
    const page = await http(t, 'GET', `/pay/${id}`);
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('https://elsewhere.example/no');
    const g = await gql(t, 'mutation($i: InitiatePaymentInput!) { initiatePayment(input: $i) { warnings { field message } } }', { i: { amount: 10_000, currency: 'ZAR', merchantOrderId: 'G-1', failureUrl: 'https://nowhere.example/x' } }, { key: m.key });
    expect(g.body.data.initiatePayment.warnings).toEqual([{ field: 'failureUrl', message: expect.stringContaining('nowhere.example') }]);
  });

  it('in prd, warns of an allow-listed address that is not https on 443', async () => {
    const m = await createMerchant(t);
    await change({ allowed_redirect_domains: ['shop.example'] }, m);
    const config = {
      ...t.config,
      serviceEnv: 'prd' as const,
      trustProxy: true,
      publicBaseUrl: 'https://pay.zarpay.example',
      yoco: { secretKey: PRD_PROVIDER.YOCO_SECRET_KEY, webhookSecret: PRD_PROVIDER.YOCO_WEBHOOK_SECRET, apiUrl: PRD_PROVIDER.YOCO_API_URL },
    };
    const prd: App = createApp((await bootOn(config, borrowed(t.database))).services);
    const url = await prd.start();
    try {
      const { fullKey } = await prd.services.keys.issue(OPERATOR, m.id);
      const res = await http({ url }, 'POST', '/api/v1/payments/init', { key: fullKey, body: paymentBody({ success_url: 'https://shop.example:8443/ok' }), headers: { 'x-forwarded-proto': 'https' } });
      expect(res.status).toBe(200);
      expect(res.body.metadata.warnings).toEqual([{ field: 'success_url', message: expect.stringContaining('https on port 443') }]);
      // A webhook URL in prd: https and no private address, as for the operator.
      for (const webhook_url of ['http://shop.example/hooks', 'https://10.0.0.7/hooks', 'https://127.0.0.1/hooks', 'https://[::1]/hooks']) {
        const bad = await http({ url }, 'PATCH', '/api/v1/merchant', { key: fullKey, body: { webhook_url }, headers: { 'x-forwarded-proto': 'https' } });
        expect(bad.status, webhook_url).toBe(400);
        expect(bad.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'webhook_url' }] });
      }
      const ok = await http({ url }, 'PATCH', '/api/v1/merchant', { key: fullKey, body: { webhook_url: 'https://shop.example/hooks' }, headers: { 'x-forwarded-proto': 'https' } });
      expect(ok.body.data.webhook_url).toBe('https://shop.example/hooks');
    } finally {
      await prd.stop();
    }
  });
});

describe('the payment object and list', () => {
  it('carries merchant_order_id, description, created_at and failure_reason', async () => {
    const p = await newPayment(t, other, { merchant_order_id: 'ORD-1001', description: 'A kettle' });
    const res = await http(t, 'GET', `/api/v1/payments/${p.payment_id}`, { key: other.key });
    checker.check('GET', '/api/v1/payments/{payment_id}', res);
    expect(res.body.data).toMatchObject({ merchant_order_id: 'ORD-1001', description: 'A kettle', failure_reason: null });
    expect(Date.now() - Date.parse(res.body.data.created_at)).toBeLessThan(60_000);
  });

  it('filters by merchant_order_id and by creation, days in SAST, both ends included', async () => {
    const m = await createMerchant(t);
    const ids: string[] = [];
    for (const order of ['A-1', 'A-2', 'A-3']) ids.push((await newPayment(t, m, { merchant_order_id: order })).payment_id);
    const { sql } = await import('kysely');
    // A-1 on 1 March SAST just after midnight (22:00 UTC the day before), A-2 at the last instant of 2 March SAST.
    await sql`update payments set created_at = '2026-02-28T22:00:00Z' where id = ${ids[0]}::uuid`.execute(t.database.db);
    await sql`update payments set created_at = '2026-03-02T21:59:59.999Z' where id = ${ids[1]}::uuid`.execute(t.database.db);
    const list = async (q: string) => {
      const res = await http(t, 'GET', `/api/v1/payments${q}`, { key: m.key });
      checker.check('GET', '/api/v1/payments', res);
      return res;
    };
    const orders = async (q: string) => (await list(q)).body.data.payments.map((p: { merchant_order_id: string }) => p.merchant_order_id);
    expect((await list('?merchant_order_id=A-2')).body.data).toMatchObject({ total: 1, payments: [{ payment_id: ids[1] }] });
    expect(await orders('?merchant_order_id=A-9')).toEqual([]);
    expect(await orders('?created_from=2026-03-01&created_to=2026-03-01')).toEqual(['A-1']);
    expect(await orders('?created_from=2026-03-01&created_to=2026-03-02')).toEqual(['A-2', 'A-1']);
    expect(await orders('?created_from=2026-03-02')).toEqual(['A-3', 'A-2']);
    expect(await orders('?created_to=2026-02-28')).toEqual([]);
    expect(await orders(`?created_from=${encodeURIComponent('2026-03-02T23:59:59.999+02:00')}&created_to=${encodeURIComponent('2026-03-02T23:59:59.999+02:00')}`)).toEqual(['A-2']);
    expect(await orders('?created_from=2026-03-01&status=created&merchant_order_id=A-1')).toEqual(['A-1']);
    // GraphQL's connection takes the same filters.
    const g = await gql(t, '{ payments(createdFrom: "2026-03-01", createdTo: "2026-03-02") { totalCount edges { node { merchantOrderId } } } }', {}, { key: m.key });
    expect(g.body.data.payments).toEqual({ totalCount: 2, edges: [{ node: { merchantOrderId: 'A-2' } }, { node: { merchantOrderId: 'A-1' } }] });
    const one = await gql(t, '{ payments(merchantOrderId: "A-3") { totalCount } }', {}, { key: m.key });
    expect(one.body.data.payments.totalCount).toBe(1);
    expect((await gql(t, '{ payments(createdFrom: "yesterday") { totalCount } }', {}, { key: m.key })).body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    for (const q of ['?created_from=yesterday', '?created_to=2026-02-30', '?created_from=2026-03-01T00:00:00', '?merchant_order_id=']) {
      const res = await list(q);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code, q).toBe('VALIDATION_FAILED');
    }
  });
});
