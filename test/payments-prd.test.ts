import { bootOn } from '../src/boot.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR } from '../src/domain/actor.ts';
import { type App, createApp } from '../src/server.ts';
import { borrowed, startApp, type TestApp } from './support/app.ts';
import { createMerchant, gql, http, op, type TestMerchant } from './support/client.ts';
import { newPayment, paymentBody, pathOf } from './support/payments.ts';
import { startYocoDouble, type YocoDouble } from './support/yoco-double.ts';

/**
 * The production rules, on a second service in `prd` over the test database: config loading
 * refuses `prd` without PostgreSQL and real secrets, so the prd settings are applied directly.
 * Requests carry `X-Forwarded-Proto: https` from a trusted proxy, as behind a load balancer.
 */
let t: TestApp;
let prd: App;
let prdUrl: string;
let shop: TestMerchant;
let yoco: YocoDouble;

beforeAll(async () => {
  yoco = await startYocoDouble();
  t = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50' });
  shop = await createMerchant(t);
  await op(t, `mutation { updateMerchant(id: "${shop.id}", input: { addRedirectDomains: ["shop.example"] }) { merchant { id } } }`);
  const config = {
    ...t.config,
    serviceEnv: 'prd' as const,
    trustProxy: true,
    publicBaseUrl: 'https://pay.zarpay.example',
    yoco: { secretKey: yoco.secretKey, webhookSecret: yoco.webhookSecret, apiUrl: yoco.apiUrl },
  };
  prd = createApp((await bootOn(config, borrowed(t.database))).services);
  prdUrl = await prd.start();
});
afterAll(async () => {
  await prd?.stop();
  await t?.close();
  await yoco?.close();
});

const https = { 'x-forwarded-proto': 'https' };
const prdHttp = (method: string, path: string, opts: Parameters<typeof http>[3] = {}) =>
  http({ url: prdUrl }, method, path, { ...opts, headers: { ...https, ...opts.headers } });

