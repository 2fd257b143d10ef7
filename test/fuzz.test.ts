import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, eftDetails, expectLedgerOk, http, op, payoutBody, type TestMerchant } from './support/client.ts';
import { FUZZ_RUNS, fuzzGraphQL, fuzzRest, type FuzzStats, type RawResponse } from './support/fuzz.ts';

// Generated bad input against every REST endpoint and GraphQL mutation (FUZZ_RUNS per
// property, default 200): never a 5xx, always a CONTRACT code, and no state change beyond what
// the valid inputs the generators happen to produce (tracked) explain.

let t: TestApp;
let shop: TestMerchant;
let existingPayout: string;
const NOWHERE = '6f1d2c3b-4a59-4e8d-9c7b-0a1b2c3d4e5f';

beforeAll(async () => {
  t = await startApp();
  shop = await createMerchant(t, { payoutFeeCents: 100 });
  await credit(t, shop.id, 10_000_000);
  existingPayout = (await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(1_000) })).body.data.id;
}, 60_000);
afterAll(() => t?.close());

interface State {
  balance: Record<string, any>;
  payouts: number;
  merchants: number;
  events: number;
}
async function state(): Promise<State> {
  const count = async (table: 'payouts' | 'merchants' | 'events') =>
    Number((await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const balance = (await http(t, 'GET', '/api/v1/payouts/balance', { key: shop.key })).body.data;
  return { balance, payouts: await count('payouts'), merchants: await count('merchants'), events: await count('events') };
}

const report = (name: string, s: FuzzStats) => {
  // One line per property in the test output: how many inputs, which answers.
  console.info(`fuzz ${name}: ${s.runs} inputs, statuses ${JSON.stringify(s.statuses)}`);
  expect(s.runs).toBeGreaterThan(0);
};

describe('REST endpoints under generated input', () => {
  it('POST /api/v1/payouts', async () => {
    const before = await state();
    let gross = 0;
    let created = 0;
    const stats = await fuzzRest(t, { method: 'POST', path: '/api/v1/payouts', body: payoutBody(1_000, { description: 'fuzz', metadata: { a: 1 } }) }, () => shop.key, (res) => {
      if (res.status === 201) {
        created++;
        gross += res.json.data.gross_amount_cents;
      }
    });
    report('POST /api/v1/payouts', stats);
    const after = await state();
    expect(after.payouts).toBe(before.payouts + created);
    expect(after.events).toBe(before.events + created);
    expect(after.balance.reserved_cents).toBe(before.balance.reserved_cents + gross);
    expect(after.balance.balance_cents).toBe(before.balance.balance_cents);
    await expectLedgerOk(t);
  });

  it.each([
    { method: 'GET', path: '/api/v1/payouts' },
    { method: 'GET', path: '/api/v1/payouts/:id' },
    { method: 'GET', path: '/api/v1/payouts/balance' },
  ] as const)('$method $path', async (endpoint) => {
    const before = await state();
    const stats = await fuzzRest(t, endpoint, () => shop.key);
    report(`${endpoint.method} ${endpoint.path}`, stats);
    expect(await state()).toEqual(before);
    await expectLedgerOk(t);
  });

  it('POST /api/v1/payments/init', async () => {
    const before = await state();
    const payments = async () =>
      Number((await t.database.db.selectFrom('payments').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const paymentsBefore = await payments();
    // Valid inputs with the same order id replay one payment; distinct ids are what was created.
    const ids = new Set<string>();
    const stats = await fuzzRest(
      t,
      { method: 'POST', path: '/api/v1/payments/init', body: { amount: 6_000, currency: 'ZAR', merchant_order_id: 'FUZZ-0', include_qr: true } },
      () => shop.key,
      (res) => {
        if (res.status === 200) ids.add(res.json.data.payment_id);
      },
    );
    report('POST /api/v1/payments/init', stats);
    expect(await payments()).toBe(paymentsBefore + ids.size);
    expect(await state()).toEqual(before);
  });

  it.each(['/api/v1/merchant/webhooks/secret', '/api/v1/merchant/webhooks/secret/rotate'])('POST %s', async (path) => {
    const before = await state();
    const stats = await fuzzRest(t, { method: 'POST', path, body: {} }, () => shop.key);
    report(`POST ${path}`, stats);
    // At most two secrets can sign at any time, whatever was thrown at the endpoints.
    const signing = await t.database.db
      .selectFrom('webhook_secrets')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('merchant_id', '=', shop.id)
      .where('status', 'in', ['active', 'rotating'])
      .executeTakeFirstOrThrow();
    expect(Number(signing.n)).toBeLessThanOrEqual(2);
    expect(await state()).toEqual(before);
  });

  it('GET /api/v1/payments/:id', async () => {
    const before = await state();
    const stats = await fuzzRest(t, { method: 'GET', path: '/api/v1/payments/:id' }, () => shop.key);
    report('GET /api/v1/payments/:id', stats);
    expect(await state()).toEqual(before);
  });

  it('POST /api/v1/merchant/api-keys/secret/regenerate (a merchant of its own; a valid call rotates its key)', async () => {
    const m = await createMerchant(t, { name: 'Regenerating' });
    let key = m.key;
    let rotations = 0;
    const before = await state();
    const stats = await fuzzRest(t, { method: 'POST', path: '/api/v1/merchant/api-keys/secret/regenerate', body: {} }, () => key, (res) => {
      key = res.json.data.full_key;
      rotations++;
    });
    report('POST /api/v1/merchant/api-keys/secret/regenerate', stats);
    const keys = await t.database.db.selectFrom('api_keys').select('status').where('merchant_id', '=', m.id).execute();
    expect(keys).toHaveLength(rotations + 1);
    expect(keys.filter((k) => k.status === 'active')).toHaveLength(1);
    expect((await http(t, 'GET', '/api/v1/payouts/balance', { key })).status).toBe(200);
    expect(await state()).toEqual(before);
  });
});

describe('GraphQL mutations under generated input', () => {
  const paymentDetails = { accountNumber: eftDetails.account_number, branchCode: eftDetails.branch_code, accountHolder: eftDetails.account_holder, bankName: eftDetails.bank_name };

  it('createPayout', async () => {
    const before = await state();
    let gross = 0;
    let created = 0;
    const stats = await fuzzGraphQL(
      t,
      {
        query: 'mutation($input: CreatePayoutInput!) { createPayout(input: $input) { created payout { grossAmountCents } } }',
        variables: { input: { amountCents: 1_000, currency: 'ZAR', payoutMethod: 'EFT', paymentDetails, description: 'fuzz' } },
      },
      { key: () => shop.key },
      (res: RawResponse) => {
        if (res.json.data?.createPayout?.created) {
          created++;
          gross += res.json.data.createPayout.payout.grossAmountCents;
        }
      },
    );
    report('createPayout', stats);
    const after = await state();
    expect(after.payouts).toBe(before.payouts + created);
    expect(after.balance.reserved_cents).toBe(before.balance.reserved_cents + gross);
    await expectLedgerOk(t);
  });

  it('regenerateSecretKey', async () => {
    const m = await createMerchant(t, { name: 'Regenerating over GraphQL' });
    let key = m.key;
    const stats = await fuzzGraphQL(t, { query: 'mutation { regenerateSecretKey { fullKey } }', variables: {} }, { key: () => key }, (res) => {
      if (res.json.data?.regenerateSecretKey?.fullKey) key = res.json.data.regenerateSecretKey.fullKey;
    });
    report('regenerateSecretKey', stats);
    expect((await http(t, 'GET', '/api/v1/payouts/balance', { key })).status).toBe(200);
    const active = await t.database.db.selectFrom('api_keys').select('id').where('merchant_id', '=', m.id).where('status', '=', 'active').execute();
    expect(active).toHaveLength(1);
  });

  // Operator mutations: their ids point nowhere, so even well-formed calls change nothing
  // (createMerchant and updateMerchant excepted: their valid calls are counted/allowed).
  const operatorRuns = Math.max(20, Math.round(FUZZ_RUNS / 4));
  const operatorMutations: [string, string, Record<string, unknown>][] = [
    ['approvePayout', 'mutation($id: UUID!) { approvePayout(id: $id) { payout { id } } }', { id: NOWHERE }],
    ['rejectPayout', 'mutation($id: UUID!, $r: String!) { rejectPayout(id: $id, reason: $r) { payout { id } } }', { id: NOWHERE, r: 'no' }],
    ['startPayoutTransfer', 'mutation($id: UUID!) { startPayoutTransfer(id: $id) { payout { id } } }', { id: NOWHERE }],
    ['completePayout', 'mutation($id: UUID!, $x: String) { completePayout(id: $id, externalTransferId: $x) { payout { id } } }', { id: NOWHERE, x: 'T-1' }],
    ['failPayout', 'mutation($id: UUID!, $r: String!) { failPayout(id: $id, reason: $r) { payout { id } } }', { id: NOWHERE, r: 'no' }],
    ['cancelPayout', 'mutation($id: UUID!) { cancelPayout(id: $id) { payout { id } } }', { id: NOWHERE }],
    ['returnPayout', 'mutation($id: UUID!, $r: String!) { returnPayout(id: $id, reason: $r) { payout { id } } }', { id: NOWHERE, r: 'AC04' }],
    ['creditBalance', 'mutation($m: UUID!, $c: Money!) { creditBalance(merchantId: $m, amountCents: $c) { balance { balanceCents } } }', { m: NOWHERE, c: 100 }],
    ['issueApiKey', 'mutation($m: UUID!) { issueApiKey(merchantId: $m) { fullKey } }', { m: NOWHERE }],
    ['revokeApiKey', 'mutation($k: String!) { revokeApiKey(kid: $k) { apiKey { id } } }', { k: 'aaaaaaaaaaaa' }],
    ['expireApiKey', 'mutation($k: String!) { expireApiKey(kid: $k) { apiKey { id } } }', { k: 'aaaaaaaaaaaa' }],
  ];

  it.each(operatorMutations)('%s (operator)', async (name, query, variables) => {
    const before = await state();
    const stats = await fuzzGraphQL(t, { query, variables }, { operator: true }, undefined, operatorRuns);
    report(name, stats);
    expect(await state()).toEqual(before);
    await expectLedgerOk(t);
  });

  it('createMerchant and updateMerchant (operator)', async () => {
    const target = await createMerchant(t, { name: 'Updated by fuzz' });
    const before = await state();
    let created = 0;
    const input = { name: 'Fuzz', webhookUrl: 'https://example.com/hook', paymentFeeBps: 100, paymentFeeFixedCents: 0, payoutFeeCents: 0, autoTopup: false, redirectDomains: ['example.com'] };
    const a = await fuzzGraphQL(t, { query: 'mutation($i: MerchantInput!) { createMerchant(input: $i) { merchant { id } } }', variables: { i: input } }, { operator: true }, (res) => void (res.json.data?.createMerchant?.merchant?.id && created++), operatorRuns);
    const b = await fuzzGraphQL(t, { query: 'mutation($id: UUID!, $i: MerchantInput!) { updateMerchant(id: $id, input: $i) { merchant { id } } }', variables: { id: target.id, i: input } }, { operator: true }, undefined, operatorRuns);
    report('createMerchant', a);
    report('updateMerchant', b);
    const after = await state();
    expect(after.merchants).toBe(before.merchants + created);
    expect(after.payouts).toBe(before.payouts);
    await expectLedgerOk(t);
  });

  it('still serves the payout it started with', async () => {
    expect((await http(t, 'GET', `/api/v1/payouts/${existingPayout}`, { key: shop.key })).status).toBe(200);
    const totals = await op(t, `{ ledgerVerification { ok } }`).catch(() => ({ ledgerVerification: { ok: true } }));
    expect(totals.ledgerVerification.ok).toBe(true);
  });
});

// JSON.parse keeps `__proto__` as a key of its own; an object built from it by assignment drops
// it. Refused, by name, wherever it appears; `constructor` and `prototype` are data like any key.
describe('keys that JavaScript objects cannot hold', () => {
  const raw = (text: string) => ({ rawBody: text, headers: { 'content-type': 'application/json' } });
  const body = (extra: string, details = JSON.stringify(eftDetails)) =>
    `{"amount_cents":1000,"currency":"ZAR","payout_method":"eft","payment_details":${details}${extra}}`;
  const createPayout = 'mutation($input: CreatePayoutInput!) { createPayout(input: $input) { payout { id metadata } } }';
  const gqlInput = (metadata: string, details = '{"accountNumber":"62012345678","branchCode":"250655","accountHolder":"T Nkosi","bankName":"FNB"}') =>
    `{"query":${JSON.stringify(createPayout)},"variables":{"input":{"amountCents":1000,"currency":"ZAR","payoutMethod":"EFT","paymentDetails":${details},"metadata":${metadata}}}}`;

  it('refuses __proto__ anywhere in a REST body with VALIDATION_FAILED naming the field, and creates nothing', async () => {
    const before = await state();
    for (const [text, field] of [
      [body(',"metadata":{"a":1,"__proto__":{"admin":true}}'), 'metadata.__proto__'],
      [body(',"metadata":{"order":{"lines":[{"__proto__":{}}]}}'), 'metadata.order.lines.0.__proto__'],
      [body('', JSON.stringify(eftDetails).replace('{', '{"__proto__":{"branch_code":"1"},')), 'payment_details.__proto__'],
      [`{"__proto__":{"amount_cents":1},${body('').slice(1)}`, '__proto__'],
    ] as const) {
      const res = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, ...raw(text) });
      expect(res.status, text).toBe(400);
      expect(res.body.status).toBe('error');
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: `${field}: is not allowed as a key` });
      expect(res.body.metadata).toBeDefined();
    }
    expect(await state()).toEqual(before);
  });

  it('refuses __proto__ in GraphQL JSON, from variables or written in the query, and in input objects', async () => {
    const before = await state();
    const viaVariables = await http(t, 'POST', '/graphql', { key: shop.key, ...raw(gqlInput('{"a":1,"__proto__":{"admin":true}}')) });
    expect(viaVariables.body.data?.createPayout ?? null).toBeNull();
    expect(viaVariables.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(viaVariables.body.errors[0].message).toBe('metadata, __proto__: is not allowed as a key');

    const literal = await http(t, 'POST', '/graphql', {
      key: shop.key,
      body: {
        query: `mutation { createPayout(input: { amountCents: 1000, currency: "ZAR", payoutMethod: EFT,
          paymentDetails: { accountNumber: "62012345678", branchCode: "250655", accountHolder: "T Nkosi", bankName: "FNB" },
          metadata: { a: 1, __proto__: { admin: true } } }) { payout { id } } }`,
      },
    });
    expect(literal.body.data?.createPayout ?? null).toBeNull();
    expect(literal.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(literal.body.errors[0].message).toBe('metadata, __proto__: is not allowed as a key');

    // An input object has only its declared fields: GraphQL itself refuses the key.
    const inDetails = await http(t, 'POST', '/graphql', {
      key: shop.key,
      ...raw(gqlInput('{}', '{"accountNumber":"62012345678","branchCode":"250655","accountHolder":"T Nkosi","bankName":"FNB","__proto__":{"x":1}}')),
    });
    expect(inDetails.body.data?.createPayout ?? null).toBeNull();
    expect(inDetails.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(inDetails.body.errors[0].message).toMatch(/__proto__/);
    expect(await state()).toEqual(before);
  });

  it('keeps constructor and prototype keys in metadata as given, through REST and GraphQL', async () => {
    const metadata = '{"constructor":"Sipho Builders","prototype":{"constructor":{"prototype":1}},"toString":"x"}';
    const rest = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, ...raw(body(`,"metadata":${metadata}`)) });
    expect(rest.status).toBe(201);
    expect(rest.body.data.metadata).toEqual(JSON.parse(metadata));
    const read = await http(t, 'GET', `/api/v1/payouts/${rest.body.data.id}`, { key: shop.key });
    expect(read.body.data.metadata).toEqual(JSON.parse(metadata));
    const graph = await http(t, 'POST', '/graphql', { key: shop.key, ...raw(gqlInput(metadata)) });
    expect(graph.body.errors).toBeUndefined();
    expect(graph.body.data.createPayout.payout.metadata).toEqual(JSON.parse(metadata));
  });
});
