import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, gql, http, payoutBody, type TestMerchant } from './support/client.ts';
import { newPayment } from './support/payments.ts';
import { eventually } from './support/receiver.ts';
import { sseClient, subscribe } from './support/sse.ts';

/**
 * One tenant rule for the whole service (domain/actor.ts `scope`), proved on every read and list
 * of both adapters: a merchant sees only itself; naming another merchant is FORBIDDEN everywhere
 * alike; another merchant's resource by id is NOT FOUND, exactly as an id that does not exist;
 * the operator sees the merchant it names, or every merchant when it names none.
 */
let t: TestApp;
let a: TestMerchant;
let b: TestMerchant;
const ids = { aPayout: '', bPayout: '', aPayment: '', bPayment: '', aEvent: '', bEvent: '' };
const MISSING = '0b6f3c4e-1d2a-4b5c-8d9e-0f1a2b3c4d5e';

beforeAll(async () => {
  t = await startApp();
  a = await createMerchant(t, { name: 'Shop A', webhookUrl: 'http://127.0.0.1:9/a' });
  b = await createMerchant(t, { name: 'Shop B', webhookUrl: 'http://127.0.0.1:9/b' });
  await credit(t, a.id, 50_000);
  await credit(t, b.id, 70_000);
  ids.aPayout = (await http(t, 'POST', '/api/v1/payouts', { key: a.key, body: payoutBody(1_111) })).body.data.id;
  ids.bPayout = (await http(t, 'POST', '/api/v1/payouts', { key: b.key, body: payoutBody(2_222) })).body.data.id;
  ids.aPayment = (await newPayment(t, a, { amount: 6_111 })).payment_id;
  ids.bPayment = (await newPayment(t, b, { amount: 7_222 })).payment_id;
  const event = (payout: string) => t.database.db.selectFrom('events').select('id').where('payout_id', '=', payout).executeTakeFirstOrThrow();
  ids.aEvent = (await event(ids.aPayout)).id;
  ids.bEvent = (await event(ids.bPayout)).id;
});
afterAll(() => t?.close());

const graph = (query: string, variables: Record<string, unknown>, who: 'a' | 'operator') =>
  gql(t, query, variables, who === 'operator' ? { operator: true } : { key: a.key });
const codeOf = (res: { body: { errors?: { extensions?: { code?: string } }[] } }) => res.body.errors?.[0]?.extensions?.code;

/** Every list that takes a merchant, with what it returns and how to read B's marker from it. */
const lists: [string, string, (data: any) => string[]][] = [
  ['payouts', 'query($m: UUID) { x: payouts(merchantId: $m, first: 100) { totalCount edges { node { id merchantId } } } }', (d) => d.x.edges.map((e: any) => e.node.merchantId)],
  ['payments', 'query($m: UUID) { x: payments(merchantId: $m, first: 100) { totalCount edges { node { id merchantId } } } }', (d) => d.x.edges.map((e: any) => e.node.merchantId)],
  ['webhookDeliveries', 'query($m: UUID) { x: webhookDeliveries(merchantId: $m, first: 100) { merchantId } }', (d) => d.x.map((e: any) => e.merchantId)],
  ['balance', 'query($m: UUID) { x: balance(merchantId: $m) { merchantId } }', (d) => [d.x.merchantId]],
];

