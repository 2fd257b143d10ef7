import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, usingPostgres } from './support/app.ts';
import { createMerchant, credit, gql, http, op, payoutBody, type TestMerchant } from './support/client.ts';
import { eventually, startReceiver } from './support/receiver.ts';
import { sseClient, subscribe } from './support/sse.ts';

let t: TestApp;
let a: TestMerchant;
let b: TestMerchant;

beforeAll(async () => {
  t = await startApp({ WEBHOOK_RETRY_DELAYS_MS: '50,50,50,50' });
  a = await createMerchant(t, { name: 'Shop A' });
  b = await createMerchant(t, { name: 'Shop B' });
  await credit(t, a.id, 100_000);
  await credit(t, b.id, 100_000);
});
afterAll(() => t?.close());

const PAYOUT_EVENTS = `subscription($m: UUID, $types: [String!]) {
  payoutEvents(merchantId: $m, types: $types) { id type createdAt merchantId payout { id status amountCents } data }
}`;
const codeOf = (res: { body: { errors?: { extensions?: { code?: string } }[] } }) => res.body.errors?.[0]?.extensions?.code;
const asMerchant = (m: TestMerchant) => ({ 'x-api-key': m.key });
const asOperator = () => ({ authorization: `Bearer ${t.config.operatorToken}` });
const pay = async (m: TestMerchant, cents = 1_000) => (await http(t, 'POST', '/api/v1/payouts', { key: m.key, body: payoutBody(cents) })).body.data;

/** Waits until the service holds `n` more open subscriptions than `before`. */
const subscribed = (before: number, n = 1) => eventually(async () => t.app.services.events.subscriberCount >= before + n);

describe.each([true, false])('payoutEvents over graphql-sse (singleConnection: %s)', (singleConnection) => {
  it('streams a merchant its own committed events, the operator everyone\'s, and nothing of others', async () => {
    const clients = [sseClient(t.url, singleConnection, asMerchant(a)), sseClient(t.url, singleConnection, asMerchant(b)), sseClient(t.url, singleConnection, asOperator())];
    const before = t.app.services.events.subscriberCount;
    const subA = subscribe(clients[0]!, PAYOUT_EVENTS);
    const subB = subscribe(clients[1]!, PAYOUT_EVENTS);
    const subOp = subscribe(clients[2]!, PAYOUT_EVENTS, { m: a.id });
    await subscribed(before, 3);

    const p = await pay(a, 1_234);
    await op(t, `mutation { approvePayout(id: "${p.id}") { payout { id } } }`);
    const [created, approved] = await subA.waitFor(2);
    expect(created!.data!.payoutEvents).toMatchObject({ type: 'payout.created', merchantId: a.id, payout: { id: p.id, status: 'PENDING', amountCents: 1_234 } });
    expect(approved!.data!.payoutEvents).toMatchObject({ type: 'payout.approved', payout: { id: p.id, status: 'APPROVED' } });
    expect(created!.data!.payoutEvents.data).toMatchObject({ id: p.id, status: 'pending' });
    const opSeen = await subOp.waitFor(2);
    expect(opSeen.map((r) => r.data!.payoutEvents.id)).toEqual([created!.data!.payoutEvents.id, approved!.data!.payoutEvents.id]);

    // The same ids as the outbox rows (and so as the webhooks' webhook-id).
    const rows = await t.database.db.selectFrom('events').select('id').where('payout_id', '=', p.id).orderBy('seq').execute();
    expect(rows.map((r) => r.id)).toEqual(opSeen.map((r) => r.data!.payoutEvents.id));

    // B's first event is its own: it saw none of A's.
    const q = await pay(b);
    const [bFirst] = await subB.waitFor(1);
    expect(bFirst!.data!.payoutEvents).toMatchObject({ merchantId: b.id, payout: { id: q.id } });
    expect(subB.results).toHaveLength(1);
    // The operator filtered on A does not see B's.
    expect(subOp.results).toHaveLength(2);
    for (const s of [subA, subB, subOp]) s.dispose();
    for (const c of clients) c.dispose();
    await eventually(async () => t.app.services.events.subscriberCount === before);
  });
});

