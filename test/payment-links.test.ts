import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, expectLedgerOk, gql, http, op, type TestMerchant } from './support/client.ts';
import { initPayment, paymentBody, press } from './support/payments.ts';
import { eventually } from './support/receiver.ts';
import { zarpay } from './support/processes.ts';

/** CONTRACT §11: payment limits per merchant, payment links and their public page, payment requests. */

let t: TestApp;
let shop: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  t = await startApp({ SANDBOX_CONFIRM_DELAY_MS: '50' });
  shop = await createMerchant(t, { name: 'Kettle & Co' });
  other = await createMerchant(t, { name: 'Other Shop' });
});
afterAll(() => t?.close());

const paymentCount = async (merchantId: string) =>
  Number((await t.database.db.selectFrom('payments').select((eb) => eb.fn.countAll().as('n')).where('merchant_id', '=', merchantId).executeTakeFirstOrThrow()).n);

describe('payment limits per merchant', { timeout: 60_000 }, () => {
  it('starts at the seed\'s 5500 to 300000 cents, in GET /api/v1/merchant and Merchant.paymentLimits', async () => {
    const res = await http(t, 'GET', '/api/v1/merchant', { key: other.key });
    expect(res.body.data.payment_limits).toEqual({ min_cents: 5500, max_cents: 300_000 });
    const g = await gql(t, '{ viewer { paymentLimits { minCents maxCents } } }', {}, { key: other.key });
    expect(g.body.data.viewer.paymentLimits).toEqual({ minCents: 5500, maxCents: 300_000 });
    const below = await initPayment(t, other, paymentBody({ amount: 5499 }));
    expect(below.status).toBe(400);
    expect(below.body.error).toMatchObject({ code: 'INVALID_AMOUNT', message: expect.stringContaining('5500 to 300000 cents') });
  });

  it('the account manager sets a merchant\'s own range with the CLI; INVALID_AMOUNT then names it and nothing is written', async () => {
    const env = { ZARPAY_URL: t.url, OPERATOR_TOKEN: t.config.operatorToken };
    const set = await zarpay(['merchant', 'limits', shop.id, '--min-cents', '1000', '--max-cents', '500000'], env);
    expect(set.code).toBe(0);
    expect(set.json).toMatchObject({ merchant_id: shop.id, payment_limits: { min_cents: 1000, max_cents: 500_000 } });
    expect((await http(t, 'GET', '/api/v1/merchant', { key: shop.key })).body.data.payment_limits).toEqual({ min_cents: 1000, max_cents: 500_000 });

    const before = await paymentCount(shop.id);
    // Below the seed's range but inside the merchant's: taken. Above the seed's, inside the merchant's: taken.
    expect((await initPayment(t, shop, paymentBody({ amount: 1000 }))).status).toBe(200);
    expect((await initPayment(t, shop, paymentBody({ amount: 500_000 }))).status).toBe(200);
    for (const amount of [999, 500_001, 0, -5000]) {
      const res = await initPayment(t, shop, paymentBody({ amount }));
      expect(res.status, `amount ${amount}`).toBe(400);
      expect(res.body.error.code).toBe('INVALID_AMOUNT');
      expect(res.body.error.message).toContain('1000 to 500000 cents');
      expect(res.body.error.message).toContain('R10.00 to R5000.00');
    }
    const g = await gql(
      t,
      'mutation($i: InitiatePaymentInput!) { initiatePayment(input: $i) { payment { id } } }',
      { i: { amount: 999, currency: 'ZAR', merchantOrderId: 'limits-gql' } },
      { key: shop.key },
    );
    expect(g.body.errors?.[0]?.extensions?.code).toBe('INVALID_AMOUNT');
    expect(g.body.errors?.[0]?.message).toContain('1000 to 500000 cents');
    expect(await paymentCount(shop.id)).toBe(before + 2);

    // Outside the platform's bounds, or min above max: VALIDATION_FAILED, nothing changed.
    for (const args of [
      ['--min-cents', '99', '--max-cents', '5000'],
      ['--min-cents', '1000', '--max-cents', '10000001'],
      ['--min-cents', '6000', '--max-cents', '5000'],
    ]) {
      const bad = await zarpay(['merchant', 'limits', shop.id, ...args], env);
      expect(bad.code, args.join(' ')).not.toBe(0);
      expect(bad.json).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    const viaGraphql = await gql(
      t,
      'mutation($id: UUID!, $i: MerchantInput!) { updateMerchant(id: $id, input: $i) { merchant { id } } }',
      { id: shop.id, i: { paymentLimits: { minCents: 6000, maxCents: 5000 } } },
      { operator: true },
    );
    expect(viaGraphql.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect((await op(t, 'query($id: UUID!) { merchant(id: $id) { paymentLimits { minCents maxCents } } }', { id: shop.id })).merchant.paymentLimits).toEqual({
      minCents: 1000,
      maxCents: 500_000,
    });
    // A merchant cannot set its own limits.
    const own = await gql(
      t,
      'mutation($id: UUID!, $i: MerchantInput!) { updateMerchant(id: $id, input: $i) { merchant { id } } }',
      { id: shop.id, i: { paymentLimits: { minCents: 100, maxCents: 10_000_000 } } },
      { key: shop.key },
    );
    expect(own.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

describe('payment links over REST and GraphQL', { timeout: 60_000 }, () => {
  const create = (m: TestMerchant, body: unknown) => http(t, 'POST', '/api/v1/payment-links', { key: m.key, body });

  it('creates a fixed link (201 with every field) and an open one; lists newest first with the total', async () => {
    const fixed = await create(shop, { description: 'Guitar lesson', amount_cents: 25_000, merchant_reference: 'LESSONS' });
    expect(fixed.status).toBe(201);
    const l = fixed.body.data;
    expect(l).toEqual({
      link_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: `${t.config.publicBaseUrl}/l/${l.link_id}`,
      qr_code: { content: `${t.config.publicBaseUrl}/l/${l.link_id}`, image_url: expect.stringMatching(new RegExp(`^${t.config.publicBaseUrl}/l/${l.link_id}/qr\\.png\\?expires=\\d+&signature=[0-9a-f]{64}$`)) },
      description: 'Guitar lesson',
      amount_cents: 25_000,
      merchant_reference: 'LESSONS',
      single_use: false,
      active: true,
      payments_count: 0,
      captured_cents: 0,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const open = (await create(shop, { description: 'Donation', single_use: true })).body.data;
    expect(open).toMatchObject({ amount_cents: null, merchant_reference: null, single_use: true, active: true });

    const listed = await http(t, 'GET', '/api/v1/payment-links?limit=1', { key: shop.key });
    expect(listed.status).toBe(200);
    expect(listed.body.data.total).toBeGreaterThanOrEqual(2);
    expect(listed.body.data.payment_links.map((x: { link_id: string }) => x.link_id)).toEqual([open.link_id]);
    const second = await http(t, 'GET', '/api/v1/payment-links?limit=1&offset=1', { key: shop.key });
    expect(second.body.data.payment_links[0].link_id).toBe(l.link_id);
    expect((await http(t, 'GET', `/api/v1/payment-links/${l.link_id}`, { key: shop.key })).body.data).toMatchObject({ link_id: l.link_id, amount_cents: 25_000 });
    // The other merchant sees none of them.
    expect((await http(t, 'GET', '/api/v1/payment-links', { key: other.key })).body.data).toEqual({ payment_links: [], total: 0 });
  });

  it('refuses bad input in the envelope and changes nothing', async () => {
    const count = async () => Number((await t.database.db.selectFrom('payment_links').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    for (const [body, code, field] of [
      [{}, 'VALIDATION_FAILED', 'description'],
      [{ description: '' }, 'VALIDATION_FAILED', 'description'],
      [{ description: 'x'.repeat(201) }, 'VALIDATION_FAILED', 'description'],
      [{ description: 'ok', amount_cents: 12.5 }, 'INVALID_AMOUNT', 'amount_cents'],
      [{ description: 'ok', amount_cents: '100' }, 'VALIDATION_FAILED', 'amount_cents'],
      [{ description: 'ok', amount_cents: 999 }, 'INVALID_AMOUNT', 'amount_cents'],
      [{ description: 'ok', merchant_reference: 'r'.repeat(65) }, 'VALIDATION_FAILED', 'merchant_reference'],
      [{ description: 'ok', single_use: 'yes' }, 'VALIDATION_FAILED', 'single_use'],
      [{ description: 'ok', color: 'red' }, 'VALIDATION_FAILED', undefined],
    ] as const) {
      const res = await create(shop, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.status).toBe('error');
      expect(res.body.error.code, JSON.stringify(body)).toBe(code);
      if (field) expect(JSON.stringify(res.body.error), JSON.stringify(body)).toContain(field);
    }
    const bad = await http(t, 'GET', '/api/v1/payment-links?limit=0', { key: shop.key });
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    const link = (await create(shop, { description: 'Patchable' })).body.data.link_id;
    const patch = await http(t, 'PATCH', `/api/v1/payment-links/${link}`, { key: shop.key, body: { active: 'no' } });
    expect(patch.body.error.code).toBe('VALIDATION_FAILED');
    expect(await count()).toBe(before + 1);
  });

  it('answers 404 NOT_FOUND for another merchant\'s link, an unknown one and a malformed one, over REST and GraphQL', async () => {
    const mine = (await create(shop, { description: 'Mine' })).body.data.link_id;
    for (const id of [mine, '0b6f3c4e-1d2a-4b5c-8d9e-0f1a2b3c4d5e', 'not-a-uuid']) {
      const got = await http(t, 'GET', `/api/v1/payment-links/${id}`, { key: other.key });
      expect(got.status, id).toBe(404);
      expect(got.body.error.code).toBe('NOT_FOUND');
      const patched = await http(t, 'PATCH', `/api/v1/payment-links/${id}`, { key: other.key, body: { active: false } });
      expect(patched.status, id).toBe(404);
      expect(patched.body.error.code).toBe('NOT_FOUND');
    }
    const g = await gql(t, 'query($id: UUID!) { paymentLink(id: $id) { id } }', { id: mine }, { key: other.key });
    expect(g.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const u = await gql(t, 'mutation($id: UUID!) { updatePaymentLink(id: $id, active: false) { paymentLink { id } } }', { id: mine }, { key: other.key });
    expect(u.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await http(t, 'GET', `/api/v1/payment-links/${mine}`, { key: shop.key })).body.data.active).toBe(true);
  });

  it('GraphQL creates, lists (a connection), reads and switches off links', async () => {
    const made = await gql(
      t,
      'mutation($i: CreatePaymentLinkInput!) { createPaymentLink(input: $i) { paymentLink { id url amountCents singleUse active paymentsCount capturedCents qrCode { content imageUrl } } } }',
      { i: { description: 'Braai pack', amountCents: 35_000 } },
      { key: shop.key },
    );
    const link = made.body.data.createPaymentLink.paymentLink;
    expect(link).toMatchObject({ url: `${t.config.publicBaseUrl}/l/${link.id}`, amountCents: 35_000, singleUse: false, active: true, paymentsCount: 0, capturedCents: 0 });
    expect(link.qrCode.content).toBe(link.url);
    const bad = await gql(t, 'mutation($i: CreatePaymentLinkInput!) { createPaymentLink(input: $i) { paymentLink { id } } }', { i: { description: ' ' } }, { key: shop.key });
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    const list = await gql(t, '{ paymentLinks(first: 1) { totalCount edges { node { id description } } pageInfo { hasNextPage } } }', {}, { key: shop.key });
    expect(list.body.data.paymentLinks.edges[0].node).toEqual({ id: link.id, description: 'Braai pack' });
    expect(list.body.data.paymentLinks.pageInfo.hasNextPage).toBe(true);
    const off = await gql(t, 'mutation($id: UUID!) { updatePaymentLink(id: $id, active: false) { paymentLink { id active } } }', { id: link.id }, { key: shop.key });
    expect(off.body.data.updatePaymentLink.paymentLink).toEqual({ id: link.id, active: false });
    expect((await http(t, 'GET', `/api/v1/payment-links/${link.id}`, { key: shop.key })).body.data.active).toBe(false);
    const read = await gql(t, 'query($id: UUID!) { paymentLink(id: $id) { id active } }', { id: link.id }, { key: shop.key });
    expect(read.body.data.paymentLink).toEqual({ id: link.id, active: false });
  });
});

describe('the public page /l/{link_id}', { timeout: 60_000 }, () => {
  const link = async (body: Record<string, unknown>) => (await http(t, 'POST', '/api/v1/payment-links', { key: other.key, body })).body.data;
  const form = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(t.url + path, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual', headers });

  it('shows a fixed link, and its post makes one payment carrying the link, answering 303 to its payment_url', async () => {
    const l = await link({ description: 'Braai pack <b>', amount_cents: 12_345 });
    const page = await fetch(`${t.url}/l/${l.link_id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Other Shop');
    expect(html).toContain('Braai pack &lt;b&gt;');
    expect(html).toContain('R 123.45');
    expect(html).not.toContain('<script');
    const before = await paymentCount(other.id);
    const res = await form(`/l/${l.link_id}`, { amount: '1' });
    expect(res.status).toBe(303);
    const paymentId = new URL(res.headers.get('location')!).pathname.split('/').pop()!;
    expect(res.headers.get('location')).toBe(`${t.config.publicBaseUrl}/pay/${paymentId}`);
    expect(await paymentCount(other.id)).toBe(before + 1);
    const payment = (await http(t, 'GET', `/api/v1/payments/${paymentId}`, { key: other.key })).body.data;
    // The typed amount is ignored: a fixed link's amount is the link's.
    expect(payment).toMatchObject({ amount: 12_345, payment_link_id: l.link_id, description: 'Braai pack <b>', status: 'created' });
    const g = await gql(t, 'query($id: UUID!) { payment(id: $id) { paymentLink { id description } } }', { id: paymentId }, { key: other.key });
    expect(g.body.data.payment.paymentLink).toEqual({ id: l.link_id, description: 'Braai pack <b>' });
    await op(t, 'mutation($id: UUID!) { settlePayment(id: $id, outcome: CAPTURED) { payment { id } } }', { id: paymentId });
    const event = await t.database.db.selectFrom('events').select('data').where('payment_id', '=', paymentId).where('type', '=', 'payment.captured').executeTakeFirstOrThrow();
    expect((event.data as Record<string, unknown>).payment_link_id).toBe(l.link_id);
    expect((await http(t, 'GET', `/api/v1/payment-links/${l.link_id}`, { key: other.key })).body.data).toMatchObject({ payments_count: 1, captured_cents: 12_345 });
    // A payment made through the API carries none.
    const plain = (await initPayment(t, other, paymentBody())).body.data.payment_id;
    expect((await http(t, 'GET', `/api/v1/payments/${plain}`, { key: other.key })).body.data.payment_link_id).toBeNull();
  });

  it('an open link takes the amount in rand as people type it, within the merchant\'s limits, else says the range and makes nothing', async () => {
    const l = await link({ description: 'Donation' });
    const html = await (await fetch(`${t.url}/l/${l.link_id}?lang=af`)).text();
    expect(html).toContain('name="amount"');
    expect(html).toContain('lang="af"');
    expect(html).toContain('R 55.00');
    for (const [typed, cents] of [['100,50', 10_050], ['100.50', 10_050], ['R 100,50', 10_050], ['R1 000', 100_000]] as const) {
      const res = await form(`/l/${l.link_id}`, { amount: typed });
      expect(res.status, typed).toBe(303);
      const id = new URL(res.headers.get('location')!).pathname.split('/').pop()!;
      expect((await http(t, 'GET', `/api/v1/payments/${id}`, { key: other.key })).body.data.amount, typed).toBe(cents);
    }
    const before = await paymentCount(other.id);
    for (const typed of ['10', '3000,01', 'abc', '', '1e5', '-100']) {
      const res = await form(`/l/${l.link_id}`, { amount: typed });
      expect(res.status, typed).toBe(422);
      const text = await res.text();
      expect(text, typed).toContain('R 55.00');
      expect(text, typed).toContain('R 3000.00');
    }
    expect(await paymentCount(other.id)).toBe(before);
  });

  it('a closed link (switched off, or single-use and paid) answers 410 and makes nothing; an unknown one 404', async () => {
    const off = await link({ description: 'Old offer', amount_cents: 6000 });
    await http(t, 'PATCH', `/api/v1/payment-links/${off.link_id}`, { key: other.key, body: { active: false } });
    const once = await link({ description: 'Once', amount_cents: 7000, single_use: true });
    const first = await form(`/l/${once.link_id}`, {});
    expect(first.status).toBe(303);
    // Not paid yet: the single-use link still takes another press.
    const paymentId = new URL(first.headers.get('location')!).pathname.split('/').pop()!;
    await op(t, 'mutation($id: UUID!) { settlePayment(id: $id, outcome: CAPTURED) { payment { id } } }', { id: paymentId });
    const before = await paymentCount(other.id);
    for (const l of [off, once]) {
      const page = await fetch(`${t.url}/l/${l.link_id}`);
      expect(page.status).toBe(410);
      expect(await page.text()).toContain('closed');
      expect((await form(`/l/${l.link_id}`, { amount: '100' })).status).toBe(410);
    }
    expect(await paymentCount(other.id)).toBe(before);
    expect((await fetch(`${t.url}/l/0b6f3c4e-1d2a-4b5c-8d9e-0f1a2b3c4d5e`)).status).toBe(404);
    expect((await fetch(`${t.url}/l/nope`)).status).toBe(404);
  });

  it('a single-use link two customers pay at the same moment captures once; the other gets the money back', async () => {
    const once = await link({ description: 'Last ticket', amount_cents: 7000, single_use: true });
    // Both open the link before either has paid: each gets a payment of its own.
    const opened = await Promise.all([form(`/l/${once.link_id}`, {}), form(`/l/${once.link_id}`, {})]);
    const ids = opened.map((r) => new URL(r.headers.get('location')!).pathname.split('/').pop()!);
    expect(new Set(ids).size).toBe(2);
    await Promise.all(ids.map((id) => press(t, id, 'pay')));
    const ended = await eventually(async () => {
      const all = await Promise.all(ids.map(async (id) => (await http(t, 'GET', `/api/v1/payments/${id}`, { key: other.key })).body.data));
      return all.every((p) => p.status === 'captured' || p.status === 'failed') && all;
    });
    expect(ended.map((p) => p.status).sort()).toEqual(['captured', 'failed']);
    const loser = ended.find((p) => p.status === 'failed')!;
    expect(loser.failure_reason).toBe('link_paid_already');
    // The customer's page says so, and that the money goes back (not "you were not charged").
    const page = await (await fetch(`${t.url}/pay/${loser.payment_id}`)).text();
    expect(page).toContain('This link was paid already');
    expect(page).toContain('refunded');
    expect((await http(t, 'GET', `/api/v1/payment-links/${once.link_id}`, { key: other.key })).body.data).toMatchObject({ captured_cents: 7000 });
    // What the second customer paid goes back through the provider.
    await eventually(async () => {
      const a = await t.database.db.selectFrom('payment_attempts').select('refund_status').where('payment_id', '=', loser.payment_id).where('status', '=', 'succeeded').executeTakeFirst();
      return a?.refund_status === 'succeeded';
    });
    expect((await t.database.db.selectFrom('ledger_transactions').select('kind').where('payment_id', '=', loser.payment_id).execute()).length).toBe(0);
    await expectLedgerOk(t);
  });

  it('serves the link\'s QR image for its signed address only', async () => {
    const l = await link({ description: 'QR' });
    const png = await fetch(l.qr_code.image_url.replace(t.config.publicBaseUrl, t.url));
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    const forged = await fetch(`${t.url}/l/${l.link_id}/qr.png?expires=9999999999&signature=${'0'.repeat(64)}`);
    expect(forged.status).toBe(403);
  });
});
