import { bootOn } from '../src/boot.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE } from '../src/domain/jobs.ts';
import { createApp } from '../src/server.ts';
import { borrowed, startApp, type TestApp } from './support/app.ts';
import { createMerchant, expectLedgerOk, gql, http, op, type TestMerchant } from './support/client.ts';
import { formPost, getPayment, newPayment, pageToken, press } from './support/payments.ts';
import { type DoubleCheckout, startYocoDouble, type YocoDouble, yocoSettings } from './support/yoco-double.ts';

/**
 * Payments through Yoco (the double), end to end in one service: the hand-off to the checkout,
 * the signed webhook, the customer's return, cancel, and the reconciler. The reconciler runs only
 * when a test calls it (RUN_RECONCILER=false), so each test decides what happens when.
 */
let t: TestApp;
let yoco: YocoDouble;
let shop: TestMerchant;

beforeAll(async () => {
  // A live-mode key: Yoco refunds live payments only, and one test needs a refund.
  yoco = await startYocoDouble({ secretKey: `sk_live_${'d'.repeat(24)}` });
  t = await startApp({
    ...yocoSettings(yoco),
    RUN_RECONCILER: 'false',
    RECONCILE_AFTER_MS: '100',
  });
  shop = await createMerchant(t, { name: 'Yoco Shop', paymentFeeBps: 250, autoTopup: true });
});
afterAll(async () => {
  await t?.close();
  await yoco?.close();
});

const webhook = () => `${t.url}/providers/yoco/webhook`;
const balance = async () => (await http(t, 'GET', '/api/v1/payouts/balance', { key: shop.key })).body.data;
const eventsOf = async (paymentId: string) =>
  (await t.database.db.selectFrom('events').select('type').where('payment_id', '=', paymentId).orderBy('seq').execute()).map((e) => e.type);
const postingsOf = async (paymentId: string) =>
  (await t.database.db.selectFrom('ledger_transactions').select('kind').where('payment_id', '=', paymentId).execute()).map((e) => e.kind);
const reconcile = () => t.app.services.runner.runDue([QUEUE.reconcile, QUEUE.refundOwed]);
/** The reconciler's questions due now (they are queued RECONCILE_AFTER_MS ahead), instead of waiting that long. */
const older = () => t.database.db.updateTable('jobs').set({ run_at: new Date(0) }).where('queue', 'in', [QUEUE.reconcile, QUEUE.refundOwed]).where('status', '=', 'queued').execute();

/** Initiates a payment and presses Pay; returns it with Yoco's checkout. */
async function startCheckout(extra: Record<string, unknown> = {}): Promise<{ id: string; checkout: DoubleCheckout }> {
  const p = await newPayment(t, shop, extra);
  const pressed = await press(t, p.payment_id, 'pay');
  expect(pressed.status).toBe(303);
  expect(pressed.location).toBe(`/pay/${p.payment_id}/checkout`);
  const checkout = [...yoco.checkouts.values()].find((c) => c.metadata?.paymentId === p.payment_id);
  if (!checkout) throw new Error('no Yoco checkout was created');
  return { id: p.payment_id, checkout };
}