describe('subscription rules', () => {
  it('filters by type', async () => {
    const client = sseClient(t.url, false, asMerchant(a));
    const before = t.app.services.events.subscriberCount;
    const sub = subscribe(client, PAYOUT_EVENTS, { types: ['payout.rejected'] });
    await subscribed(before);
    const p = await pay(a);
    await op(t, `mutation { rejectPayout(id: "${p.id}", reason: "wrong account") { payout { id } } }`);
    const [first] = await sub.waitFor(1);
    expect(first!.data!.payoutEvents).toMatchObject({ type: 'payout.rejected', payout: { id: p.id, status: 'REJECTED' } });
    expect(sub.results).toHaveLength(1);
    sub.dispose();
    client.dispose();
  });

  it.each([
    ['another merchant\'s id', () => asMerchant(a), () => ({ m: b.id }), 'FORBIDDEN'],
    ['an unknown type', () => asMerchant(a), () => ({ types: ['payout.exploded'] }), 'VALIDATION_FAILED'],
    ['a payment type on payoutEvents', () => asMerchant(a), () => ({ types: ['payment.captured'] }), 'VALIDATION_FAILED'],
    ['no credentials', () => ({}), () => ({}), 'UNAUTHORIZED'],
    ['an invalid key', () => ({ 'x-api-key': 'sec1-tst-nope' }), () => ({}), 'UNAUTHORIZED'],
  ])('refuses %s', async (_name, headers, variables, code) => {
    const client = sseClient(t.url, false, headers());
    const sub = subscribe(client, PAYOUT_EVENTS, variables());
    await sub.ended;
    expect(sub.results).toHaveLength(1);
    const err = sub.results[0]!.errors?.[0];
    // A refused credential is an HTTP 401/403 (as in REST); a refused subscription a GraphQL error.
    if (code === 'UNAUTHORIZED' && 'x-api-key' in headers()) expect(err?.message).toMatch(/responded with 401/);
    else expect(err?.extensions?.code, JSON.stringify(sub.results)).toBe(code);
    client.dispose();
  });

  it('reads each event\'s data afresh: the balance after a second payout is not the first event\'s', async () => {
    const m = await createMerchant(t, { name: 'Fresh Shop', payoutFeeCents: 100 });
    await credit(t, m.id, 50_000);
    const client = sseClient(t.url, true, asMerchant(m));
    const before = t.app.services.events.subscriberCount;
    const sub = subscribe(client, 'subscription { payoutEvents { type payout { id merchant { name balance { reservedCents availableCents } } } } }');
    await subscribed(before);
    try {
      const first = await pay(m, 1_000);
      await sub.waitFor(1);
      const second = await pay(m, 2_000);
      const [one, two] = await sub.waitFor(2);
      expect(one!.data!.payoutEvents.payout).toMatchObject({ id: first.id, merchant: { balance: { reservedCents: 1_100, availableCents: 48_900 } } });
      // Loaded again for this event: the stream's first answer was not kept.
      expect(two!.data!.payoutEvents.payout).toMatchObject({ id: second.id, merchant: { balance: { reservedCents: 3_200, availableCents: 46_800 } } });
    } finally {
      sub.dispose();
      client.dispose();
      // Closed before the next test counts the open subscriptions.
      await eventually(async () => t.app.services.events.subscriberCount <= before);
    }
  });

  it('paymentEvents accepts payment types and streams nothing of payouts', async () => {
    const client = sseClient(t.url, true, asMerchant(a));
    const before = t.app.services.events.subscriberCount;
    const payments = subscribe(client, 'subscription { paymentEvents(types: ["payment.captured"]) { id type payment { id status } data } }');
    const payouts = subscribe(client, PAYOUT_EVENTS);
    await subscribed(before, 2);
    // A payout's event, seen on the payout stream: the payment stream had it offered as well.
    const p = await pay(a);
    const [payoutEvent] = await payouts.waitFor(1);
    expect(payoutEvent!.data!.payoutEvents.payout.id).toBe(p.id);
    // Then a payment's, which the payment stream must show, and show first: events reach every
    // stream in commit order, so a payout's would have come before it.
    const payment = (await http(t, 'POST', '/api/v1/payments/init', { key: a.key, body: { amount: 12_345, currency: 'ZAR', merchant_order_id: `stream-${Date.now()}` } })).body.data;
    await op(t, `mutation { settlePayment(id: "${payment.payment_id}", outcome: CAPTURED) { payment { id } } }`);
    const [first] = await payments.waitFor(1);
    expect(first!.data!.paymentEvents).toMatchObject({ type: 'payment.captured', payment: { id: payment.payment_id, status: 'CAPTURED' } });
    expect(payments.results).toHaveLength(1);
    payments.dispose();
    payouts.dispose();
    client.dispose();
  });
});

