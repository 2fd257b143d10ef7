import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { createProviders } from '../src/outside/providers/registry.ts';
import { enqueue } from '../src/db/jobs.ts';
import { QUEUE } from '../src/domain/jobs.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, expectLedgerOk, gql, http, type TestMerchant } from './support/client.ts';
import { formPost, getPayment, newPayment, pageToken } from './support/payments.ts';
import { type OzowDouble, ozowSettings, startOzowDouble } from './support/ozow-double.ts';
import { startYocoDouble, type YocoDouble, yocoSettings } from './support/yoco-double.ts';

/**
 * Instant EFT through Ozow (the double), beside cards through Yoco (CONTRACT §11), in one service:
 * the customer's choice, the hashed request, notifications however they come, the status API,
 * refunds, expiry. The reconciler runs only when a test calls it.
 */
let t: TestApp;
let ozow: OzowDouble;
let yoco: YocoDouble;
let shop: TestMerchant;
const EXPIRES_MS = 60_000;

beforeAll(async () => {
  ozow = await startOzowDouble({ autoNotify: false });
  yoco = await startYocoDouble();
  t = await startApp({ ...yocoSettings(yoco), ...ozowSettings(ozow), RUN_RECONCILER: 'false', RECONCILE_AFTER_MS: '100', PAYMENT_EXPIRES_AFTER_MS: String(EXPIRES_MS) });
  shop = await createMerchant(t, { name: 'Bank Shop', paymentFeeBps: 250, autoTopup: true });
});
afterAll(async () => {
  await t?.close();
  await ozow?.close();
  await yoco?.close();
});

const webhook = () => `${t.url}/providers/ozow/webhook`;
const balance = async () => (await http(t, 'GET', '/api/v1/payouts/balance', { key: shop.key })).body.data;
const eventsOf = async (id: string) => (await t.database.db.selectFrom('events').select('type').where('payment_id', '=', id).orderBy('seq').execute()).map((e) => e.type);
const postingsOf = async (id: string) => (await t.database.db.selectFrom('ledger_transactions').select('kind').where('payment_id', '=', id).execute()).map((e) => e.kind);
const auditOf = async (id: string) => (await t.database.db.selectFrom('audit_log').select('action').where('payment_id', '=', id).orderBy('id').execute()).map((e) => e.action);
const reconcile = () => t.app.services.runner.runDue([QUEUE.reconcile, QUEUE.refundOwed]);
/** The reconciler's questions due now (they are queued RECONCILE_AFTER_MS ahead), instead of waiting that long. */
const older = () => t.database.db.updateTable('jobs').set({ run_at: new Date(0) }).where('queue', 'in', [QUEUE.reconcile, QUEUE.refundOwed]).where('status', '=', 'queued').execute();
const runRefunds = async () => {
  await t.database.db.updateTable('jobs').set({ run_at: new Date(0) }).where('queue', 'in', [QUEUE.refund, QUEUE.refundOwed]).where('status', '=', 'queued').execute();
  await t.app.services.runner.runDue([QUEUE.refund, QUEUE.refundOwed]);
};

/** Initiates a payment, picks instant EFT on the page and presses Pay; returns it with Ozow's transaction. */
async function payByBank(extra: Record<string, unknown> = {}) {
  const p = await newPayment(t, shop, extra);
  const pressed = await formPost(t, `/pay/${p.payment_id}/pay`, { token: await pageToken(t, p.payment_id), method: 'instant_eft' });
  expect(pressed.status).toBe(303);
  expect(pressed.location).toBe(`/pay/${p.payment_id}/checkout`);
  const [tx] = ozow.ofPayment(p.payment_id);
  if (!tx) throw new Error('no Ozow payment request was made');
  return { id: p.payment_id, tx };
}

