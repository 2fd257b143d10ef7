import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { createGraphQL } from '../src/graphql/yoga.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, gql, GRAPHQL_RESPONSE, http, op, payoutBody, type TestMerchant } from './support/client.ts';

/** Statements the service ran, counted through openDatabase's onQuery hook. */
const statements: string[] = [];
let t: TestApp;
let shop: TestMerchant;

beforeAll(async () => {
  // No dispatcher: its polling would add statements that have nothing to do with the query.
  t = await startApp({ RUN_DISPATCHER: 'false' }, { onQuery: (sql) => statements.push(sql) });
  shop = await createMerchant(t, { name: 'Busy Shop', payoutFeeCents: 10 });
  await credit(t, shop.id, 1_000_000);
  for (let i = 0; i < 50; i++) {
    const p = (await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(100 + i) })).body.data;
    if (i % 2 === 0) await op(t, `mutation { approvePayout(id: "${p.id}") { payout { id } } }`);
  }
});
afterAll(() => t?.close());

/** Runs one request and returns its response with the number of SQL statements it cost. */
async function counted(query: string, auth: { key?: string; operator?: boolean }, variables: Record<string, unknown> = {}) {
  // Let background work finish first (the event bus reads the events that setup committed), so
  // only this request's statements are counted.
  for (let quiet = false; !quiet; ) {
    statements.length = 0;
    await new Promise((r) => setTimeout(r, 150));
    quiet = statements.length === 0;
  }
  const res: { status: number; body: any } = await gql(t, query, variables, { ...auth, headers: GRAPHQL_RESPONSE });
  return { res, count: statements.length };
}

const PAGE = `query($n: Int!) { payouts(first: $n) { totalCount pageInfo { hasNextPage endCursor }
  edges { cursor node { id status amountCents grossAmountCents createdAt
    merchant { id name payoutFeeCents balance { availableCents totals { grossCents } } apiKeys { kid status } }
    events { id type createdAt data } } } } }`;

describe('no N+1: statements per page do not grow with its size', () => {
  it('a merchant\'s page of 5 and of 50 payouts, each with merchant, balance, keys and events', async () => {
    const small = await counted(PAGE, { key: shop.key }, { n: 5 });
    const large = await counted(PAGE, { key: shop.key }, { n: 50 });
    expect(small.res.body.errors).toBeUndefined();
    expect(large.res.body.errors).toBeUndefined();
    const edges = large.res.body.data.payouts.edges;
    expect(edges).toHaveLength(50);
    // Newest first: the 50th payout was left pending, the 49th approved.
    expect(edges[0].node.events.map((e: any) => e.type)).toEqual(['payout.created']);
    expect(edges[1].node.events.map((e: any) => e.type)).toEqual(['payout.created', 'payout.approved']);
    expect(edges[1].node.events[1].data).toMatchObject({ id: edges[1].node.id, status: 'approved' });
    expect(large.count).toBe(small.count);
    // key lookup, page, count, merchants, balances, keys, events
    expect(large.count).toBeLessThanOrEqual(7);
  });

  it('the operator\'s page across merchants costs the same', async () => {
    const other = await createMerchant(t, { name: 'Second Shop' });
    await credit(t, other.id, 10_000);
    await http(t, 'POST', '/api/v1/payouts', { key: other.key, body: payoutBody(100) });
    const small = await counted(PAGE, { operator: true }, { n: 2 });
    const large = await counted(PAGE, { operator: true }, { n: 50 });
    const merchants = new Set(large.res.body.data.payouts.edges.map((e: any) => e.node.merchant.id));
    expect(merchants.size).toBe(2);
    expect(large.count).toBe(small.count);
  });
});

/** `depth` levels in all: payouts › edges › node, then inline fragments, then `id`. */
const deepPayouts = (depth: number) => `{ payouts { edges { node { ${'... on Payout { '.repeat(depth - 4)}id${' }'.repeat(depth - 4)} } } } }`;

