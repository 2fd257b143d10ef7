import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { getIntrospectionQuery } from 'graphql';
import { PAYOUT } from '../src/cli/fields.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { directStats } from '../src/graphql/direct.ts';
import { DEFAULT_QUERY } from '../src/graphql/graphiql.ts';
import { DOCUMENTS_MAX_BYTES } from '../src/graphql/document-cache.ts';
import { introspectionDepth } from '../src/graphql/limits.ts';
import { schema } from '../src/graphql/schema.ts';
import { createApp } from '../src/server.ts';
import { ofRequests, startApp, type TestApp } from './support/app.ts';
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
    quiet = statements.filter(ofRequests).length === 0;
  }
  const res: { status: number; body: any } = await gql(t, query, variables, { ...auth, headers: GRAPHQL_RESPONSE });
  const sql = statements.filter(ofRequests);
  return { res, count: sql.length, sql };
}

/**
 * The statements of a refused `payouts` page, had it run: every one reads payouts (the page
 * comes first). Background work (pollers) and the API key's lookup (cached, read again after a
 * minute) may fall in the same window and are not the operation's.
 */
const ofPayoutsPage = (sql: string[]) => sql.filter((s) => /\bpayouts\b/.test(s) && !/\bapi_keys\b/.test(s));

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
    // The whole HTTP surface with the lower limit, over the same services, answering without listening.
    const side = createApp({ ...t.app.services, config });
    const ask = async (n: number) => {
      statements.length = 0;
      const res = await side.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', 'x-api-key': shop.key },
        payload: JSON.stringify({ query: PAGE.replace('$n: Int!', '').replace('first: $n', `first: ${n}`).replace('query()', 'query') }),
      });
      return { status: res.statusCode, body: res.json(), count: statements.filter(ofRequests).length };
    };
    const refused = await (async () => {
      try {
        expect((await ask(2)).body.errors).toBeUndefined();
        return await ask(50);
      } finally {
        await side.app.close();
      }
    })();
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

/** `n` aliases of the dashboard page, each asking for `size` rows (a literal, a variable, or nothing). */
const pages = (n: number, size: string) =>
  `query Pages${size === '$n' ? '($n: Int)' : ''} { ${Array.from({ length: n }, (_, i) => `p${i}: payouts${size ? `(first: ${size})` : ''} { edges { node { id status amountCents grossAmountCents createdAt merchant { id name balance { availableCents } } events { id type } } } }`).join(' ')} }`;