describe('the customer chooses', () => {
  it('with both configured, the page offers card and instant EFT, in every language; card stays the default', async () => {
    const p = await newPayment(t, shop);
    for (const [lang, words] of [
      ['en', 'instant EFT from your bank (Ozow)'],
      ['af', 'kits-EFT van jou bank (Ozow)'],
      ['zu', 'i-EFT esheshayo evela ebhange lakho (Ozow)'],
    ] as const) {
      const page = String((await http(t, 'GET', `/pay/${p.payment_id}?lang=${lang}`)).body);
      expect(page).toContain('<input type="radio" name="method" value="card" data-testid="method-card" checked>');
      expect(page).toContain(`<input type="radio" name="method" value="instant_eft" data-testid="method-instant-eft"> ${words}`);
    }
    // A way the page does not offer is refused, and nothing starts.
    const odd = await formPost(t, `/pay/${p.payment_id}/pay`, { token: await pageToken(t, p.payment_id), method: 'crypto' });
    expect(odd.status).toBe(400);
    const untouched = (await getPayment(t, shop, p.payment_id)).body.data;
    expect(untouched.status).toBe('created');
    expect(untouched.latest_attempt ?? null).toBeNull();
  });

  it('a merchant that offers instant EFT only (REST and GraphQL twins) gets a page that goes straight on', async () => {
    const only = await createMerchant(t, { name: 'EFT Only' });
    const bad = await http(t, 'PATCH', '/api/v1/merchant', { key: only.key, body: { payment_methods: ['cash'] } });
    expect(bad.status).toBe(400);
    expect((await http(t, 'PATCH', '/api/v1/merchant', { key: only.key, body: { payment_methods: [] } })).status).toBe(400);
    const set = await http(t, 'PATCH', '/api/v1/merchant', { key: only.key, body: { payment_methods: ['instant_eft'] } });
    expect(set.body.data.payment_methods).toEqual(['instant_eft']);
    const both = await gql(t, 'mutation { updateMerchantSettings(input: { paymentMethods: [CARD, INSTANT_EFT] }) { merchant { paymentMethods } } }', {}, { key: only.key });
    expect(both.body.data.updateMerchantSettings.merchant.paymentMethods).toEqual(['CARD', 'INSTANT_EFT']);
    const again = await gql(t, 'mutation { updateMerchantSettings(input: { paymentMethods: [INSTANT_EFT] }) { merchant { paymentMethods } } }', {}, { key: only.key });
    expect(again.body.data.updateMerchantSettings.merchant.paymentMethods).toEqual(['INSTANT_EFT']);
    expect((await http(t, 'GET', '/api/v1/merchant', { key: only.key })).body.data.payment_methods).toEqual(['instant_eft']);
    const p = await newPayment(t, only);
    const page = String((await http(t, 'GET', `/pay/${p.payment_id}`)).body);
    expect(page).not.toContain('data-testid="method-card"');
    expect(page).toContain('instant EFT from your bank (Ozow)');
    const pressed = await formPost(t, `/pay/${p.payment_id}/pay`, { token: await pageToken(t, p.payment_id) });
    expect(pressed.location).toBe(`/pay/${p.payment_id}/checkout`);
    expect((await getPayment(t, only, p.payment_id)).body.data.latest_attempt.provider).toBe('ozow');
  });
});

