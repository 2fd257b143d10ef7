import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { enqueue } from '../src/db/jobs.ts';
import { QUEUE } from '../src/domain/jobs.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, expectLedgerOk, gql, http, op, type TestMerchant } from './support/client.ts';
import { getPayment, newPayment, press } from './support/payments.ts';
import { eventually } from './support/receiver.ts';
import { type DoubleCheckout, startYocoDouble, type YocoDouble, yocoSettings } from './support/yoco-double.ts';

/**
 * Every payment ends (issue 23 item 2; CONTRACT §10): a payment still open PAYMENT_EXPIRES_AFTER_MS
 * after its creation is asked about once more and, unless paid, fails as `expired`; money that
 * arrives later goes back through the provider. Driven through the Yoco double, whose abandoned
 * checkouts Yoco itself never ends. The job runs when a test says so (RUN_RECONCILER=false).
 */
const EXPIRES_MS = 1_000;
let t: TestApp;
let yoco: YocoDouble;
let shop: TestMerchant;

beforeAll(async () => {
  // A live-mode key: Yoco refunds live payments only.
  yoco = await startYocoDouble({ secretKey: `sk_live_${'e'.repeat(24)}` });
  t = await startApp({
    ...yocoSettings(yoco),
    RUN_RECONCILER: 'false',
    RECONCILE_AFTER_MS: '100',
    PAYMENT_EXPIRES_AFTER_MS: String(EXPIRES_MS),
  });
  shop = await createMerchant(t, { name: 'Expiry Shop', paymentFeeBps: 250, autoTopup: true });
});
afterAll(async () => {
  await t?.close();
  await yoco?.close();
});

const webhook = () => `${t.url}/providers/yoco/webhook`;
const eventsOf = async (paymentId: string) =>
  (await t.database.db.selectFrom('events').select(['type', 'data']).where('payment_id', '=', paymentId).orderBy('seq').execute()).map((e) => ({ type: e.type, data: e.data as any }));
const asked = (checkoutId: string) => yoco.requests.filter((r) => r.method === 'GET' && r.path === `/api/checkouts/${checkoutId}`).length;
/** Makes payments look `ms` older than they are (their creation is what expiry counts from). */
const age = (ids: string[], ms = EXPIRES_MS * 2) =>
  sql`update payments set created_at = created_at - ${ms} * interval '1 millisecond' where id = any(${ids}::uuid[])`.execute(t.database.db);
/** Runs the recurring expiry job now, as the runner would on its minute. */
async function expireDue() {
  await enqueue(t.database.db, { queue: QUEUE.expire, key: 'minutely' });
  await sql`update jobs set run_at = now() - interval '5 seconds' where queue = ${QUEUE.expire}`.execute(t.database.db);
  return t.app.services.runner.runDue([QUEUE.expire]);
}

async function startCheckout(extra: Record<string, unknown> = {}): Promise<{ id: string; checkout: DoubleCheckout }> {
  const p = await newPayment(t, shop, extra);
  expect((await press(t, p.payment_id, 'pay')).status).toBe(303);
  const checkout = [...yoco.checkouts.values()].find((c) => c.metadata?.paymentId === p.payment_id);
  if (!checkout) throw new Error('no Yoco checkout was created');
  return { id: p.payment_id, checkout };
}

