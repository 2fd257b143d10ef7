import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directStats, jsonAnswerType } from '../src/graphql/direct.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, http, payoutBody, type TestMerchant } from './support/client.ts';

/**
 * The direct path (src/graphql/direct.ts) must answer exactly as Yoga does. Each request is sent
 * twice: first to `/graphql?via=yoga` (a URL the direct path leaves to Yoga, which also makes the
 * document known), then to `/graphql`, which the direct path answers; status, headers that
 * clients read, and body must be the same.
 */

let t: TestApp;
let shop: TestMerchant;
let other: TestMerchant;
let payoutId: string;
let othersPayout: string;

beforeAll(async () => {
  // Tight balance-check budget, so that a refusal can be compared too.
  t = await startApp({ RATE_LIMITS: 'balance=4' });
  shop = await createMerchant(t, { name: 'Direct Shop', payoutFeeCents: 150 });
  other = await createMerchant(t, { name: 'Other Shop' });
  await credit(t, shop.id, 5_000_000_000_000);
  await credit(t, other.id, 10_000);
  payoutId = (await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(2_500) })).body.data.id;
  othersPayout = (await http(t, 'POST', '/api/v1/payouts', { key: other.key, body: payoutBody(500) })).body.data.id;
});
afterAll(() => t?.close());

interface Sent {
  status: number;
  headers: Record<string, string | null>;
  body: unknown;
}

/** The headers a client acts on; the rest (date, request id) differ between any two answers. */
const COMPARED = ['content-type', 'retry-after', 'ratelimit-limit', 'ratelimit-reset', 'cache-control', 'allow'];
/**
 * Seconds until the window resets: the clock can pass a second between the two requests of a
 * pair (it did, under load), so these are compared as present or absent, and the rate-limit
 * test below checks their values within a second.
 */
const SECONDS = new Set(['retry-after', 'ratelimit-reset']);

async function send(path: string, body: unknown, headers: Record<string, string>): Promise<Sent> {
  const res = await fetch(t.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // an event stream: kept as text
  }
  const headersOf = (h: string) => (SECONDS.has(h) && res.headers.get(h) !== null ? 'seconds' : res.headers.get(h));
  const sent = { status: res.status, headers: Object.fromEntries(COMPARED.map((h) => [h, headersOf(h)])), body: parsed };
  // Kept out of the comparison (not enumerable), for the checks that read the values.
  return Object.defineProperty(sent, 'seconds', { value: Object.fromEntries([...SECONDS].map((h) => [h, res.headers.get(h)])), enumerable: false });
}

/** A header of SECONDS as the answer gave it. */
const secondsOf = (sent: Sent, header: string) => Number((sent as Sent & { seconds: Record<string, string | null> }).seconds[header]);

/** Sends through Yoga, then directly; returns both, having checked that the second went directly. */
async function both(body: unknown, headers: Record<string, string> = {}) {
  const before = directStats.answered;
  const yoga = await send('/graphql?via=yoga', body, headers);
  expect(directStats.answered).toBe(before);
  const direct = await send('/graphql', body, headers);
  expect(directStats.answered, 'answered by the direct path').toBe(before + 1);
  return { yoga, direct };
}

const key = () => ({ 'x-api-key': shop.key });
const operator = () => ({ authorization: `Bearer ${t.config.operatorToken}` });
const PAYOUT = 'query P($id: UUID!) { payout(id: $id) { id status amountCents feeCents grossAmountCents createdAt merchant { name } } }';

