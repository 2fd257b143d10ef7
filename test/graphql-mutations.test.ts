import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/server.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, eftDetails, expectLedgerOk, gql, GRAPHQL_RESPONSE, http, op, payoutBody, type TestMerchant } from './support/client.ts';

let t: TestApp;
let shop: TestMerchant;

beforeAll(async () => {
  t = await startApp();
  shop = await createMerchant(t, { name: 'Mutation Shop', payoutFeeCents: 250 });
  await credit(t, shop.id, 500_000);
});
afterAll(() => t?.close());

const CREATE = `mutation($input: CreatePayoutInput!) { createPayout(input: $input) {
  created payout { id status amountCents feeCents grossAmountCents merchantReference description metadata } } }`;

/** REST's payout body as GraphQL input: the same values under camelCase names. */
function asInput(body: Record<string, any>) {
  const d = body.payment_details;
  const input: Record<string, unknown> = {
    amountCents: body.amount_cents,
    currency: body.currency,
    payoutMethod: String(body.payout_method).toUpperCase(),
  };
  if (d !== undefined) input.paymentDetails = { accountNumber: d.account_number, branchCode: d.branch_code, accountHolder: d.account_holder, bankName: d.bank_name };
  if (body.merchant_reference !== undefined) input.merchantReference = body.merchant_reference;
  if (body.description !== undefined) input.description = body.description;
  if (body.metadata !== undefined) input.metadata = body.metadata;
  return input;
}

const available = async () => (await op(t, `{ balance(merchantId: "${shop.id}") { availableCents } }`)).balance.availableCents;

describe('createPayout, the twin of POST /api/v1/payouts', () => {
  it('creates, replays a merchantReference and refuses a conflicting one', async () => {
    const before = await available();
    const input = asInput(payoutBody(4_000, { merchant_reference: 'GQL-1', description: 'stock', metadata: { po: 7 } }));
    const first = await gql<any>(t, CREATE, { input }, { key: shop.key });
    expect(first.body.data.createPayout).toMatchObject({
      created: true,
      payout: { status: 'PENDING', amountCents: 4_000, feeCents: 250, grossAmountCents: 4_250, merchantReference: 'GQL-1', metadata: { po: 7 } },
    });
    expect(await available()).toBe(before - 4_250);
    const replay = await gql<any>(t, CREATE, { input }, { key: shop.key });
    expect(replay.body.data.createPayout).toMatchObject({ created: false, payout: { id: first.body.data.createPayout.payout.id } });
    // The same reference over REST with the same parameters is the same payout too.
    const rest = await http(t, 'POST', '/api/v1/payouts', {
      key: shop.key,
      body: payoutBody(4_000, { merchant_reference: 'GQL-1', description: 'stock', metadata: { po: 7 } }),
    });
    expect(rest.status).toBe(200);
    expect(rest.body.data.id).toBe(first.body.data.createPayout.payout.id);
    const conflict = await gql<any>(t, CREATE, { input: { ...input, amountCents: 4_001 } }, { key: shop.key });
    expect(conflict.body.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(await available()).toBe(before - 4_250);
    await expectLedgerOk(t);
  });

  it('over the available balance is INSUFFICIENT_BALANCE, as in REST', async () => {
    const res = await gql<any>(t, CREATE, { input: asInput(payoutBody(await available())) }, { key: shop.key });
    expect(res.body.errors?.[0]?.extensions?.code).toBe('INSUFFICIENT_BALANCE');
  });

  // The shared zod schemas decide both: the same input is refused with the same code.
  it.each([
    [{ amount_cents: 0 }, 'VALIDATION_FAILED'],
    [{ amount_cents: -5 }, 'VALIDATION_FAILED'],
    [{ currency: 'USD' }, 'INVALID_CURRENCY'],
    [{ currency: 'ZA' }, 'INVALID_CURRENCY'],
    [{ payment_details: { ...eftDetails, branch_code: '12345' } }, 'INVALID_PAYMENT_DETAILS'],
    [{ payment_details: { ...eftDetails, branch_code: '12345a' } }, 'INVALID_PAYMENT_DETAILS'],
    [{ payment_details: { ...eftDetails, account_number: '12' } }, 'INVALID_PAYMENT_DETAILS'],
    [{ payment_details: { ...eftDetails, account_holder: '  ' } }, 'INVALID_PAYMENT_DETAILS'],
    [{ merchant_reference: 'x'.repeat(101) }, 'VALIDATION_FAILED'],
    [{ merchant_reference: '' }, 'VALIDATION_FAILED'],
    [{ description: 'x'.repeat(501) }, 'VALIDATION_FAILED'],
    [{ metadata: [1, 2] }, 'VALIDATION_FAILED'],
    // Neither the bank account nor a saved payee (either may be given since payees came).
    [{ payment_details: undefined }, 'VALIDATION_FAILED'],
  ])('%j: REST and GraphQL both refuse with %s and change nothing', async (change, code) => {
    const before = await available();
    const body = { ...payoutBody(1_000), ...change };
    const rest = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body });
    expect(rest.body.error?.code).toBe(code);
    const graphql = await gql<any>(t, CREATE, { input: asInput(body) }, { key: shop.key });
    expect(graphql.body.errors?.[0]?.extensions?.code).toBe(code);
    expect(await available()).toBe(before);
  });

  it.each([
    ['amountCents: 10.5', { amountCents: 10.5 }],
    ['amountCents: "100"', { amountCents: '100' }],
    ['amountCents beyond 2^53', { amountCents: 2 ** 53 + 2 }],
    ['payoutMethod: SWIFT', { payoutMethod: 'SWIFT' }],
    ['an unknown input field', { surprise: true }],
  ])('%s is refused by GraphQL\'s own coercion with VALIDATION_FAILED and status 400', async (_label, change) => {
    const before = await available();
    const input = { ...asInput(payoutBody(1_000)), ...change };
    const res = await gql<any>(t, CREATE, { input }, { key: shop.key, headers: GRAPHQL_RESPONSE });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect(await available()).toBe(before);
  });
});