describe('a payment never finished', () => {
  it('is asked about once more, then fails as expired, with payment.failed, in REST, GraphQL and the webhook', async () => {
    const { id, checkout } = await startCheckout();
    yoco.checkoutPage(checkout.id); // the customer opened Yoco's page, and left
    const young = await startCheckout();
    await age([id]);
    const before = asked(checkout.id);
    await expireDue();
    expect(asked(checkout.id)).toBe(before + 1);
    expect(asked(young.checkout.id)).toBe(0);
    const rest = (await getPayment(t, shop, id)).body.data;
    expect(rest).toMatchObject({ status: 'failed', failure_reason: 'expired', net_amount_cents: null, latest_attempt: { status: 'expired' } });
    expect((await getPayment(t, shop, young.id)).body.data).toMatchObject({ status: 'awaiting_webhook', failure_reason: null });
    const g = await gql(t, `{ payment(id: "${id}") { status failureReason } }`, {}, { key: shop.key });
    expect(g.body.data.payment).toEqual({ status: 'FAILED', failureReason: 'expired' });
    const events = await eventsOf(id);
    expect(events.map((e) => e.type)).toEqual(['payment.failed']);
    expect(events[0]!.data).toMatchObject({ payment_id: id, status: 'failed', failure_reason: 'expired' });
    const audit = await op(t, `{ auditLog(paymentId: "${id}") { actor action } }`);
    expect(audit.auditLog).toEqual([{ actor: 'system:expiry', action: 'payment.expired' }]);
    // Once ended it is never asked about again (it is old enough already).
    await expireDue();
    expect(asked(checkout.id)).toBe(before + 1);
  });

  it('one never started ends without asking anyone; its page says it expired, in every language', async () => {
    const p = await newPayment(t, shop);
    await age([p.payment_id]);
    const requests = yoco.requests.length;
    await expireDue();
    expect(yoco.requests.length).toBe(requests);
    expect((await getPayment(t, shop, p.payment_id)).body.data).toMatchObject({ status: 'failed', failure_reason: 'expired' });
    const pages = {
      en: 'This payment has expired',
      af: 'Hierdie betaling het verval',
      zu: 'Le nkokhelo iphelelwe yisikhathi',
    };
    for (const [lang, words] of Object.entries(pages)) {
      const page = String((await http(t, 'GET', `/pay/${p.payment_id}?lang=${lang}`)).body);
      expect(page, lang).toContain(words);
      expect(page).toContain('data-status="failed"');
      expect(page).not.toContain('data-testid="pay"');
    }
  });

  it('pressing Pay on a page past its time ends it there, before any checkout is made', async () => {
    const p = await newPayment(t, shop);
    const page = String((await http(t, 'GET', `/pay/${p.payment_id}`)).body);
    const token = /name="token" value="([0-9a-f]{64})"/.exec(page)![1]!;
    await age([p.payment_id]);
    const checkouts = yoco.checkouts.size;
    const res = await fetch(`${t.url}/pay/${p.payment_id}/pay`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token }) });
    expect(res.status).toBeLessThan(500);
    expect(yoco.checkouts.size).toBe(checkouts);
    expect((await getPayment(t, shop, p.payment_id)).body.data).toMatchObject({ status: 'failed', failure_reason: 'expired' });
    expect(String((await http(t, 'GET', `/pay/${p.payment_id}`)).body)).toContain('This payment has expired');
  });

  it('one Yoco says was paid (its notification lost) is captured instead', async () => {
    const { id, checkout } = await startCheckout({ amount: 20_000 });
    yoco.pay(checkout.id);
    await age([id]);
    await expireDue();
    expect((await getPayment(t, shop, id)).body.data).toMatchObject({ status: 'captured', failure_reason: null, net_amount_cents: 19_500 });
    expect((await eventsOf(id)).map((e) => e.type)).toEqual(['payment.captured']);
    await expectLedgerOk(t);
  });

  it('money that arrives after it expired is refunded through Yoco, and the payment stays failed', async () => {
    const before = (await http(t, 'GET', '/api/v1/payouts/balance', { key: shop.key })).body.data;
    const { id, checkout } = await startCheckout({ amount: 15_000 });
    await age([id]);
    await expireDue();
    expect((await getPayment(t, shop, id)).body.data.status).toBe('failed');
    // The customer had Yoco's page open all along, and pays now.
    yoco.pay(checkout.id);
    expect(await yoco.notify(checkout.id, { to: webhook() })).toEqual([{ status: 200 }]);
    await t.app.services.runner.runDue([QUEUE.refundOwed]);
    expect(yoco.checkout(checkout.id).refunds).toEqual([{ refundId: expect.stringMatching(/^rfd_/), amount: 15_000 }]);
    expect((await getPayment(t, shop, id)).body.data).toMatchObject({ status: 'failed', failure_reason: 'expired' });
    expect((await eventsOf(id)).map((e) => e.type)).toEqual(['payment.failed']);
    expect((await http(t, 'GET', '/api/v1/payouts/balance', { key: shop.key })).body.data).toEqual(before);
    await expectLedgerOk(t);
  });

  it('ends even while Yoco cannot answer (money that comes later goes back)', async () => {
    const { id, checkout } = await startCheckout();
    await age([id]);
    yoco.failNext(1, 503);
    const before = asked(checkout.id);
    await expireDue();
    expect(asked(checkout.id)).toBe(before + 1);
    expect((await getPayment(t, shop, id)).body.data).toMatchObject({ status: 'failed', failure_reason: 'expired' });
  });
});

