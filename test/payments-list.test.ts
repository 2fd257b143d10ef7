import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, gql, http, op, type TestMerchant } from './support/client.ts';
import { openApiChecker } from './support/openapi.ts';
import { parseRand } from '../src/domain/money.ts';
import { initPayment, newPayment, paymentBody } from './support/payments.ts';

/** What merchants see of their payments (issue 14, item 6; CONTRACT §9). */
let t: TestApp;
let shop: TestMerchant;
let other: TestMerchant;
let checker: ReturnType<typeof openApiChecker>;
const ids: Record<'captured' | 'failed' | 'cancelled' | 'open', string> = { captured: '', failed: '', cancelled: '', open: '' };

beforeAll(async () => {
  t = await startApp();
  shop = await createMerchant(t, { paymentFeeBps: 100 });
  other = await createMerchant(t);
  await newPayment(t, other);
  for (const outcome of ['captured', 'failed', 'cancelled', 'open'] as const) {
    ids[outcome] = (await newPayment(t, shop, { amount: 10_000, intent_type: 'purchase' })).payment_id;
    if (outcome !== 'open') await op(t, `mutation { settlePayment(id: "${ids[outcome]}", outcome: ${outcome.toUpperCase()}) { payment { id } } }`);
  }
  checker = openApiChecker((await http(t, 'GET', '/api/v1/openapi.json')).body);
});
afterAll(() => t?.close());

const list = async (query = '', key = shop.key) => {
  const res = await http(t, 'GET', `/api/v1/payments${query}`, { key });
  checker.check('GET', '/api/v1/payments', res);
  return res;
};

describe('GET /api/v1/payments', () => {
  it('lists the merchant\'s payments newest first, each as GET /payments/{id} shows it, with the total', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe(4);
    expect(res.body.data.payments.map((p: { payment_id: string }) => p.payment_id)).toEqual([ids.open, ids.cancelled, ids.failed, ids.captured]);
    for (const p of res.body.data.payments) {
      expect((await http(t, 'GET', `/api/v1/payments/${p.payment_id}`, { key: shop.key })).body.data).toEqual(p);
    }
  });

  it('filters by status and pages with limit and offset; total counts every match', async () => {
    expect((await list('?status=captured')).body.data).toMatchObject({ total: 1, payments: [{ payment_id: ids.captured }] });
    const page = (await list('?limit=2&offset=1')).body.data;
    expect(page.total).toBe(4);
    expect(page.payments.map((p: { payment_id: string }) => p.payment_id)).toEqual([ids.cancelled, ids.failed]);
    expect((await list('?offset=10')).body.data).toEqual({ payments: [], total: 4 });
    expect((await list('?status=initiated')).body.data).toEqual({ payments: [], total: 0 });
  });

  it('refuses a bad query with VALIDATION_FAILED, and answers 401 without a key', async () => {
    for (const q of ['?limit=0', '?limit=101', '?offset=-1', '?status=paid', '?merchant_id=x', '?limit=abc']) {
      const res = await list(q);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code, q).toBe('VALIDATION_FAILED');
    }
    expect((await http(t, 'GET', '/api/v1/payments')).status).toBe(401);
  });

  it('counts against the payment status budget, as GET /payments/{id} does', async () => {
    const limited = await startApp({ RATE_LIMITS: 'payment_status=2' });
    try {
      const m = await createMerchant(limited);
      const first = await http(limited, 'GET', '/api/v1/payments', { key: m.key });
      expect(first.headers.get('ratelimit-limit')).toBe('2');
      await http(limited, 'GET', `/api/v1/payments/${crypto.randomUUID()}`, { key: m.key });
      const third = await http(limited, 'GET', '/api/v1/payments', { key: m.key });
      expect(third.status).toBe(429);
      expect(third.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });
});

