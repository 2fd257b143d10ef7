import { randomUUID } from 'node:crypto';
import { OPERATOR } from '../src/domain/actor.ts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deriveKey } from '../src/domain/signing.ts';
import { SANDBOX_SIGNATURE_HEADER, SANDBOX_WEBHOOK_PATH, sandboxSignature } from '../src/outside/providers/sandbox.ts';
import { ofRequests, startApp, type TestApp } from './support/app.ts';
import { createMerchant, expectLedgerOk, gql, http, op, type TestMerchant } from './support/client.ts';
import { formPost, getPayment, newPayment, pageToken, press, waitForStatus } from './support/payments.ts';

let t: TestApp;
let shop: TestMerchant;
let topup: TestMerchant;
/** Statements the service ran, counted through openDatabase's onQuery hook. */
const statements: string[] = [];

beforeAll(async () => {
  t = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50' }, { onQuery: (sql) => statements.push(sql) });
  shop = await createMerchant(t, { name: 'Plain Shop', paymentFeeBps: 250 });
  topup = await createMerchant(t, { name: 'Topup Shop', paymentFeeBps: 250, paymentFeeFixedCents: 100, autoTopup: true });
});
afterAll(() => t?.close());

const balance = async (m: TestMerchant) => (await http(t, 'GET', '/api/v1/payouts/balance', { key: m.key })).body.data;
const eventsOf = (paymentId: string) =>
  t.database.db.selectFrom('events').select(['type', 'data', 'webhook_url', 'merchant_id']).where('payment_id', '=', paymentId).orderBy('seq').execute();

/** A callback signed like the sandbox provider's, for replay and tampering tests. */
function signedCallback(body: Record<string, unknown>, opts: { t?: number; key?: Buffer } = {}) {
  const raw = JSON.stringify(body);
  const key = opts.key ?? deriveKey(t.config.serviceSecret, 'sandbox-provider-callback');
  const header = sandboxSignature(key, opts.t ?? Math.floor(Date.now() / 1000), raw);
  return http(t, 'POST', SANDBOX_WEBHOOK_PATH, { rawBody: raw, headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: header } });
}