describe('paying with Yoco', () => {
  it('Pay creates a checkout and hands the customer over; the signed webhook captures', async () => {
    const before = await balance();
    const { id, checkout } = await startCheckout({ amount: 30_000, intent_type: 'purchase', description: 'Two tickets' });
    const create = yoco.requests.find((r) => r.method === 'POST' && r.path === '/api/checkouts' && (r.body as any).metadata.paymentId === id)!;
    const attempt = await t.database.db.selectFrom('payment_attempts').selectAll().where('payment_id', '=', id).executeTakeFirstOrThrow();
    expect(create.headers['idempotency-key']).toBe(attempt.id);
    expect(create.body).toMatchObject({
      amount: 30_000,
      currency: 'ZAR',
      successUrl: `${t.config.publicBaseUrl}/pay/${id}/return?outcome=success`,
      cancelUrl: `${t.config.publicBaseUrl}/pay/${id}/return?outcome=cancel`,
      metadata: { attemptId: attempt.id, paymentId: id },
      lineItems: [{ displayName: 'Two tickets', quantity: 1, pricingDetails: { price: 30_000 } }],
    });
    expect(attempt).toMatchObject({ provider: 'yoco', provider_ref: checkout.id, redirect_url: checkout.redirectUrl, status: 'pending' });

    // Our own page forwards the browser to Yoco's (a form post may not redirect off-origin under our CSP).
    const handOff = await http(t, 'GET', `/pay/${id}/checkout`);
    expect(handOff.status).toBe(200);
    expect(String(handOff.body)).toContain(`<meta http-equiv="refresh" content="0;url=${checkout.redirectUrl}">`);
    expect(String(handOff.body)).toContain(`href="${checkout.redirectUrl}" data-testid="checkout-link"`);
    expect(handOff.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect((await getPayment(t, shop, id)).body.data).toMatchObject({ status: 'awaiting_webhook', latest_attempt: { status: 'pending', provider: 'yoco', provider_ref: checkout.id } });

    yoco.pay(checkout.id);
    expect(await yoco.notify(checkout.id, { to: webhook() })).toEqual([{ status: 200 }]);
    const done = (await getPayment(t, shop, id)).body.data;
    expect(done).toMatchObject({ status: 'captured', fee_cents: 750, net_amount_cents: 29_250, voucher_redeemed: false, latest_attempt: { status: 'succeeded' } });
    expect(done.voucher_code).toMatch(/^\d{4}-\d{4}-\d{4}-\d{4}$/);
    const row = await t.database.db.selectFrom('payment_attempts').select(['payment_ref']).where('id', '=', attempt.id).executeTakeFirstOrThrow();
    expect(row.payment_ref).toBe(yoco.checkout(checkout.id).paymentId);
    expect((await balance()).balance_cents - before.balance_cents).toBe(29_250);
    // The customer sees the voucher on zarpay's page.
    expect(String((await http(t, 'GET', `/pay/${id}`)).body)).toContain(`data-testid="voucher-code">${done.voucher_code}<`);
    await expectLedgerOk(t);
  });

  it('duplicate, late and out-of-order notifications change nothing', async () => {
    const { id, checkout } = await startCheckout();
    yoco.pay(checkout.id);
    // Yoco retries with a fresh timestamp: the same event three times, two of them racing.
    const [first, second] = await Promise.all([yoco.notify(checkout.id, { to: webhook() }), yoco.notify(checkout.id, { to: webhook(), times: 2, intervalMs: 10 })]);
    expect([...first!, ...second!]).toEqual([{ status: 200 }, { status: 200 }, { status: 200 }]);
    const captured = (await getPayment(t, shop, id)).body.data;
    const before = await balance();
    // Late: after the customer's return and the reconciler have both looked again.
    await http(t, 'GET', `/pay/${id}/return?outcome=success`);
    await older();
    await reconcile();
    expect(await yoco.notify(checkout.id, { to: webhook(), delayMs: 50 })).toEqual([{ status: 200 }]);
    // Out of order: Yoco's refund events for a payment that was never refunded are verified and ignored.
    yoco.checkout(checkout.id).refunds.push({ refundId: 'rfd_unrelated', amount: 100 });
    expect(await yoco.notify(checkout.id, { to: webhook(), event: 'refund.succeeded' })).toEqual([{ status: 200 }]);

    expect((await getPayment(t, shop, id)).body.data).toEqual(captured);
    expect(await balance()).toEqual(before);
    expect(await eventsOf(id)).toEqual(['payment.captured']);
    expect(await postingsOf(id)).toEqual(['payment_capture']);
    await expectLedgerOk(t);
  });

  it('refuses tampered, foreign, stale and unsigned notifications, and acknowledges checkouts that are not ours', async () => {
    const { id, checkout } = await startCheckout();
    yoco.pay(checkout.id);
    expect(await yoco.notify(checkout.id, { to: webhook(), tamper: 'body' })).toEqual([{ status: 403 }]);
    expect(await yoco.notify(checkout.id, { to: webhook(), tamper: 'secret' })).toEqual([{ status: 403 }]);
    expect(await yoco.notify(checkout.id, { to: webhook(), tamper: 'stale' })).toEqual([{ status: 403 }]);
    expect(await yoco.notify(checkout.id, { to: webhook(), tamper: 'no-signature' })).toEqual([{ status: 401 }]);
    expect((await getPayment(t, shop, id)).body.data.status).toBe('awaiting_webhook');
    // The Yoco account also takes payments zarpay never started (the merchant's own shop).
    const foreign = await fetch(`${yoco.apiUrl}/checkouts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${yoco.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 5_000, currency: 'ZAR' }),
    }).then((r) => r.json() as Promise<{ id: string }>);
    yoco.pay(foreign.id);
    const { body, headers } = yoco.signedEvent(foreign.id);
    const res = await http(t, 'POST', '/providers/yoco/webhook', { rawBody: body.toString(), headers });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ received: true, payment_id: null, status: null });
  });

  it('the customer\'s return asks Yoco: paid before the webhook came, the payment is captured at once', async () => {
    const { id, checkout } = await startCheckout();
    yoco.pay(checkout.id);
    const back = await http(t, 'GET', `/pay/${id}/return?outcome=success`);
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(`/pay/${id}`);
    expect((await getPayment(t, shop, id)).body.data.status).toBe('captured');
    // The return's outcome is only a hint: "success" on an unpaid checkout changes nothing.
    const unpaid = await startCheckout();
    await http(t, 'GET', `/pay/${unpaid.id}/return?outcome=success`);
    expect((await getPayment(t, shop, unpaid.id)).body.data.status).toBe('awaiting_webhook');
  });

  it('a double press while the checkout is open starts nothing new and goes to the same checkout', async () => {
    const { id, checkout } = await startCheckout();
    const again = await formPost(t, `/pay/${id}/pay`, { token: await pageToken(t, id) });
    expect(again.location).toBe(`/pay/${id}/checkout`);
    expect([...yoco.checkouts.values()].filter((c) => c.metadata?.paymentId === id).map((c) => c.id)).toEqual([checkout.id]);
  });

  it('Yoco down when Pay is pressed: a page that says so, the payment still payable, the next press works', async () => {
    const p = await newPayment(t, shop);
    yoco.failNext(1, 503);
    const refused = await press(t, p.payment_id, 'pay');
    expect(refused.status).toBe(503);
    expect(refused.text).toContain('could not be reached');
    expect((await getPayment(t, shop, p.payment_id)).body.data).toMatchObject({ status: 'created', latest_attempt: { status: 'failed', provider: 'yoco' } });
    const retried = await press(t, p.payment_id, 'pay');
    expect(retried.location).toBe(`/pay/${p.payment_id}/checkout`);
  });
});

describe('leaving the checkout and cancelling', () => {
  it('back from Yoco without paying: the page offers the checkout again and cancel, which asks Yoco first', async () => {
    const { id, checkout } = await startCheckout();
    yoco.checkoutPage(checkout.id);
    await http(t, 'GET', `/pay/${id}/return?outcome=cancel`);
    const page = String((await http(t, 'GET', `/pay/${id}`)).body);
    expect(page).toContain('data-status="awaiting_webhook"');
    expect(page).toContain(`href="${checkout.redirectUrl}" data-testid="checkout-link"`);
    expect(page).toContain('data-testid="cancel"');
    expect((await press(t, id, 'cancel')).status).toBe(303);
    expect((await getPayment(t, shop, id)).body.data).toMatchObject({ status: 'cancelled', net_amount_cents: null, latest_attempt: { status: 'cancelled' } });
    expect(await eventsOf(id)).toEqual(['payment.cancelled']);
  });

  it('cancel after paying at Yoco (no webhook yet) captures instead', async () => {
    const { id, checkout } = await startCheckout();
    yoco.pay(checkout.id);
    expect((await press(t, id, 'cancel')).status).toBe(303);
    expect((await getPayment(t, shop, id)).body.data.status).toBe('captured');
  });

  it('money that arrives for a cancelled payment is given back through Yoco, and the audit log says so', async () => {
    const before = await balance();
    const { id, checkout } = await startCheckout({ amount: 20_000 });
    await press(t, id, 'cancel');
    // The customer still had Yoco's page open in another tab, and paid there.
    yoco.pay(checkout.id);
    expect(await yoco.notify(checkout.id, { to: webhook() })).toEqual([{ status: 200 }]);
    expect((await getPayment(t, shop, id)).body.data.status).toBe('cancelled');
    expect(await balance()).toEqual(before);
    await reconcile();
    expect(yoco.checkout(checkout.id).refunds).toEqual([{ refundId: expect.stringMatching(/^rfd_/), amount: 20_000 }]);
    const refundCall = yoco.requests.find((r) => r.path === `/api/checkouts/${checkout.id}/refund`)!;
    expect(refundCall.body).toEqual({ amount: 20_000 });
    const attempt = await t.database.db.selectFrom('payment_attempts').select(['status', 'refund_status', 'refund_ref']).where('payment_id', '=', id).executeTakeFirstOrThrow();
    expect(attempt).toMatchObject({ status: 'succeeded', refund_status: 'requested', refund_ref: expect.stringMatching(/^rfd_/) });
    const audit = await op(t, `{ auditLog(paymentId: "${id}") { actor action } }`);
    expect(audit.auditLog.map((e: { action: string }) => e.action)).toEqual(['payment.refund_requested', 'payment.refund_owed']);
    // Asked again, nothing more is refunded.
    await reconcile();
    expect(yoco.checkout(checkout.id).refunds).toHaveLength(1);
    expect(await eventsOf(id)).toEqual(['payment.cancelled']);
  });
});

describe('the reconciler', () => {
  it('finishes a payment whose webhook never came, from Yoco\'s status, and records it', async () => {
    const { id, checkout } = await startCheckout();
    yoco.pay(checkout.id);
    await older();
    await reconcile();
    expect((await getPayment(t, shop, id)).body.data.status).toBe('captured');
    const audit = await op(t, `{ auditLog(paymentId: "${id}") { actor action detail } }`);
    expect(audit.auditLog).toEqual([{ actor: 'system:reconciler', action: 'payment.captured', detail: expect.objectContaining({ provider: 'yoco', provider_said: 'succeeded' }) }]);
  });

  it('an expired checkout, or one Yoco never saw, stays open: Yoco documents neither, so the expiry rule ends it', async () => {
    const expired = await startCheckout();
    const unknown = await startCheckout();
    yoco.expire(expired.checkout.id);
    (yoco.checkouts as Map<string, DoubleCheckout>).delete(unknown.checkout.id);
    await older();
    await reconcile();
    for (const { id } of [expired, unknown]) {
      expect((await getPayment(t, shop, id)).body.data).toMatchObject({ status: 'awaiting_webhook', failure_reason: null, latest_attempt: { status: 'pending' } });
      expect(await eventsOf(id)).toEqual([]);
    }
  });

  it('asks again later about a checkout still open, and backs off while Yoco is down', async () => {
    const { id, checkout } = await startCheckout();
    await older();
    const asked = () => yoco.requests.filter((r) => r.method === 'GET' && r.path === `/api/checkouts/${checkout.id}`).length;
    const attemptOf = await t.database.db.selectFrom('payment_attempts').select('id').where('payment_id', '=', id).executeTakeFirstOrThrow();
    const before = Date.now();
    await reconcile();
    expect(asked()).toBe(1);
    // The next check is put off by the back-off (RECONCILE_AFTER_MS for the first), counted from
    // the check itself: compared with the clock before it, so a slow machine cannot fail this.
    const job = () => t.database.db.selectFrom('jobs').select(['attempts', 'run_at']).where('queue', '=', QUEUE.reconcile).where('key', '=', attemptOf.id).executeTakeFirstOrThrow();
    const row = await job();
    expect(row.attempts).toBe(1);
    expect(row.run_at.getTime()).toBeGreaterThanOrEqual(before + 100 - 5);
    // Asked again only after the back-off: not on a round before it is due.
    if (Date.now() < row.run_at.getTime()) {
      await reconcile();
      expect(asked()).toBe(1);
    }
    await t.database.db.updateTable('jobs').set({ run_at: new Date(Date.now() - 1) }).where('queue', '=', QUEUE.reconcile).where('key', '=', attemptOf.id).execute();
    yoco.failNext(1, 'reset');
    await reconcile();
    expect((await getPayment(t, shop, id)).body.data.status).toBe('awaiting_webhook');
    expect(yoco.checkout(checkout.id).status).not.toBe('completed');
  });

  it('several reconcilers share the work: each attempt is asked about once', async () => {
    const started = await Promise.all([startCheckout(), startCheckout(), startCheckout()]);
    for (const s of started) yoco.pay(s.checkout.id);
    await older();
    const second = createApp((await bootOn(t.config, borrowed(t.database))).services);
    try {
      // Two reconcilers, two rounds each, all at once: each claims what the others do not hold.
      const other = () => second.services.runner.runDue([QUEUE.reconcile]);
      const rounds = await Promise.all([reconcile(), other(), reconcile(), other()]);
      expect(rounds.reduce((n, r) => n + r, 0)).toBeGreaterThanOrEqual(3);
    } finally {
      await second.services.stop();
    }
    for (const s of started) {
      expect(yoco.requests.filter((r) => r.method === 'GET' && r.path === `/api/checkouts/${s.checkout.id}`)).toHaveLength(1);
      expect((await getPayment(t, shop, s.id)).body.data.status).toBe('captured');
      expect(await eventsOf(s.id)).toEqual(['payment.captured']);
    }
    await expectLedgerOk(t);
  });

  it('the operator reconciles one payment at once, in any environment, and the audit log names who', async () => {
    const { id, checkout } = await startCheckout();
    yoco.pay(checkout.id);
    const res = await gql(t, `mutation { reconcilePayment(id: "${id}") { payment { status latestAttempt { status } } } }`, {}, { operator: true, headers: { 'x-operator-name': 'thandi' } });
    expect(res.body.data!.reconcilePayment.payment).toEqual({ status: 'CAPTURED', latestAttempt: { status: 'succeeded' } });
    // Asking again finds nothing in flight, and is recorded too.
    await op(t, `mutation { reconcilePayment(id: "${id}") { payment { status } } }`);
    const audit = await op(t, `{ auditLog(paymentId: "${id}") { actor action detail } }`);
    expect(audit.auditLog).toEqual([
      { actor: 'operator', action: 'payment.reconcile', detail: { status_before: 'captured', provider: null, provider_said: 'no attempt in flight', result: 'unchanged' } },
      { actor: 'operator:thandi', action: 'payment.reconcile', detail: { status_before: 'awaiting_webhook', provider: 'yoco', provider_said: 'succeeded', result: 'captured' } },
      { actor: 'operator:thandi', action: 'payment.captured', detail: expect.objectContaining({ provider_said: 'succeeded' }) },
    ]);
    const merchant = await gql(t, `mutation { reconcilePayment(id: "${id}") { payment { status } } }`, {}, { key: shop.key });
    expect(merchant.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

/** A payment paid through Yoco and captured by its notification. */
async function paidWithYoco(amount = 20_000): Promise<{ id: string; checkout: DoubleCheckout }> {
  const started = await startCheckout({ amount });
  yoco.pay(started.checkout.id);
  expect(await yoco.notify(started.checkout.id, { to: webhook() })).toEqual([{ status: 200 }]);
  expect((await getPayment(t, shop, started.id)).body.data.status).toBe('captured');
  return started;
}
const refundOf = async (refundId: string) => (await http(t, 'GET', `/api/v1/refunds/${refundId}`, { key: shop.key })).body.data;
const refundCalls = (checkoutId: string) => yoco.requests.filter((r) => r.path === `/api/checkouts/${checkoutId}/refund`);
/** Runs the refund requests that are due, making every one due first (their backoff is not what these tests are about). */
const requestRefunds = async () => {
  await t.database.db.updateTable('jobs').set({ run_at: new Date(0) }).where('queue', '=', QUEUE.refund).where('status', '=', 'queued').execute();
  await t.app.services.runner.runDue([QUEUE.refund, QUEUE.refundOwed]);
};
const auditOf = async (paymentId: string) => (await op(t, `{ auditLog(paymentId: "${paymentId}") { actor action detail } }`)).auditLog as { actor: string; action: string; detail: any }[];

describe('refunds through Yoco', () => {
  it('asks Yoco with the amount and the refund id as key; refund.succeeded settles it once, however often, late or out of order', async () => {
    const { id, checkout } = await paidWithYoco(20_000);
    const before = await balance();
    const r = (await http(t, 'POST', `/api/v1/payments/${id}/refunds`, { key: shop.key, body: { amount_cents: 5_000 } })).body.data;
    await requestRefunds();
    const [call] = refundCalls(checkout.id);
    expect(call).toMatchObject({ method: 'POST', body: { amount: 5_000 } });
    expect(call!.headers['idempotency-key']).toBe(r.refund_id);
    const [made] = yoco.checkout(checkout.id).refunds;
    expect(made).toEqual({ refundId: expect.stringMatching(/^rfd_/), amount: 5_000 });
    expect((await refundOf(r.refund_id)).status).toBe('pending');

    // Yoco tells us twice (a retry), racing; then a contradicting refund.failed arrives late.
    const sent = await Promise.all([yoco.notify(checkout.id, { to: webhook(), event: 'refund.succeeded' }), yoco.notify(checkout.id, { to: webhook(), event: 'refund.succeeded', times: 2 })]);
    expect(sent.flat()).toEqual([{ status: 200 }, { status: 200 }, { status: 200 }]);
    expect(await yoco.notify(checkout.id, { to: webhook(), event: 'refund.failed', delayMs: 20 })).toEqual([{ status: 200 }]);
    expect(await refundOf(r.refund_id)).toMatchObject({ status: 'succeeded', amount_cents: 5_000 });
    const after = await balance();
    expect(after.balance_cents).toBe(before.balance_cents - 5_000);
    expect(after.totals.refunds_cents - before.totals.refunds_cents).toBe(5_000);
    expect((await getPayment(t, shop, id)).body.data).toMatchObject({ status: 'captured', refunded_cents: 5_000 });
    expect(await eventsOf(id)).toEqual(['payment.captured', 'refund.succeeded']);
    expect(await postingsOf(id)).toEqual(['payment_capture', 'refund_reserve', 'refund_settle']);
    const audit = await auditOf(id);
    expect(audit.map((a) => a.action)).toEqual(['refund.outcome_ignored', 'refund.succeeded', 'refund.requested']);
    expect(audit[1]).toMatchObject({ actor: 'provider:yoco', detail: { refund_id: r.refund_id, provider_refund_ref: made!.refundId } });
    // The job, asked again, finds it done and asks Yoco nothing more.
    await requestRefunds();
    expect(refundCalls(checkout.id)).toHaveLength(1);
    await expectLedgerOk(t);
  });

  it('a notification that overtakes the lost answer is matched by checkout and amount; the retried request, same key, makes nothing new', async () => {
    const { id, checkout } = await paidWithYoco(20_000);
    const r = (await http(t, 'POST', `/api/v1/payments/${id}/refunds`, { key: shop.key, body: { amount_cents: 20_000 } })).body.data;
    // Yoco makes the refund, but its answer is lost on the way back (a gateway's 502).
    yoco.failNext(1, { status: 502, body: 'Bad Gateway', processed: true });
    await requestRefunds();
    expect(yoco.checkout(checkout.id).refunds).toHaveLength(1);
    expect((await refundOf(r.refund_id)).status).toBe('pending');
    expect(await yoco.notify(checkout.id, { to: webhook(), event: 'refund.succeeded' })).toEqual([{ status: 200 }]);
    expect((await refundOf(r.refund_id)).status).toBe('succeeded');
    await requestRefunds();
    expect(yoco.checkout(checkout.id).refunds).toHaveLength(1);
    expect(refundCalls(checkout.id).map((c) => c.headers['idempotency-key'])).toEqual([r.refund_id]);
    await expectLedgerOk(t);
  });

  it('Yoco down: asked again with the same key; a 5xx Yoco replays for it proves nothing was made, and only then a fresh key', async () => {
    const { id, checkout } = await paidWithYoco(20_000);
    const r = (await http(t, 'POST', `/api/v1/payments/${id}/refunds`, { key: shop.key, body: { amount_cents: 7_000 } })).body.data;
    yoco.failNext(1, 'reset');
    await requestRefunds(); // nothing known: same key next time
    yoco.failNext(1, 503);
    await requestRefunds(); // Yoco's own 503, stored for the key
    await requestRefunds(); // replayed: nothing was made under it
    await requestRefunds(); // a fresh key
    const keys = refundCalls(checkout.id).map((c) => c.headers['idempotency-key']);
    expect(keys).toEqual([r.refund_id, r.refund_id, r.refund_id, `${r.refund_id}.1`]);
    expect(yoco.checkout(checkout.id).refunds).toEqual([{ refundId: expect.any(String), amount: 7_000 }]);
    expect((await auditOf(id)).map((a) => a.action)).toEqual(['refund.requested', 'refund.rekeyed']);
    await yoco.notify(checkout.id, { to: webhook(), event: 'refund.succeeded' });
    expect((await refundOf(r.refund_id)).status).toBe('succeeded');
    await expectLedgerOk(t);
  });

  it('a refund Yoco refuses outright fails at once: the reservation is released, refund.failed sent, the audit log says why', async () => {
    const { id, checkout } = await paidWithYoco(20_000);
    const before = await balance();
    const r = (await http(t, 'POST', `/api/v1/payments/${id}/refunds`, { key: shop.key, body: { amount_cents: 3_000 } })).body.data;
    yoco.failNext(1, { status: 400, body: { type: 'https://developer.yoco.com/docs/api/error-codes/invalid-request', title: 'Bad Request', detail: 'The refund amount exceeds the balance.', status: 400, code: 'invalid_request' } });
    await requestRefunds();
    const failed = await refundOf(r.refund_id);
    expect(failed).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('The refund amount exceeds the balance.') });
    expect(await balance()).toEqual(before);
    expect(await eventsOf(id)).toEqual(['payment.captured', 'refund.failed']);
    const audit = await auditOf(id);
    expect(audit).toContainEqual(expect.objectContaining({ actor: 'system:refunds', action: 'refund.failed', detail: expect.objectContaining({ provider_status: 400, provider_code: 'invalid_request' }) }));
    expect(yoco.checkout(checkout.id).refunds).toEqual([]);
    await expectLedgerOk(t);
  });
});

describe('notifications must match', () => {
  it('a signed "paid" for another amount captures nothing: the payment fails, Yoco refunds what it took, the operator is told', async () => {
    const before = await balance();
    const statsBefore = (await op(t, '{ stats { mismatchedNotifications } }')).stats.mismatchedNotifications;
    const { id, checkout } = await startCheckout({ amount: 10_000 });
    yoco.pay(checkout.id);
    expect(await yoco.notify(checkout.id, { to: webhook(), amount: 1 })).toEqual([{ status: 200 }]);
    const payment = (await getPayment(t, shop, id)).body.data;
    expect(payment).toMatchObject({ status: 'failed', net_amount_cents: null, voucher_code: null, latest_attempt: { status: 'failed' } });
    expect(await balance()).toEqual(before);
    expect(await postingsOf(id)).toEqual([]);
    expect(await eventsOf(id)).toEqual(['payment.failed']);
    // The matching notification arriving afterwards (or the same one again) changes nothing.
    expect(await yoco.notify(checkout.id, { to: webhook() })).toEqual([{ status: 200 }]);
    expect(await yoco.notify(checkout.id, { to: webhook(), amount: 1 })).toEqual([{ status: 200 }]);
    expect((await getPayment(t, shop, id)).body.data.status).toBe('failed');
    // What Yoco took goes back through Yoco.
    await requestRefunds();
    expect(yoco.checkout(checkout.id).refunds).toEqual([{ refundId: expect.any(String), amount: 1 }]);
    const audit = await auditOf(id);
    expect(audit.map((a) => a.action)).toEqual(['payment.refund_requested', 'payment.notification_mismatch']);
    expect(audit[1]!.detail).toMatchObject({ expected_amount_cents: 10_000, reported_amount_cents: 1, reported_currency: 'ZAR', result: 'payment failed; the money goes back' });
    expect((await op(t, '{ stats { mismatchedNotifications } }')).stats.mismatchedNotifications).toBe(statsBefore + 1);
    await expectLedgerOk(t);
  });

  it('another currency captures nothing either', async () => {
    const { id, checkout } = await startCheckout({ amount: 10_000 });
    yoco.pay(checkout.id);
    expect(await yoco.notify(checkout.id, { to: webhook(), currency: 'USD' })).toEqual([{ status: 200 }]);
    expect((await getPayment(t, shop, id)).body.data.status).toBe('failed');
    const [entry] = (await auditOf(id)).filter((a) => a.action === 'payment.notification_mismatch');
    expect(entry!.detail).toMatchObject({ expected_currency: 'ZAR', reported_currency: 'USD', reported_amount_cents: 10_000 });
    await requestRefunds();
    expect(yoco.checkout(checkout.id).refunds).toEqual([{ refundId: expect.any(String), amount: 10_000 }]);
  });
});

// Last: Yoco's Retry-After quiets this service's whole Yoco adapter for its duration.
describe('Retry-After', () => {
  it('honours Retry-After: a 429 puts the request off at least that long', async () => {
    const { id, checkout } = await paidWithYoco(20_000);
    const r = (await http(t, 'POST', `/api/v1/payments/${id}/refunds`, { key: shop.key, body: { amount_cents: 1_000 } })).body.data;
    yoco.failNext(1, { status: 429, retryAfter: 30 });
    await requestRefunds();
    const job = await t.database.db.selectFrom('jobs').select(['run_at']).where('queue', '=', QUEUE.refund).where('key', '=', r.refund_id).executeTakeFirstOrThrow();
    expect(new Date(job.run_at).getTime() - Date.now()).toBeGreaterThan(25_000);
    expect(refundCalls(checkout.id)).toHaveLength(1);
    expect((await refundOf(r.refund_id)).status).toBe('pending');
  });
});