describe('the merchant\'s payment', () => {
  it('carries the voucher once captured, and no net amount once failed or cancelled', async () => {
    const byId = Object.fromEntries((await list()).body.data.payments.map((p: { payment_id: string }) => [p.payment_id, p]));
    expect(byId[ids.open]).toMatchObject({ status: 'created', net_amount_cents: 9_900, voucher_code: null, voucher_redeemed: false });
    expect(byId[ids.captured]).toMatchObject({ status: 'captured', net_amount_cents: 9_900, voucher_code: expect.stringMatching(/^\d{4}(-\d{4}){3}$/), voucher_redeemed: false });
    expect(byId[ids.failed]).toMatchObject({ status: 'failed', net_amount_cents: null, voucher_code: null });
    expect(byId[ids.cancelled]).toMatchObject({ status: 'cancelled', net_amount_cents: null, voucher_code: null });
    // The same in GraphQL.
    const q = `query($id: UUID!) { payment(id: $id) { status netAmountCents voucherCode voucherRedeemed } }`;
    expect((await gql(t, q, { id: ids.failed }, { key: shop.key })).body.data!.payment).toEqual({ status: 'FAILED', netAmountCents: null, voucherCode: null, voucherRedeemed: false });
    const captured = (await gql(t, q, { id: ids.captured }, { key: shop.key })).body.data!.payment;
    expect(captured).toEqual({ status: 'CAPTURED', netAmountCents: 9_900, voucherCode: byId[ids.captured].voucher_code, voucherRedeemed: false });
    const page = await gql(t, `{ payments(first: 10, status: CANCELLED) { totalCount edges { node { id netAmountCents } } } }`, {}, { key: shop.key });
    expect(page.body.data!.payments).toEqual({ totalCount: 1, edges: [{ node: { id: ids.cancelled, netAmountCents: null } }] });
  });

  it('purchase_and_redeem reports its voucher redeemed at capture', async () => {
    const p = await newPayment(t, shop);
    await op(t, `mutation { settlePayment(id: "${p.payment_id}", outcome: CAPTURED) { payment { id } } }`);
    expect((await http(t, 'GET', `/api/v1/payments/${p.payment_id}`, { key: shop.key })).body.data).toMatchObject({ voucher_redeemed: true, voucher_code: expect.any(String) });
  });

  it('an idempotent replay answers with the same data after the payment moved on (Stripe convention)', async () => {
    const body = paymentBody({ include_qr: true });
    const first = await initPayment(t, shop, body, { 'idempotency-key': 'replay-after-capture' });
    await op(t, `mutation { settlePayment(id: "${first.body.data.payment_id}", outcome: CAPTURED) { payment { id } } }`);
    const byKey = await initPayment(t, shop, body, { 'idempotency-key': 'replay-after-capture' });
    const byOrder = await initPayment(t, shop, body);
    for (const replay of [byKey, byOrder]) {
      expect(replay.status).toBe(200);
      expect(replay.body.data).toEqual(first.body.data);
    }
  });

  it('another merchant\'s payments are not listed', async () => {
    const theirs = (await list('', other.key)).body.data;
    expect(theirs.total).toBe(1);
    expect(theirs.payments.map((p: { payment_id: string }) => p.payment_id)).not.toContain(ids.captured);
  });
});