describe('webhook GraphQL fields', () => {
  it('creates and rotates secrets, showing the secret only once', async () => {
    const m = await createMerchant(t);
    const created = await gql(t, 'mutation { createWebhookSecret { webhookSecret { id kid status secret } } }', {}, { key: m.key });
    expect(created.body.data.createWebhookSecret.webhookSecret).toMatchObject({ status: 'ACTIVE', secret: expect.stringMatching(/^whsec_[A-Za-z0-9]{43}$/) });
    const again = await gql(t, 'mutation { createWebhookSecret { webhookSecret { id } } }', {}, { key: m.key });
    expect(codeOf(again)).toBe('CONFLICT');
    const rotated = await gql(t, 'mutation { rotateWebhookSecret { webhookSecret { kid secret } rotatingKid rotatingUntil } }', {}, { key: m.key });
    expect(rotated.body.data.rotateWebhookSecret.rotatingKid).toBe(created.body.data.createWebhookSecret.webhookSecret.kid);
    const viewer = await gql(t, '{ viewer { webhookSecrets { kid status secret rotatingUntil } } }', {}, { key: m.key });
    expect(viewer.body.data.viewer.webhookSecrets.map((s: { status: string; secret: null }) => [s.status, s.secret])).toEqual([
      ['ACTIVE', null],
      ['ROTATING', null],
    ]);
    const asOp = await gql(t, 'mutation { createWebhookSecret { webhookSecret { id } } }', {}, { operator: true });
    expect(codeOf(asOp)).toBe('FORBIDDEN');
  });

  it('lets a merchant set its URL and read its own delivery log; the operator redelivers', async () => {
    const receiver = await startReceiver();
    const m = await createMerchant(t);
    await credit(t, m.id, 10_000);
    const set = await gql(t, 'mutation($u: String) { updateWebhookUrl(url: $u) { merchant { webhookUrl } } }', { u: receiver.url }, { key: m.key });
    expect(set.body.data.updateWebhookUrl.merchant.webhookUrl).toBe(receiver.url);
    const bad = await gql(t, 'mutation { updateWebhookUrl(url: "ftp://x") { merchant { id } } }', {}, { key: m.key });
    expect(codeOf(bad)).toBe('VALIDATION_FAILED');
    await pay(m);
    await receiver.waitFor(1);
    const log = await eventually(async () => {
      const res = await gql(t, '{ webhookDeliveries { eventId eventType status url attempts attemptLog { attempt statusCode durationMs succeeded } } }', {}, { key: m.key });
      const d = res.body.data.webhookDeliveries;
      return d[0]?.status === 'SUCCEEDED' ? d : undefined;
    });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ eventType: 'payout.created', url: receiver.url, attempts: 1, attemptLog: [{ attempt: 1, statusCode: 200, succeeded: true }] });
    // Not another merchant's log.
    const other = await gql(t, '{ webhookDeliveries { id } }', {}, { key: a.key });
    expect(other.body.data.webhookDeliveries.some((d: { id: string }) => log.some((l: { id: string }) => l.id === d.id))).toBe(false);
    const foreign = await gql(t, `{ webhookDeliveries(merchantId: "${m.id}") { id } }`, {}, { key: a.key });
    expect(codeOf(foreign)).toBe('FORBIDDEN');

    // Another merchant's event is not found; the merchant redelivers its own, and so does the operator.
    const foreignRedo = await gql(t, `mutation { redeliverEvent(eventId: "${log[0].eventId}") { delivery { id } } }`, {}, { key: a.key });
    expect(codeOf(foreignRedo)).toBe('NOT_FOUND');
    const own = await gql(t, `mutation { redeliverEvent(eventId: "${log[0].eventId}") { delivery { id status eventId } } }`, {}, { key: m.key });
    expect(own.body.data.redeliverEvent.delivery).toMatchObject({ status: 'PENDING', eventId: log[0].eventId });
    const [, second] = await receiver.waitFor(2);
    expect(second!.headers['webhook-id']).toBe(log[0].eventId);
    const redo = await op(t, `mutation { redeliverEvent(eventId: "${log[0].eventId}") { delivery { id status eventId } } }`);
    expect(redo.redeliverEvent.delivery).toMatchObject({ status: 'PENDING', eventId: log[0].eventId });
    const [, , third] = await receiver.waitFor(3);
    expect(third!.headers['webhook-id']).toBe(log[0].eventId);
    const missing = await gql(t, 'mutation { redeliverEvent(eventId: "00000000-0000-4000-8000-000000000000") { delivery { id } } }', {}, { operator: true });
    expect(codeOf(missing)).toBe('NOT_FOUND');
    await receiver.close();
  });

  it('records an event without a delivery when there is no URL, and redelivers it once the merchant sets one', async () => {
    const receiver = await startReceiver();
    const m = await createMerchant(t);
    await credit(t, m.id, 10_000);
    const payout = await pay(m);
    const [event] = (await gql(t, `{ payout(id: "${payout.id}") { events { id type } } }`, {}, { key: m.key })).body.data.payout.events;
    expect(event).toMatchObject({ type: 'payout.created' });
    expect((await gql(t, '{ webhookDeliveries { id } }', {}, { key: m.key })).body.data.webhookDeliveries).toEqual([]);
    const nowhere = await gql(t, `mutation { redeliverEvent(eventId: "${event.id}") { delivery { id } } }`, {}, { operator: true });
    expect(codeOf(nowhere)).toBe('VALIDATION_FAILED');
    await gql(t, 'mutation($u: String) { updateWebhookUrl(url: $u) { merchant { id } } }', { u: receiver.url }, { key: m.key });
    const redo = await op(t, `mutation { redeliverEvent(eventId: "${event.id}") { delivery { url eventId } } }`);
    expect(redo.redeliverEvent.delivery).toEqual({ url: receiver.url, eventId: event.id });
    const [sent] = await receiver.waitFor(1);
    expect(sent!.headers['webhook-id']).toBe(event.id);
    await receiver.close();
  });
});

