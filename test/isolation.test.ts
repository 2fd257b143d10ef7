import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as apiKey from '../src/domain/api-key.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, expectLedgerOk, gql, http, op, payoutBody, type TestMerchant } from './support/client.ts';
import { newPayment } from './support/payments.ts';

// Counts the constant-time secret checks made by KeyService.authenticate.
vi.mock('../src/domain/api-key.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/domain/api-key.ts')>();
  return { ...original, secretMatches: vi.fn(original.secretMatches) };
});

let t: TestApp;
let alice: TestMerchant;
let bob: TestMerchant;
let alicePayout: string;
let bobPayout: string;

beforeAll(async () => {
  t = await startApp();
  alice = await createMerchant(t, { name: 'Alice' });
  bob = await createMerchant(t, { name: 'Bob' });
  await credit(t, alice.id, 50_000);
  await credit(t, bob.id, 70_000);
  alicePayout = (await http(t, 'POST', '/api/v1/payouts', { key: alice.key, body: payoutBody(1_000, { merchant_reference: 'A-1' }) })).body.data.id;
  bobPayout = (await http(t, 'POST', '/api/v1/payouts', { key: bob.key, body: payoutBody(2_000, { merchant_reference: 'B-1' }) })).body.data.id;
});
afterAll(() => t?.close());

describe('another merchant\'s ids', () => {
  // Every merchant-facing endpoint or field that takes an id: [name, call(key, id) → code].
  const matrix: [string, (key: string, id: string) => Promise<{ status?: number; code: string | undefined; text: string }>][] = [
    ['GET /api/v1/payouts/{id}', async (key, id) => {
      const r = await http(t, 'GET', `/api/v1/payouts/${id}`, { key });
      return { status: r.status, code: r.body?.error?.code, text: JSON.stringify(r.body) };
    }],
    ['GraphQL payout(id)', async (key, id) => {
      const r = await gql(t, 'query($id: UUID!) { payout(id: $id) { id amountCents merchantId } }', { id }, { key });
      return { code: r.body.errors?.[0]?.extensions?.code, text: JSON.stringify(r.body) };
    }],
    ['GraphQL payout(id) → merchant', async (key, id) => {
      const r = await gql(t, 'query($id: UUID!) { payout(id: $id) { merchant { id name balance { balanceCents } } } }', { id }, { key });
      return { code: r.body.errors?.[0]?.extensions?.code, text: JSON.stringify(r.body) };
    }],
  ];

  it.each(matrix)('%s answers not found for another merchant\'s payout, and the owner sees it', async (_name, call) => {
    const foreign = await call(alice.key, bobPayout);
    if (foreign.status !== undefined) expect(foreign.status).toBe(404);
    expect(foreign.code).toBe('PAYOUT_NOT_FOUND');
    expect(foreign.text).not.toContain(bob.id);
    expect(foreign.text).not.toContain('Bob');
    expect(foreign.text).not.toContain('2000');
    // Exactly what an id that does not exist at all gets: no existence oracle.
    const missing = await call(alice.key, '0b6f3c4e-1d2a-4b5c-8d9e-0f1a2b3c4d5e');
    expect({ status: missing.status, code: missing.code }).toEqual({ status: foreign.status, code: foreign.code });
    const own = await call(bob.key, bobPayout);
    expect(own.code).toBeUndefined();
  });

  it('refuses a merchant naming another merchant in payouts and balance, leaking nothing', async () => {
    const r = await gql(
      t,
      'query($m: UUID!) { payouts(merchantId: $m) { totalCount edges { node { id merchantId } } } balance(merchantId: $m) { balanceCents } }',
      { m: bob.id },
      { key: alice.key },
    );
    expect(r.body.data).toBeNull();
    // Non-null root fields: the first refusal nulls the whole answer.
    expect(new Set(r.body.errors!.map((e: any) => e.extensions.code))).toEqual(new Set(['FORBIDDEN']));
    expect(JSON.stringify(r.body)).not.toContain(bobPayout);
    expect(JSON.stringify(r.body)).not.toContain('70000');
    const list = await http(t, 'GET', `/api/v1/payouts?merchant_id=${bob.id}`, { key: alice.key });
    expect(list.status).toBe(400);
    expect(JSON.stringify(list.body)).not.toContain(bobPayout);
  });

  it('a merchant_reference is per merchant: the same reference does not reach the other\'s payout', async () => {
    const r = await http(t, 'POST', '/api/v1/payouts', { key: alice.key, body: payoutBody(2_000, { merchant_reference: 'B-1' }) });
    expect(r.status).toBe(201);
    expect(r.body.data.id).not.toBe(bobPayout);
    expect(r.body.data.merchant_id).toBe(alice.id);
  });

  it.each(['approvePayout', 'startPayoutTransfer', 'completePayout', 'cancelPayout'])(
    'the operator mutation %s is FORBIDDEN to a merchant, for its own and another\'s id alike, and changes nothing',
    async (field) => {
      const codes = [];
      for (const id of [alicePayout, bobPayout]) {
        const r = await gql(t, `mutation($id: UUID!) { ${field}(id: $id) { payout { id status } } }`, { id }, { key: alice.key });
        expect(r.body.data ?? null).toBeNull();
        codes.push(r.body.errors?.[0]?.extensions?.code);
      }
      expect(codes).toEqual(['FORBIDDEN', 'FORBIDDEN']);
      const statuses = await op(t, `{ a: payout(id: "${alicePayout}") { status } b: payout(id: "${bobPayout}") { status } }`);
      expect(statuses).toEqual({ a: { status: 'PENDING' }, b: { status: 'PENDING' } });
    },
  );

  it('leaves both ledgers consistent', async () => {
    await expectLedgerOk(t);
  });
});

