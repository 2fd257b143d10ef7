import { parseWire } from '../rest/wire.ts';
import { createPayoutInput } from '../src/domain/payout-input.ts';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, expectLedgerOk, gql, http, op, payoutBody } from './support/client.ts';
import { withMerchant } from './support/fixtures.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t?.close());

/** Each test's own merchant, with a payout fee of R 5.00 and R 1 000.00 to pay out. */
const it = withMerchant(() => t, { payoutFeeCents: 500, fundCents: 100_000 });

const balance = async (key: string) => (await http(t, 'GET', '/api/v1/payouts/balance', { key })).body.data;
const move = (field: string, id: string, extra = '') =>
  op(t, `mutation { ${field}(id: "${id}"${extra}) { payout { id status } } }`);

describe('payout creation', () => {
  it('fixes the fee, reserves the gross amount and answers 201 pending', async ({ merchant: shop }) => {
    const before = await balance(shop.key);
    const res = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(10_000, { description: 'rent' }) });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('success');
    const p = res.body.data;
    expect(p).toMatchObject({
      amount_cents: 10_000,
      fee_cents: 500,
      gross_amount_cents: 10_500,
      currency: 'ZAR',
      status: 'pending',
      payout_method: 'eft',
      description: 'rent',
      merchant_id: shop.id,
    });
    expect(p).not.toHaveProperty('external_transfer_id');
    expect(p).not.toHaveProperty('payment_details');
    const after = await balance(shop.key);
    expect(after.reserved_cents - before.reserved_cents).toBe(10_500);
    expect(after.balance_cents).toBe(before.balance_cents);
    expect(after.available_cents).toBe(after.balance_cents - after.reserved_cents);
    await expectLedgerOk(t);
  });

  it('keeps the fee fixed when the merchant\'s rate changes later', async ({ merchant: shop }) => {
    const p = (await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(1_000) })).body.data;
    await op(t, `mutation { updateMerchant(id: "${shop.id}", input: { payoutFeeCents: 900 }) { merchant { id } } }`);
    const again = (await http(t, 'GET', `/api/v1/payouts/${p.id}`, { key: shop.key })).body.data;
    expect(again.fee_cents).toBe(500);
  });

  it('charges the merchant\'s current fee even when the caller knew an older one', async ({ merchant: shop }) => {
    const m = await createMerchant(t, { payoutFeeCents: 100 });
    await credit(t, m.id, 10_000);
    // As a request authenticated just before the change would: its merchant has the old fee.
    const stale = await t.app.services.keys.authenticate(m.key);
    await op(t, `mutation { updateMerchant(id: "${m.id}", input: { payoutFeeCents: 250 }) { merchant { id } } }`);
    expect(stale.merchant.payoutFeeCents).toBe(100);
    const { payout, created } = await t.app.services.payouts.create(stale, parseWire(createPayoutInput, payoutBody(1_000)));
    expect(created).toBe(true);
    expect(payout).toMatchObject({ feeCents: 250, grossAmountCents: 1_250 });
    const stored = (await http(t, 'GET', `/api/v1/payouts/${payout.id}`, { key: m.key })).body.data;
    expect(stored).toMatchObject({ fee_cents: 250, gross_amount_cents: 1_250, created_at: payout.createdAt.toISOString() });
    expect((await balance(m.key)).reserved_cents).toBe(1_250);
    // And the shortfall is measured with the current fee too.
    await expect(t.app.services.payouts.create(stale, parseWire(createPayoutInput, payoutBody(8_700)))).rejects.toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      message: 'available balance is 8750 cents; 8950 cents are required',
    });
    await expectLedgerOk(t);
  });

  it('refuses more than the available balance with both amounts in the message', async ({ merchant: shop }) => {
    const { available_cents } = await balance(shop.key);
    const res = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(available_cents) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INSUFFICIENT_BALANCE');
    expect(res.body.error.message).toContain(String(available_cents));
    expect(res.body.error.message).toContain(String(available_cents + 500));
    expect(res.body.metadata.api_version).toBe('v1');
    expect((await balance(shop.key)).available_cents).toBe(available_cents);
  });

  it('replays a merchant_reference with the same parameters and refuses different ones', async ({ merchant: shop }) => {
    const body = payoutBody(2_000, { merchant_reference: 'INV-42', metadata: { a: 1, b: 2 } });
    const first = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body });
    expect(first.status).toBe(201);
    const reserved = (await balance(shop.key)).reserved_cents;
    // Same values, other key order: identical parameters.
    const replay = await http(t, 'POST', '/api/v1/payouts', {
      key: shop.key,
      body: { ...body, metadata: { b: 2, a: 1 } },
    });
    expect(replay.status).toBe(200);
    expect(replay.body.data.id).toBe(first.body.data.id);
    expect((await balance(shop.key)).reserved_cents).toBe(reserved);
    const conflict = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: { ...body, amount_cents: 2_001 } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('CONFLICT');
    expect((await balance(shop.key)).reserved_cents).toBe(reserved);
  });

  it.for([
    [{ ...payoutBody(), amount_cents: 0 }, 'VALIDATION_FAILED'],
    [{ ...payoutBody(), amount_cents: -5 }, 'VALIDATION_FAILED'],
    [{ ...payoutBody(), amount_cents: 10.5 }, 'VALIDATION_FAILED'],
    [{ ...payoutBody(), amount_cents: '100' }, 'VALIDATION_FAILED'],
    [(({ amount_cents, ...rest }) => rest)(payoutBody()), 'VALIDATION_FAILED'],
    [{ ...payoutBody(), currency: 'USD' }, 'INVALID_CURRENCY'],
    [{ ...payoutBody(), currency: 'ZA' }, 'INVALID_CURRENCY'],
    [{ ...payoutBody(), payout_method: 'swift' }, 'INVALID_PAYOUT_METHOD'],
    [{ ...payoutBody(), payment_details: { ...payoutBody().payment_details, branch_code: '12345' } }, 'INVALID_PAYMENT_DETAILS'],
    [{ ...payoutBody(), payment_details: { ...payoutBody().payment_details, branch_code: '12345a' } }, 'INVALID_PAYMENT_DETAILS'],
    [{ ...payoutBody(), payment_details: { branch_code: '123456' } }, 'INVALID_PAYMENT_DETAILS'],
    [(({ payment_details, ...rest }) => rest)(payoutBody()), 'VALIDATION_FAILED'],
    [{ ...payoutBody(), merchant_reference: 'x'.repeat(101) }, 'VALIDATION_FAILED'],
    [{ ...payoutBody(), description: 'x'.repeat(501) }, 'VALIDATION_FAILED'],
    [{ ...payoutBody(), metadata: [1, 2] }, 'VALIDATION_FAILED'],
    [{ ...payoutBody(), surprise: true }, 'VALIDATION_FAILED'],
  ] as [Record<string, unknown>, string][])('refuses %j with %s and changes nothing', async ([body, code], { merchant: shop }) => {
    const before = await balance(shop.key);
    const count = (await http(t, 'GET', '/api/v1/payouts', { key: shop.key })).body.data.total;
    const res = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', error: { code } });
    expect(await balance(shop.key)).toEqual(before);
    expect((await http(t, 'GET', '/api/v1/payouts', { key: shop.key })).body.data.total).toBe(count);
  });
});