describe('paying through the hosted page (plain form posts)', () => {
  it('pay: created → awaiting_webhook → captured by the sandbox callback, with the attempt and one event', async () => {
    const p = await newPayment(t, shop, { amount: 20_000, webhook_url: 'https://shop.example/hooks' });
    const before = await balance(shop);
    const res = await press(t, p.payment_id, 'pay');
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/pay/${p.payment_id}`);
    const processing = (await getPayment(t, shop, p.payment_id)).body.data;
    expect(['initiated', 'awaiting_webhook', 'captured']).toContain(processing.status);
    const done = await waitForStatus(t, shop, p.payment_id, 'captured');
    expect(done).toMatchObject({ amount: 20_000, currency: 'ZAR', fee_cents: 500, net_amount_cents: 19_500 });
    expect(done.latest_attempt).toMatchObject({ status: 'succeeded', provider: 'sandbox' });
    expect(done.latest_attempt.provider_ref).toMatch(/^sbx_[0-9a-f]{24}$/);
    expect(Date.parse(done.latest_attempt.created_at)).toBeGreaterThan(0);
    const events = await eventsOf(p.payment_id);
    expect(events.map((e) => e.type)).toEqual(['payment.captured']);
    expect(events[0]!.webhook_url).toBe('https://shop.example/hooks');
    // The event is the status object without the voucher code: events are stored and streamed, a code there would be spendable.
    const { voucher_code: code, ...withoutCode } = done;
    expect(code).toMatch(/^\d{4}-\d{4}-\d{4}-\d{4}$/);
    expect(done.voucher_redeemed).toBe(true);
    expect(events[0]!.data).toEqual({ ...withoutCode, merchant_order_id: expect.any(String) });
    // Without auto top-up the payout balance does not move.
    expect(await balance(shop)).toEqual(before);
    await expectLedgerOk(t);
  });

  it('with auto top-up a capture credits net to the balance: gross += amount, fees += fee', async () => {
    const before = await balance(topup);
    const p = await newPayment(t, topup, { amount: 12_345 });
    await press(t, p.payment_id, 'pay');
    const done = await waitForStatus(t, topup, p.payment_id, 'captured');
    expect(done.fee_cents).toBe(409);
    const after = await balance(topup);
    expect(after.balance_cents - before.balance_cents).toBe(11_936);
    expect(after.available_cents - before.available_cents).toBe(11_936);
    expect(after.totals.gross_cents - before.totals.gross_cents).toBe(12_345);
    expect(after.totals.fees_cents - before.totals.fees_cents).toBe(409);
    const postings = await t.database.db
      .selectFrom('ledger_transactions')
      .select('kind')
      .where('payment_id', '=', p.payment_id)
      .execute();
    expect(postings.map((x) => x.kind)).toEqual(['payment_capture']);
    await expectLedgerOk(t);
  });

  it('decline (tst/dev): failed, customer not charged, no ledger posting, payment.failed', async () => {
    const before = await balance(topup);
    const p = await newPayment(t, topup, { webhook_url: undefined });
    expect((await press(t, p.payment_id, 'decline')).status).toBe(303);
    const done = await waitForStatus(t, topup, p.payment_id, 'failed');
    expect(done.latest_attempt).toMatchObject({ status: 'failed', provider: 'sandbox' });
    expect(await balance(topup)).toEqual(before);
    expect((await eventsOf(p.payment_id)).map((e) => e.type)).toEqual(['payment.failed']);
    await expectLedgerOk(t);
  });

  it('cancel: cancelled at once with payment.cancelled; pressing again changes nothing', async () => {
    const p = await newPayment(t, shop);
    const token = await pageToken(t, p.payment_id);
    expect((await formPost(t, `/pay/${p.payment_id}/cancel`, { token })).status).toBe(303);
    const got = (await getPayment(t, shop, p.payment_id)).body.data;
    expect(got.status).toBe('cancelled');
    expect(got).not.toHaveProperty('latest_attempt');
    for (const action of ['cancel', 'pay', 'decline']) {
      const again = await formPost(t, `/pay/${p.payment_id}/${action}`, { token });
      expect(again.status, action).toBe(303);
    }
    expect((await getPayment(t, shop, p.payment_id)).body.data.status).toBe('cancelled');
    expect((await eventsOf(p.payment_id)).map((e) => e.type)).toEqual(['payment.cancelled']);
  });

  it('a double press on pay starts one attempt', async () => {
    const p = await newPayment(t, shop);
    const token = await pageToken(t, p.payment_id);
    await Promise.all([1, 2, 3].map(() => formPost(t, `/pay/${p.payment_id}/pay`, { token })));
    await waitForStatus(t, shop, p.payment_id, 'captured');
    const attempts = await t.database.db.selectFrom('payment_attempts').select('id').where('payment_id', '=', p.payment_id).execute();
    expect(attempts).toHaveLength(1);
    expect(await eventsOf(p.payment_id)).toHaveLength(1);
  });

  it('refuses a form post without the right token (403 page) and changes nothing', async () => {
    const p = await newPayment(t, shop);
    const other = await newPayment(t, shop);
    for (const fields of [{}, { token: 'nope' }, { token: await pageToken(t, other.payment_id) }] as Record<string, string>[]) {
      const res = await formPost(t, `/pay/${p.payment_id}/pay`, fields);
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    }
    expect((await getPayment(t, shop, p.payment_id)).body.data.status).toBe('created');
  });
});

describe('the hosted page without a browser', () => {
  it('shows the merchant name escaped and the amount as R 123.45, with safe headers and no script', async () => {
    const evil = await createMerchant(t, { name: '<script>alert("x")</script> & Sons' });
    const p = await newPayment(t, evil, { amount: 12_345, merchant_order_id: '<img src=x onerror=alert(1)>' });
    const page = await http(t, 'GET', `/pay/${p.payment_id}`);
    expect(page.status).toBe(200);
    const html = String(page.body);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Sons');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain('R 123.45');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    for (const id of ['pay', 'cancel', 'decline']) expect(html).toContain(`data-testid="${id}"`);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('script-src');
    const nonce = /style-src 'nonce-([^']+)'/.exec(csp)![1];
    expect(html).toContain(`<style nonce="${nonce}">`);
  });

  it('refreshes itself while processing and shows the voucher code after a purchase', async () => {
    const p = await newPayment(t, shop, { intent_type: 'purchase' });
    await t.database.db.updateTable('payments').set({ status: 'awaiting_webhook' }).where('id', '=', p.payment_id).execute();
    const waiting = String((await http(t, 'GET', `/pay/${p.payment_id}`)).body);
    expect(waiting).toMatch(/<meta http-equiv="refresh" content="\d+">/);
    expect(waiting).toContain('data-status="awaiting_webhook"');
    expect(waiting).not.toContain('data-testid="pay"');
    await op(t, `mutation { settlePayment(id: "${p.payment_id}", outcome: CAPTURED) { payment { status } } }`);
    const done = String((await http(t, 'GET', `/pay/${p.payment_id}`)).body);
    expect(done).toContain('data-status="captured"');
    expect(done).toMatch(/data-testid="voucher-code">\d{4}-\d{4}-\d{4}-\d{4}</);
    expect(done).not.toContain('http-equiv="refresh"');
  });

  it('answers an unknown or malformed payment with a 404 page', async () => {
    for (const id of ['00000000-0000-0000-0000-000000000000', 'nope']) {
      const res = await http(t, 'GET', `/pay/${id}`);
      expect(res.status).toBe(404);
      expect(String(res.body)).toContain('Payment not found');
    }
  });

  it('redirects after the outcome only to an allow-listed domain', async () => {
    const m = await createMerchant(t);
    const allowed = await op(t, `mutation { updateMerchant(id: "${m.id}", input: { addRedirectDomains: ["shop.example"] }) { merchant { redirectDomains } } }`);
    expect(allowed.updateMerchant.merchant.redirectDomains).toEqual(['shop.example']);
    // Adding is a union: repeats collapse, earlier entries stay.
    const more = await op(t, `mutation { updateMerchant(id: "${m.id}", input: { addRedirectDomains: ["Other.Example", "shop.example"] }) { merchant { redirectDomains } } }`);
    expect(more.updateMerchant.merchant.redirectDomains).toEqual(['other.example', 'shop.example']);
    const cases = [
      { outcome: 'CAPTURED', field: 'success_url', url: 'https://shop.example/thanks?o=1', redirect: true },
      { outcome: 'FAILED', field: 'failure_url', url: 'https://shop.example/failed', redirect: true },
      { outcome: 'CANCELLED', field: 'cancel_url', url: 'http://shop.example:8443/cancel', redirect: true },
      { outcome: 'CAPTURED', field: 'success_url', url: 'https://evil.example/thanks', redirect: false },
      { outcome: 'CAPTURED', field: 'success_url', url: 'https://shop.example.evil.example/', redirect: false },
    ];
    for (const c of cases) {
      const p = await newPayment(t, m, { [c.field]: c.url });
      await op(t, `mutation { settlePayment(id: "${p.payment_id}", outcome: ${c.outcome}) { payment { id } } }`);
      const res = await http(t, 'GET', `/pay/${p.payment_id}`);
      if (c.redirect) {
        expect(res.status, c.url).toBe(303);
        expect(res.headers.get('location')).toBe(c.url);
      } else {
        expect(res.status, c.url).toBe(200);
        expect(String(res.body)).toContain('data-testid="payment-status"');
      }
    }
    // A purchase shows its voucher rather than leaving the page.
    const purchase = await newPayment(t, m, { intent_type: 'purchase', success_url: 'https://shop.example/thanks' });
    await op(t, `mutation { settlePayment(id: "${purchase.payment_id}", outcome: CAPTURED) { payment { id } } }`);
    expect((await http(t, 'GET', `/pay/${purchase.payment_id}`)).status).toBe(200);
  });
});

describe('provider notifications (the sandbox at /providers/sandbox/webhook)', () => {
  it('refuses a missing (401), wrong (403) or stale (403) signature, and acknowledges an attempt that is not ours', async () => {
    const body = { event_id: '00000000-0000-4000-8000-000000000000', provider_ref: 'sbx_x', status: 'succeeded' };
    const none = await http(t, 'POST', SANDBOX_WEBHOOK_PATH, { body });
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('UNAUTHORIZED');
    const wrongKey = await signedCallback(body, { key: Buffer.alloc(32, 1) });
    expect(wrongKey.status).toBe(403);
    expect(wrongKey.body).toMatchObject({ status: 'error', error: { code: 'FORBIDDEN' }, metadata: { api_version: 'v1' } });
    const stale = await signedCallback(body, { t: Math.floor(Date.now() / 1000) - 3600 });
    expect(stale.status).toBe(403);
    // A provider account can serve other shops too: an attempt zarpay never made is acknowledged and ignored.
    const unknown = await signedCallback(body);
    expect(unknown.status).toBe(200);
    expect(unknown.body.data).toEqual({ received: true, payment_id: null, status: null });
    // The address of the first release still works, and an unknown provider is 404.
    expect((await http(t, 'POST', '/providers/sandbox/callback', { body })).status).toBe(401);
    expect((await http(t, 'POST', '/providers/nope/webhook', { body })).status).toBe(404);
  });

  it('a notification whose signature does not hold never reaches the payment flow: no statement runs for it', async () => {
    const ref = `sbx_forged_${randomUUID()}`;
    const body = { event_id: randomUUID(), provider_ref: ref, status: 'succeeded' };
    // Looking the attempt up by the provider's reference is the flow's first statement.
    const lookups = () => statements.filter((s) => ofRequests(s) && /payment_attempts/.test(s) && /\bprovider_ref"? = /.test(s)).length;
    const notify = vi.spyOn(t.app.services.paymentFlow, 'notify');
    // Every call but the sandbox's own confirmations of other tests' payments.
    const notified = () => notify.mock.calls.filter(([actor]) => !(actor.kind === 'provider' && actor.notification && actor.notification.providerRef !== ref));
    try {
      statements.length = 0;
      const refused = [
        await http(t, 'POST', SANDBOX_WEBHOOK_PATH, { body }),
        await signedCallback(body, { key: Buffer.alloc(32, 1) }),
        await signedCallback(body, { t: Math.floor(Date.now() / 1000) - 3600 }),
      ];
      expect(refused.map((r) => r.status)).toEqual([401, 403, 403]);
      expect(notified()).toEqual([]);
      expect(lookups()).toBe(0);
      // The same notification, signed: the provider comes with it, and the flow looks the attempt up.
      const signed = await signedCallback(body);
      expect(signed.status).toBe(200);
      expect(notified()).toEqual([[{ kind: 'provider', provider: 'sandbox', notification: expect.objectContaining({ providerRef: ref, outcome: 'succeeded' }) }]]);
      expect(lookups()).toBeGreaterThan(0);
    } finally {
      notify.mockRestore();
    }
  });

  it('a confirmation for an already-terminal payment is a harmless no-op', async () => {
    const p = await newPayment(t, topup);
    await press(t, p.payment_id, 'pay');
    const done = await waitForStatus(t, topup, p.payment_id, 'captured');
    const attempt = await t.database.db.selectFrom('payment_attempts').select('id').where('payment_id', '=', p.payment_id).executeTakeFirstOrThrow();
    const before = await balance(topup);
    for (const status of ['failed', 'succeeded']) {
      const res = await signedCallback({ event_id: attempt.id, provider_ref: done.latest_attempt.provider_ref, status });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ payment_id: p.payment_id, status: 'captured' });
    }
    expect((await getPayment(t, topup, p.payment_id)).body.data).toEqual(done);
    expect(await balance(topup)).toEqual(before);
    expect(await eventsOf(p.payment_id)).toHaveLength(1);
    await expectLedgerOk(t);
  });

  it('the database refuses any change to a terminal payment', async () => {
    const p = await newPayment(t, shop);
    await op(t, `mutation { settlePayment(id: "${p.payment_id}", outcome: FAILED) { payment { id } } }`);
    await expect(
      t.database.db.updateTable('payments').set({ status: 'captured' }).where('id', '=', p.payment_id).execute(),
    ).rejects.toThrow(/cannot change/);
    await expect(
      sql`update payments set amount_cents = amount_cents where id = ${p.payment_id}`.execute(t.database.db),
    ).rejects.toThrow(/cannot change/);
  });
});

describe('operator and GraphQL', () => {
  it('settlePayment ends an open payment once; a second settle is INVALID_STATUS_TRANSITION', async () => {
    const before = await balance(topup);
    const p = await newPayment(t, topup, { amount: 10_000 });
    const res = await op(t, `mutation { settlePayment(id: "${p.payment_id}", outcome: CAPTURED) { payment { status feeCents netAmountCents latestAttempt { status provider } } } }`);
    expect(res.settlePayment.payment).toEqual({ status: 'CAPTURED', feeCents: 350, netAmountCents: 9_650, latestAttempt: { status: 'succeeded', provider: 'operator' } });
    expect((await balance(topup)).balance_cents - before.balance_cents).toBe(9_650);
    const again = await gql(t, `mutation { settlePayment(id: "${p.payment_id}", outcome: FAILED) { payment { status } } }`, {}, { operator: true });
    expect(again.body.errors?.[0]?.extensions?.code).toBe('INVALID_STATUS_TRANSITION');
    const asMerchant = await gql(t, `mutation { settlePayment(id: "${p.payment_id}", outcome: FAILED) { payment { status } } }`, {}, { key: topup.key });
    expect(asMerchant.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    await expectLedgerOk(t);
  });

  it('settle is FORBIDDEN in prd', async () => {
    const { PaymentFlow } = await import('../src/services/payment-flow.ts');
    const { PaymentSettlement } = await import('../src/services/payment-settlement.ts');
    const { providers, paymentLinks } = t.app.services;
    const deps = { db: t.database.db, config: { ...t.config, serviceEnv: 'prd' as const } };
    const prd = new PaymentFlow(deps, providers, new Map([['card', providers.get('sandbox')!]]), new Map(), paymentLinks, new PaymentSettlement(deps));
    const p = await newPayment(t, shop);
    await expect(prd.settle(OPERATOR, p.payment_id, 'captured')).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(prd.pay({ kind: 'customer', paymentId: p.payment_id }, p.payment_id, { simulate: 'decline' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await getPayment(t, shop, p.payment_id)).body.data.status).toBe('created');
  });

  it('initiatePayment mirrors REST, shares the Idempotency-Key namespace, and payment(id) reads it back', async () => {
    const m = await createMerchant(t, { paymentFeeBps: 100 });
    const mutation = `mutation($i: InitiatePaymentInput!) { initiatePayment(input: $i) {
      paymentUrl qrCode { content imageUrl } payment { id paymentId status amount currency feeCents netAmountCents intentType merchantOrderId latestAttempt { status } } } }`;
    const input = { amount: 10_000, currency: 'ZAR', merchantOrderId: 'gql-1', includeQr: true, intentType: 'PURCHASE', idempotencyKey: 'gql-key' };
    const res = await gql(t, mutation, { i: input }, { key: m.key });
    const out = res.body.data!.initiatePayment;
    expect(out.payment).toMatchObject({ status: 'CREATED', amount: 10_000, currency: 'ZAR', feeCents: 100, netAmountCents: 9_900, intentType: 'PURCHASE', latestAttempt: null });
    expect(out.payment.paymentId).toBe(out.payment.id);
    expect(out.paymentUrl).toBe(`${t.config.publicBaseUrl}/pay/${out.payment.id}`);
    expect(out.qrCode.content).toBe(out.paymentUrl);
    // The same request over REST with the same key is a replay of the same payment.
    const rest = await http(t, 'POST', '/api/v1/payments/init', {
      key: m.key,
      headers: { 'Idempotency-Key': 'gql-key' },
      body: { amount: 10_000, currency: 'ZAR', merchant_order_id: 'gql-1', include_qr: true, intent_type: 'purchase' },
    });
    expect(rest.body.data.payment_id).toBe(out.payment.id);
    const conflict = await gql(t, mutation, { i: { ...input, amount: 10_001 } }, { key: m.key });
    expect(conflict.body.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    const bad = await gql(t, mutation, { i: { ...input, idempotencyKey: null, merchantOrderId: 'gql-2', amount: 100 } }, { key: m.key });
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('INVALID_AMOUNT');
    const usd = await gql(t, mutation, { i: { ...input, idempotencyKey: null, merchantOrderId: 'gql-3', currency: 'USD' } }, { key: m.key });
    expect(usd.body.errors?.[0]?.extensions?.code).toBe('INVALID_CURRENCY');
    const read = await gql(t, `{ payment(id: "${out.payment.id}") { id status } }`, {}, { key: m.key });
    expect(read.body.data!.payment).toEqual({ id: out.payment.id, status: 'CREATED' });
    const asOperator = await op(t, `{ payment(id: "${out.payment.id}") { merchantId } }`);
    expect(asOperator.payment.merchantId).toBe(m.id);
  });

  it('payments(first, after, status) pages newest first with totalCount', async () => {
    const m = await createMerchant(t);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await newPayment(t, m)).payment_id);
    await op(t, `mutation { settlePayment(id: "${ids[0]}", outcome: CANCELLED) { payment { id } } }`);
    const q = `query($a: String, $s: PaymentStatus) { payments(first: 2, after: $a, status: $s) { totalCount pageInfo { hasNextPage endCursor } edges { node { id } } } }`;
    const page1 = (await gql(t, q, {}, { key: m.key })).body.data!.payments;
    expect(page1.totalCount).toBe(3);
    expect(page1.edges.map((e: any) => e.node.id)).toEqual([ids[2], ids[1]]);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const page2 = (await gql(t, q, { a: page1.pageInfo.endCursor }, { key: m.key })).body.data!.payments;
    expect(page2.edges.map((e: any) => e.node.id)).toEqual([ids[0]]);
    const cancelled = (await gql(t, q, { s: 'CANCELLED' }, { key: m.key })).body.data!.payments;
    expect(cancelled.totalCount).toBe(1);
  });
});