describe('API keys at rest and in the key check', () => {
  it('a database dump holds no usable key or secret', async () => {
    const m = await createMerchant(t, { name: 'Dumped' });
    const regenerated = (await http(t, 'POST', '/api/v1/merchant/api-keys/secret/regenerate', { key: m.key })).body.data.full_key as string;
    const issued = (await op(t, `mutation { issueApiKey(merchantId: "${m.id}") { fullKey } }`)).issueApiKey.fullKey as string;
    const keys = [m.key, regenerated, issued, alice.key, bob.key];
    const tables = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(t.database.db);
    expect(tables.rows.map((r) => r.name)).toEqual(expect.arrayContaining(['api_keys', 'merchants', 'events']));
    let dump = '';
    for (const { name } of tables.rows) {
      const rows = await sql<{ row: string }>`select t::text as row from ${sql.table(name)} t`.execute(t.database.db);
      dump += rows.rows.map((r) => r.row).join('\n');
    }
    expect(dump).toContain(m.id);
    for (const key of keys) {
      const parsed = apiKey.parseKey(key)!;
      expect(dump).toContain(parsed.kid);
      expect(dump).not.toContain(key);
      expect(dump).not.toContain(parsed.secret);
      expect(dump).not.toContain(parsed.secret.slice(0, 20));
      expect(dump).not.toContain(Buffer.from(parsed.secret).toString('hex'));
      expect(dump.toLowerCase()).not.toContain(Buffer.from(parsed.secret).toString('base64').toLowerCase().slice(0, 24));
    }
  });

  it('answers an unknown kid and a wrong secret identically, after the same secret check', async () => {
    const m = await createMerchant(t, { name: 'Timing' });
    const { env, kid, secret } = apiKey.parseKey(m.key)!;
    const build = (k: string, s: string) => {
      const prefix = `sec1-${env}-${k}-${s}-`;
      return prefix + apiKey.checksum(prefix);
    };
    const wrongSecret = build(kid, secret.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')));
    const unknownKid = build('aaaaaaaaaaaa', secret);
    const checks = vi.mocked(apiKey.secretMatches);
    const answers = [];
    for (const key of [wrongSecret, unknownKid]) {
      checks.mockClear();
      const rest = await http(t, 'GET', '/api/v1/payouts/balance', { key });
      // A well-formed key is always hashed and compared, even when its kid is unknown.
      expect(checks).toHaveBeenCalledTimes(1);
      const graph = await gql(t, '{ viewer { id } }', {}, { key });
      answers.push({
        status: rest.status,
        error: rest.body.error,
        headers: [...rest.headers.keys()].filter((h) => h !== 'date' && h !== 'x-request-id').sort(),
        graphStatus: graph.status,
        graphErrors: graph.body.errors,
      });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]!.status).toBe(401);
    expect(answers[0]!.error.code).toBe('UNAUTHORIZED');
    // The real key still works (the mock counts, it does not change the check).
    expect((await http(t, 'GET', '/api/v1/payouts/balance', { key: m.key })).status).toBe(200);
  });

  it('refuses a wrong operator token, whatever its length, with 401', async () => {
    const token = t.config.operatorToken;
    for (const wrong of ['', 'x', token.slice(0, -1), `${token}x`, token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))]) {
      const res = await http(t, 'POST', '/graphql', { body: { query: '{ merchants { id } }' }, headers: { authorization: `Bearer ${wrong}` } });
      expect(res.status).toBe(401);
      expect(res.body.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
    }
  });

  it('refuses a regenerated key at once with 403, on REST and GraphQL, and the new one works', async () => {
    const m = await createMerchant(t, { name: 'Rotating' });
    const res = await http(t, 'POST', '/api/v1/merchant/api-keys/secret/regenerate', { key: m.key });
    expect(res.status).toBe(201);
    const fresh = res.body.data.full_key as string;
    const old = await http(t, 'GET', '/api/v1/payouts/balance', { key: m.key });
    expect(old.status).toBe(403);
    expect(old.body.error.code).toBe('FORBIDDEN');
    const oldGraph = await gql(t, '{ viewer { id } }', {}, { key: m.key });
    expect(oldGraph.status).toBe(403);
    expect(oldGraph.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await http(t, 'POST', '/api/v1/merchant/api-keys/secret/regenerate', { key: m.key })).status).toBe(403);
    // Through GraphQL too.
    const viaGraph = await gql(t, 'mutation { regenerateSecretKey { fullKey apiKey { status } } }', {}, { key: fresh });
    const newest = viaGraph.body.data.regenerateSecretKey.fullKey as string;
    expect((await http(t, 'GET', '/api/v1/payouts/balance', { key: fresh })).status).toBe(403);
    expect((await http(t, 'GET', '/api/v1/payouts/balance', { key: newest })).status).toBe(200);
  });
});

