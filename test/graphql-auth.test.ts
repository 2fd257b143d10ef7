import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, gql, http, op, payoutBody, type TestMerchant } from './support/client.ts';

/**
 * Every operator field, and every merchant-only field, with each kind of caller: the wrong kind
 * is FORBIDDEN, nobody is UNAUTHORIZED (both before the resolver runs), the right kind succeeds.
 */
let t: TestApp;
let shop: TestMerchant;
let spare: TestMerchant;
const payouts: Record<string, string> = {};
let issuedKid: string;
let payment: string;
let eventId: string;

const newPayout = async (amount = 1_000) =>
  (await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(amount) })).body.data.id as string;

beforeAll(async () => {
  t = await startApp();
  shop = await createMerchant(t, { name: 'Auth Shop' });
  spare = await createMerchant(t, { name: 'Spare Shop' });
  await credit(t, shop.id, 100_000);
  for (const name of ['approve', 'reject', 'cancel', 'complete', 'fail', 'return']) payouts[name] = await newPayout();
  for (const name of ['complete', 'fail', 'return']) {
    await op(t, `mutation { approvePayout(id: "${payouts[name]}") { payout { id } } }`);
    await op(t, `mutation { startPayoutTransfer(id: "${payouts[name]}") { payout { id } } }`);
  }
  // A return is of a completed payout (CONTRACT §11).
  await op(t, `mutation { completePayout(id: "${payouts.return}", externalTransferId: "FNB-RET-1") { payout { id } } }`);
  payment = (await http(t, 'POST', '/api/v1/payments/init', { key: shop.key, body: { amount: 6_000, currency: 'ZAR', merchant_order_id: 'AUTH-1' } })).body.data.payment_id;
  // Redelivery needs somewhere to deliver to.
  await op(t, `mutation { updateMerchant(id: "${shop.id}", input: { webhookUrl: "http://127.0.0.1:9/hook" }) { merchant { id } } }`);
  eventId = (await t.database.db.selectFrom('events').select('id').where('payout_id', '=', payouts.approve!).executeTakeFirstOrThrow()).id;
  issuedKid = (await op(t, `mutation { issueApiKey(merchantId: "${spare.id}") { apiKey { kid } } }`)).issueApiKey.apiKey.kid;
});
afterAll(() => t?.close());

/** [root field, document]; the documents run once per caller kind, the operator's last. */
const operatorFields: [string, () => string][] = [
  ['merchant', () => `{ merchant(id: "${shop.id}") { id name } }`],
  ['merchants', () => '{ merchants { id } }'],
  ['ledgerVerification', () => '{ ledgerVerification }'],
  ['createMerchant', () => 'mutation { createMerchant(input: { name: "New Shop" }) { merchant { id } fullKey } }'],
  ['updateMerchant', () => `mutation { updateMerchant(id: "${shop.id}", input: { name: "Renamed Shop" }) { merchant { name } } }`],
  ['creditBalance', () => `mutation { creditBalance(merchantId: "${shop.id}", amountCents: 100) { balance { balanceCents } } }`],
  ['issueApiKey', () => `mutation { issueApiKey(merchantId: "${spare.id}") { apiKey { kid } fullKey } }`],
  ['revokeApiKey', () => `mutation { revokeApiKey(kid: "${spare.kid}") { apiKey { status } } }`],
  ['expireApiKey', () => `mutation { expireApiKey(kid: "${issuedKid}") { apiKey { status } } }`],
  ['approvePayout', () => `mutation { approvePayout(id: "${payouts.approve}") { payout { status } } }`],
  ['startPayoutTransfer', () => `mutation { startPayoutTransfer(id: "${payouts.approve}") { payout { status } } }`],
  ['rejectPayout', () => `mutation { rejectPayout(id: "${payouts.reject}", reason: "wrong account") { payout { status } } }`],
  ['cancelPayout', () => `mutation { cancelPayout(id: "${payouts.cancel}") { payout { status rejectionReason } } }`],
  ['completePayout', () => `mutation { completePayout(id: "${payouts.complete}", externalTransferId: "FNB-1") { payout { status } } }`],
  ['failPayout', () => `mutation { failPayout(id: "${payouts.fail}", reason: "bank refused") { payout { status } } }`],
  ['returnPayout', () => `mutation { returnPayout(id: "${payouts.return}", reason: "AC04 closed account") { payout { status returnReason } } }`],
  ['stats', () => '{ stats { reservedCents payouts { status count } } }'],
  ['redeliverEvent', () => `mutation { redeliverEvent(eventId: "${eventId}") { delivery { id } } }`],
  ['settlePayment', () => `mutation { settlePayment(id: "${payment}", outcome: CAPTURED) { payment { status } } }`],
];

const OWN_ONLY = new Set(['revokeApiKey', 'redeliverEvent']);

const merchantOnlyFields: [string, () => string][] = [
  ['viewer', () => '{ viewer { id } }'],
  ['createPayout', () =>
    'mutation { createPayout(input: { amountCents: 100, currency: "ZAR", payoutMethod: EFT, paymentDetails: { accountNumber: "62012345678", branchCode: "250655", accountHolder: "T N", bankName: "FNB" } }) { payout { id } } }'],
  ['regenerateSecretKey', () => 'mutation { regenerateSecretKey { fullKey } }'],
  ['createWebhookSecret', () => 'mutation { createWebhookSecret { webhookSecret { kid } } }'],
  ['rotateWebhookSecret', () => 'mutation { rotateWebhookSecret { webhookSecret { kid } } }'],
  ['updateWebhookUrl', () => 'mutation { updateWebhookUrl(url: "http://127.0.0.1:9/hook") { merchant { webhookUrl } } }'],
  ['initiatePayment', () =>
    `mutation { initiatePayment(input: { amount: 6000, currency: "ZAR", merchantOrderId: "AUTH-${crypto.randomUUID()}" }) { payment { status } } }`],
];

