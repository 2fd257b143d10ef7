import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directStats } from '../src/graphql/direct.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, gql, http, payoutBody, type TestMerchant } from './support/client.ts';

/**
 * A list counts against its REST budget in proportion to the rows it asks for: one unit per 50
 * rows (the default page), rounded up; a point read is one unit (docs/limits.md). Read through
 * RateLimit-Remaining, on both execution paths.
 */

let t: TestApp;

beforeAll(async () => {
  t = await startApp({ RATE_LIMITS: 'payout_status=300,payment_status=300,balance=60' });
});
afterAll(() => t?.close());

const remaining = (res: { headers: Headers }) => Number(res.headers.get('ratelimit-remaining'));

/** A merchant of its own per test, so that each starts with a full budget. */
async function merchant(): Promise<TestMerchant & { payoutId: string }> {
  const m = await createMerchant(t);
  await credit(t, m.id, 100_000);
  const payoutId = (await http(t, 'POST', '/api/v1/payouts', { key: m.key, body: payoutBody(1_000) })).body.data.id;
  return { ...m, payoutId };
}

/** The units a request used: the fall of RateLimit-Remaining from `before`. */
async function units(m: TestMerchant, query: string, variables: Record<string, unknown>, before: number) {
  const res = await gql(t, query, variables, { key: m.key });
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return { used: before - remaining(res), after: remaining(res) };
}

describe('a list counts one unit per 50 rows it asks for', () => {
  it('first: 100 is two units, an omitted first (50 rows) one, first: 0 one, a point read one', async () => {
    const m = await merchant();
    let left = 300;
    for (const [query, expected] of [
      ['{ payouts(first: 100) { totalCount } }', 2],
      ['{ payouts { totalCount } }', 1],
      ['{ payouts(first: 51) { totalCount } }', 2],
      ['{ payouts(first: 0) { totalCount } }', 1],
      ['{ payouts(last: 100) { totalCount } }', 2],
      [`{ payout(id: "${m.payoutId}") { id } }`, 1],
    ] as const) {
      const { used, after } = await units(m, query, {}, left);
      expect(used, query).toBe(expected);
      left = after;
    }
  });

  it('15 aliases of first: 100 are 30 units, not 15', async () => {
    const m = await merchant();
    const query = `{ ${Array.from({ length: 15 }, (_, i) => `p${i}: payouts(first: 100) { totalCount }`).join(' ')} }`;
    expect((await units(m, query, {}, 300)).used).toBe(30);
  });

  it('a page size in a variable counts as the same literal, on both execution paths', async () => {
    const m = await merchant();
    const query = 'query Page($n: Int) { payouts(first: $n) { edges { node { id } } } }';
    let left = 300;
    const sizes = [[100, 2], [100, 2], [10, 1], [null, 1]] as const;
    for (const [i, [n, expected]] of sizes.entries()) {
      const before = directStats.answered;
      const { used, after } = await units(m, query, { n }, left);
      expect(used, String(n)).toBe(expected);
      left = after;
      // Yoga answers the first and makes the document known; the direct path answers the others.
      expect(directStats.answered - before).toBe(i === 0 ? 0 : 1);
    }
  });

  it('a budget runs out by rows: ten requests of fifteen 100-row pages spend 300 units, the eleventh is refused', async () => {
    const m = await merchant();
    const query = `{ ${Array.from({ length: 15 }, (_, i) => `p${i}: payouts(first: 100) { edges { node { id } } }`).join(' ')} }`;
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await gql(t, query, {}, { key: m.key })).status);
    // 10 × 30 = 300 units: the eleventh is over.
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    expect((await http(t, 'GET', '/api/v1/payouts', { key: m.key })).status).toBe(429);
  });

  it('other budgets keep their point reads: viewer with its balance is one balance check', async () => {
    const m = await merchant();
    const res = await gql(t, '{ viewer { id balance { balanceCents } } }', {}, { key: m.key });
    expect(res.headers.get('ratelimit-limit')).toBe('60');
    expect(remaining(res)).toBe(59);
  });
});
