import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, gql, http, op, type TestMerchant } from './support/client.ts';
import { openApiChecker } from './support/openapi.ts';
import { initPayment, newPayment, paymentBody } from './support/payments.ts';

/** What merchants see of their payments (issue 14, item 6; CONTRACT §9). */
let t: TestApp;
let shop: TestMerchant;
let other: TestMerchant;
let checker: ReturnType<typeof openApiChecker>;
const ids: Record<'captured' | 'failed' | 'cancelled' | 'open', string> = { captured: '', failed: '', cancelled: '', open: '' };

beforeAll(async () => {
  t = await startApp();
  shop = await createMerchant(t, { paymentFeeBps: 100 });
  other = await createMerchant(t);
  await newPayment(t, other);
  for (const outcome of ['captured', 'failed', 'cancelled', 'open'] as const) {
    ids[outcome] = (await newPayment(t, shop, { amount: 10_000, intent_type: 'purchase' })).payment_id;
    if (outcome !== 'open') await op(t, `mutation { settlePayment(id: "${ids[outcome]}", outcome: ${outcome.toUpperCase()}) { payment { id } } }`);
  }
  checker = openApiChecker((await http(t, 'GET', '/api/v1/openapi.json')).body);
});
afterAll(() => t?.close());

const list = async (query = '', key = shop.key) => {
  const res = await http(t, 'GET', `/api/v1/payments${query}`, { key });
  checker.check('GET', '/api/v1/payments', res);
  return res;
};

describe('GET /api/v1/payments', () => {
  it('lists the merchant\'s payments newest first, each as GET /payments/{id} shows it, with the total', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe(4);
    expect(res.body.data.payments.map((p: { payment_id: string }) => p.payment_id)).toEqual([ids.open, ids.cancelled, ids.failed, ids.captured]);
    for (const p of res.body.data.payments) {
      expect((await http(t, 'GET', `/api/v1/payments/${p.payment_id}`, { key: shop.key })).body.data).toEqual(p);
    }
  });

  it('filters by status and pages with limit and offset; total counts every match', async () => {
    expect((await list('?status=captured')).body.data).toMatchObject({ total: 1, payments: [{ payment_id: ids.captured }] });
    const page = (await list('?limit=2&offset=1')).body.data;
    expect(page.total).toBe(4);
    expect(page.payments.map((p: { payment_id: string }) => p.payment_id)).toEqual([ids.cancelled, ids.failed]);
    expect((await list('?offset=10')).body.data).toEqual({ payments: [], total: 4 });
    expect((await list('?status=initiated')).body.data).toEqual({ payments: [], total: 0 });
  });

  it('refuses a bad query with VALIDATION_FAILED, and answers 401 without a key', async () => {
    for (const q of ['?limit=0', '?limit=101', '?offset=-1', '?status=paid', '?merchant_id=x', '?limit=abc']) {
      const res = await list(q);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code, q).toBe('VALIDATION_FAILED');
    }
    expect((await http(t, 'GET', '/api/v1/payments')).status).toBe(401);
  });

  it('counts against the payment status budget, as GET /payments/{id} does', async () => {
    const limited = await startApp({ RATE_LIMITS: 'payment_status=2' });
    try {
      const m = await createMerchant(limited);
      const first = await http(limited, 'GET', '/api/v1/payments', { key: m.key });
      expect(first.headers.get('ratelimit-limit')).toBe('2');
      await http(limited, 'GET', `/api/v1/payments/${crypto.randomUUID()}`, { key: m.key });
      const third = await http(limited, 'GET', '/api/v1/payments', { key: m.key });
      expect(third.status).toBe(429);
      expect(third.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });
});

describe('the merchant\'s payment', () => {
  it('carries the voucher once captured, and no net amount once failed or cancelled', async () => {
    const byId = Object.fromEntries((await list()).body.data.payments.map((p: { payment_id: string }) => [p.payment_id, p]));
    expect(byId[ids.open]).toMatchObject({ status: 'created', net_amount_cents: 9_900, voucher_code: null, voucher_redeemed: false });
    expect(byId[ids.captured]).toMatchObject({ status: 'captured', net_amount_cents: 9_900, voucher_code: expect.stringMatching(/^\d{4}(-\d{4}){3}$/), voucher_redeemed: false });
    expect(byId[ids.failed]).toMatchObject({ status: 'failed', net_amount_cents: null, voucher_code: null });
    expect(byId[ids.cancelled]).toMatchObject({ status: 'cancelled', net_amount_cents: null, voucher_code: null });
    // The same in GraphQL.
    const q = `query($id: UUID!) { payment(id: $id) { status netAmountCents voucherCode voucherRedeemed } }`;
    expect((await gql(t, q, { id: ids.failed }, { key: shop.key })).body.data!.payment).toEqual({ status: 'FAILED', netAmountCents: null, voucherCode: null, voucherRedeemed: false });
    const captured = (await gql(t, q, { id: ids.captured }, { key: shop.key })).body.data!.payment;
    expect(captured).toEqual({ status: 'CAPTURED', netAmountCents: 9_900, voucherCode: byId[ids.captured].voucher_code, voucherRedeemed: false });
    const page = await gql(t, `{ payments(first: 10, status: CANCELLED) { totalCount edges { node { id netAmountCents } } } }`, {}, { key: shop.key });
    expect(page.body.data!.payments).toEqual({ totalCount: 1, edges: [{ node: { id: ids.cancelled, netAmountCents: null } }] });
  });

  it('purchase_and_redeem reports its voucher redeemed at capture', async () => {
    const p = await newPayment(t, shop);
    await op(t, `mutation { settlePayment(id: "${p.payment_id}", outcome: CAPTURED) { payment { id } } }`);
    expect((await http(t, 'GET', `/api/v1/payments/${p.payment_id}`, { key: shop.key })).body.data).toMatchObject({ voucher_redeemed: true, voucher_code: expect.any(String) });
  });

  it('an idempotent replay answers with the same data after the payment moved on (Stripe convention)', async () => {
    const body = paymentBody({ include_qr: true });
    const first = await initPayment(t, shop, body, { 'idempotency-key': 'replay-after-capture' });
    await op(t, `mutation { settlePayment(id: "${first.body.data.payment_id}", outcome: CAPTURED) { payment { id } } }`);
    const byKey = await initPayment(t, shop, body, { 'idempotency-key': 'replay-after-capture' });
    const byOrder = await initPayment(t, shop, body);
    for (const replay of [byKey, byOrder]) {
      expect(replay.status).toBe(200);
      expect(replay.body.data).toEqual(first.body.data);
    }
  });

  it('another merchant\'s payments are not listed', async () => {
    const theirs = (await list('', other.key)).body.data;
    expect(theirs.total).toBe(1);
    expect(theirs.payments.map((p: { payment_id: string }) => p.payment_id)).not.toContain(ids.captured);
  });
});
