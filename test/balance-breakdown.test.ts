import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, expectLedgerOk, gql, http, op, payoutBody, type TestMerchant } from './support/client.ts';
import { openApiChecker } from './support/openapi.ts';
import { newPayment } from './support/payments.ts';

/**
 * The balance a bookkeeper can check (issue 33): `include=breakdown` (GraphQL `Balance.breakdown`)
 * keeps payments apart from the operator's top-ups and payment fees apart from payout fees, and
 * its parts add up to `balance_cents` to the cent.
 */
let t: TestApp;
let shop: TestMerchant;
let checker: ReturnType<typeof openApiChecker>;

beforeAll(async () => {
  t = await startApp();
  shop = await createMerchant(t, { paymentFeeBps: 250, payoutFeeCents: 500, autoTopup: true });
  checker = openApiChecker((await http(t, 'GET', '/api/v1/openapi.json')).body);
});
afterAll(() => t?.close());

const balance = async (query = '?include=breakdown') => {
  const res = await http(t, 'GET', `/api/v1/payouts/balance${query}`, { key: shop.key });
  checker.check('GET', '/api/v1/payouts/balance', res);
  return res;
};

const adds = (b: { balance_cents: number; breakdown: Record<string, number> }) => {
  const d = (k: string) => b.breakdown[k] ?? Number.NaN;
  return d('payments_cents') - d('payment_fees_cents') + d('credits_cents') - d('payouts_cents') - d('payout_fees_cents') - d('refunds_cents') + d('returns_cents');
};

describe('GET /api/v1/payouts/balance?include=breakdown', () => {
  it('sets payments, top-ups, both kinds of fee, payouts and refunds apart, and they add up to the balance', async () => {
    const empty = (await balance()).body.data;
    expect(empty.breakdown).toEqual({ payments_cents: 0, payment_fees_cents: 0, credits_cents: 0, payouts_cents: 0, payout_fees_cents: 0, refunds_cents: 0, returns_cents: 0 });

    await credit(t, shop.id, 2_345);
    for (const amount of [10_000, 20_050]) {
      const { payment_id } = await newPayment(t, shop, { amount });
      await op(t, 'mutation($id: UUID!) { settlePayment(id: $id, outcome: CAPTURED) { payment { id } } }', { id: payment_id });
      if (amount === 20_050) {
        const r = await http(t, 'POST', `/api/v1/payments/${payment_id}/refunds`, { key: shop.key, body: { amount_cents: 10_050 } });
        expect(r.status).toBe(201);
        await op(t, 'mutation($id: UUID!) { settleRefund(id: $id, outcome: SUCCEEDED) { refund { id } } }', { id: r.body.data.refund_id });
      }
    }
    const payout = (await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(5_000) })).body.data;
    for (const step of ['approvePayout', 'startPayoutTransfer']) await op(t, `mutation($id: UUID!) { ${step}(id: $id) { payout { id } } }`, { id: payout.id });
    await op(t, 'mutation($id: UUID!) { completePayout(id: $id, externalTransferId: "FNB-1") { payout { id } } }', { id: payout.id });
    // A pending payout reserves, but moves no balance and is in no part yet.
    await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(1_000) });

    const b = (await balance()).body.data;
    expect(b.breakdown).toEqual({
      payments_cents: 30_050,
      payment_fees_cents: 250 + 501,
      credits_cents: 2_345,
      payouts_cents: 5_000,
      payout_fees_cents: 500,
      refunds_cents: 10_050,
      returns_cents: 0,
    });
    expect(adds(b)).toBe(b.balance_cents);
    // The totals still mix them, as CONTRACT §5 defines: gross is payments and credits together.
    expect(b.totals.gross_cents).toBe(b.breakdown.payments_cents + b.breakdown.credits_cents);
    expect(b.totals.fees_cents).toBe(b.breakdown.payment_fees_cents + b.breakdown.payout_fees_cents);
    await expectLedgerOk(t);

    const g = await gql(t, '{ balance { balanceCents breakdown { paymentsCents paymentFeesCents creditsCents payoutsCents payoutFeesCents refundsCents returnsCents } } }', {}, { key: shop.key });
    expect(g.body.data!.balance.breakdown).toEqual({
      paymentsCents: 30_050, paymentFeesCents: 751, creditsCents: 2_345, payoutsCents: 5_000, payoutFeesCents: 500, refundsCents: 10_050, returnsCents: 0,
    });
  });

  it('without include, the balance is as before (no journal sum); a bad include is VALIDATION_FAILED', async () => {
    const plain = (await balance('')).body.data;
    expect(plain.breakdown).toBeUndefined();
    expect(plain.balance_cents).toEqual(expect.any(Number));
    for (const q of ['?include=everything', '?include=', '?other=1']) {
      const res = await balance(q);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
  });
});