describe('regenerateSecretKey, the twin of POST /merchant/api-keys/secret/regenerate', () => {
  it('returns a working key and revokes the calling one at once', async () => {
    const m = await createMerchant(t);
    const res = await gql<any>(t, 'mutation { regenerateSecretKey { fullKey apiKey { kid status } } }', {}, { key: m.key });
    const { fullKey, apiKey } = res.body.data.regenerateSecretKey;
    expect(apiKey.status).toBe('ACTIVE');
    expect((await gql<any>(t, '{ viewer { id } }', {}, { key: fullKey })).body.data.viewer.id).toBe(m.id);
    expect((await gql<any>(t, '{ viewer { id } }', {}, { key: m.key })).status).toBe(403);
    const keys = (await op(t, `{ merchant(id: "${m.id}") { apiKeys { kid status } } }`)).merchant.apiKeys;
    expect(keys).toEqual([{ kid: apiKey.kid, status: 'ACTIVE' }, { kid: m.kid, status: 'REVOKED' }]);
  });
});

describe('operator mutations', () => {
  it('createMerchant and updateMerchant validate with the shared schema', async () => {
    const blank = await gql<any>(t, 'mutation { createMerchant(input: { name: " " }) { merchant { id } } }', {}, { operator: true });
    expect(blank.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    // A merchant of this test's own: the change below is seen by no other test.
    const m = await createMerchant(t);
    const bps = await gql<any>(t, `mutation { updateMerchant(id: "${m.id}", input: { paymentFeeBps: 10001 }) { merchant { id } } }`, {}, { operator: true });
    expect(bps.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    const unknown = await gql<any>(t, 'mutation { updateMerchant(id: "00000000-0000-0000-0000-000000000000", input: { name: "X" }) { merchant { id } } }', {}, { operator: true });
    expect(unknown.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const updated = await op(t, `mutation { updateMerchant(id: "${m.id}", input: { redirectDomains: ["shop.example"] }) { merchant { redirectDomains } } }`);
    expect(updated.updateMerchant.merchant.redirectDomains).toContain('shop.example');
  });

  it('creditBalance moves money through the ledger; a non-positive amount is VALIDATION_FAILED', async () => {
    const m = await createMerchant(t);
    const available = async () => (await gql<any>(t, '{ balance { availableCents } }', {}, { key: m.key })).body.data.balance.availableCents;
    const before = await available();
    await op(t, `mutation { creditBalance(merchantId: "${m.id}", amountCents: 1234, memo: "top-up") { balance { availableCents } } }`);
    expect(await available()).toBe(before + 1_234);
    const zero = await gql<any>(t, `mutation { creditBalance(merchantId: "${m.id}", amountCents: 0) { balance { availableCents } } }`, {}, { operator: true });
    expect(zero.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect((await op(t, '{ ledgerVerification }')).ledgerVerification.ok).toBe(true);
  });

  it('issueApiKey, expireApiKey and revokeApiKey change what the key can do', async () => {
    const m = await createMerchant(t);
    const issued = (await op(t, `mutation { issueApiKey(merchantId: "${m.id}") { apiKey { kid } fullKey } }`)).issueApiKey;
    expect((await gql<any>(t, '{ viewer { id } }', {}, { key: issued.fullKey })).body.data.viewer.id).toBe(m.id);
    const expired = await op(t, `mutation { expireApiKey(kid: "${issued.apiKey.kid}") { apiKey { status expiresAt } } }`);
    expect(expired.expireApiKey.apiKey.status).toBe('EXPIRED');
    expect((await gql<any>(t, '{ viewer { id } }', {}, { key: issued.fullKey })).status).toBe(403);
    const revoked = await op(t, `mutation { revokeApiKey(kid: "${m.kid}") { apiKey { status revokedAt } } }`);
    expect(revoked.revokeApiKey.apiKey.status).toBe('REVOKED');
    const none = await gql<any>(t, 'mutation { revokeApiKey(kid: "nosuchkid000") { apiKey { status } } }', {}, { operator: true });
    expect(none.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('request errors carry the REST code', () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    http(t, 'POST', '/graphql', { rawBody: body, headers: { 'content-type': 'application/json', ...GRAPHQL_RESPONSE, 'x-api-key': shop.key, ...headers } });

  it('a document that does not parse is 400 INVALID_INPUT', async () => {
    const res = await post(JSON.stringify({ query: '{ viewer {' }));
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('INVALID_INPUT');
  });

  it('an unknown field is 400 VALIDATION_FAILED, without suggesting field names', async () => {
    const res = await post(JSON.stringify({ query: '{ viewr { id } }' }));
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors[0].message).not.toContain('viewer');
  });

  it('a body that is not JSON is 400 INVALID_INPUT in GraphQL\'s shape, for application/json clients too', async () => {
    for (const accept of ['application/graphql-response+json', 'application/json']) {
      const res = await post('{"query": ', { accept });
      expect(res.status, accept).toBe(400);
      expect(res.body.errors[0].extensions.code, accept).toBe('INVALID_INPUT');
      expect(res.body).not.toHaveProperty('status');
    }
  });

  it('a body over 64 KiB is refused before GraphQL, with 413 INVALID_INPUT in the service-wide envelope', async () => {
    const res = await post(JSON.stringify({ query: '{ viewer { id } }', pad: 'x'.repeat(70_000) }));
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('INVALID_INPUT');
  });

  it('REST keeps its envelope for a body that is not JSON', async () => {
    const res = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, rawBody: '{"amount', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', error: { code: 'INVALID_INPUT' } });
  });

  it('an unexpected failure is INTERNAL_ERROR with no stack, SQL or message of its own', async () => {
    const broken = {
      ...t.app.services,
      payouts: Object.assign(Object.create(t.app.services.payouts), {
        getMany: async () => {
          throw new Error('syntax error at or near "selec" in select * from payouts where secret = 1');
        },
      }),
    };
    // The whole HTTP surface over the broken services, answering without listening.
    const side = createApp(broken);
    const res = await side.app
      .inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', 'x-api-key': shop.key },
        payload: JSON.stringify({ query: '{ payout(id: "00000000-0000-0000-0000-000000000000") { id } }' }),
      })
      .finally(() => side.app.close());
    const body = res.json();
    expect(body.errors).toEqual([{ message: 'internal server error', locations: expect.any(Array), path: ['payout'], extensions: { code: 'INTERNAL_ERROR' } }]);
    expect(JSON.stringify(body)).not.toMatch(/select|secret|\.ts/);
  });
});