describe('searching payments (issue 33): ?q= and GraphQL payments(search:)', () => {
  let seller: TestMerchant;
  const found: Record<string, string> = {};
  const ids = (body: { payments: { payment_id: string }[] }) => body.payments.map((p) => p.payment_id);

  beforeAll(async () => {
    seller = await createMerchant(t);
    const seed = async (name: string, order: string, amount: number, email?: string) => {
      found[name] = (await newPayment(t, seller, { merchant_order_id: order, amount, ...(email && { customer_info: { email } }) })).payment_id;
    };
    await seed('sale', 'INV-2026-0042', 10_050, 'Thandi@Example.co.za');
    await seed('sibling', 'INV-2026-0043', 20_000);
    await seed('round', 'A_1%', 10_000, 'sipho@example.co.za');
    await seed('lookalike', 'AX1-2', 10_051);
    // Another merchant's payment with the same amount and e-mail is never found.
    await newPayment(t, other, { amount: 10_050, customer_info: { email: 'thandi@example.co.za' } });
  });

  const search = async (q: string) => {
    const res = await list(`?q=${encodeURIComponent(q)}`, seller.key);
    expect(res.status, q).toBe(200);
    return res.body.data;
  };

  it('finds a sale by its order reference, exactly or by its start', async () => {
    expect(await search('INV-2026-0042')).toMatchObject({ total: 1, payments: [{ payment_id: found.sale, merchant_order_id: 'INV-2026-0042' }] });
    expect(ids(await search('INV-2026-004'))).toEqual([found.sibling, found.sale]);
    // Nothing typed is a wildcard: `A_1%` is not a pattern that also finds `AX1-2`.
    expect(ids(await search('A_1%'))).toEqual([found.round]);
    expect(await search('INV-2027')).toEqual({ payments: [], total: 0 });
  });

  it('finds a sale by its amount in rand, typed with a comma, a dot or an R', async () => {
    for (const q of ['100,50', '100.50', 'R 100,50', 'R100.5', ' 100,50 ']) expect(ids(await search(q)), q).toEqual([found.sale]);
    expect(ids(await search('R 100'))).toEqual([found.round]);
    expect(ids(await search('200'))).toEqual([found.sibling]);
  });

  it('finds a sale by the customer\'s e-mail in any case, and only the whole address', async () => {
    expect(ids(await search('thandi@example.CO.ZA'))).toEqual([found.sale]);
    expect(await search('thandi@example')).toMatchObject({ total: 0 });
    expect(await search('example.co.za')).toMatchObject({ total: 0 });
  });

  it('pages and filters a search like any listing; refuses an empty one', async () => {
    const page = (await list(`?q=${encodeURIComponent('INV-2026')}&limit=1&offset=1`, seller.key)).body.data;
    expect(page).toMatchObject({ total: 2, payments: [{ payment_id: found.sale }] });
    expect((await list('?q=INV-2026&status=captured', seller.key)).body.data).toEqual({ payments: [], total: 0 });
    for (const q of ['?q=', '?q=%20%20', `?q=${'x'.repeat(256)}`]) {
      const res = await list(q, seller.key);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('GraphQL payments(search:) finds the same payments, with their count and pages', async () => {
    const q = `query ($search: String, $after: String) { payments(first: 1, search: $search, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { id } } } }`;
    const one = (await gql(t, q, { search: '100,50' }, { key: seller.key })).body.data!.payments;
    expect(one).toMatchObject({ totalCount: 1, pageInfo: { hasNextPage: false }, edges: [{ node: { id: found.sale } }] });
    const first = (await gql(t, q, { search: 'INV-2026' }, { key: seller.key })).body.data!.payments;
    expect(first).toMatchObject({ totalCount: 2, pageInfo: { hasNextPage: true }, edges: [{ node: { id: found.sibling } }] });
    const next = (await gql(t, q, { search: 'INV-2026', after: first.pageInfo.endCursor }, { key: seller.key })).body.data!.payments;
    expect(next).toMatchObject({ pageInfo: { hasNextPage: false }, edges: [{ node: { id: found.sale } }] });
    const empty = await gql(t, q, { search: ' ' }, { key: seller.key });
    expect(empty.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });

  it('the operator searches within the merchant it names, and is told to name one', async () => {
    const q = `query ($m: UUID) { payments(first: 5, merchantId: $m, search: "100,50") { totalCount edges { node { id } } } }`;
    expect((await op(t, q, { m: seller.id })).payments).toEqual({ totalCount: 1, edges: [{ node: { id: found.sale } }] });
    const res = await gql(t, q, {}, { operator: true });
    expect(res.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });
});

describe('parseRand: rand as an owner types it (the search and the dashboard share it)', () => {
  it('reads a comma or a dot, an R, and spaces between thousands; nothing else', () => {
    const cases: [string, number | null][] = [
      ['100,50', 10_050], ['100.50', 10_050], ['R 100,50', 10_050], ['r100', 10_000], ['R 1 180.16', 118_016],
      ['1\u00a0180,16', 118_016], ['0,5', 50], ['7', 700],
      ['', null], ['-5', null], ['1.234', null], ['1,000.00', null], ['12 34', null], ['R', null], ['abc', null], ['1e3', null],
    ];
    for (const [text, cents] of cases) expect(parseRand(text), text).toBe(cents);
  });
});

describe('the delivery log and the audit log page by offset (issue 33: the dashboard\'s list-next)', () => {
  it('offset skips the newest; a page after the last is empty; a bad offset is VALIDATION_FAILED', async () => {
    const hooked = await createMerchant(t, { webhookUrl: 'http://localhost:9/zarpay-hook' });
    for (let i = 0; i < 3; i++) {
      const { payment_id } = await newPayment(t, hooked);
      await op(t, `mutation { settlePayment(id: "${payment_id}", outcome: CAPTURED) { payment { id } } }`);
    }
    const deliveries = async (first: number, offset?: number) =>
      (await gql(t, 'query($n: Int, $o: Int) { webhookDeliveries(first: $n, offset: $o) { id } }', { n: first, o: offset }, { key: hooked.key })).body.data!.webhookDeliveries.map((d: { id: string }) => d.id);
    const all = await deliveries(10);
    expect(all).toHaveLength(3);
    expect(await deliveries(2, 1)).toEqual(all.slice(1, 3));
    expect(await deliveries(2, 3)).toEqual([]);

    const audit = async (first: number, offset?: number) => (await op(t, 'query($n: Int, $o: Int) { auditLog(first: $n, offset: $o) { id } }', { n: first, o: offset })).auditLog.map((e: { id: string }) => e.id);
    const newest = await audit(3);
    expect(newest.length).toBeGreaterThanOrEqual(3);
    expect(await audit(2, 1)).toEqual(newest.slice(1, 3));

    for (const [doc, vars] of [
      ['query($o: Int) { webhookDeliveries(offset: $o) { id } }', { o: -1 }],
      ['query($o: Int) { auditLog(offset: $o) { id } }', { o: 10_001 }],
    ] as const) {
      const res = await gql(t, doc, vars, { operator: true });
      expect(res.body.errors?.[0]?.extensions?.code, doc).toBe('VALIDATION_FAILED');
    }
  });
});

describe('the merchant\'s every refund, and its people, a page at a time (issue 33: list-next on every list)', () => {
  it('GET /api/v1/refunds and viewer.refunds: newest first, paged, by status, the merchant\'s own only', async () => {
    // The balance a refund is reserved from (captured money waits for settlement before it is available).
    await credit(t, shop.id, 1_000);
    const made: string[] = [];
    for (const cents of [100, 200, 300]) {
      const res = await http(t, 'POST', `/api/v1/payments/${ids.captured}/refunds`, { key: shop.key, body: { amount_cents: cents } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      made.unshift(res.body.data.refund_id);
    }
    const rest = async (query: string, key = shop.key) => {
      const res = await http(t, 'GET', `/api/v1/refunds${query}`, { key });
      checker.check('GET', '/api/v1/refunds', res);
      return res;
    };
    const first = (await rest('?limit=2')).body.data;
    expect(first.total).toBe(3);
    expect(first.refunds.map((r: { refund_id: string }) => r.refund_id)).toEqual(made.slice(0, 2));
    expect(first.refunds[0]).toMatchObject({ payment_id: ids.captured, amount_cents: 300 });
    expect((await rest('?limit=2&offset=2')).body.data.refunds.map((r: { refund_id: string }) => r.refund_id)).toEqual(made.slice(2));
    // Each status keeps its own; together they are every refund.
    let counted = 0;
    for (const status of ['pending', 'succeeded', 'failed']) {
      const page = (await rest(`?status=${status}`)).body.data;
      expect(page.refunds.every((r: { status: string }) => r.status === status), status).toBe(true);
      counted += page.total;
    }
    expect(counted).toBe(3);
    expect((await rest('', other.key)).body.data).toEqual({ refunds: [], total: 0 });
    for (const q of ['?status=paid', '?limit=0', '?payment_id=x']) {
      const res = await rest(q);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code, q).toBe('VALIDATION_FAILED');
    }

    const doc = 'query($after: String, $status: RefundStatus) { viewer { refunds(first: 2, after: $after, status: $status) { totalCount pageInfo { hasNextPage endCursor } edges { node { id payment { id } } } } } }';
    const connection = async (vars: Record<string, unknown>, key = shop.key) => {
      const res = await gql(t, doc, vars, { key });
      expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
      return res.body.data.viewer.refunds;
    };
    const one = await connection({});
    expect(one.totalCount).toBe(3);
    expect(one.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(made.slice(0, 2));
    expect(one.edges[0].node.payment.id).toBe(ids.captured);
    expect(one.pageInfo.hasNextPage).toBe(true);
    const two = await connection({ after: one.pageInfo.endCursor });
    expect(two.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(made.slice(2));
    expect(two.pageInfo.hasNextPage).toBe(false);
    expect((await connection({ status: 'FAILED' })).edges.length).toBe((await rest('?status=failed')).body.data.total);
    expect(await connection({}, other.key)).toMatchObject({ totalCount: 0, edges: [] });
    // A cursor of another list is refused.
    const payoutsCursor = Buffer.from('payout:1').toString('base64url');
    const refused = await gql(t, doc, { after: payoutsCursor }, { key: shop.key });
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });

  it('people(first, offset) pages a merchant\'s people oldest first; without them, all', async () => {
    const team = await createMerchant(t);
    const invite = 'mutation($m: UUID, $e: String!) { invitePerson(merchantId: $m, email: $e, role: VIEWER) { person { id } } }';
    const invited: string[] = [];
    for (const name of ['ayanda', 'bongani', 'chantal']) invited.push((await op(t, invite, { m: team.id, e: `${name}@team.example` })).invitePerson.person.id);
    const people = async (first?: number, offset?: number) =>
      (await op(t, 'query($m: UUID, $n: Int, $o: Int) { people(merchantId: $m, first: $n, offset: $o) { id } }', { m: team.id, n: first, o: offset })).people.map((p: { id: string }) => p.id);
    const all = await people();
    expect(all.slice(-3)).toEqual(invited);
    expect(await people(2, all.length - 2)).toEqual(invited.slice(1));
    expect(await people(2, all.length)).toEqual([]);
    const bad = await gql(t, 'query($m: UUID) { people(merchantId: $m, first: 0) { id } }', { m: team.id }, { operator: true });
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });
});