describe.skipIf(!usingPostgres)('the event log read by position (needs PostgreSQL: set DATABASE_URL)', () => {
  it('misses no event whose transaction commits after a younger one, and keeps transaction order', async () => {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: t.databaseUrl });
    await client.connect();
    const before = t.app.services.events.subscriberCount;
    const stream = sseClient(t.url, false, asOperator());
    const sub = subscribe(stream, PAYOUT_EVENTS, { m: a.id });
    await subscribed(before);
    try {
      // An older transaction writes an event and stays open...
      await client.query('begin');
      const slow = crypto.randomUUID();
      await client.query(
        `insert into events (id, merchant_id, type, data) values ($1, $2, 'payout.created', $3)`,
        [slow, a.id, JSON.stringify({ id: crypto.randomUUID(), merchant_id: a.id, status: 'pending', amount_cents: 1, fee_cents: 0, gross_amount_cents: 1, currency: 'ZAR', payout_method: 'eft', created_at: new Date().toISOString(), updated_at: new Date().toISOString() })],
      );
      // ...while a younger one commits: its event waits, it is not read past the open one.
      const p = await pay(a);
      // Two reads of the log after the commit, the second certainly begun after it: it was not read past.
      const reads = t.app.services.events.readsDone;
      await eventually(async () => t.app.services.events.readsDone >= reads + 2);
      expect(sub.results).toHaveLength(0);
      await client.query('commit');
      const [first, second] = await sub.waitFor(2);
      expect(first!.data!.payoutEvents.id).toBe(slow);
      expect(second!.data!.payoutEvents.payout.id).toBe(p.id);
    } finally {
      sub.dispose();
      stream.dispose();
      await client.end();
    }
  });

  it('sends no NOTIFY from the transactions that move money', async () => {
    const { rows } = await (await import('kysely')).sql<{ tgname: string }>`select tgname from pg_trigger where tgrelid = 'events'::regclass and not tgisinternal`.execute(t.database.db);
    expect(rows).toEqual([]);
  });
});
