import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, gql, GRAPHQL_RESPONSE, http, op, payoutBody, type TestMerchant } from './support/client.ts';

let t: TestApp;
let shop: TestMerchant;
let other: TestMerchant;
/** shop's payouts, oldest first. */
const ids: string[] = [];

beforeAll(async () => {
  t = await startApp();
  shop = await createMerchant(t, { name: 'Query Shop', payoutFeeCents: 100 });
  other = await createMerchant(t, { name: 'Other Shop' });
  await credit(t, shop.id, 100_000);
  await credit(t, other.id, 10_000);
  for (let i = 0; i < 7; i++) {
    ids.push((await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(1_000 + i) })).body.data.id);
  }
  await op(t, `mutation { approvePayout(id: "${ids[1]}") { payout { id } } }`);
  await op(t, `mutation { approvePayout(id: "${ids[4]}") { payout { id } } }`);
  await http(t, 'POST', '/api/v1/payouts', { key: other.key, body: payoutBody(500) });
});
afterAll(() => t?.close());

const asShop = (query: string, variables: Record<string, unknown> = {}) => gql<any>(t, query, variables, { key: shop.key });
const PAGE = `query($first: Int, $after: String, $last: Int, $before: String, $status: PayoutStatus) {
  payouts(first: $first, after: $after, last: $last, before: $before, status: $status) {
    totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id } } } }`;
const page = async (variables: Record<string, unknown>, key = shop.key) => {
  const res = await gql<any>(t, PAGE, variables, { key });
  expect(res.body.errors).toBeUndefined();
  const p = res.body.data.payouts;
  return { ...p, ids: p.edges.map((e: any) => e.node.id) as string[] };
};
const newestFirst = () => [...ids].reverse();

describe('viewer, balance and payout: the REST reads\' twins', () => {
  it('viewer is the calling merchant with its key records (never the keys)', async () => {
    const res = await asShop('{ viewer { id name payoutFeeCents apiKeys { kid status displayMask } balance { merchantId } } }');
    const viewer = res.body.data.viewer;
    expect(viewer).toMatchObject({ id: shop.id, name: 'Query Shop', payoutFeeCents: 100, balance: { merchantId: shop.id } });
    expect(viewer.apiKeys).toEqual([{ kid: shop.kid, status: 'ACTIVE', displayMask: expect.stringContaining(shop.kid) }]);
    expect(JSON.stringify(res.body)).not.toContain(shop.key);
  });

  it('balance equals GET /api/v1/payouts/balance', async () => {
    const rest = (await http(t, 'GET', '/api/v1/payouts/balance', { key: shop.key })).body.data;
    const res = await asShop('{ balance { merchantId balanceCents reservedCents availableCents currency totals { grossCents feesCents withdrawalsCents } } }');
    expect(res.body.data.balance).toEqual({
      merchantId: rest.merchant_id,
      balanceCents: rest.balance_cents,
      reservedCents: rest.reserved_cents,
      availableCents: rest.available_cents,
      currency: 'ZAR',
      totals: { grossCents: rest.totals.gross_cents, feesCents: rest.totals.fees_cents, withdrawalsCents: rest.totals.withdrawals_cents },
    });
  });

  it('Money is exact beyond 32 bits', async () => {
    const rich = await createMerchant(t);
    await credit(t, rich.id, 9_000_000_000_000);
    const res = await gql<any>(t, '{ balance { balanceCents availableCents } }', {}, { key: rich.key });
    expect(res.body.data.balance).toEqual({ balanceCents: 9_000_000_000_000, availableCents: 9_000_000_000_000 });
  });

  it('payout equals GET /api/v1/payouts/:id in camelCase with upper-case enums', async () => {
    const rest = (await http(t, 'GET', `/api/v1/payouts/${ids[1]}`, { key: shop.key })).body.data;
    const res = await asShop(`{ payout(id: "${ids[1]}") { id merchantId amountCents feeCents grossAmountCents currency status payoutMethod createdAt updatedAt } }`);
    expect(res.body.data.payout).toEqual({
      id: rest.id,
      merchantId: rest.merchant_id,
      amountCents: rest.amount_cents,
      feeCents: 100,
      grossAmountCents: rest.gross_amount_cents,
      currency: 'ZAR',
      status: 'APPROVED',
      payoutMethod: 'EFT',
      createdAt: rest.created_at,
      updatedAt: rest.updated_at,
    });
  });

  it('payout: another merchant\'s or an unknown id is PAYOUT_NOT_FOUND; a malformed one VALIDATION_FAILED', async () => {
    const theirs = await gql<any>(t, `{ payout(id: "${ids[0]}") { id } }`, {}, { key: other.key });
    expect(theirs.body.errors?.[0]?.extensions?.code).toBe('PAYOUT_NOT_FOUND');
    const unknown = await asShop('{ payout(id: "00000000-0000-0000-0000-000000000000") { id } }');
    expect(unknown.body.errors?.[0]?.extensions?.code).toBe('PAYOUT_NOT_FOUND');
    const malformed = await gql<any>(t, '{ payout(id: "nope") { id } }', {}, { key: shop.key, headers: GRAPHQL_RESPONSE });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    // The operator sees any merchant's payout.
    expect((await op(t, `{ payout(id: "${ids[0]}") { merchantId } }`)).payout.merchantId).toBe(shop.id);
  });

  it('Payout.events is the payout\'s history, oldest first; another merchant cannot reach it', async () => {
    const res = await asShop(`{ payout(id: "${ids[1]}") { events { id type createdAt data } } }`);
    const events = res.body.data.payout.events;
    expect(events.map((e: any) => e.type)).toEqual(['payout.created', 'payout.approved']);
    expect(events[1].data).toMatchObject({ id: ids[1], status: 'approved', amount_cents: 1_001 });
    expect(Date.parse(events[0].createdAt)).toBeLessThanOrEqual(Date.parse(events[1].createdAt));
    const rows = await t.database.db.selectFrom('events').select('id').where('payout_id', '=', ids[1]!).orderBy('seq').execute();
    expect(events.map((e: any) => e.id)).toEqual(rows.map((r) => r.id));
  });
});