describe('payments in prd', () => {
  it('refuses http URLs at initiation and hands out https payment URLs', async () => {
    const { fullKey } = await prd.services.keys.issue(OPERATOR, shop.id);
    expect(fullKey.startsWith('sec1-prd-')).toBe(true);
    for (const field of ['success_url', 'cancel_url', 'failure_url', 'webhook_url']) {
      const res = await prdHttp('POST', '/api/v1/payments/init', { key: fullKey, body: paymentBody({ [field]: 'http://shop.example/x' }) });
      expect(res.status, field).toBe(400);
      expect(res.body.error.code, field).toBe('VALIDATION_FAILED');
    }
    const ok = await prdHttp('POST', '/api/v1/payments/init', { key: fullKey, body: paymentBody({ success_url: 'https://shop.example/ok', include_qr: true }) });
    expect(ok.status).toBe(200);
    expect(ok.body.data.payment_url).toBe(`https://pay.zarpay.example/pay/${ok.body.data.payment_id}`);
    expect(ok.body.data.qr_code.image_url.startsWith('https://pay.zarpay.example/qr/')).toBe(true);
    // The sandbox's tst key is not valid against the prd service.
    expect((await prdHttp('POST', '/api/v1/payments/init', { key: shop.key, body: paymentBody() })).status).toBe(401);
  });

  it('refuses a payment webhook_url the merchant webhook URL would be refused for: loopback, private, credentials (REST and GraphQL)', async () => {
    const { fullKey } = await prd.services.keys.issue(OPERATOR, shop.id);
    for (const url of ['https://127.0.0.1/hook', 'https://10.1.2.3/hook', 'https://[::1]/hook', 'https://localhost/hook', 'https://user:pw@shop.example/hook', 'https://[::ffff:192.168.0.1]/hook']) {
      const res = await prdHttp('POST', '/api/v1/payments/init', { key: fullKey, body: paymentBody({ webhook_url: url }) });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code, url).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(res.body.error), url).toContain('webhook_url');
    }
    const viaGraphql = await prdHttp('POST', '/graphql', {
      key: fullKey,
      body: {
        query: `mutation($i: InitiatePaymentInput!) { initiatePayment(input: $i) { payment { id } } }`,
        variables: { i: { merchantOrderId: 'hook-gql', intentType: 'PURCHASE', amount: 10_000, currency: 'ZAR', webhookUrl: 'https://192.168.1.10/hook' } },
      },
    });
    expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    const ok = await prdHttp('POST', '/api/v1/payments/init', { key: fullKey, body: paymentBody({ webhook_url: 'https://hooks.shop.example/zarpay' }) });
    expect(ok.status).toBe(200);
  });

  it('has no decline control, and redirects only to https on port 443 of an allow-listed domain', async () => {
    const cases = [
      { url: 'https://shop.example/thanks', redirect: true },
      { url: 'https://shop.example:443/thanks', redirect: true },
      { url: 'https://shop.example:8443/thanks', redirect: false },
      { url: 'https://evil.example/thanks', redirect: false },
    ];
    for (const c of cases) {
      const p = await newPayment(t, shop, { success_url: c.url });
      const page = await prdHttp('GET', `/pay/${p.payment_id}`);
      expect(page.status).toBe(200);
      expect(String(page.body)).not.toContain('data-testid="decline"');
      expect(String(page.body)).toContain('data-testid="pay"');
      expect((await prdHttp('POST', `/pay/${p.payment_id}/decline`, { rawBody: 'token=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(404);
      await op(t, `mutation { settlePayment(id: "${p.payment_id}", outcome: CAPTURED) { payment { id } } }`);
      const done = await prdHttp('GET', `/pay/${p.payment_id}`);
      if (c.redirect) {
        expect(done.status, c.url).toBe(303);
        expect(done.headers.get('location')).toBe(c.url);
      } else {
        expect(done.status, c.url).toBe(200);
        expect(String(done.body)).toContain('data-status="captured"');
      }
    }
  });

  it('never runs the sandbox: Pay goes to Yoco\'s checkout, and sandbox notifications are 404', async () => {
    expect([...prd.services.providers.keys()]).toEqual(['yoco']);
    const p = await newPayment(t, shop, { amount: 30_000 });
    const page = await prdHttp('GET', `/pay/${p.payment_id}`);
    const token = /name="token" value="([0-9a-f]{64})"/.exec(String(page.body))![1]!;
    const pressed = await prdHttp('POST', `/pay/${p.payment_id}/pay`, { rawBody: `token=${token}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(pressed.status).toBe(303);
    expect(pressed.headers.get('location')).toBe(`/pay/${p.payment_id}/checkout`);
    const [checkout] = [...yoco.checkouts.values()].filter((c) => c.metadata?.paymentId === p.payment_id);
    expect(checkout).toMatchObject({ amount: 30_000, successUrl: `https://pay.zarpay.example/pay/${p.payment_id}/return?outcome=success` });
    const handOff = String((await prdHttp('GET', `/pay/${p.payment_id}/checkout`)).body);
    expect(handOff).toContain(`content="0;url=${checkout!.redirectUrl}"`);
    // Nothing confirms it but Yoco: no sandbox timer, no sandbox route.
    const sandbox = await prdHttp('POST', '/providers/sandbox/webhook', { body: { event_id: p.payment_id, provider_ref: checkout!.id, status: 'succeeded' } });
    expect(sandbox.status).toBe(404);
    expect((await http(t, 'GET', `/api/v1/payments/${p.payment_id}`, { key: shop.key })).body.data).toMatchObject({ status: 'awaiting_webhook', latest_attempt: { provider: 'yoco' } });
    // A signed Yoco event does, through the TLS front end like everything else (plain HTTP: 403).
    yoco.pay(checkout!.id);
    expect(await yoco.notify(checkout!.id, { to: `${prdUrl}/providers/yoco/webhook` })).toEqual([{ status: 403 }]);
    const { body, headers } = yoco.signedEvent(checkout!.id);
    const notified = await fetch(`${prdUrl}/providers/yoco/webhook`, { method: 'POST', headers: { ...headers, ...https }, body: new Uint8Array(body) });
    expect(notified.status).toBe(200);
    expect((await http(t, 'GET', `/api/v1/payments/${p.payment_id}`, { key: shop.key })).body.data.status).toBe('captured');
  });

  it('refuses plain HTTP and answers the operator\'s settlePayment with FORBIDDEN', async () => {
    const p = await newPayment(t, shop, { include_qr: true });
    expect((await http({ url: prdUrl }, 'GET', `/pay/${p.payment_id}`)).status).toBe(403);
    expect((await http({ url: prdUrl }, 'GET', pathOf(p.qr_code!.image_url))).status).toBe(403);
    const plain = await gql({ ...t, url: prdUrl }, `mutation { settlePayment(id: "${p.payment_id}", outcome: CAPTURED) { payment { id } } }`, {}, { operator: true });
    expect(plain.status).toBe(403);
    const viaProxy = await prdHttp('POST', '/graphql', {
      body: { query: `mutation { settlePayment(id: "${p.payment_id}", outcome: CAPTURED) { payment { id } } }` },
      headers: { authorization: `Bearer ${t.config.operatorToken}` },
    });
    expect(viaProxy.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await http(t, 'GET', `/api/v1/payments/${p.payment_id}`, { key: shop.key })).body.data.status).toBe('created');
  });
});
