import { bootOn } from '../src/boot.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../src/server.ts';
import { borrowed, startApp, type TestApp } from './support/app.ts';
import { createMerchant, expectLedgerOk, gql, http, op, type TestMerchant } from './support/client.ts';
import { getPayment } from './support/payments.ts';
import { startYocoDouble, type YocoDouble, yocoSettings } from './support/yoco-double.ts';
import { yocoShop } from './support/yoco-shop.ts';

/**
 * Refund outcomes are checked and never lost (issue 31), through the Yoco double: a refund
 * notification must say what zarpay asked for, money owed back for late money records how its
 * refund went, and a refund whose outcome never comes is flagged and resolved by the operator,
 * in prd too. The job runner runs only when a test asks (RUN_RECONCILER=false).
 */
let t: TestApp;
let yoco: YocoDouble;
let shop: TestMerchant;
let prd: App;
let prdUrl: string;
let s: ReturnType<typeof yocoShop>;

beforeAll(async () => {
  // A live-mode key: Yoco refunds live payments only.
  yoco = await startYocoDouble({ secretKey: `sk_live_${'e'.repeat(24)}` });
  t = await startApp({ ...yocoSettings(yoco), RUN_RECONCILER: 'false', RECONCILE_AFTER_MS: '100' });
  shop = await createMerchant(t, { name: 'Refund Shop', paymentFeeBps: 250, autoTopup: true });
  s = yocoShop(t, yoco, shop);
  // The same database served as production: where `refund settle` is refused and `refund resolve` is not.
  prd = createApp((await bootOn({ ...t.config, serviceEnv: 'prd', trustProxy: true, publicBaseUrl: 'https://pay.zarpay.example' }, borrowed(t.database))).services);
  prdUrl = await prd.start();
});
afterAll(async () => {
  await prd?.stop();
  await t?.close();
  await yoco?.close();
});

const stats = async () =>
  (await op(t, '{ stats { refundsPending refundsPendingStale oldestPendingRefundAt mismatchedRefundNotifications refundsOwedPending refundsOwedSucceeded refundsOwedFailed } }')).stats;
/** Makes a refund look asked for 25 hours ago: past REFUND_PENDING_ALERT_MS (24 hours by default). */
const age = (refundId: string) =>
  t.database.db
    .updateTable('refunds')
    .set({ created_at: new Date(Date.now() - 25 * 3600_000) })
    .where('id', '=', refundId)
    .execute();