describe('query limits refuse a document before it runs', () => {
  it('depth 10 runs; depth 11 is VALIDATION_FAILED with status 400 and no data', async () => {
    const ok = await gql(t, deepPayouts(10), {}, { key: shop.key });
    expect(ok.body.errors).toBeUndefined();
    const { res, count } = await counted(deepPayouts(11), { operator: true });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors[0].message).toMatch(/depth limit of 10/i);
    expect(count).toBe(0);
  });

  it('an over-deep mutation changes nothing and runs no SQL at all', async () => {
    const before = (await op(t, `{ balance(merchantId: "${shop.id}") { balanceCents } }`)).balance.balanceCents;
    const nested = `${'... on Balance { '.repeat(9)}balanceCents${' }'.repeat(9)}`;
    const { res, count } = await counted(
      `mutation { creditBalance(merchantId: "${shop.id}", amountCents: 999) { balance { ${nested} } } }`,
      { operator: true },
    );
    expect(res.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(count).toBe(0);
    expect((await op(t, `{ balance(merchantId: "${shop.id}") { balanceCents } }`)).balance.balanceCents).toBe(before);
  });

  it('more than 15 aliases is VALIDATION_FAILED', async () => {
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: balance { availableCents }`).join(' ')} }`;
    expect((await gql(t, aliases(15), {}, { key: shop.key })).body.errors).toBeUndefined();
    const { res, count } = await counted(aliases(16), { key: shop.key });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ extensions: { code: 'VALIDATION_FAILED' } });
    expect(res.body.errors[0].message).toMatch(/aliases limit of 15/i);
    expect(count).toBeLessThanOrEqual(1); // the API key lookup, which happens before parsing
  });

  it('more than 1000 tokens is VALIDATION_FAILED', async () => {
    const res = await gql(t, `{ ${'viewer { id } '.repeat(300)} }`, {}, { key: shop.key, headers: GRAPHQL_RESPONSE });
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]).toMatchObject({ message: 'Token limit of 1000 exceeded.', extensions: { code: 'VALIDATION_FAILED' } });
  });

  it('over GRAPHQL_MAX_COST is VALIDATION_FAILED and nothing runs', async () => {
    const config = { ...t.config, graphql: { ...t.config.graphql, maxCost: 500 } };
    const yoga = createGraphQL(t.app.services, config);
    const ask = async (n: number) => {
      statements.length = 0;
      const res = await yoga.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', 'x-api-key': shop.key },
        body: JSON.stringify({ query: PAGE.replace('$n: Int!', '').replace('first: $n', `first: ${n}`).replace('query()', 'query') }),
      });
      return { status: res.status, body: await res.json(), count: statements.length };
    };
    expect((await ask(2)).body.errors).toBeUndefined();
    const refused = await ask(50);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(refused.body.errors[0].message).toMatch(/cost limit of 500/i);
    expect(refused.count).toBeLessThanOrEqual(1);
  });

  it('the default limits admit a dashboard page of 100 payouts with merchant and events', async () => {
    const res = await gql(t, PAGE.replace('$n: Int!', '').replace('first: $n', 'first: 100').replace('query()', 'query'), {}, { key: shop.key });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.payouts.edges).toHaveLength(50);
  });
});

describe('limit settings', () => {
  const env = (extra: Record<string, string>) => ({ DATA_DIR: mkdtempSync(join(tmpdir(), 'zarpay-cfg-')), ...extra });

  it('default to depth 10, cost 20000, 15 aliases and 1000 tokens', () => {
    expect(loadConfig(env({})).graphql).toEqual({ maxDepth: 10, maxCost: 20_000, maxAliases: 15, maxTokens: 1_000 });
  });

  it('are read from GRAPHQL_MAX_* and validated like every other setting', () => {
    const config = loadConfig(env({ GRAPHQL_MAX_DEPTH: '7', GRAPHQL_MAX_COST: '900', GRAPHQL_MAX_ALIASES: '0', GRAPHQL_MAX_TOKENS: '300' }));
    expect(config.graphql).toEqual({ maxDepth: 7, maxCost: 900, maxAliases: 0, maxTokens: 300 });
    for (const [name, value] of [['GRAPHQL_MAX_DEPTH', '0'], ['GRAPHQL_MAX_COST', 'lots'], ['GRAPHQL_MAX_TOKENS', '-1'], ['GRAPHQL_MAX_ALIASES', '1.5']]) {
      expect(() => loadConfig(env({ [name!]: value! })), name).toThrow(ConfigError);
      expect(() => loadConfig(env({ [name!]: value! })), name).toThrow(name!);
    }
  });
});
