import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, http, op, payoutBody, type TestMerchant } from './support/client.ts';
import { gzipSync } from 'node:zlib';
import { camt054 } from './support/bank-reports.ts';
import { openApiChecker } from './support/openapi.ts';
import { eventually } from './support/receiver.ts';

let t: TestApp;
let shop: TestMerchant;
let checker: ReturnType<typeof openApiChecker>;

beforeAll(async () => {
  // E-mail on (a closed port: a payment request is made, its e-mail waits for a retry), so a request answers 201.
  t = await startApp({ SMTP_URL: 'smtp://127.0.0.1:9' });
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
  it('documents exactly the routes /api/v1 serves: a route without its document, or a document without its route, fails', async () => {
    const doc = (await http(t, 'GET', '/api/v1/openapi.json')).body;
    const documented = Object.entries(doc.paths).flatMap(([p, m]: [string, any]) => Object.keys(m).map((x) => `${x.toUpperCase()} ${p.replace(/\{[^}]+\}/g, '{}')}`));
    expect(t.app.restRoutes.length).toBeGreaterThan(10);
    expect([...t.app.restRoutes].sort()).toEqual(documented.sort());
  });

  it('is OpenAPI 3.1 with the X-API-Key scheme, with examples', async () => {
    const doc = (await http(t, 'GET', '/api/v1/openapi.json')).body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
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

    // A payee_id this merchant has no payee under.
    await call('POST', '/api/v1/payouts', '/api/v1/payouts', { key: shop.key, body: { amount_cents: 1_000, currency: 'ZAR', payout_method: 'eft', payee_id: crypto.randomUUID() } });
    const payees = '/api/v1/payees';
    await call('GET', payees, payees, { key: shop.key });
    await call('GET', payees, `${payees}?foo=1`, { key: shop.key });
    await call('GET', payees, payees, {});
    await call('GET', payees, payees, { key: revoked.key });

    const id = created.body.data.id;
    await call('GET', '/api/v1/payouts/{payout_id}', `/api/v1/payouts/${id}`, { key: shop.key });
    await call('GET', '/api/v1/payouts/{payout_id}', `/api/v1/payouts/${crypto.randomUUID()}`, { key: shop.key });
    await call('GET', '/api/v1/payouts/{payout_id}', `/api/v1/payouts/${id}`, {});
    await call('GET', '/api/v1/payouts/{payout_id}', `/api/v1/payouts/${id}`, { key: revoked.key });

    const init = '/api/v1/payments/init';
    const order = { amount: 6_000, currency: 'ZAR', merchant_order_id: 'OA-PAY-1', include_qr: true };
    const payment = await call('POST', init, init, { key: shop.key, body: order, headers: { 'idempotency-key': 'oa-key-1' } });
    await call('POST', init, init, { key: shop.key, body: { ...order, amount: 6_001 }, headers: { 'idempotency-key': 'oa-key-1' } });
    await call('POST', init, init, { key: shop.key, body: { ...order, amount: 6_002 } });
    await call('POST', init, init, { key: shop.key, body: { ...order, amount: 10 } });
    await call('POST', init, init, { key: shop.key, body: { ...order, note: 'x'.repeat(70_000) } });
    await call('POST', init, init, { body: order });
    await call('POST', init, init, { key: revoked.key, body: order });
    const paymentId = payment.body.data.payment_id;
    const one = '/api/v1/payments/{payment_id}';
    await call('GET', one, `/api/v1/payments/${paymentId}`, { key: shop.key });
    await call('GET', one, `/api/v1/payments/${crypto.randomUUID()}`, { key: shop.key });
    await call('GET', one, `/api/v1/payments/${paymentId}`, {});
    await call('GET', one, `/api/v1/payments/${paymentId}`, { key: revoked.key });
    const all = '/api/v1/payments';
    await call('GET', all, `${all}?status=created&limit=10`, { key: shop.key });
    await call('GET', all, `${all}?limit=0`, { key: shop.key });
    await call('GET', all, all, {});
    await call('GET', all, all, { key: revoked.key });

    // Refunds of a captured payment.
    const captured = (await call('POST', init, init, { key: shop.key, body: { ...order, merchant_order_id: 'OA-REF-1' } })).body.data.payment_id;
    await op(t, `mutation { settlePayment(id: "${captured}", outcome: CAPTURED) { payment { id } } }`);
    const refundsDoc = '/api/v1/payments/{payment_id}/refunds';
    const refundsUrl = `/api/v1/payments/${captured}/refunds`;
    const refundBody = { amount_cents: 1_000, reason: 'returned' };
    const refunded = await call('POST', refundsDoc, refundsUrl, { key: shop.key, body: refundBody, headers: { 'idempotency-key': 'oa-ref-1' } });
    await call('POST', refundsDoc, refundsUrl, { key: shop.key, body: refundBody, headers: { 'idempotency-key': 'oa-ref-1' } });
    await call('POST', refundsDoc, refundsUrl, { key: shop.key, body: { ...refundBody, amount_cents: 1_001 }, headers: { 'idempotency-key': 'oa-ref-1' } });
    await call('POST', refundsDoc, refundsUrl, { key: shop.key, body: { amount_cents: 0 } });
    await call('POST', refundsDoc, `/api/v1/payments/${crypto.randomUUID()}/refunds`, { key: shop.key, body: refundBody });
    await call('POST', refundsDoc, refundsUrl, { key: shop.key, body: { ...refundBody, reason: 'x'.repeat(70_000) } });
    await call('POST', refundsDoc, refundsUrl, { body: refundBody });
    await call('POST', refundsDoc, refundsUrl, { key: revoked.key, body: refundBody });
    await call('GET', refundsDoc, refundsUrl, { key: shop.key });
    await call('GET', refundsDoc, `${refundsUrl}?limit=0`, { key: shop.key });
    await call('GET', refundsDoc, `/api/v1/payments/${crypto.randomUUID()}/refunds`, { key: shop.key });
    await call('GET', refundsDoc, refundsUrl, {});
    await call('GET', refundsDoc, refundsUrl, { key: revoked.key });
    const merchantRefunds = '/api/v1/refunds';
    await call('GET', merchantRefunds, `${merchantRefunds}?status=pending&limit=10`, { key: shop.key });
    await call('GET', merchantRefunds, `${merchantRefunds}?status=paid`, { key: shop.key });
    await call('GET', merchantRefunds, merchantRefunds, {});
    await call('GET', merchantRefunds, merchantRefunds, { key: revoked.key });
    const refundDoc = '/api/v1/refunds/{refund_id}';
    const refundUrl = `/api/v1/refunds/${refunded.body.data.refund_id}`;
    await call('GET', refundDoc, refundUrl, { key: shop.key });
    await call('GET', refundDoc, `${refundUrl}?foo=1`, { key: shop.key });
    await call('GET', refundDoc, `/api/v1/refunds/${crypto.randomUUID()}`, { key: shop.key });
    await call('GET', refundDoc, refundUrl, {});
    await call('GET', refundDoc, refundUrl, { key: revoked.key });
    const statements = '/api/v1/statements';
    const day = new Date(Date.now() + 2 * 3600_000).toISOString().slice(0, 10);
    const range = `${statements}?from=${day}&to=${day}`;
    await call('GET', statements, range, { key: shop.key });
    await call('GET', statements, `${statements}?from=${day}&to=2020-01-01`, { key: shop.key });
    await call('GET', statements, range, {});
    await call('GET', statements, range, { key: revoked.key });
    const settings = '/api/v1/merchant';
    await call('GET', settings, settings, { key: shop.key });
    await call('GET', settings, `${settings}?foo=1`, { key: shop.key });
    await call('GET', settings, settings, {});
    await call('GET', settings, settings, { key: revoked.key });
    await call('PATCH', settings, settings, { key: shop.key, body: { support_email: 'help@shop.example' } });
    await call('PATCH', settings, settings, { key: shop.key, body: { support_email: 'nope' } });
    const links = '/api/v1/payment-links';
    const link = await call('POST', links, links, { key: shop.key, body: { description: 'OpenAPI link', amount_cents: 6_000 } });
    await call('POST', links, links, { key: shop.key, body: { description: '' } });
    await call('POST', links, links, { key: shop.key, body: { description: 'x'.repeat(70_000) } });
    await call('POST', links, links, { body: { description: 'no key' } });
    await call('POST', links, links, { key: revoked.key, body: { description: 'revoked' } });
    await call('GET', links, links, { key: shop.key });
    await call('GET', links, `${links}?limit=0`, { key: shop.key });
    await call('GET', links, links, {});
    await call('GET', links, links, { key: revoked.key });
    const linkDoc = '/api/v1/payment-links/{link_id}';
    const linkUrl = `${links}/${link.body.data.link_id}`;
    await call('GET', linkDoc, linkUrl, { key: shop.key });
    await call('GET', linkDoc, `${linkUrl}?foo=1`, { key: shop.key });
    await call('GET', linkDoc, `${links}/${crypto.randomUUID()}`, { key: shop.key });
    await call('GET', linkDoc, linkUrl, {});
    await call('GET', linkDoc, linkUrl, { key: revoked.key });
    await call('PATCH', linkDoc, linkUrl, { key: shop.key, body: { active: false } });
    await call('PATCH', linkDoc, linkUrl, { key: shop.key, body: { active: 'no' } });
    await call('PATCH', linkDoc, linkUrl, { key: shop.key, body: { active: false, note: 'x'.repeat(70_000) } });
    await call('PATCH', linkDoc, `${links}/${crypto.randomUUID()}`, { key: shop.key, body: { active: false } });
    await call('PATCH', linkDoc, linkUrl, { body: { active: false } });
    await call('PATCH', linkDoc, linkUrl, { key: revoked.key, body: { active: false } });
    const requests = '/api/v1/payment-requests';
    const asked = { amount_cents: 6_000, description: 'OpenAPI request', customer_email: 'customer@example.co.za', merchant_order_id: 'OA-REQ-1' };
    await call('POST', requests, requests, { key: shop.key, body: asked });
    await call('POST', requests, requests, { key: shop.key, body: asked });
    await call('POST', requests, requests, { key: shop.key, body: { ...asked, amount_cents: 6_001 } });
    await call('POST', requests, requests, { key: shop.key, body: { ...asked, customer_email: 'nope' } });
    await call('POST', requests, requests, { key: shop.key, body: { ...asked, note: 'x'.repeat(70_000) } });
    await call('POST', requests, requests, { body: asked });
    await call('POST', requests, requests, { key: revoked.key, body: asked });
    await call('PATCH', settings, settings, { key: shop.key, body: { support_phone: 'x'.repeat(70_000) } });
    await call('PATCH', settings, settings, { body: {} });
    await call('PATCH', settings, settings, { key: revoked.key, body: {} });

    const secretPath = '/api/v1/merchant/webhooks/secret';
    const rotatePath = '/api/v1/merchant/webhooks/secret/rotate';
    await call('POST', secretPath, secretPath, { key: shop.key });
    await call('POST', secretPath, secretPath, { key: shop.key });
    await call('POST', secretPath, secretPath, {});
    await call('POST', secretPath, secretPath, { key: revoked.key });
    await call('POST', rotatePath, rotatePath, { key: shop.key });
    await call('POST', rotatePath, rotatePath, {});
    await call('POST', rotatePath, rotatePath, { key: revoked.key });

    // The operator's import of a bank report: XML (gzipped or not), the operator token.
    const reports = '/api/v1/operator/bank-reports';
    const asOperator = { authorization: `Bearer ${t.config.operatorToken}`, 'content-type': 'application/xml' };
    const report = camt054('OA-NTF-1', [{ endToEndId: 'NOT-OURS-1', amount: '12.00', bankRef: 'OA-REF-1' }]);
    const stored = await call('POST', reports, reports, { rawBody: report, headers: asOperator });
    expect(stored.status).toBe(202);
    await eventually(async () => (await op(t, 'query($id: UUID!) { bankReport(id: $id) { status } }', { id: stored.body.data.report_id })).bankReport.status === 'applied');
    expect((await call('POST', reports, reports, { rawBody: report, headers: asOperator })).status).toBe(200);
    await call('POST', reports, reports, { rawBody: '{}', headers: { ...asOperator, 'content-type': 'application/json' } });
    await call('POST', reports, reports, { rawBody: report, headers: { 'content-type': 'application/xml' } });
    await call('POST', reports, reports, { key: shop.key, rawBody: report, headers: { 'content-type': 'application/xml' } });
    await call('POST', reports, reports, { rawBody: gzipSync(Buffer.alloc(33 * 1024 * 1024)) as unknown as string, headers: { ...asOperator, 'content-encoding': 'gzip' } });
    const fresh = camt054('OA-NTF-2', [{ endToEndId: 'NOT-OURS-2', amount: '13.00', bankRef: 'OA-REF-2' }]);
    failOnce(t.app.services.bankReports as any, 'import', new Error('unexpected'));
    await call('POST', reports, reports, { rawBody: fresh, headers: asOperator });
    failOnce(t.app.services.bankReports as any, 'import', unavailable);
    await call('POST', reports, reports, { rawBody: fresh, headers: asOperator });

    const services = t.app.services;
    for (const [method, path, url, target, fn, opts] of [
      ['POST', secretPath, secretPath, services.webhookSecrets, 'create', {}],
      ['POST', rotatePath, rotatePath, services.webhookSecrets, 'rotate', {}],
      ['POST', init, init, services.payments, 'init', { body: { ...order, merchant_order_id: 'OA-PAY-2' } }],
      ['GET', one, `/api/v1/payments/${paymentId}`, services.payments, 'get', {}],
      ['GET', all, all, services.payments, 'list', {}],
      ['GET', statements, range, services.statements, 'open', {}],
      ['GET', settings, settings, services.merchants, 'settings', {}],
      ['PATCH', settings, settings, services.merchants, 'updateSettings', { body: {} }],
      ['GET', '/api/v1/payouts/balance', '/api/v1/payouts/balance', services.balances, 'get', {}],
      ['GET', '/api/v1/payouts', '/api/v1/payouts', services.payouts, 'list', {}],
      ['GET', '/api/v1/payouts/{payout_id}', `/api/v1/payouts/${id}`, services.payouts, 'get', {}],
      ['POST', '/api/v1/payouts', '/api/v1/payouts', services.payouts, 'create', { body: payoutBody() }],
      ['POST', '/api/v1/merchant/api-keys/secret/regenerate', '/api/v1/merchant/api-keys/secret/regenerate', services.keys, 'regenerate', {}],
      ['POST', refundsDoc, refundsUrl, services.refunds, 'create', { body: refundBody }],
      ['GET', refundsDoc, refundsUrl, services.refunds, 'ofPayment', {}],
      ['GET', refundDoc, refundUrl, services.refunds, 'get', {}],
      ['GET', merchantRefunds, merchantRefunds, services.refunds, 'list', {}],
      ['GET', '/api/v1/payees', '/api/v1/payees', services.payees, 'list', {}],
      ['POST', links, links, services.links, 'create', { body: { description: 'Failing link' } }],
      ['GET', links, links, services.links, 'list', {}],
      ['GET', linkDoc, linkUrl, services.links, 'get', {}],
      ['PATCH', linkDoc, linkUrl, services.links, 'update', { body: { active: true } }],
      ['POST', requests, requests, services.paymentRequests, 'send', { body: { ...asked, merchant_order_id: 'OA-REQ-2' } }],
    ] as const) {
      failOnce(target as any, fn, new Error('unexpected'));
      await call(method, path, url, { key: shop.key, ...opts });
      failOnce(target as any, fn, unavailable);
      await call(method, path, url, { key: shop.key, ...opts });
    }

    // A query parameter an operation does not take is refused, named as a query parameter.
    for (const [method, docPath, url] of [
      ['GET', '/api/v1/payouts/balance', '/api/v1/payouts/balance'],
      ['GET', '/api/v1/payouts/{payout_id}', `/api/v1/payouts/${id}`],
      ['GET', one, `/api/v1/payments/${paymentId}`],
      ['POST', secretPath, secretPath],
      ['POST', rotatePath, rotatePath],
      ['POST', '/api/v1/merchant/api-keys/secret/regenerate', '/api/v1/merchant/api-keys/secret/regenerate'],
    ] as const) {
      const res = await call(method, docPath, `${url}?foo=1`, { key: shop.key });
      expect(res.status, `${method} ${url}?foo=1`).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'query.foo: is not a known field', details: [{ field: 'query.foo', message: 'is not a known field' }] });
    }

    await call('POST', '/api/v1/merchant/api-keys/secret/regenerate', '/api/v1/merchant/api-keys/secret/regenerate', {});
    await call('POST', '/api/v1/merchant/api-keys/secret/regenerate', '/api/v1/merchant/api-keys/secret/regenerate', { key: revoked.key });
    const regenerated = await call('POST', '/api/v1/merchant/api-keys/secret/regenerate', '/api/v1/merchant/api-keys/secret/regenerate', { key: shop.key });
    shop = { ...shop, key: regenerated.body.data.full_key };

    // 429: a second service whose every budget is one request a minute.
    const limited = await startApp({ RATE_LIMITS: 'payment_init=1,payment_status=1,payout_create=1,payout_status=1,balance=1,credentials=1,refund=1,anonymous=1' });
    try {
      // The operator's route limits only those without credentials, by address.
      const reportsUrl = `${limited.url}/api/v1/operator/bank-reports`;
      for (const expected of [401, 429]) {
        const res = await fetch(reportsUrl, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<Document/>' });
        const answer = { status: res.status, body: await res.json(), headers: res.headers };
        expect(answer.status).toBe(expected);
        checker.check('POST', '/api/v1/operator/bank-reports', answer);
      }
      const m = await createMerchant(limited);
      for (const [method, docPath, url, body] of [
        ['GET', '/api/v1/payouts/balance', '/api/v1/payouts/balance', undefined],
        ['GET', '/api/v1/payouts', '/api/v1/payouts', undefined],
        ['GET', '/api/v1/payouts/{payout_id}', `/api/v1/payouts/${crypto.randomUUID()}`, undefined],
        ['POST', '/api/v1/payouts', '/api/v1/payouts', payoutBody()],
        ['POST', init, init, { ...order, merchant_order_id: 'OA-429' }],
        ['GET', one, `/api/v1/payments/${crypto.randomUUID()}`, undefined],
        ['GET', all, all, undefined],
        ['POST', refundsDoc, `/api/v1/payments/${crypto.randomUUID()}/refunds`, { amount_cents: 100 }],
        ['GET', refundsDoc, `/api/v1/payments/${crypto.randomUUID()}/refunds`, undefined],
        ['GET', refundDoc, `/api/v1/refunds/${crypto.randomUUID()}`, undefined],
        ['GET', merchantRefunds, merchantRefunds, undefined],
        ['GET', '/api/v1/payees', '/api/v1/payees', undefined],
        ['POST', links, links, { description: 'Limited' }],
        ['GET', links, links, undefined],
        ['GET', linkDoc, `${links}/${crypto.randomUUID()}`, undefined],
        ['PATCH', linkDoc, `${links}/${crypto.randomUUID()}`, { active: false }],
        ['POST', requests, requests, asked],
        ['GET', statements, range, undefined],
        ['GET', settings, settings, undefined],
        ['PATCH', settings, settings, {}],
        ['POST', secretPath, secretPath, undefined],
        ['POST', rotatePath, rotatePath, undefined],
        ['POST', '/api/v1/merchant/api-keys/secret/regenerate', '/api/v1/merchant/api-keys/secret/regenerate', undefined],
      ] as const) {
        // The first call spends the budget (regenerate would revoke the key, so it uses a spare one).
        const key = docPath.includes('regenerate') ? (await op(limited, `mutation { issueApiKey(merchantId: "${m.id}") { fullKey } }`)).issueApiKey.fullKey : m.key;
        if (!docPath.includes('regenerate')) await http(limited, method, url, { key, ...(body && { body }) });
        else await http(limited, method, url, { key: m.key });
        const res = await http(limited, method, url, { key, ...(body && { body }) });
        expect(res.status, `${method} ${url}`).toBe(429);
        expect(res.headers.get('ratelimit-limit'), `${method} ${url}`).toBe('1');
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
        checker.check(method, docPath, res);
      }
    } finally {
      await limited.close();
    }
    expect(checker.documented().filter((k) => !checker.seen.has(k))).toEqual([]);
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