describe('refund notifications must match', () => {
  it('a signed refund.succeeded for 1 cent, or refund.failed for 999 999 cents, settles nothing and is reported; the matching one settles it', async () => {
    const { id, checkout } = await s.paidWithYoco(20_000);
    const before = await s.balance();
    const counted = (await stats()).mismatchedRefundNotifications;
    const r = await s.refund(id, 5_000);
    await s.requestRefunds();
    const [made] = yoco.checkout(checkout.id).refunds;

    // Delivered twice (a duplicate): one report.
    expect(await yoco.notify(checkout.id, { to: s.webhook(), event: 'refund.succeeded', amount: 1, times: 2 })).toEqual([{ status: 200 }, { status: 200 }]);
    expect(await yoco.notify(checkout.id, { to: s.webhook(), event: 'refund.failed', amount: 999_999 })).toEqual([{ status: 200 }]);
    expect(await s.refundOf(r.refund_id)).toMatchObject({ status: 'pending', amount_cents: 5_000 });
    const held = await s.balance();
    expect(held.balance_cents).toBe(before.balance_cents);
    expect(held.reserved_cents - before.reserved_cents).toBe(5_000);
    expect(await s.postingsOf(id)).toEqual(['payment_capture', 'refund_reserve']);
    expect(await s.eventsOf(id)).toEqual(['payment.captured']);
    const reports = (await s.auditOf(id)).filter((a) => a.action === 'refund.notification_mismatch');
    expect(reports.map((a) => [a.actor, a.detail.provider_said, a.detail.reported_amount_cents])).toEqual([
      ['provider:yoco', 'failed', 999_999],
      ['provider:yoco', 'succeeded', 1],
    ]);
    expect(reports[1]!.detail).toMatchObject({
      refund_id: r.refund_id,
      provider_refund_ref: made!.refundId,
      expected_amount_cents: 5_000,
      expected_currency: 'ZAR',
      reported_currency: 'ZAR',
      result: 'nothing settled',
    });
    expect((await stats()).mismatchedRefundNotifications).toBe(counted + 2);

    // What Yoco really did, said right: settled once, as any refund.
    expect(await yoco.notify(checkout.id, { to: s.webhook(), event: 'refund.succeeded' })).toEqual([{ status: 200 }]);
    expect(await s.refundOf(r.refund_id)).toMatchObject({ status: 'succeeded', amount_cents: 5_000 });
    expect((await s.balance()).balance_cents).toBe(before.balance_cents - 5_000);
    expect(await s.postingsOf(id)).toEqual(['payment_capture', 'refund_reserve', 'refund_settle']);
    expect(await s.eventsOf(id)).toEqual(['payment.captured', 'refund.succeeded']);
    await expectLedgerOk(t);
  });

  it('a refund.succeeded in another currency settles nothing either', async () => {
    const { id, checkout } = await s.paidWithYoco(20_000);
    const r = await s.refund(id, 20_000);
    await s.requestRefunds();
    expect(await yoco.notify(checkout.id, { to: s.webhook(), event: 'refund.succeeded', currency: 'USD' })).toEqual([{ status: 200 }]);
    expect((await s.refundOf(r.refund_id)).status).toBe('pending');
    expect(await s.postingsOf(id)).toEqual(['payment_capture', 'refund_reserve']);
    const [report] = (await s.auditOf(id)).filter((a) => a.action === 'refund.notification_mismatch');
    expect(report!.detail).toMatchObject({ refund_id: r.refund_id, expected_currency: 'ZAR', reported_currency: 'USD', reported_amount_cents: 20_000 });
    await expectLedgerOk(t);
  });

  it('one that overtakes the lost answer with the wrong amount is reported, and does not take the refund\'s place at Yoco', async () => {
    const { id, checkout } = await s.paidWithYoco(20_000);
    const r = await s.refund(id, 8_000);
    // Yoco makes the refund; its answer is lost on the way back.
    yoco.failNext(1, { status: 502, body: 'Bad Gateway', processed: true });
    await s.requestRefunds();
    expect(await yoco.notify(checkout.id, { to: s.webhook(), event: 'refund.succeeded', amount: 80 })).toEqual([{ status: 200 }]);
    expect((await s.refundOf(r.refund_id)).status).toBe('pending');
    expect((await s.auditOf(id)).map((a) => a.action)).toContain('refund.notification_mismatch');
    const [row] = await t.database.db.selectFrom('refunds').select('provider_refund_ref').where('id', '=', r.refund_id).execute();
    expect(row!.provider_refund_ref).toBeNull();
    // The right one is matched by checkout and amount, and settles it.
    expect(await yoco.notify(checkout.id, { to: s.webhook(), event: 'refund.succeeded' })).toEqual([{ status: 200 }]);
    expect((await s.refundOf(r.refund_id)).status).toBe('succeeded');
    await expectLedgerOk(t);
  });
});

