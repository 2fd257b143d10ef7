import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, gql, http, op, type TestMerchant } from './support/client.ts';
import { initPayment, paymentBody } from './support/payments.ts';
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