describe('paying by instant EFT', () => {
  it('sends the hashed request, hands the customer to Ozow, and captures once whatever the notifications do', async () => {
    const before = await balance();
    const { id, tx } = await payByBank({ amount: 12_345 });
    const attempt = await t.database.db.selectFrom('payment_attempts').selectAll().where('payment_id', '=', id).executeTakeFirstOrThrow();
    // The double checked the HashCheck, site code and amount; what it received:
    expect(tx.vars).toMatchObject({ SiteCode: ozow.siteCode, CountryCode: 'ZA', CurrencyCode: 'ZAR', Amount: '123.45', TransactionReference: attempt.id, Optional1: id, IsTest: 'true' });
    expect(tx.vars.SuccessUrl).toBe(`${t.config.publicBaseUrl}/pay/${id}/return?outcome=success`);
    expect(tx.vars.NotifyUrl).toBe(`${t.config.publicBaseUrl}/providers/ozow/webhook`);
    expect(ozow.requests.find((r) => r.path === '/PostPaymentRequest')!.headers.apikey).toBe(ozow.apiKey);
    expect(attempt).toMatchObject({ provider: 'ozow', provider_ref: attempt.id, redirect_url: `${ozow.apiUrl}/pay/${tx.paymentRequestId}` });
    expect(String((await http(t, 'GET', `/pay/${id}/checkout`)).body)).toContain(`content="0;url=${ozow.apiUrl}/pay/${tx.paymentRequestId}"`);
    expect((await getPayment(t, shop, id)).body.data).toMatchObject({ status: 'awaiting_webhook', latest_attempt: { provider: 'ozow', status: 'pending' } });

    // Pending first: nothing yet. A forgery and an unsigned one: refused.
    ozow.setStatus(tx.reference, 'Pending');
    expect(await ozow.notify(tx.reference, { to: webhook() })).toEqual([200]);
    expect((await getPayment(t, shop, id)).body.data.status).toBe('awaiting_webhook');
    ozow.pay(tx.reference);
    expect(await ozow.notify(tx.reference, { to: webhook(), forge: true })).toEqual([403]);
    expect(await ozow.notify(tx.reference, { to: webhook(), unsigned: true })).toEqual([401]);
    expect((await getPayment(t, shop, id)).body.data.status).toBe('awaiting_webhook');
    // The browser's return proves nothing by itself; Ozow is asked (and says Complete).
    const back = await formPost(t, `/pay/${id}/return?outcome=cancel`, { Status: 'Cancelled', TransactionReference: tx.reference });
    expect(back).toMatchObject({ status: 303, location: `/pay/${id}` });
    expect((await getPayment(t, shop, id)).body.data.status).toBe('captured');
    // Twice, racing; late; and out of order (a stale Pending, then Cancelled): nothing more.
    const captured = (await getPayment(t, shop, id)).body.data;
    const after = await balance();
    expect(after.balance_cents - before.balance_cents).toBe(12_345 - 309);
    await Promise.all([ozow.notify(tx.reference, { to: webhook() }), ozow.notify(tx.reference, { to: webhook(), times: 2 })]);
    await older();
    await reconcile();
    expect(await ozow.notify(tx.reference, { to: webhook(), status: 'Pending' })).toEqual([200]);
    expect(await ozow.notify(tx.reference, { to: webhook(), status: 'Cancelled' })).toEqual([200]);
    expect((await getPayment(t, shop, id)).body.data).toEqual(captured);
    expect(captured).toMatchObject({ latest_attempt: { provider: 'ozow', status: 'succeeded' } });
    const row = await t.database.db.selectFrom('payment_attempts').select('payment_ref').where('payment_id', '=', id).executeTakeFirstOrThrow();
    expect(row.payment_ref).toBe(tx.transactionId);
    expect(await balance()).toEqual(after);
    expect(await eventsOf(id)).toEqual(['payment.captured']);
    expect(await postingsOf(id)).toEqual(['payment_capture']);
    await expectLedgerOk(t);
  });

  it('a lost notification: the reconciler asks Ozow by reference and captures', async () => {
    const { id, tx } = await payByBank();
    ozow.pay(tx.reference);
    await older();
    await reconcile();
    expect((await getPayment(t, shop, id)).body.data).toMatchObject({ status: 'captured', latest_attempt: { provider: 'ozow', status: 'succeeded' } });
    const asked = ozow.requests.filter((r) => r.path === '/GetTransactionByReference');
    expect(asked.at(-1)!.headers.apikey).toBe(ozow.apiKey);
    // The notification then arrives after all: nothing more.
    expect(await ozow.notify(tx.reference, { to: webhook() })).toEqual([200]);
    expect(await eventsOf(id)).toEqual(['payment.captured']);
    expect(await postingsOf(id)).toEqual(['payment_capture']);
  });

  it('Ozow down: Pay says try again and nothing is left started; the status API down keeps it open', async () => {
    const p = await newPayment(t, shop);
    ozow.failNext(503);
    const pressed = await formPost(t, `/pay/${p.payment_id}/pay`, { token: await pageToken(t, p.payment_id), method: 'instant_eft' });
    expect(pressed.status).toBe(503);
    expect((await getPayment(t, shop, p.payment_id)).body.data).toMatchObject({ status: 'created', latest_attempt: { provider: 'ozow', status: 'failed' } });
    // The choice is remembered for the retry.
    expect(String((await http(t, 'GET', `/pay/${p.payment_id}`)).body)).toContain('data-testid="method-instant-eft" checked');
    const { id, tx } = await payByBank();
    ozow.pay(tx.reference);
    ozow.failNext('hang', 500);
    await older();
    await reconcile();
    expect((await getPayment(t, shop, id)).body.data.status).toBe('awaiting_webhook');
  }, 30_000);

  it('cancelled at Ozow: nobody was charged, the payment is payable again, and instant EFT stays chosen', async () => {
    const { id, tx } = await payByBank();
    ozow.setStatus(tx.reference, 'Cancelled');
    expect(await ozow.notify(tx.reference, { to: webhook() })).toEqual([200]);
    expect((await getPayment(t, shop, id)).body.data).toMatchObject({ status: 'created', latest_attempt: { provider: 'ozow', status: 'expired' } });
    const page = String((await http(t, 'GET', `/pay/${id}`)).body);
    expect(page).toContain('data-testid="method-instant-eft" checked');
    expect(page).not.toContain('data-testid="method-card" checked');
    // Now by card: Yoco.
    const card = await formPost(t, `/pay/${id}/pay`, { token: await pageToken(t, id), method: 'card' });
    expect(card.location).toBe(`/pay/${id}/checkout`);
    expect((await getPayment(t, shop, id)).body.data.latest_attempt.provider).toBe('yoco');
  });

  it('a status answer naming another amount captures nothing and is reported, as a notification would', async () => {
    const { id, tx } = await payByBank({ amount: 20_000 });
    ozow.pay(tx.reference);
    ozow.reportAmount(tx.reference, '10.00');
    await older();
    await reconcile();
    expect((await getPayment(t, shop, id)).body.data.status).toBe('failed');
    expect(await auditOf(id)).toContain('payment.notification_mismatch');
    expect(await postingsOf(id)).toEqual([]);
  });

  it('a wrong hash or site code captures nothing; a hashed notification of another amount captures nothing, is reported, and the money goes back', async () => {
    const { id, tx } = await payByBank({ amount: 20_000 });
    ozow.pay(tx.reference);
    expect(await ozow.notify(tx.reference, { to: webhook(), forge: true })).toEqual([403]);
    expect(await ozow.notify(tx.reference, { to: webhook(), siteCode: 'ZAR-OTHER-9' })).toEqual([403]);
    expect((await getPayment(t, shop, id)).body.data.status).toBe('awaiting_webhook');
    const before = await balance();
    expect(await ozow.notify(tx.reference, { to: webhook(), amount: '10.00' })).toEqual([200]);
    expect((await getPayment(t, shop, id)).body.data).toMatchObject({ status: 'failed' });
    expect(await auditOf(id)).toContain('payment.notification_mismatch');
    expect(await postingsOf(id)).toEqual([]);
    expect(await balance()).toEqual(before);
    // What Ozow said it took goes back through Ozow's refund API.
    await runRefunds();
    expect(ozow.transaction(tx.reference).refunds).toEqual([expect.objectContaining({ transactionId: tx.transactionId, amount: '10.00', status: 'Pending' })]);
  });

  it('expiry asks Ozow once more: still pending, it fails as expired; money that comes later goes back', async () => {
    const { id, tx } = await payByBank();
    await sql`update payments set created_at = created_at - interval '5 minutes' where id = ${id}::uuid`.execute(t.database.db);
    const asked = () => ozow.requests.filter((r) => r.path === '/GetTransactionByReference').length;
    const before = asked();
    await enqueue(t.database.db, { queue: QUEUE.expire, key: 'minutely' });
    await sql`update jobs set run_at = now() - interval '5 seconds' where queue = ${QUEUE.expire}`.execute(t.database.db);
    await t.app.services.runner.runDue([QUEUE.expire]);
    expect(asked()).toBe(before + 1);
    expect((await getPayment(t, shop, id)).body.data).toMatchObject({ status: 'failed', failure_reason: 'expired' });
    ozow.pay(tx.reference);
    expect(await ozow.notify(tx.reference, { to: webhook() })).toEqual([200]);
    expect(await postingsOf(id)).toEqual([]);
    await runRefunds();
    expect(ozow.transaction(tx.reference).refunds).toEqual([expect.objectContaining({ amount: tx.amount })]);
    await expectLedgerOk(t);
  });
});

