import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, gql, http, op, type TestMerchant } from './support/client.ts';
import { initPayment, paymentBody } from './support/payments.ts';
import { zarpay } from './support/processes.ts';

/** CONTRACT §11: payment limits per merchant, payment links and their public page, payment requests. */

let t: TestApp;
let shop: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  t = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50' });
  shop = await createMerchant(t, { name: 'Kettle & Co' });
  other = await createMerchant(t, { name: 'Other Shop' });
});
afterAll(() => t?.close());

const paymentCount = async (merchantId: string) =>
  Number((await t.database.db.selectFrom('payments').select((eb) => eb.fn.countAll().as('n')).where('merchant_id', '=', merchantId).executeTakeFirstOrThrow()).n);

describe('payment limits per merchant', { timeout: 60_000 }, () => {
  it('starts at the seed\'s 5500 to 300000 cents, in GET /api/v1/merchant and Merchant.paymentLimits', async () => {
    const res = await http(t, 'GET', '/api/v1/merchant', { key: other.key });
    expect(res.body.data.payment_limits).toEqual({ min_cents: 5500, max_cents: 300_000 });
    const g = await gql(t, '{ viewer { paymentLimits { minCents maxCents } } }', {}, { key: other.key });
    expect(g.body.data.viewer.paymentLimits).toEqual({ minCents: 5500, maxCents: 300_000 });
    const below = await initPayment(t, other, paymentBody({ amount: 5499 }));
    expect(below.status).toBe(400);
    expect(below.body.error).toMatchObject({ code: 'INVALID_AMOUNT', message: expect.stringContaining('5500 to 300000 cents') });
  });

  it('the account manager sets a merchant\'s own range with the CLI; INVALID_AMOUNT then names it and nothing is written', async () => {
    const env = { ZARPAY_URL: t.url, OPERATOR_TOKEN: t.config.operatorToken };
    const set = await zarpay(['merchant', 'limits', shop.id, '--min-cents', '1000', '--max-cents', '500000'], env);
    expect(set.code).toBe(0);
    expect(set.json).toMatchObject({ merchant_id: shop.id, payment_limits: { min_cents: 1000, max_cents: 500_000 } });
    expect((await http(t, 'GET', '/api/v1/merchant', { key: shop.key })).body.data.payment_limits).toEqual({ min_cents: 1000, max_cents: 500_000 });

    const before = await paymentCount(shop.id);
    // Below the seed's range but inside the merchant's: taken. Above the seed's, inside the merchant's: taken.
    expect((await initPayment(t, shop, paymentBody({ amount: 1000 }))).status).toBe(200);
    expect((await initPayment(t, shop, paymentBody({ amount: 500_000 }))).status).toBe(200);
    for (const amount of [999, 500_001, 0, -5000]) {
      const res = await initPayment(t, shop, paymentBody({ amount }));
      expect(res.status, `amount ${amount}`).toBe(400);
      expect(res.body.error.code).toBe('INVALID_AMOUNT');
      expect(res.body.error.message).toContain('1000 to 500000 cents');
      expect(res.body.error.message).toContain('R10.00 to R5000.00');
    }
    const g = await gql(
      t,
      'mutation($i: InitiatePaymentInput!) { initiatePayment(input: $i) { payment { id } } }',
      { i: { amount: 999, currency: 'ZAR', merchantOrderId: 'limits-gql' } },
      { key: shop.key },
    );
    expect(g.body.errors?.[0]?.extensions?.code).toBe('INVALID_AMOUNT');
    expect(g.body.errors?.[0]?.message).toContain('1000 to 500000 cents');
    expect(await paymentCount(shop.id)).toBe(before + 2);

    // Outside the platform's bounds, or min above max: VALIDATION_FAILED, nothing changed.
    for (const args of [
      ['--min-cents', '99', '--max-cents', '5000'],
      ['--min-cents', '1000', '--max-cents', '10000001'],
      ['--min-cents', '6000', '--max-cents', '5000'],
    ]) {
      const bad = await zarpay(['merchant', 'limits', shop.id, ...args], env);
      expect(bad.code, args.join(' ')).not.toBe(0);
      expect(bad.json).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    const viaGraphql = await gql(
      t,
      'mutation($id: UUID!, $i: MerchantInput!) { updateMerchant(id: $id, input: $i) { merchant { id } } }',
      { id: shop.id, i: { paymentLimits: { minCents: 6000, maxCents: 5000 } } },
      { operator: true },
    );
    expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect((await op(t, 'query($id: UUID!) { merchant(id: $id) { paymentLimits { minCents maxCents } } }', { id: shop.id })).merchant.paymentLimits).toEqual({
      minCents: 1000,
      maxCents: 500_000,
    });
    // A merchant cannot set its own limits.
    const own = await gql(
      t,
      'mutation($id: UUID!, $i: MerchantInput!) { updateMerchant(id: $id, input: $i) { merchant { id } } }',
      { id: shop.id, i: { paymentLimits: { minCents: 100, maxCents: 10_000_000 } } },
      { key: shop.key },
    );
    expect(own.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});