describe('payout lifecycle', () => {
  it('pending → approved → processing → completed deducts gross and counts fee and withdrawal', async ({ merchant: shop }) => {
    const before = await balance(shop.key);
    const p = (await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(5_000) })).body.data;
    expect((await move('approvePayout', p.id)).approvePayout.payout.status).toBe('APPROVED');
    expect((await move('startPayoutTransfer', p.id)).startPayoutTransfer.payout.status).toBe('PROCESSING');
    await move('completePayout', p.id, ', externalTransferId: "FNB-123"');
    const done = (await http(t, 'GET', `/api/v1/payouts/${p.id}`, { key: shop.key })).body.data;
    expect(done).toMatchObject({ status: 'completed', external_transfer_id: 'FNB-123' });
    expect(Date.parse(done.completed_at)).toBeGreaterThan(0);
    const after = await balance(shop.key);
    expect(after.balance_cents).toBe(before.balance_cents - 5_500);
    expect(after.reserved_cents).toBe(before.reserved_cents);
    expect(after.totals.withdrawals_cents - before.totals.withdrawals_cents).toBe(5_000);
    expect(after.totals.fees_cents - before.totals.fees_cents).toBe(500);
    expect(after.balance_cents).toBe(after.totals.gross_cents - after.totals.fees_cents - after.totals.withdrawals_cents);
    await expectLedgerOk(t);
  });

  it('processing → failed releases the reserve and records the reason', async ({ merchant: shop }) => {
    const before = await balance(shop.key);
    const p = (await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(3_000) })).body.data;
    await move('approvePayout', p.id);
    await move('startPayoutTransfer', p.id);
    await move('failPayout', p.id, ', reason: "account closed"');
    const failed = (await http(t, 'GET', `/api/v1/payouts/${p.id}`, { key: shop.key })).body.data;
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'account closed' });
    expect(failed).not.toHaveProperty('completed_at');
    expect(await balance(shop.key)).toEqual(before);
    await expectLedgerOk(t);
  });

  it('rejects from pending and from approved, releasing the reserve', async ({ merchant: shop }) => {
    for (const approveFirst of [false, true]) {
      const before = await balance(shop.key);
      const p = (await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(1_500) })).body.data;
      if (approveFirst) await move('approvePayout', p.id);
      await move('rejectPayout', p.id, ', reason: "suspicious"');
      const r = (await http(t, 'GET', `/api/v1/payouts/${p.id}`, { key: shop.key })).body.data;
      expect(r).toMatchObject({ status: 'rejected', rejection_reason: 'suspicious' });
      expect(await balance(shop.key)).toEqual(before);
    }
    await expectLedgerOk(t);
  });

  it('cancel moves a pending payout to rejected "cancelled by account manager"', async ({ merchant: shop }) => {
    const p = (await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(1_000) })).body.data;
    const res = await op(t, `mutation { cancelPayout(id: "${p.id}") { payout { status rejectionReason } } }`);
    expect(res.cancelPayout.payout).toEqual({ status: 'REJECTED', rejectionReason: 'cancelled by account manager' });
  });

  it('allows no move the specification does not list', async ({ merchant: shop }) => {
    const p = (await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(1_000) })).body.data;
    const attempt = async (field: string, extra = '') => {
      const res = await gql(t, `mutation { ${field}(id: "${p.id}"${extra}) { payout { status } } }`, {}, { operator: true });
      return res.body.errors?.[0]?.extensions?.code;
    };
    // pending: cannot start the transfer, complete or fail
    expect(await attempt('startPayoutTransfer')).toBe('INVALID_STATUS_TRANSITION');
    expect(await attempt('completePayout')).toBe('INVALID_STATUS_TRANSITION');
    expect(await attempt('failPayout', ', reason: "x"')).toBe('INVALID_STATUS_TRANSITION');
    await move('approvePayout', p.id);
    // approved: cannot approve again, complete, fail or cancel
    expect(await attempt('approvePayout')).toBe('INVALID_STATUS_TRANSITION');
    expect(await attempt('completePayout')).toBe('INVALID_STATUS_TRANSITION');
    expect(await attempt('failPayout', ', reason: "x"')).toBe('INVALID_STATUS_TRANSITION');
    expect(await attempt('cancelPayout')).toBe('INVALID_STATUS_TRANSITION');
    await move('startPayoutTransfer', p.id);
    // processing: cannot reject or approve
    expect(await attempt('rejectPayout', ', reason: "x"')).toBe('INVALID_STATUS_TRANSITION');
    expect(await attempt('approvePayout')).toBe('INVALID_STATUS_TRANSITION');
    await move('completePayout', p.id);
    // completed is terminal
    for (const f of ['approvePayout', 'startPayoutTransfer', 'completePayout', 'cancelPayout']) {
      expect(await attempt(f)).toBe('INVALID_STATUS_TRANSITION');
    }
    expect(await attempt('rejectPayout', ', reason: "x"')).toBe('INVALID_STATUS_TRANSITION');
    await expectLedgerOk(t);
  });

  it('writes one outbox event per move, in order', async ({ merchant: shop }) => {
    const p = (await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(1_000) })).body.data;
    await move('approvePayout', p.id);
    await move('startPayoutTransfer', p.id);
    await move('completePayout', p.id);
    const events = await t.database.db.selectFrom('events').select(['type', 'data']).where('payout_id', '=', p.id).orderBy('seq').execute();
    expect(events.map((e) => e.type)).toEqual(['payout.created', 'payout.approved', 'payout.processing', 'payout.completed']);
    expect((events[3]!.data as any).status).toBe('completed');
  });
});