describe('money owed back for late money records how its refund went', () => {
  it('refund.succeeded: the attempt says so, audited, and zarpay stats counts it; a contradiction later changes nothing', async () => {
    const before = await stats();
    const balance = await s.balance();
    const { id, checkout } = await s.paidAfterCancel(20_000);
    await s.requestRefunds();
    expect(await s.owedOf(id)).toMatchObject({ refund_status: 'requested', refund_ref: expect.stringMatching(/^rfd_/) });
    expect((await stats()).refundsOwedPending).toBe(before.refundsOwedPending + 1);

    expect(await yoco.notify(checkout.id, { to: s.webhook(), event: 'refund.succeeded', times: 2 })).toEqual([{ status: 200 }, { status: 200 }]);
    const [made] = yoco.checkout(checkout.id).refunds;
    expect(await s.owedOf(id)).toEqual({ refund_status: 'succeeded', refund_ref: made!.refundId });
    const audit = await s.auditOf(id);
    expect(audit[0]).toMatchObject({ actor: 'provider:yoco', action: 'payment.refund_succeeded', detail: { refund_ref: made!.refundId, amount_cents: 20_000 } });
    expect(audit.filter((a) => a.action === 'payment.refund_succeeded')).toHaveLength(1);
    const after = await stats();
    expect(after.refundsOwedSucceeded).toBe(before.refundsOwedSucceeded + 1);
    expect(after.refundsOwedPending).toBe(before.refundsOwedPending);

    expect(await yoco.notify(checkout.id, { to: s.webhook(), event: 'refund.failed' })).toEqual([{ status: 200 }]);
    expect((await s.owedOf(id)).refund_status).toBe('succeeded');
    expect((await s.auditOf(id))[0]).toMatchObject({ action: 'payment.refund_outcome_ignored', detail: { was: 'succeeded', provider_said: 'failed' } });
    // The money never reached the merchant: nothing of the merchant's moved, and no refund event.
    expect(await s.balance()).toEqual(balance);
    expect(await s.eventsOf(id)).toEqual(['payment.cancelled']);
    await expectLedgerOk(t);
  });

  it('refund.failed: the attempt says failed, audited, and zarpay stats counts it for an operator', async () => {
    const before = await stats();
    const { id, checkout } = await s.paidAfterCancel(20_000);
    await s.requestRefunds();
    expect(await yoco.notify(checkout.id, { to: s.webhook(), event: 'refund.failed' })).toEqual([{ status: 200 }]);
    expect((await s.owedOf(id)).refund_status).toBe('failed');
    expect((await s.auditOf(id))[0]).toMatchObject({ actor: 'provider:yoco', action: 'payment.refund_failed', detail: { why: 'Yoco reported the refund failed' } });
    expect((await stats()).refundsOwedFailed).toBe(before.refundsOwedFailed + 1);
  });

  it('a notification that overtakes the lost answer is matched by the checkout; the job asked again makes nothing new', async () => {
    const { id, checkout } = await s.paidAfterCancel(20_000);
    yoco.failNext(1, { status: 502, body: 'Bad Gateway', processed: true });
    await s.requestRefunds();
    expect((await s.owedOf(id)).refund_status).toBe('pending');
    expect(await yoco.notify(checkout.id, { to: s.webhook(), event: 'refund.succeeded' })).toEqual([{ status: 200 }]);
    expect(await s.owedOf(id)).toEqual({ refund_status: 'succeeded', refund_ref: yoco.checkout(checkout.id).refunds[0]!.refundId });
    await s.requestRefunds();
    expect(yoco.checkout(checkout.id).refunds).toHaveLength(1);
    expect((await s.owedOf(id)).refund_status).toBe('succeeded');
  });

  it('one for another amount settles nothing and is reported', async () => {
    const { id, checkout } = await s.paidAfterCancel(20_000);
    await s.requestRefunds();
    expect(await yoco.notify(checkout.id, { to: s.webhook(), event: 'refund.succeeded', amount: 1 })).toEqual([{ status: 200 }]);
    expect((await s.owedOf(id)).refund_status).toBe('requested');
    const [report] = (await s.auditOf(id)).filter((a) => a.action === 'refund.notification_mismatch');
    expect(report!.detail).toMatchObject({ attempt_id: expect.any(String), expected_amount_cents: 20_000, reported_amount_cents: 1 });
  });
});