describe('another merchant\'s payments', () => {
  it.each([
    ['GET /api/v1/payments/{id}', async (key: string, id: string) => {
      const r = await http(t, 'GET', `/api/v1/payments/${id}`, { key });
      return { status: r.status as number | undefined, code: r.body?.error?.code as string | undefined, text: JSON.stringify(r.body) };
    }],
    ['GraphQL payment(id)', async (key: string, id: string) => {
      const r = await gql(t, 'query($id: UUID!) { payment(id: $id) { id amount status } }', { id }, { key });
      return { status: undefined, code: r.body.errors?.[0]?.extensions?.code, text: JSON.stringify(r.body) };
    }],
  ] as const)('%s answers PAYMENT_NOT_FOUND for another merchant\'s payment, and the owner sees it', async (_name, call) => {
    const bobPayment = (await newPayment(t, bob, { amount: 7_777 })).payment_id;
    const foreign = await call(alice.key, bobPayment);
    if (foreign.status !== undefined) expect(foreign.status).toBe(404);
    expect(foreign.code).toBe('PAYMENT_NOT_FOUND');
    expect(foreign.text).not.toContain('7777');
    const missing = await call(alice.key, '0b6f3c4e-1d2a-4b5c-8d9e-0f1a2b3c4d5e');
    expect({ status: missing.status, code: missing.code }).toEqual({ status: foreign.status, code: foreign.code });
    expect((await call(bob.key, bobPayment)).code).toBeUndefined();
  });

  it('a merchant_order_id is per merchant', async () => {
    const body = { amount: 6_000, currency: 'ZAR', merchant_order_id: 'SHARED-ORDER' };
    const a = await http(t, 'POST', '/api/v1/payments/init', { key: alice.key, body });
    const b = await http(t, 'POST', '/api/v1/payments/init', { key: bob.key, body });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.data.payment_id).not.toBe(b.body.data.payment_id);
  });
});