async function codeOf(field: string, query: string, auth: { key?: string; operator?: boolean }) {
  const res = await gql(t, query, {}, auth);
  expect(res.status, field).toBe(200);
  expect(res.body.data?.[field] ?? null, field).toBeNull();
  return res.body.errors?.[0]?.extensions?.code;
}

describe('operator fields', () => {
  it.each(operatorFields)('%s: anonymous UNAUTHORIZED, merchant FORBIDDEN, operator ok', async (field, doc) => {
    expect(await codeOf(field, doc(), {})).toBe('UNAUTHORIZED');
    // A merchant may revoke its own keys and redeliver its own events (the dashboard's key and
    // webhook screens): another merchant's are not found, exactly like ones that do not exist.
    expect(await codeOf(field, doc(), { key: shop.key })).toBe(OWN_ONLY.has(field) ? 'NOT_FOUND' : 'FORBIDDEN');
    const res = await gql(t, doc(), {}, { operator: true });
    expect(res.body.errors, field).toBeUndefined();
    expect(res.body.data?.[field], field).toBeTruthy();
  });

  it('refused callers changed nothing: each payout moved exactly as the operator asked', async () => {
    const status = async (id: string) => (await http(t, 'GET', `/api/v1/payouts/${id}`, { key: shop.key })).body.data.status;
    expect(await status(payouts.approve!)).toBe('processing');
    expect(await status(payouts.reject!)).toBe('rejected');
    expect(await status(payouts.complete!)).toBe('completed');
    expect(await status(payouts.fail!)).toBe('failed');
    expect(await status(payouts.cancel!)).toBe('rejected');
    // Returned once, by the operator: the refused callers' attempts gave nothing back.
    const returned = (await http(t, 'GET', `/api/v1/payouts/${payouts.return}`, { key: shop.key })).body.data;
    expect(returned).toMatchObject({ status: 'completed', return_reason: 'AC04 closed account' });
    const credits = await t.database.db.selectFrom('ledger_transactions').select('id').where('kind', '=', 'payout_return').where('payout_id', '=', payouts.return!).execute();
    expect(credits).toHaveLength(1);
  });
});

describe('merchant-only fields', () => {
  it.each(merchantOnlyFields)('%s: anonymous UNAUTHORIZED, operator FORBIDDEN, merchant ok', async (field, doc) => {
    const m = await createMerchant(t);
    await credit(t, m.id, 10_000);
    expect(await codeOf(field, doc(), {})).toBe('UNAUTHORIZED');
    expect(await codeOf(field, doc(), { operator: true })).toBe('FORBIDDEN');
    const res = await gql(t, doc(), {}, { key: m.key });
    expect(res.body.errors, field).toBeUndefined();
    expect(res.body.data?.[field], field).toBeTruthy();
  });
});

describe('fields for both', () => {
  it.each([
    ['balance', '{ balance { availableCents } }'],
    ['payouts', '{ payouts { totalCount } }'],
  ])('%s: anonymous UNAUTHORIZED', async (field, doc) => {
    expect(await codeOf(field, doc, {})).toBe('UNAUTHORIZED');
  });

  it('the operator must name the merchant whose balance it reads', async () => {
    const res = await gql(t, '{ balance { availableCents } }', {}, { operator: true });
    expect(res.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    const named = await gql(t, `{ balance(merchantId: "${shop.id}") { merchantId } }`, {}, { operator: true });
    expect(named.body.data.balance.merchantId).toBe(shop.id);
  });

  it('a merchant naming another merchant is FORBIDDEN; naming itself is its own data', async () => {
    const other = await createMerchant(t);
    for (const doc of [`{ balance(merchantId: "${shop.id}") { merchantId } }`, `{ payouts(merchantId: "${shop.id}") { totalCount } }`]) {
      const res = await gql(t, doc, {}, { key: other.key });
      expect(res.body.data).toBeNull();
      expect(res.body.errors?.[0]?.extensions?.code, doc).toBe('FORBIDDEN');
    }
    const own = await gql(t, `{ balance(merchantId: "${other.id}") { merchantId } payouts(merchantId: "${other.id}") { totalCount } }`, {}, { key: other.key });
    expect(own.body.data).toEqual({ balance: { merchantId: other.id }, payouts: { totalCount: 0 } });
  });
});

describe('credentials', () => {
  it('a wrong operator token is 401 UNAUTHORIZED before anything runs', async () => {
    const res = await http(t, 'POST', '/graphql', { body: { query: '{ merchants { id } }' }, headers: { authorization: 'Bearer not-the-token' } });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].extensions.code).toBe('UNAUTHORIZED');
    expect(res.body.data).toBeUndefined();
  });

  it.each(['sec1-tst-nope', 'garbage', ` ${'x'}`])('a malformed or unknown API key (%j) is 401 UNAUTHORIZED', async (key) => {
    const res = await gql(t, '{ viewer { id } }', {}, { key });
    expect(res.status).toBe(401);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
  });

  it('a revoked key is 403 FORBIDDEN, as in REST', async () => {
    const m = await createMerchant(t);
    await op(t, `mutation { revokeApiKey(kid: "${m.kid}") { apiKey { status } } }`);
    const res = await gql(t, '{ viewer { id } }', {}, { key: m.key });
    expect(res.status).toBe(403);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await http(t, 'GET', '/api/v1/payouts/balance', { key: m.key })).status).toBe(403);
  });
});
