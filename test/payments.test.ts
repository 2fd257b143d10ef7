import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initiatePaymentInput } from '../src/domain/payment-input.ts';
import { PaymentService } from '../src/services/payments.ts';
import { parseWire } from '../rest/wire.ts';
import { startApp, type TestApp, usingPostgres } from './support/app.ts';
import { createMerchant, gql, http, op, type TestMerchant } from './support/client.ts';
import { getPayment, initPayment, newPayment, paymentBody } from './support/payments.ts';

let t: TestApp;
let shop: TestMerchant;

beforeAll(async () => {
  t = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50' });
  shop = await createMerchant(t, { paymentFeeBps: 250, paymentFeeFixedCents: 100 });
});
afterAll(() => t?.close());

const paymentCount = async (merchantId = shop.id) =>
  Number((await t.database.db.selectFrom('payments').select((eb) => eb.fn.countAll().as('n')).where('merchant_id', '=', merchantId).executeTakeFirstOrThrow()).n);

describe('payment initiation', () => {
  it('answers 200 created with payment_url and metadata, and fixes fee and net', async () => {
    const res = await initPayment(t, shop, paymentBody({ amount: 12_345 }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', metadata: { api_version: 'v1' } });
    expect(Date.parse(res.body.metadata.timestamp)).toBeGreaterThan(0);
    const data = res.body.data;
    expect(Object.keys(data).sort()).toEqual(['payment_id', 'payment_url', 'status']);
    expect(data.status).toBe('created');
    expect(data.payment_url).toBe(`${t.config.publicBaseUrl}/pay/${data.payment_id}`);
    const got = await getPayment(t, shop, data.payment_id);
    expect(got.status).toBe(200);
    // round(12345 × 250 / 10000) + 100 = round(308.625) + 100 = 409
    expect(got.body.data).toEqual({
      payment_id: data.payment_id,
      status: 'created',
      amount: 12_345,
      currency: 'ZAR',
      fee_cents: 409,
      net_amount_cents: 11_936,
      voucher_code: null,
      voucher_redeemed: false,
      refunded_cents: 0,
      payment_link_id: null,
      merchant_order_id: expect.any(String),
      description: null,
      failure_reason: null,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const row = await t.database.db.selectFrom('payments').selectAll().where('id', '=', data.payment_id).executeTakeFirstOrThrow();
    expect(row.intent_type).toBe('purchase_and_redeem');
  });

  it('adds qr_code {content = payment_url, signed image_url} with include_qr', async () => {
    const data = await newPayment(t, shop, { include_qr: true, intent_type: 'purchase' });
    expect(data.qr_code!.content).toBe(data.payment_url);
    expect(data.qr_code!.image_url).toMatch(new RegExp(`^${t.config.publicBaseUrl}/qr/${data.payment_id}\\.png\\?expires=\\d+&signature=[0-9a-f]{64}$`));
    const expires = Number(new URL(data.qr_code!.image_url).searchParams.get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(t.config.qrUrlTtlMs - 60_000);
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(t.config.qrUrlTtlMs);
  });

  it('accepts the boundaries and every optional field', async () => {
    for (const amount of [5_500, 300_000]) await newPayment(t, shop, { amount });
    const data = await newPayment(t, shop, {
      intent_type: 'purchase',
      include_qr: false,
      success_url: 'https://shop.example/ok',
      cancel_url: 'http://localhost:3000/cancel',
      failure_url: 'https://shop.example/failed',
      webhook_url: 'https://shop.example/hooks',
      customer_info: { email: 'thandi@example.co.za', phone: '+27 82 555 0101' },
      merchant_order_id: 'x'.repeat(255),
    });
    const row = await t.database.db.selectFrom('payments').selectAll().where('id', '=', data.payment_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ intent_type: 'purchase', customer_email: 'thandi@example.co.za', webhook_url: 'https://shop.example/hooks' });
  });

  const without = (field: string) => {
    const body = paymentBody();
    delete body[field];
    return body;
  };

  it.each([
    ['missing amount', 'VALIDATION_FAILED', without('amount')],
    ['amount as a string', 'VALIDATION_FAILED', paymentBody({ amount: '12345' })],
    ['amount null', 'VALIDATION_FAILED', paymentBody({ amount: null })],
    ['amount 5499', 'INVALID_AMOUNT', paymentBody({ amount: 5_499 })],
    ['amount 300001', 'INVALID_AMOUNT', paymentBody({ amount: 300_001 })],
    ['amount 0', 'INVALID_AMOUNT', paymentBody({ amount: 0 })],
    ['amount -6000', 'INVALID_AMOUNT', paymentBody({ amount: -6_000 })],
    ['fractional amount', 'INVALID_AMOUNT', paymentBody({ amount: 10_000.5 })],
    ['missing currency', 'VALIDATION_FAILED', without('currency')],
    ['currency USD', 'INVALID_CURRENCY', paymentBody({ currency: 'USD' })],
    ['currency zar', 'INVALID_CURRENCY', paymentBody({ currency: 'zar' })],
    ['currency 710', 'VALIDATION_FAILED', paymentBody({ currency: 710 })],
    ['missing merchant_order_id', 'VALIDATION_FAILED', without('merchant_order_id')],
    ['empty merchant_order_id', 'VALIDATION_FAILED', paymentBody({ merchant_order_id: '' })],
    ['merchant_order_id of 256', 'VALIDATION_FAILED', paymentBody({ merchant_order_id: 'x'.repeat(256) })],
    ['numeric merchant_order_id', 'VALIDATION_FAILED', paymentBody({ merchant_order_id: 42 })],
    ['intent_type refund', 'VALIDATION_FAILED', paymentBody({ intent_type: 'refund' })],
    ['include_qr "yes"', 'VALIDATION_FAILED', paymentBody({ include_qr: 'yes' })],
    ['success_url not a URL', 'VALIDATION_FAILED', paymentBody({ success_url: 'shop.example/ok' })],
    ['cancel_url ftp', 'VALIDATION_FAILED', paymentBody({ cancel_url: 'ftp://shop.example/x' })],
    ['failure_url javascript:', 'VALIDATION_FAILED', paymentBody({ failure_url: 'javascript:alert(1)' })],
    ['webhook_url number', 'VALIDATION_FAILED', paymentBody({ webhook_url: 1 })],
    ['customer_info bad email', 'VALIDATION_FAILED', paymentBody({ customer_info: { email: 'nope' } })],
    ['customer_info empty', 'VALIDATION_FAILED', paymentBody({ customer_info: {} })],
    ['customer_info unknown member', 'VALIDATION_FAILED', paymentBody({ customer_info: { fax: '011 555 0101' } })],
    ['customer_info as a string', 'VALIDATION_FAILED', paymentBody({ customer_info: 'thandi@example.co.za' })],
    ['unknown field', 'VALIDATION_FAILED', paymentBody({ surprise: true })],
  ])('refuses %s with %s and creates nothing', async (_name, code, body) => {
    const before = await paymentCount();
    const res = await initPayment(t, shop, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', error: { code }, metadata: { api_version: 'v1' } });
    expect(typeof res.body.error.message).toBe('string');
    expect(await paymentCount()).toBe(before);
  });

  it('refuses a body that is not a JSON object, including a form post, with INVALID_INPUT', async () => {
    for (const [rawBody, type] of [
      ['{"amount": ', 'application/json'],
      ['[1,2]', 'application/json'],
      ['amount=12345&currency=ZAR', 'application/x-www-form-urlencoded'],
      ['amount: 12345', 'text/plain'],
    ] as const) {
      const res = await http(t, 'POST', '/api/v1/payments/init', { key: shop.key, rawBody, headers: { 'content-type': type } });
      expect(res.status, type).toBe(400);
      expect(res.body.error.code, type).toBe('INVALID_INPUT');
    }
  });

  it('needs an API key', async () => {
    const res = await http(t, 'POST', '/api/v1/payments/init', { body: paymentBody() });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });

  it('computes the fee from the merchant\'s current rates even when the caller knew older ones', async () => {
    const m = await createMerchant(t, { paymentFeeBps: 100 });
    // As a request authenticated just before the change would: its merchant has the old rates.
    const stale = await t.app.services.keys.authenticate(m.key);
    await op(t, `mutation { updateMerchant(id: "${m.id}", input: { paymentFeeBps: 300, paymentFeeFixedCents: 50 }) { merchant { id } } }`);
    expect(stale.merchant.paymentFeeBps).toBe(100);
    const { payment } = await t.app.services.payments.init(stale, parseWire(initiatePaymentInput, paymentBody({ amount: 10_000 })));
    const got = (await getPayment(t, m, payment.id)).body.data;
    expect(got).toMatchObject({ amount: 10_000, fee_cents: 350, net_amount_cents: 9_650 });
  });

  it('refuses an amount that does not cover the merchant\'s fee', async () => {
    const pricey = await createMerchant(t, { paymentFeeFixedCents: 6_000 });
    const res = await initPayment(t, pricey, paymentBody({ amount: 5_500 }));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_AMOUNT');
  });

  it('requires https URLs in prd only (sandbox allows http), naming every field that is not', async () => {
    const actor = await t.app.services.keys.authenticate(shop.key);
    const prd = new PaymentService({ db: t.database.db, config: { ...t.config, serviceEnv: 'prd' } }, t.app.services.paymentLinks);
    const input = (extra: Record<string, unknown>) => parseWire(initiatePaymentInput, paymentBody(extra));
    const refused = prd.init(actor, input({ success_url: 'http://shop.example/ok', webhook_url: 'http://shop.example/h' }));
    await expect(refused).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: [
        { path: ['successUrl'], message: 'must be an https URL' },
        { path: ['webhookUrl'], message: 'must be an https URL' },
      ],
    });
    expect((await prd.init(actor, input({ success_url: 'https://shop.example/ok' }))).payment.successUrl).toBe('https://shop.example/ok');
    expect((await initPayment(t, shop, paymentBody({ success_url: 'http://shop.example/ok' }))).status).toBe(200);
  });
});

describe('description', () => {
  it('keeps what is being bought (at most 200 characters) and shows it to the dashboard', async () => {
    const m = await createMerchant(t);
    const data = await newPayment(t, m, { description: 'Two tickets, Saturday 20:00' });
    const read = await gql(t, 'query($id: UUID!) { payment(id: $id) { description } }', { id: data.payment_id }, { key: m.key });
    expect(read.body.data.payment.description).toBe('Two tickets, Saturday 20:00');
    const long = await initPayment(t, m, paymentBody({ description: 'x'.repeat(201) }));
    expect(long.status).toBe(400);
    expect(long.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'description: must be at most 200 characters' });
  });
});

describe('payment status', () => {
  it('hides unknown, malformed and other merchants\' ids as PAYMENT_NOT_FOUND', async () => {
    const other = await createMerchant(t);
    const data = await newPayment(t, shop);
    for (const [m, id] of [
      [other, data.payment_id],
      [shop, '00000000-0000-0000-0000-000000000000'],
      [shop, 'not-a-uuid'],
      [shop, `${data.payment_id}x`],
    ] as const) {
      const res = await getPayment(t, m, id);
      expect(res.status, id).toBe(404);
      expect(res.body).toMatchObject({ status: 'error', error: { code: 'PAYMENT_NOT_FOUND' } });
    }
    const g = await gql(t, `{ payment(id: "${data.payment_id}") { id } }`, {}, { key: other.key });
    expect(g.body.errors?.[0]?.extensions?.code).toBe('PAYMENT_NOT_FOUND');
  });
});

describe('idempotency', () => {
  const withKey = (key: string) => ({ 'Idempotency-Key': key });

  it('same Idempotency-Key and identical payload (any key order): 200 with the same data, one payment', async () => {
    const body = paymentBody({ include_qr: true, customer_info: { email: 'a@example.com', phone: '+27825550101' } });
    const first = await initPayment(t, shop, body, withKey('order-1-1700000000-abc'));
    expect(first.status).toBe(200);
    const count = await paymentCount();
    const reordered = Object.fromEntries(Object.entries({ ...body, customer_info: { phone: '+27825550101', email: 'a@example.com' } }).reverse());
    const again = await initPayment(t, shop, reordered, withKey('order-1-1700000000-abc'));
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(await paymentCount()).toBe(count);
  });

  it('same Idempotency-Key and a different payload: 409 CONFLICT, nothing created', async () => {
    const body = paymentBody();
    await initPayment(t, shop, body, withKey('k-conflict'));
    const count = await paymentCount();
    for (const changed of [{ ...body, amount: 12_346 }, paymentBody(), { ...body, intent_type: 'purchase_and_redeem' }]) {
      const res = await initPayment(t, shop, changed, withKey('k-conflict'));
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('CONFLICT');
    }
    expect(await paymentCount()).toBe(count);
  });

  it('scopes keys to the merchant', async () => {
    const other = await createMerchant(t);
    const mine = await initPayment(t, shop, paymentBody(), withKey('shared-key'));
    const theirs = await initPayment(t, other, paymentBody(), withKey('shared-key'));
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.payment_id).not.toBe(mine.body.data.payment_id);
  });

  it('forgets a key after 24 hours: expired keys are reused and purged', async () => {
    const first = await initPayment(t, shop, paymentBody(), withKey('k-expiring'));
    const row = await t.database.db.selectFrom('idempotency_keys').selectAll().where('key', '=', 'k-expiring').executeTakeFirstOrThrow();
    const keptFor = new Date(row.expires_at).getTime() - row.created_at.getTime();
    expect(keptFor).toBe(24 * 60 * 60 * 1000);
    await t.database.db.updateTable('idempotency_keys').set({ expires_at: new Date(Date.now() - 1000) }).where('key', '=', 'k-expiring').execute();
    const reused = await initPayment(t, shop, paymentBody({ amount: 9_999 }), withKey('k-expiring'));
    expect(reused.status).toBe(200);
    expect(reused.body.data.payment_id).not.toBe(first.body.data.payment_id);
    await t.database.db.updateTable('idempotency_keys').set({ expires_at: new Date(Date.now() - 1000) }).where('key', '=', 'k-expiring').execute();
    expect(await t.app.services.payments.purgeExpiredKeys()).toBeGreaterThanOrEqual(1);
    expect(await t.database.db.selectFrom('idempotency_keys').select('key').where('key', '=', 'k-expiring').executeTakeFirst()).toBeUndefined();
  });

  it('refuses a malformed Idempotency-Key', async () => {
    const res = await initPayment(t, shop, paymentBody(), withKey('x'.repeat(256)));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('same merchant_order_id and identical parameters: the same payment; different: 409 DUPLICATE_ORDER_ID', async () => {
    const body = paymentBody({ include_qr: true, success_url: 'https://shop.example/ok' });
    const first = await initPayment(t, shop, body);
    const count = await paymentCount();
    const again = await initPayment(t, shop, { ...body }, withKey('a-new-key-for-the-same-order'));
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    // The default intent written out is the same parameter.
    const explicit = await initPayment(t, shop, { ...body, intent_type: 'purchase_and_redeem' });
    expect(explicit.body.data.payment_id).toBe(first.body.data.payment_id);
    for (const changed of [{ ...body, amount: 6_000 }, { ...body, include_qr: false }, { ...body, success_url: 'https://shop.example/other' }]) {
      const res = await initPayment(t, shop, changed);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('DUPLICATE_ORDER_ID');
    }
    expect(await paymentCount()).toBe(count);
  });

  it('a key whose request hit DUPLICATE_ORDER_ID stays unused', async () => {
    const body = paymentBody();
    await initPayment(t, shop, body);
    const clash = await initPayment(t, shop, { ...body, amount: 7_000 }, withKey('k-after-dup'));
    expect(clash.body.error.code).toBe('DUPLICATE_ORDER_ID');
    const fresh = await initPayment(t, shop, paymentBody(), withKey('k-after-dup'));
    expect(fresh.status).toBe(200);
  });
});

describe.skipIf(!usingPostgres)('concurrent initiation (needs PostgreSQL: set DATABASE_URL)', () => {
  it('20 identical requests with one Idempotency-Key create one payment and all get its id', async () => {
    const before = await paymentCount();
    const body = paymentBody({ include_qr: true });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => initPayment(t, shop, body, { 'Idempotency-Key': 'race-key-1' })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((r) => r.body.data.payment_id)).size).toBe(1);
    for (const r of results) expect(r.body.data).toEqual(results[0]!.body.data);
    expect(await paymentCount()).toBe(before + 1);
  });

  it('20 requests racing for one merchant_order_id under different keys create one payment', async () => {
    const before = await paymentCount();
    const body = paymentBody();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_v, i) => initPayment(t, shop, body, { 'Idempotency-Key': `race-order-${i}` })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((r) => r.body.data.payment_id)).size).toBe(1);
    expect(await paymentCount()).toBe(before + 1);
  });

  it('concurrent conflicting payloads under one key: one wins, the rest get 409, none a 5xx', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_v, i) => initPayment(t, shop, paymentBody({ amount: 6_000 + i }), { 'Idempotency-Key': 'race-key-2' })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
  });
});