describe('a refund whose outcome never comes', () => {
  it('is flagged in stats and /metrics, listed as stale, and resolved by the operator in prd, through the one settlement', async () => {
    const { id } = await s.paidWithYoco(20_000);
    const before = await s.balance();
    const r = await s.refund(id, 6_000);
    await s.requestRefunds();
    const resolve = (outcome: string, note: string) =>
      http({ url: prdUrl }, 'POST', '/graphql', {
        headers: { 'x-forwarded-proto': 'https', authorization: `Bearer ${t.config.operatorToken}`, 'x-operator-name': 'thandi' },
        body: { query: `mutation($id: UUID!, $note: String!) { resolveRefund(id: $id, outcome: ${outcome}, note: $note) { refund { id status failureReason } } }`, variables: { id: r.refund_id, note } },
      });
    // Yoco may still say: too early to decide by hand.
    const early = await resolve('SUCCEEDED', 'checked the Yoco portal');
    expect(early.body.errors[0].extensions.code).toBe('INVALID_STATUS_TRANSITION');
    expect((await stats()).refundsPendingStale).toBe(0);

    await age(r.refund_id);
    const flagged = await stats();
    expect(flagged.refundsPendingStale).toBe(1);
    expect(new Date(flagged.oldestPendingRefundAt).getTime()).toBeLessThan(Date.now() - 24 * 3600_000);
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).toMatch(/^zarpay_refunds_pending_stale 1$/m);
    expect(Number(/^zarpay_refunds_oldest_pending_seconds (\S+)$/m.exec(metrics)![1])).toBeGreaterThan(24 * 3600);
    const listed = await op(t, '{ refunds(stale: true) { refunds { id } total } }');
    expect(listed.refunds).toEqual({ refunds: [{ id: r.refund_id }], total: 1 });

    // settle is for tst/dev; resolve works in prd, and wants a note.
    const settle = await http({ url: prdUrl }, 'POST', '/graphql', {
      headers: { 'x-forwarded-proto': 'https', authorization: `Bearer ${t.config.operatorToken}` },
      body: { query: `mutation { settleRefund(id: "${r.refund_id}", outcome: SUCCEEDED) { refund { id } } }` },
    });
    expect(settle.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await resolve('SUCCEEDED', '  ')).body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    const done = await resolve('SUCCEEDED', 'Yoco portal shows rfd_x refunded on 2026-11-27');
    expect(done.body.errors).toBeUndefined();
    expect(done.body.data.resolveRefund.refund).toEqual({ id: r.refund_id, status: 'SUCCEEDED', failureReason: null });

    expect((await s.balance()).balance_cents).toBe(before.balance_cents - 6_000);
    expect(await s.postingsOf(id)).toEqual(['payment_capture', 'refund_reserve', 'refund_settle']);
    expect(await s.eventsOf(id)).toEqual(['payment.captured', 'refund.succeeded']);
    expect((await s.auditOf(id))[0]).toMatchObject({
      actor: 'operator:thandi',
      action: 'refund.succeeded',
      detail: { refund_id: r.refund_id, note: 'Yoco portal shows rfd_x refunded on 2026-11-27' },
    });
    expect((await stats()).refundsPendingStale).toBe(0);
    // Once: the provider's late word, or the operator again, changes nothing.
    expect((await resolve('FAILED', 'again')).body.errors[0].extensions.code).toBe('INVALID_STATUS_TRANSITION');
    expect((await getPayment(t, shop, id)).body.data.refunded_cents).toBe(6_000);
    const merchant = await gql(t, `mutation { resolveRefund(id: "${r.refund_id}", outcome: FAILED, note: "x") { refund { id } } }`, {}, { key: shop.key });
    expect(merchant.body.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    await expectLedgerOk(t);
  });

  it('the operator and the provider\'s late word racing each other settle it once', async () => {
    const { id, checkout } = await s.paidWithYoco(20_000);
    const r = await s.refund(id, 4_000);
    await s.requestRefunds();
    await age(r.refund_id);
    const [byOperator, byYoco] = await Promise.all([
      gql(t, `mutation { resolveRefund(id: "${r.refund_id}", outcome: SUCCEEDED, note: "portal says refunded") { refund { status } } }`, {}, { operator: true }),
      yoco.notify(checkout.id, { to: s.webhook(), event: 'refund.succeeded', times: 3 }),
    ]);
    expect(byYoco).toEqual([{ status: 200 }, { status: 200 }, { status: 200 }]);
    // The operator came first, or found it already ended.
    const answer = byOperator.body.errors?.[0]?.extensions?.code ?? byOperator.body.data.resolveRefund.refund.status;
    expect(['SUCCEEDED', 'INVALID_STATUS_TRANSITION']).toContain(answer);
    expect((await s.refundOf(r.refund_id)).status).toBe('succeeded');
    expect(await s.postingsOf(id)).toEqual(['payment_capture', 'refund_reserve', 'refund_settle']);
    expect(await s.eventsOf(id)).toEqual(['payment.captured', 'refund.succeeded']);
    expect((await s.auditOf(id)).filter((a) => a.action === 'refund.succeeded')).toHaveLength(1);
    await expectLedgerOk(t);
  });
});