describe('Yoco\'s checkout states the docs do not name', () => {
  it('an abandoned or unknown checkout no longer reopens the payment: it waits for the expiry rule', async () => {
    const { id, checkout } = await startCheckout();
    yoco.expire(checkout.id);
    // The reconciler asks once the attempt is RECONCILE_AFTER_MS old.
    const before = asked(checkout.id);
    await eventually(async () => (await t.app.services.runner.runDue([QUEUE.reconcile]), asked(checkout.id) > before));
    expect((await getPayment(t, shop, id)).body.data).toMatchObject({ status: 'awaiting_webhook', latest_attempt: { status: 'pending' } });
    await age([id]);
    await expireDue();
    expect((await getPayment(t, shop, id)).body.data).toMatchObject({ status: 'failed', failure_reason: 'expired' });
  });
});

describe('PAYMENT_EXPIRES_AFTER_MS', () => {
  it('is a day unless set, at least a second, and the job looks again within a minute', async () => {
    const base = { SERVICE_ENV: 'tst', DATA_DIR: '/tmp/zarpay-expiry-config' };
    expect(loadConfig(base).paymentExpiresAfterMs).toBe(86_400_000);
    expect(loadConfig({ ...base, PAYMENT_EXPIRES_AFTER_MS: '5000' }).paymentExpiresAfterMs).toBe(5000);
    expect(() => loadConfig({ ...base, PAYMENT_EXPIRES_AFTER_MS: '10' })).toThrow(/PAYMENT_EXPIRES_AFTER_MS/);
    const before = Date.now();
    await expireDue();
    const job = await t.database.db.selectFrom('jobs').select('run_at').where('queue', '=', QUEUE.expire).executeTakeFirstOrThrow();
    expect(job.run_at.getTime()).toBeLessThanOrEqual(before + 60_000 + 5_000);
  });
});

describe('a payment that cannot be ended', () => {
  it('stops no other expiry: it is reported and passed over for a while, the job goes on, and it ends once it can', async () => {
    const poison = (await newPayment(t, shop)).payment_id;
    const others = [(await newPayment(t, shop)).payment_id, (await newPayment(t, shop)).payment_id];
    // The oldest, so first in the batch; every change to it fails, run after run.
    await age([poison], EXPIRES_MS * 3);
    await age(others);
    await sql`create or replace function refuse_change() returns trigger language plpgsql as $$ begin raise exception 'this payment cannot be changed'; end $$`.execute(t.database.db);
    await sql
      .raw(`create trigger poison before update on payments for each row when (old.id = '${poison}'::uuid) execute function refuse_change()`)
      .execute(t.database.db);
    const itemFailures = () => t.app.services.runner.counts().get(QUEUE.expire)!.itemFailures;
    const job = () => t.database.db.selectFrom('jobs').selectAll().where('queue', '=', QUEUE.expire).executeTakeFirstOrThrow();
    const before = itemFailures();
    try {
      await expireDue();
      for (const id of others) expect((await getPayment(t, shop, id)).body.data, id).toMatchObject({ status: 'failed', failure_reason: 'expired' });
      expect((await getPayment(t, shop, poison)).body.data.status).toBe('created');
      expect(itemFailures()).toBe(before + 1);
      const remembered = await job();
      expect(remembered).toMatchObject({ status: 'queued', attempts: 0, last_error: null });
      expect((remembered.payload as any).passing[poison]).toMatchObject({ failures: 1, error: 'this payment cannot be changed' });
      const metrics = await (await fetch(`${t.url}/metrics`)).text();
      expect(metrics).toContain(`zarpay_jobs_item_failures_total{queue="payment.expire"} ${before + 1}`);

      // The next run, at once, passes it over: no tight loop.
      await expireDue();
      expect(itemFailures()).toBe(before + 1);

      // Its while over, alone in the batch and failing still: that is the run failing, retried and shown on the job's row, never final.
      await sql`update jobs set payload = jsonb_set(payload, array['passing', ${poison}, 'retryAt'], '"2000-01-01T00:00:00.000Z"') where queue = ${QUEUE.expire}`.execute(t.database.db);
      await expireDue();
      expect(await job()).toMatchObject({ status: 'queued', attempts: 1, last_error: 'this payment cannot be changed' });
    } finally {
      await sql`drop trigger if exists poison on payments`.execute(t.database.db);
    }
    // It can be changed again: it ends, and is forgotten.
    await expireDue();
    expect((await getPayment(t, shop, poison)).body.data).toMatchObject({ status: 'failed', failure_reason: 'expired' });
    expect(await job()).toMatchObject({ status: 'queued', attempts: 0, last_error: null, payload: { passing: {} } });
  });
});