describe('the cost limit holds on the request as it runs', () => {
  /** Sends the same request twice: Yoga answers the first, the direct path the second (known by then). */
  async function bothPaths(query: string, variables: Record<string, unknown>) {
    const answers = [];
    for (const path of ['yoga', 'direct']) {
      const before = directStats.answered;
      const { res, sql } = await counted(query, { key: shop.key }, variables);
      expect(directStats.answered - before, path).toBe(path === 'direct' ? 1 : 0);
      answers.push({ status: res.status, body: res.body, statements: ofPayoutsPage(sql) });
    }
    return answers;
  }

  it('a page size in a variable costs what the same literal costs: refused before any statement, on both paths', async () => {
    // Three pages of 100 rows are over 20000; three of 5 are far under.
    const literal = await gql(t, pages(3, '100'), {}, { key: shop.key, headers: GRAPHQL_RESPONSE });
    expect(literal.status).toBe(400);
    const found = Number(/found (\d+)/.exec(literal.body.errors![0]!.message)?.[1]);
    expect(found).toBeGreaterThan(20_000);
    for (const answer of await bothPaths(pages(3, '$n'), { n: 100 })) {
      expect(answer.status).toBe(400);
      expect(answer.body.data).toBeUndefined();
      expect(answer.body.errors).toEqual([{ message: `Query cost limit of 20000 exceeded, found ${found}.`, extensions: { code: 'VALIDATION_FAILED' } }]);
      expect(answer.statements).toEqual([]);
    }
    const small = await gql(t, pages(3, '$n'), { n: 5 }, { key: shop.key, headers: GRAPHQL_RESPONSE });
    expect(small.body.errors).toBeUndefined();
    expect(small.body.data.p2.edges).toHaveLength(5);
  });

  it('an omitted page size costs the default page of 50 rows', async () => {
    // Six pages of 50 are over the limit (as with `first: 50`); five are not.
    for (const size of ['', '$n', '50']) {
      for (const answer of await bothPaths(pages(6, size), {})) {
        expect(answer.status, size).toBe(400);
        expect(answer.body.errors[0].message, size).toMatch(/^Query cost limit of 20000 exceeded/);
        expect(answer.statements).toEqual([]);
      }
    }
    const five = await gql(t, pages(5, ''), {}, { key: shop.key });
    expect(five.body.errors).toBeUndefined();
    expect(five.body.data.p4.edges).toHaveLength(50);
  });

  it('a page size past its maximum is the field\'s own refusal, not a larger cost', async () => {
    const res = await gql(t, 'query($n: Int) { payouts(first: $n) { totalCount } }', { n: 1_000_000 }, { key: shop.key });
    expect(res.body.errors?.[0]).toMatchObject({ message: 'first: must be 0 to 100', extensions: { code: 'VALIDATION_FAILED' } });
  });

  it('legacy application/json clients get the refusal with status 200, as every request error', async () => {
    const res = await gql(t, pages(3, '$n'), { n: 100 }, { key: shop.key, headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });

  it('a subscription is costed too, before its stream opens', async () => {
    const heavy = `subscription { payoutEvents { payout { ${'events { id } '.repeat(1)}merchant { ${Array.from({ length: 15 }, (_, i) => `k${i}: apiKeys { id kid status }`).join(' ')} } } } }`;
    const config = { ...t.config, graphql: { ...t.config.graphql, maxCost: 50 } };
    const side = createApp({ ...t.app.services, config });
    const res = await side.app
      .inject({
        method: 'POST',
        url: '/graphql/stream',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-api-key': shop.key },
        payload: JSON.stringify({ query: heavy }),
      })
      .finally(() => side.app.close());
    const text = res.body;
    expect(text).toMatch(/Query cost limit of 50 exceeded/);
    expect(text).toContain('VALIDATION_FAILED');
  });
});

describe('zarpay\'s own documents fit the cost limit at their largest page sizes', () => {
  const documented = [...readFileSync('docs/graphql.md', 'utf8').matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const cli: [string, Record<string, unknown>][] = [
    [`query($s: PayoutStatus, $m: UUID, $n: Int, $a: String) { payouts(first: $n, after: $a, status: $s, merchantId: $m) { totalCount edges { node { ${PAYOUT} } } } }`, { n: 100 }],
    ['query($p: UUID, $o: UUID, $n: Int) { auditLog(paymentId: $p, payoutId: $o, first: $n) { id at actor action merchantId paymentId payoutId detail } }', { n: 500 }],
  ];
  it.each([
    ...documented.map((q, i) => [`docs/graphql.md example ${i + 1}`, q, { after: null, id: '00000000-0000-4000-8000-000000000000' }] as const),
    ['GraphiQL\'s default query', DEFAULT_QUERY, {}] as const,
    ...cli.map(([q, v], i) => [`the CLI's ${['payout list', 'audit log'][i]}`, q, v] as const),
  ])('%s', async (_name, query, variables) => {
    // As the operator where the document asks for a merchant's own view, the merchant otherwise.
    const res = await gql(t, query, variables, query.includes('auditLog') || query.includes('merchantId: $m') ? { operator: true } : { key: shop.key });
    for (const e of res.body.errors ?? []) expect(e.message).not.toMatch(/cost limit/i);
  });
});

describe('introspection is held to a depth', () => {
  const post = (query: string) => gql(t, query, {}, { key: shop.key, headers: GRAPHQL_RESPONSE });
  /** `__schema { types { fields { type { ofType { … name } } } } }`, `levels` deep in all. */
  const deepIntrospection = (levels: number) => `{ __schema { types { fields { type { ${'ofType { '.repeat(levels - 5)}name${' }'.repeat(levels - 5)} } } } } }`;

  it('as deep as the standard introspection query GraphiQL sends, and no deeper', async () => {
    const bound = introspectionDepth(schema);
    expect(bound).toBe(21);
    const full = await post(getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true }));
    expect(full.body.errors).toBeUndefined();
    expect((await post(deepIntrospection(bound))).body.errors).toBeUndefined();
    const res = await post(deepIntrospection(bound + 1));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { message: `Depth limit of ${bound} (introspection included) exceeded, found ${bound + 1}.`, extensions: { code: 'VALIDATION_FAILED' } },
    ]);
    expect(res.body.data).toBeUndefined();
  });

  it('a query through __type is held to the ordinary depth', async () => {
    const res = await post(`{ __type(name: "Payout") { fields { type { ${'ofType { '.repeat(7)}name${' }'.repeat(7)} } } } }`);
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0]?.message).toMatch(/depth limit of 10/i);
  });
});

describe('parsed documents are kept within a memory budget', () => {
  it('hundreds of distinct large documents from a caller without credentials hold no more heap than the budget allows', async () => {
    // Collecting garbage on request makes the heap's size readable; vitest does not expose gc itself.
    const { setFlagsFromString } = await import('node:v8');
    const { runInNewContext } = await import('node:vm');
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap = () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    const fields = 'id status amountCents feeCents grossAmountCents createdAt merchantReference description currency merchantId';
    const doc = (i: number) => `query Q${i} { ${Array.from({ length: 8 }, (_, j) => `p${j}: payouts(first: 1) { totalCount edges { cursor node { ${fields} merchant { id name } } } }`).join(' ')} }`;
    const send = (i: number) => http(t, 'POST', '/graphql', { body: { query: doc(i) } });
    // Twice each: the second is answered by the direct path, which compiles the operation.
    for (let i = 0; i < 50; i++) for (let k = 0; k < 2; k++) await send(i);
    const before = heap();
    for (let i = 50; i < 350; i++) for (let k = 0; k < 2; k++) await send(i);
    const grown = heap() - before;
    // Unbounded, these 300 held ~70 MB (docs/limits.md); the budget is 8 MiB of estimated weight.
    expect(grown).toBeLessThan(2 * DOCUMENTS_MAX_BYTES);
  }, 120_000);
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
