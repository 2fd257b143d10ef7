import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from '../rest/openapi/zarpay-api.d.ts';
import { documentedExamples } from '../rest/openapi/document.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, http, op } from './support/client.ts';
import { startSmtpServer } from './support/smtp.ts';

/**
 * The OpenAPI document is enough to integrate: a client generated from it alone
 * (openapi-typescript types + openapi-fetch) walks the README, and every request example the
 * document shows is accepted with the status it documents.
 */

let t: TestApp;
// A mail server of its own: a payment request's example e-mails the customer.
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50', SMTP_URL: smtp.url, SMTP_FROM: 'Shop <pay@shop.example>' });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('the generated TypeScript client', () => {
  it('walks the README: payout, balance, payment, capture', async () => {
    const shop = await createMerchant(t, { name: "Thandi's Spaza", payoutFeeCents: 500 });
    await credit(t, shop.id, 100_000);
    const zarpay = createClient<paths>({ baseUrl: t.url, headers: { 'X-API-Key': shop.key } });

    const created = await zarpay.POST('/api/v1/payouts', {
      body: {
        amount_cents: 25_000,
        currency: 'ZAR',
        payout_method: 'eft',
        merchant_reference: 'INV-1001',
        payment_details: { account_number: '62012345678', branch_code: '250655', account_holder: 'Thandi Nkosi', bank_name: 'FNB' },
      },
    });
    expect(created.response.status).toBe(201);
    const payout = created.data!.data;
    expect(payout).toMatchObject({ status: 'pending', fee_cents: 500, gross_amount_cents: 25_500 });

    const read = await zarpay.GET('/api/v1/payouts/{payout_id}', { params: { path: { payout_id: payout.id } } });
    expect(read.data?.data.status).toBe('pending');
    const list = await zarpay.GET('/api/v1/payouts', { params: { query: { status: 'pending', limit: 10 } } });
    expect(list.data?.data.total).toBe(1);

    const balance = await zarpay.GET('/api/v1/payouts/balance');
    expect(balance.data?.data).toMatchObject({ balance_cents: 100_000, reserved_cents: 25_500, available_cents: 74_500 });

    // The operator's part of the walk (the CLI in the README) goes through operator GraphQL.
    for (const step of ['approvePayout', 'startPayoutTransfer', 'completePayout']) {
      await op(t, `mutation($id: UUID!) { ${step}(id: $id) { payout { status } } }`, { id: payout.id });
    }
    await op(t, `mutation($id: UUID!) { updateMerchant(id: $id, input: { autoTopup: true, paymentFeeBps: 250 }) { merchant { id } } }`, { id: shop.id });

    const init = await zarpay.POST('/api/v1/payments/init', {
      params: { header: { 'Idempotency-Key': 'ORD-1001-1795316000-x7' } },
      body: { amount: 12_345, currency: 'ZAR', merchant_order_id: 'ORD-1001', intent_type: 'purchase', include_qr: true, description: 'Airtime voucher' },
    });
    expect(init.response.status).toBe(200);
    const paymentId = init.data!.data.payment_id;
    expect(init.data!.data.qr_code?.image_url).toMatch(/\.png\?/);

    await op(t, `mutation($id: UUID!) { settlePayment(id: $id, outcome: CAPTURED) { payment { status } } }`, { id: paymentId });
    const payment = await zarpay.GET('/api/v1/payments/{payment_id}', { params: { path: { payment_id: paymentId } } });
    expect(payment.data?.data).toMatchObject({ status: 'captured', amount: 12_345, fee_cents: 309, net_amount_cents: 12_036 });
    expect((await zarpay.GET('/api/v1/payouts/balance')).data?.data.balance_cents).toBe(86_536);

    // Errors come typed too: the envelope with every problem listed.
    const refused = await zarpay.POST('/api/v1/payouts', {
      body: { amount_cents: 0, currency: 'ZAR', payout_method: 'eft', payment_details: { account_number: '1', branch_code: '25065', account_holder: 'T', bank_name: 'FNB' } },
    });
    expect(refused.response.status).toBe(400);
    expect(refused.error?.error.details?.map((d) => d.field)).toEqual(['amount_cents', 'payment_details.account_number', 'payment_details.branch_code']);
  });
});

describe('the request examples in the document', () => {
  const examples = documentedExamples();

  it('cover every operation that takes a body', () => {
    expect(new Set(examples.map((e) => `${e.method} ${e.path}`))).toEqual(new Set(['post /api/v1/payments/init', 'post /api/v1/payouts', 'patch /api/v1/merchant', 'post /api/v1/payment-links', 'patch /api/v1/payment-links/{link_id}', 'post /api/v1/payment-requests']));
  });

  it.each(examples.map((e) => [`${e.method.toUpperCase()} ${e.path} (${e.name})`, e] as const))('%s is accepted as documented', async (_name, example) => {
    const shop = await createMerchant(t, { payoutFeeCents: 500 });
    await credit(t, shop.id, 1_000_000);
    // A path that names a resource names one of this merchant's.
    const link = example.path.includes('{link_id}') ? (await http(t, 'POST', '/api/v1/payment-links', { key: shop.key, body: { description: 'Example link' } })).body.data.link_id : '';
    const res = await http(t, example.method.toUpperCase(), example.path.replace('{link_id}', link), { key: shop.key, body: example.value });
    expect(res.status, JSON.stringify(res.body)).toBe(example.status);
    const documented = (await http(t, 'GET', '/api/v1/openapi.json')).body.paths[example.path][example.method];
    expect(Object.keys(documented.responses)).toContain(String(example.status));
    expect(documented.requestBody.content['application/json'].examples[example.name].value).toEqual(example.value);
  });
});