describe('payouts: a Relay connection over a keyset cursor', () => {
  it('pages forward newest first to an exact last page', async () => {
    const first = await page({ first: 3 });
    expect(first.totalCount).toBe(7);
    expect(first.ids).toEqual(newestFirst().slice(0, 3));
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = await page({ first: 3, after: first.pageInfo.endCursor });
    expect(second.ids).toEqual(newestFirst().slice(3, 6));
    const last = await page({ first: 3, after: second.pageInfo.endCursor });
    expect(last.ids).toEqual(newestFirst().slice(6));
    expect(last.pageInfo.hasNextPage).toBe(false);
    expect(last.totalCount).toBe(7);
  });

  it('pages backward with last and before', async () => {
    const tail = await page({ last: 2 });
    expect(tail.ids).toEqual(newestFirst().slice(5));
    expect(tail.pageInfo.hasPreviousPage).toBe(true);
    const before = await page({ last: 2, before: tail.pageInfo.startCursor });
    expect(before.ids).toEqual(newestFirst().slice(3, 5));
    const firstFive = await page({ first: 5 });
    const edgeCursor = (await gql<any>(t, PAGE, { first: 5 }, { key: shop.key })).body.data.payouts.edges[4].cursor;
    expect(firstFive.ids).toHaveLength(5);
    expect((await page({ last: 10, before: edgeCursor })).ids).toEqual(newestFirst().slice(0, 4));
  });

  it('filters by status, totalCount counting the filter', async () => {
    const approved = await page({ first: 10, status: 'APPROVED' });
    expect(approved.ids).toEqual([ids[4], ids[1]]);
    expect(approved.totalCount).toBe(2);
    expect((await page({ first: 10, status: 'COMPLETED' })).totalCount).toBe(0);
  });

  it('an empty list is an empty page, not an error', async () => {
    const empty = await createMerchant(t);
    const p = await page({ first: 10 }, empty.key);
    expect(p).toMatchObject({ totalCount: 0, edges: [], pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null } });
  });

  it('a merchant sees only its own payouts; the operator all, or one merchant\'s', async () => {
    expect((await page({ first: 100 }, other.key)).totalCount).toBe(1);
    const all = await op(t, '{ payouts(first: 100) { totalCount } }');
    expect(all.payouts.totalCount).toBeGreaterThanOrEqual(8);
    const one = await op(t, `{ payouts(first: 100, merchantId: "${other.id}") { totalCount edges { node { merchantId } } } }`);
    expect(one.payouts.totalCount).toBe(1);
    expect(one.payouts.edges[0].node.merchantId).toBe(other.id);
  });

  it.each([
    [{ first: 101 }, /first: must be 0 to 100/],
    [{ last: 101 }, /last: must be 0 to 100/],
    [{ first: -1 }, /first: must be 0 to 100/],
    [{ first: 2, after: 'not-a-cursor' }, /invalid cursor/],
    [{ first: 2, after: Buffer.from('payout:-4').toString('base64url') }, /invalid cursor/],
    [{ last: 2, before: 'x'.repeat(201) }, /200/],
  ])('%j is VALIDATION_FAILED', async (variables, message) => {
    const res = await asShop(PAGE, variables);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors?.[0]?.message).toMatch(message);
  });

  it('an unknown status is VALIDATION_FAILED, as REST\'s ?status=done', async () => {
    const res = await gql<any>(t, PAGE, { first: 1, status: 'DONE' }, { key: shop.key, headers: GRAPHQL_RESPONSE });
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect((await http(t, 'GET', '/api/v1/payouts?status=done', { key: shop.key })).body.error.code).toBe('VALIDATION_FAILED');
  });
});