describe('a merchant', () => {
  it.each(lists)('%s: naming another merchant is FORBIDDEN and shows nothing of it', async (_name, query) => {
    const res = await graph(query, { m: b.id }, 'a');
    expect(codeOf(res)).toBe('FORBIDDEN');
    expect(res.body.data ?? null).toBeNull();
    expect(JSON.stringify(res.body)).not.toContain(b.id);
  });

  it.each(lists)('%s: naming itself, or nobody, is its own data only', async (_name, query, merchants) => {
    for (const m of [a.id, null]) {
      const res = await graph(query, { m }, 'a');
      expect(res.body.errors, String(m)).toBeUndefined();
      const seen = merchants(res.body.data);
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen)).toEqual(new Set([a.id]));
    }
  });

  it.each(['payoutEvents', 'paymentEvents'])('%s: naming another merchant is FORBIDDEN; the stream ends', async (field) => {
    const sub = subscribe(sseClient(t.url, true, { 'x-api-key': a.key }), `subscription($m: UUID) { ${field}(merchantId: $m) { id } }`, { m: b.id });
    const [first] = await sub.waitFor(1);
    expect(first!.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    sub.dispose();
  });

  it('another merchant\'s resources by id are not found, exactly like ids that do not exist', async () => {
    const reads: [string, (id: string) => Promise<{ status?: number; code?: string; text: string }>, string, string, string][] = [
      ['REST payout', async (id) => { const r = await http(t, 'GET', `/api/v1/payouts/${id}`, { key: a.key }); return { status: r.status, code: r.body.error?.code, text: JSON.stringify(r.body) }; }, ids.bPayout, ids.aPayout, 'PAYOUT_NOT_FOUND'],
      ['REST payment', async (id) => { const r = await http(t, 'GET', `/api/v1/payments/${id}`, { key: a.key }); return { status: r.status, code: r.body.error?.code, text: JSON.stringify(r.body) }; }, ids.bPayment, ids.aPayment, 'PAYMENT_NOT_FOUND'],
      ['GraphQL payout', async (id) => { const r = await graph('query($id: UUID!) { payout(id: $id) { id merchant { id name } events { id } } }', { id }, 'a'); return { code: codeOf(r), text: JSON.stringify(r.body) }; }, ids.bPayout, ids.aPayout, 'PAYOUT_NOT_FOUND'],
      ['GraphQL payment', async (id) => { const r = await graph('query($id: UUID!) { payment(id: $id) { id amount } }', { id }, 'a'); return { code: codeOf(r), text: JSON.stringify(r.body) }; }, ids.bPayment, ids.aPayment, 'PAYMENT_NOT_FOUND'],
      ['GraphQL deliveries of an event', async (id) => { const r = await graph('query($e: UUID) { x: webhookDeliveries(eventId: $e) { id } }', { e: id }, 'a'); return { code: r.body.data?.x?.length ? undefined : 'NONE', text: JSON.stringify(r.body) }; }, ids.bEvent, ids.aEvent, 'NONE'],
    ];
    for (const [name, read, foreign, own, notFound] of reads) {
      const theirs = await read(foreign);
      const missing = await read(MISSING);
      expect({ status: theirs.status, code: theirs.code }, name).toEqual({ status: missing.status, code: missing.code });
      expect(theirs.code, name).toBe(notFound);
      expect(theirs.text, name).not.toContain(b.id);
      expect((await read(own)).code, name).toBeUndefined();
    }
  });

  it('reaches only itself through nested fields', async () => {
    const res = await graph('{ viewer { id balance { merchantId } apiKeys { merchantId } webhookSecrets { id } } payouts(first: 100) { edges { node { merchant { id } events { id } } } } }', {}, 'a');
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.viewer.balance.merchantId).toBe(a.id);
    expect(new Set(res.body.data.viewer.apiKeys.map((k: any) => k.merchantId))).toEqual(new Set([a.id]));
    expect(new Set(res.body.data.payouts.edges.map((e: any) => e.node.merchant.id))).toEqual(new Set([a.id]));
  });

  it('REST has no way to name a merchant: an extra query parameter is refused', async () => {
    const res = await http(t, 'GET', `/api/v1/payouts?merchant_id=${b.id}`, { key: a.key });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(res.body)).not.toContain(ids.bPayout);
  });

  it.each(['{ merchant(id: "MID") { id } }', '{ merchants { id } }', '{ stats { reservedCents } }', '{ ledgerVerification }'])(
    'operator-only reads are FORBIDDEN to a merchant: %s',
    async (query) => {
      const res = await graph(query.replace('MID', b.id), {}, 'a');
      expect(codeOf(res)).toBe('FORBIDDEN');
      expect(JSON.stringify(res.body)).not.toContain(b.id);
    },
  );
});

describe('the operator', () => {
  it.each(lists)('%s: naming a merchant sees exactly that merchant', async (_name, query, merchants) => {
    const res = await graph(query, { m: b.id }, 'operator');
    expect(res.body.errors).toBeUndefined();
    expect(new Set(merchants(res.body.data))).toEqual(new Set([b.id]));
  });

  it.each(lists.filter(([name]) => name !== 'balance'))('%s: naming nobody sees every merchant', async (_name, query, merchants) => {
    const res = await graph(query, { m: null }, 'operator');
    expect(res.body.errors).toBeUndefined();
    expect(new Set(merchants(res.body.data))).toEqual(new Set([a.id, b.id]));
  });

  it('a single-merchant read (balance) needs the merchant named', async () => {
    expect(codeOf(await graph('{ balance { merchantId } }', {}, 'operator'))).toBe('VALIDATION_FAILED');
  });

  it('reads any merchant\'s resource by id, and its nested fields', async () => {
    const res = await graph('query($p: UUID!, $q: UUID!) { payout(id: $p) { merchant { id } } payment(id: $q) { merchantId } }', { p: ids.bPayout, q: ids.aPayment }, 'operator');
    expect(res.body.data).toEqual({ payout: { merchant: { id: b.id } }, payment: { merchantId: a.id } });
  });

  it('streams one merchant\'s events when it names one, everyone\'s when it names none', async () => {
    const named = subscribe(sseClient(t.url, true, { authorization: `Bearer ${t.config.operatorToken}` }), 'subscription($m: UUID) { payoutEvents(merchantId: $m) { merchantId } }', { m: b.id });
    const all = subscribe(sseClient(t.url, true, { authorization: `Bearer ${t.config.operatorToken}` }), 'subscription { payoutEvents { merchantId } }');
    await eventually(async () => t.app.services.events.subscriberCount >= 2);
    await http(t, 'POST', '/api/v1/payouts', { key: a.key, body: payoutBody(100) });
    await http(t, 'POST', '/api/v1/payouts', { key: b.key, body: payoutBody(100) });
    const [onlyB] = await named.waitFor(1);
    expect(onlyB!.data.payoutEvents.merchantId).toBe(b.id);
    const both = await all.waitFor(2);
    expect(new Set(both.map((r) => r.data.payoutEvents.merchantId))).toEqual(new Set([a.id, b.id]));
    expect(named.results).toHaveLength(1);
    named.dispose();
    all.dispose();
  });
});