describe('refunds through Ozow', () => {
  it('a partial refund is submitted with its hash and settles once; a refused one is released', async () => {
    const { id, tx } = await payByBank({ amount: 30_000 });
    ozow.pay(tx.reference);
    await ozow.notify(tx.reference, { to: webhook() });
    const r = (await http(t, 'POST', `/api/v1/payments/${id}/refunds`, { key: shop.key, body: { amount_cents: 5_000 } })).body.data;
    await runRefunds();
    const [made] = ozow.transaction(tx.reference).refunds;
    expect(made).toMatchObject({ transactionId: tx.transactionId, amount: '50.00', status: 'Pending', reason: `zarpay refund ${r.refund_id}` });
    expect(ozow.requests.find((q) => q.path === '/secure/refunds/submit')!.headers.authorization).toMatch(/^Bearer /);
    const refundOf = async (rid: string) => (await http(t, 'GET', `/api/v1/refunds/${rid}`, { key: shop.key })).body.data;
    expect(await refundOf(r.refund_id)).toMatchObject({ status: 'pending' });
    expect(await ozow.settleRefund(made!.refundId, 'Complete', { to: webhook() })).toBe(200);
    expect(await ozow.settleRefund(made!.refundId, 'Complete', { to: webhook() })).toBe(200);
    expect(await refundOf(r.refund_id)).toMatchObject({ status: 'succeeded', amount_cents: 5_000 });
    expect((await eventsOf(id)).filter((e) => e.startsWith('refund.'))).toEqual(['refund.succeeded']);

    ozow.refuseRefunds('Refunds are not enabled for this site');
    try {
      const refused = (await http(t, 'POST', `/api/v1/payments/${id}/refunds`, { key: shop.key, body: { amount_cents: 7_000 } })).body.data;
      await runRefunds();
      expect(await refundOf(refused.refund_id)).toMatchObject({ status: 'failed' });
      expect((await refundOf(refused.refund_id)).failure_reason).toContain('Refunds are not enabled for this site');
    } finally {
      ozow.refuseRefunds(undefined);
    }
    // Released: the rest can still be refunded.
    const rest = await http(t, 'POST', `/api/v1/payments/${id}/refunds`, { key: shop.key, body: { amount_cents: 25_000 } });
    expect(rest.status).toBe(201);
    await expectLedgerOk(t);
  });

  it('a refund whose answer was lost is looked for at Ozow before another is sent: one refund, never two, and never an earlier one', async () => {
    const { id, tx } = await payByBank({ amount: 20_000 });
    ozow.pay(tx.reference);
    await ozow.notify(tx.reference, { to: webhook() });
    const first = (await http(t, 'POST', `/api/v1/payments/${id}/refunds`, { key: shop.key, body: { amount_cents: 5_000 } })).body.data;
    await runRefunds();
    const refundRow = (rid: string) => t.database.db.selectFrom('refunds').select(['provider_refund_ref', 'submitted_at']).where('id', '=', rid).executeTakeFirstOrThrow();
    expect((await refundRow(first.refund_id)).provider_refund_ref).toBe(ozow.transaction(tx.reference).refunds[0]!.refundId);

    // The same amount again: Ozow makes it, but its answer is lost on the way back.
    const second = (await http(t, 'POST', `/api/v1/payments/${id}/refunds`, { key: shop.key, body: { amount_cents: 5_000 } })).body.data;
    ozow.loseNextAnswer('/secure/refunds/submit');
    await runRefunds();
    expect(ozow.transaction(tx.reference).refunds).toHaveLength(2);
    const lost = await refundRow(second.refund_id);
    expect(lost.provider_refund_ref).toBeNull();
    // What the next try knows (in this process or another, after a restart) is in the database.
    expect(lost.submitted_at).toBeInstanceOf(Date);
    await runRefunds();
    const made = ozow.transaction(tx.reference).refunds;
    expect(made).toHaveLength(2);
    expect((await refundRow(second.refund_id)).provider_refund_ref).toBe(made[1]!.refundId);
    expect(await ozow.settleRefund(made[1]!.refundId, 'Complete', { to: webhook() })).toBe(200);
    expect((await http(t, 'GET', `/api/v1/refunds/${second.refund_id}`, { key: shop.key })).body.data).toMatchObject({ status: 'succeeded' });
    await expectLedgerOk(t);
  });
});