describe('payout reads', () => {
  it('lists newest first with limit, offset, status and total', async ({ merchant: shop }) => {
    const m = await createMerchant(t);
    await credit(t, m.id, 50_000);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await http(t, 'POST', '/api/v1/payouts', { key: m.key, body: payoutBody(100 + i) })).body.data.id);
    }
    await move('approvePayout', ids[0]!);
    const page = (await http(t, 'GET', '/api/v1/payouts?limit=2&offset=1', { key: m.key })).body.data;
    expect(page.total).toBe(5);
    expect(page.payouts.map((p: any) => p.id)).toEqual([ids[3], ids[2]]);
    const approved = (await http(t, 'GET', '/api/v1/payouts?status=approved', { key: m.key })).body.data;
    expect(approved.total).toBe(1);
    expect(approved.payouts[0].id).toBe(ids[0]);
    const all = (await http(t, 'GET', '/api/v1/payouts', { key: m.key })).body.data;
    expect(all.payouts).toHaveLength(5);
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'status=done', 'colour=red']) {
      const bad = await http(t, 'GET', `/api/v1/payouts?${q}`, { key: m.key });
      expect(bad.status, q).toBe(400);
      expect(bad.body.error.code, q).toBe('VALIDATION_FAILED');
    }
  });

  it('hides another merchant\'s payouts as not found', async ({ merchant: shop }) => {
    const other = await createMerchant(t);
    const p = (await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(100) })).body.data;
    const res = await http(t, 'GET', `/api/v1/payouts/${p.id}`, { key: other.key });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('PAYOUT_NOT_FOUND');
    expect((await http(t, 'GET', '/api/v1/payouts', { key: other.key })).body.data.total).toBe(0);
    for (const id of ['not-a-uuid', '00000000-0000-0000-0000-000000000000']) {
      const r = await http(t, 'GET', `/api/v1/payouts/${id}`, { key: shop.key });
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('PAYOUT_NOT_FOUND');
    }
    const g = await gql(t, `{ payout(id: "${p.id}") { id } }`, {}, { key: other.key });
    expect(g.body.errors?.[0]?.extensions?.code).toBe('PAYOUT_NOT_FOUND');
  });
});