describe('the direct path answers as Yoga does', () => {
  it.each([
    ['no Accept', {}],
    ['*/*', { accept: '*/*' }],
    ['application/json', { accept: 'application/json' }],
    ['application/graphql-response+json', { accept: 'application/graphql-response+json' }],
    ['both, JSON preferred last', { accept: 'application/graphql-response+json, application/json;q=0.9' }],
    ['application/*', { accept: 'application/*' }],
  ])('a read, Accept %s', async (_name, accept) => {
    const { yoga, direct } = await both({ query: PAYOUT, variables: { id: payoutId } }, { ...key(), ...accept });
    expect(direct).toEqual(yoga);
    expect(direct.body).toMatchObject({ data: { payout: { id: payoutId, amountCents: 2_500, feeCents: 150, merchant: { name: 'Direct Shop' } } } });
  });

  it.each([
    ['another merchant\'s payout', () => ({ query: PAYOUT, variables: { id: othersPayout } }), key],
    ['a variable that does not coerce', () => ({ query: PAYOUT, variables: { id: 'not-a-uuid' } }), key],
    ['a missing variable', () => ({ query: PAYOUT, variables: {} }), key],
    ['variables: null', () => ({ query: PAYOUT, variables: null }), key],
    ['a merchant field asked by the operator', () => ({ query: '{ viewer { id } }' }), operator],
    ['no credentials', () => ({ query: PAYOUT, variables: { id: payoutId } }), () => ({})],
    ['a refused input with every problem listed', () => ({
      query: 'mutation C($input: CreatePayoutInput!) { createPayout(input: $input) { payout { id } } }',
      variables: { input: { amountCents: -5, currency: 'USD', payoutMethod: 'EFT', paymentDetails: { accountNumber: '1', branchCode: '12', accountHolder: 'A', bankName: 'B' } } },
    }), key],
    ['a named operation among several', () => ({ query: `query A { viewer { id } } ${PAYOUT}`, operationName: 'P', variables: { id: payoutId } }), key],
    ['an unknown operation name', () => ({ query: `query A { viewer { id } } ${PAYOUT}`, operationName: 'Nope', variables: { id: payoutId } }), key],
    ['@skip and @include with variables', () => ({
      query: 'query S($id: UUID!, $s: Boolean!) { payout(id: $id) { id status @skip(if: $s) feeCents @include(if: $s) } }',
      variables: { id: payoutId, s: true },
    }), key],
    ['fragments, aliases, __typename and nested lists', () => ({
      query: '{ first: payouts(first: 2) { totalCount edges { cursor node { ...P } } pageInfo { hasNextPage endCursor } } me: viewer { name apiKeys { kid status } balance { availableCents totals { grossCents } } } } fragment P on Payout { __typename id status merchant { name } events { type data } }',
    }), key],
    ['an enum variable and a wrong enum value', () => ({
      query: 'query L($s: PayoutStatus) { payouts(first: 3, status: $s) { totalCount } }',
      variables: { s: 'NOT_A_STATUS' },
    }), key],
    ['a cursor the list never gave', () => ({ query: '{ payouts(first: 2, after: "nope") { totalCount } }' }), key],
    ['a page too large', () => ({ query: 'query L($n: Int) { payouts(first: $n) { totalCount } }', variables: { n: 500 } }), key],
    ['a null for a non-null variable', () => ({ query: PAYOUT, variables: { id: null } }), key],
    ['an input field the type does not have', () => ({
      query: 'mutation C($input: CreatePayoutInput!) { createPayout(input: $input) { payout { id } } }',
      variables: { input: { amountCents: 100, currency: 'ZAR', payoutMethod: 'EFT', extra: 1, paymentDetails: { accountNumber: '62012345678', branchCode: '250655', accountHolder: 'A', bankName: 'B' } } },
    }), key],
    ['a string for Money and a missing nested field', () => ({
      query: 'mutation C($input: CreatePayoutInput!) { createPayout(input: $input) { payout { id } } }',
      variables: { input: { amountCents: '100', currency: 'ZAR', payoutMethod: 'EFT', paymentDetails: { accountNumber: '62012345678', branchCode: '250655', accountHolder: 'A' } } },
    }), key],
    ['a float for Int', () => ({ query: 'query L($n: Int) { payouts(first: $n) { totalCount } }', variables: { n: 1.5 } }), key],
    ['a variable of an enum given as a number', () => ({
      query: 'query L($s: PayoutStatus) { payouts(first: 1, status: $s) { totalCount } }',
      variables: { s: 3 },
    }), key],
    ['a DateTime-free read with a boolean for a UUID', () => ({ query: PAYOUT, variables: { id: true } }), key],
    ['introspection', () => ({ query: '{ __schema { queryType { name } } __type(name: "Payout") { name fields { name type { kind name ofType { name } } } } }' }), key],
  ])('%s', async (_name, body, auth) => {
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const b = body();
      const before = directStats.answered;
      const yoga = await send('/graphql?via=yoga', b, { ...auth(), accept });
      const direct = await send('/graphql', b, { ...auth(), accept });
      expect(direct).toEqual(yoga);
      // Requests that cannot run (an unknown operation) are left to Yoga; the rest are answered directly.
      if (!(b as { operationName?: string }).operationName?.startsWith('Nope')) expect(directStats.answered).toBe(before + 1);
    }
  });

  it('a missing or null variable is VALIDATION_FAILED, 400 for every client (docs/graphql.md)', async () => {
    for (const variables of [{}, { id: null }]) {
      const res = await send('/graphql', { query: PAYOUT, variables }, { ...key(), accept: 'application/json' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ errors: [{ extensions: { code: 'VALIDATION_FAILED' } }] });
    }
  });

  it('a mutation: the same answer but for the new payout\'s own values, and its effect once per request', async () => {
    const query = 'mutation C($input: CreatePayoutInput!) { createPayout(input: $input) { created payout { status amountCents feeCents grossAmountCents merchantReference } } }';
    const input = (ref: string) => ({ amountCents: 1_000, currency: 'ZAR', payoutMethod: 'EFT', merchantReference: ref, paymentDetails: { accountNumber: '62012345678', branchCode: '250655', accountHolder: 'T N', bankName: 'FNB' } });
    const yoga = await send('/graphql?via=yoga', { query, variables: { input: input('Y-1') } }, key());
    const before = directStats.answered;
    const direct = await send('/graphql', { query, variables: { input: input('D-1') } }, key());
    expect(directStats.answered).toBe(before + 1);
    expect(JSON.stringify(direct.body).replace('D-1', 'Y-1')).toBe(JSON.stringify(yoga.body));
    expect({ ...direct, body: null }).toEqual({ ...yoga, body: null });
    const stored = await t.database.db.selectFrom('payouts').select('merchant_reference').where('merchant_id', '=', shop.id).where('merchant_reference', 'in', ['Y-1', 'D-1']).execute();
    expect(stored).toHaveLength(2);
  });

  it('rate limits: the same headers while allowed, and the same 429 once refused', async () => {
    const fresh = await createMerchant(t, { name: 'Budget Shop' });
    const q = { query: '{ balance { balanceCents } }' };
    const h = { 'x-api-key': fresh.key, accept: 'application/graphql-response+json' };
    const yoga1 = await send('/graphql?via=yoga', q, h);
    const direct1 = await send('/graphql', q, h);
    expect(yoga1.headers['ratelimit-limit']).toBe('4');
    expect(direct1.headers).toEqual(yoga1.headers);
    await send('/graphql?via=yoga', q, h);
    await send('/graphql', q, h);
    const yoga429 = await send('/graphql?via=yoga', q, h);
    const direct429 = await send('/graphql', q, h);
    expect(yoga429.status).toBe(429);
    expect(direct429).toEqual(yoga429);
    for (const header of SECONDS) expect(Math.abs(secondsOf(direct429, header) - secondsOf(yoga429, header)), header).toBeLessThanOrEqual(1);
    expect(direct429.body).toMatchObject({ errors: [{ extensions: { code: 'RATE_LIMIT_EXCEEDED' } }] });
  });

  it('leaves to Yoga what it does not answer: cross-origin requests, other content types, unknown parameters, extensions, subscriptions, bad JSON', async () => {
    // Make the documents known first.
    await send('/graphql', { query: PAYOUT, variables: { id: payoutId } }, key());
    const left = [
      () => send('/graphql', { query: PAYOUT, variables: { id: payoutId } }, { ...key(), origin: 'http://elsewhere.example' }),
      () => send('/graphql', { query: PAYOUT, variables: { id: payoutId }, nonsense: 1 }, key()),
      () => send('/graphql', { query: PAYOUT, variables: { id: payoutId }, extensions: {} }, key()),
      () => send('/graphql', { query: PAYOUT, variables: [payoutId] }, key()),
      () => send('/graphql', `{"query": ${JSON.stringify(PAYOUT)}`, key()),
      () => send('/graphql', { query: 'subscription { payoutEvents { id } }' }, { ...key(), accept: 'application/json' }),
      () => send('/graphql', { query: PAYOUT, variables: { id: payoutId } }, { ...key(), accept: 'text/event-stream' }),
    ];
    for (const request of left) {
      const before = directStats.answered;
      const res = await request();
      expect(directStats.answered).toBe(before);
      expect(res.status).toBeGreaterThan(0);
    }
  });
});

describe('jsonAnswerType: Yoga\'s choice of media type', () => {
  it.each([
    [undefined, 'application/json'],
    ['*/*', 'application/json'],
    ['application/json', 'application/json'],
    ['application/graphql-response+json', 'application/graphql-response+json'],
    ['application/graphql-response+json, application/json', 'application/graphql-response+json'],
    ['application/json, application/graphql-response+json', 'application/json'],
    ['application/json; charset=latin1', undefined],
    ['text/event-stream', undefined],
    ['multipart/mixed', undefined],
    ['text/html', undefined],
  ])('%s → %s', (accept, type) => {
    expect(jsonAnswerType(accept)).toBe(type);
  });
});

it('the operator answers the same as well', async () => {
  const { yoga, direct } = await both({ query: `{ payouts(first: 5, merchantId: "${shop.id}") { totalCount edges { node { id status } } } }` }, operator());
  expect(direct).toEqual(yoga);
});