describe('settings', () => {
  const base = { SERVICE_ENV: 'tst', DATA_DIR: '/tmp/zarpay-ozow-config' };
  it('all three or none; prd refuses Ozow\'s staging (test) API and runs on Ozow alone', () => {
    expect(() => loadConfig({ ...base, OZOW_SITE_CODE: 'A-B-1', OZOW_API_KEY: 'k' })).toThrow('OZOW_SITE_CODE, OZOW_PRIVATE_KEY and OZOW_API_KEY are set together (all three or none)');
    const prd = { SERVICE_ENV: 'prd', OPERATOR_TOKEN: 'o'.repeat(32), SERVICE_SECRET: 's'.repeat(32), DATABASE_URL: 'postgres://x/y', PUBLIC_BASE_URL: 'https://pay.example' };
    const three = { OZOW_SITE_CODE: 'A-B-1', OZOW_PRIVATE_KEY: 'p', OZOW_API_KEY: 'k' };
    expect(() => loadConfig({ ...prd, ...three, OZOW_API_URL: 'https://stagingapi.ozow.com' })).toThrow("OZOW_API_URL is Ozow's staging (test) API, which prd refuses");
    expect(loadConfig({ ...prd, ...three }).ozow).toEqual({ siteCode: 'A-B-1', privateKey: 'p', apiKey: 'k', apiUrl: 'https://api.ozow.com' });
  });

  it('with Ozow alone configured, instant EFT is the only way offered (the sandbox still plays declines outside prd)', () => {
    const alone = createProviders(loadConfig({ ...base, ...ozowSettings(ozow) }), t.database.db, { callbackBase: () => t.url, dueIn: () => {} });
    expect([...alone.methods.keys()]).toEqual(['instant_eft']);
    expect(alone.primary.name).toBe('ozow');
    expect([...alone.all.keys()].sort()).toEqual(['ozow', 'sandbox']);
    const both = createProviders(t.config, t.database.db, { callbackBase: () => t.url, dueIn: () => {} });
    expect([...both.methods].map(([m, p]) => [m, p.name])).toEqual([['card', 'yoco'], ['instant_eft', 'ozow']]);
  });
});
