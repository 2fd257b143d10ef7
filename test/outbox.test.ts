import { afterAll, beforeAll, expect, it } from 'vitest';
import { recordEvent } from '../src/db/outbox.ts';
import { OPERATOR } from '../src/domain/actor.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, http, op } from './support/client.ts';
import { QUEUE } from '../src/domain/jobs.ts';
import { drained, eventually, type Receiver, startReceiver } from './support/receiver.ts';
import { sseClient, subscribe } from './support/sse.ts';

let t: TestApp;
let merchantHook: Receiver;
let paymentHook: Receiver;

beforeAll(async () => {
  t = await startApp({ WEBHOOK_RETRY_DELAYS_MS: '50,50,50,50', WEBHOOK_TIMEOUT_MS: '1000' });
  merchantHook = await startReceiver();
  paymentHook = await startReceiver();
});
afterAll(async () => {
  await t?.close();
  await merchantHook?.close();
  await paymentHook?.close();
});

const paymentData = (id: string) => ({ payment_id: id, status: 'captured', amount: 10_000, merchant_order_id: 'ORDER-1' });

it('sends a payment event to its own webhook_url, streams it on paymentEvents, and nothing of a rollback', async () => {
  const shop = await createMerchant(t, { webhookUrl: merchantHook.url });
  const client = sseClient(t.url, true, { 'x-api-key': shop.key });
  const before = t.app.services.events.subscriberCount;
  const sub = subscribe(client, 'subscription { paymentEvents { id type paymentId payment { paymentId status } data } }');
  await eventually(async () => t.app.services.events.subscriberCount > before);

  const paymentId = crypto.randomUUID();
  // A change that fails after recording its event: neither the event nor its delivery survive.
  await expect(
    t.database.db.transaction().execute(async (tx) => {
      await recordEvent(tx, { merchantId: shop.id, type: 'payment.failed', paymentId, data: paymentData(paymentId), webhookUrl: paymentHook.url });
      throw new Error('the change itself failed');
    }),
  ).rejects.toThrow('the change itself failed');

  const event = await t.database.db.transaction().execute((tx) =>
    recordEvent(tx, { merchantId: shop.id, type: 'payment.captured', paymentId, data: paymentData(paymentId), webhookUrl: paymentHook.url }),
  );
  const [r] = await paymentHook.waitFor(1);
  expect(JSON.parse(r!.body)).toMatchObject({ id: event.id, type: 'payment.captured', data: { payment_id: paymentId, merchant_order_id: 'ORDER-1' } });
  const [streamed] = await sub.waitFor(1);
  expect(streamed!.data.paymentEvents).toMatchObject({ id: event.id, type: 'payment.captured', paymentId, data: { status: 'captured' } });
  // A hand-made event names no stored payment, so there is no payment object to show.
  expect(streamed!.data.paymentEvents.payment).toBeNull();

  // Every delivery there is to make has been made: what the receivers hold is all they get.
  await drained(t.database.db, QUEUE.webhook);
  expect(paymentHook.received).toHaveLength(1);
  expect(merchantHook.received).toHaveLength(0);
  expect(sub.results).toHaveLength(1);
  const stored = await t.database.db.selectFrom('events').select('type').where('payment_id', '=', paymentId).execute();
  expect(stored.map((e) => e.type)).toEqual(['payment.captured']);
  sub.dispose();
  client.dispose();
});

it('streams a captured payment with its Payment object', async () => {
  const shop = await createMerchant(t, { paymentFeeBps: 100 });
  const client = sseClient(t.url, false, { 'x-api-key': shop.key });
  const before = t.app.services.events.subscriberCount;
  const sub = subscribe(client, 'subscription { paymentEvents { type payment { paymentId status amount feeCents netAmountCents } } }');
  await eventually(async () => t.app.services.events.subscriberCount > before);
  const init = await http(t, 'POST', '/api/v1/payments/init', { key: shop.key, body: { amount: 10_000, currency: 'ZAR', merchant_order_id: 'STREAM-1' } });
  const paymentId = init.body.data.payment_id;
  await op(t, `mutation { settlePayment(id: "${paymentId}", outcome: CAPTURED) { payment { status } } }`);
  const [streamed] = await sub.waitFor(1);
  expect(streamed!.data.paymentEvents).toEqual({
    type: 'payment.captured',
    payment: { paymentId, status: 'CAPTURED', amount: 10_000, feeCents: 100, netAmountCents: 9_900 },
  });
  sub.dispose();
  client.dispose();
});

it('counts a receiver that does not answer in time as a failed attempt, then retries', async () => {
  const receiver = await startReceiver();
  const shop = await createMerchant(t, { webhookUrl: receiver.url });
  receiver.plan = [0];
  const event = await t.database.db.transaction().execute((tx) =>
    recordEvent(tx, { merchantId: shop.id, type: 'payment.cancelled', paymentId: crypto.randomUUID(), data: { status: 'cancelled' } }),
  );
  const [d] = await eventually(async () => {
    const list = await t.app.services.webhookDeliveries.list(OPERATOR, { eventId: event.id });
    return list[0]?.status === 'succeeded' ? list : undefined;
  });
  expect(d!.attemptLog.map((a) => [a.statusCode, a.succeeded])).toEqual([
    [null, false],
    [200, true],
  ]);
  expect(d!.attemptLog[0]!.error).toBe('no answer within 1000 ms');
  expect(d!.attemptLog[0]!.durationMs).toBeGreaterThanOrEqual(990);
  await receiver.close();
});

it('REST routes for webhook secrets answer unknown methods with the envelope', async () => {
  const shop = await createMerchant(t);
  const res = await http(t, 'GET', '/api/v1/merchant/webhooks/secret', { key: shop.key });
  expect(res.status).toBe(404);
  expect(res.body).toMatchObject({ status: 'error', error: { code: 'NOT_FOUND' } });
});

it('never sends unsigned when the merchant\'s secret cannot be read; the delivery fails visibly', async () => {
  const receiver = await startReceiver();
  const shop = await createMerchant(t, { webhookUrl: receiver.url });
  const secret = await http(t, 'POST', '/api/v1/merchant/webhooks/secret', { key: shop.key });
  // As if SERVICE_SECRET had changed: the stored ciphertext no longer authenticates.
  await t.database.db.updateTable('webhook_secrets').set({ secret_enc: Buffer.alloc(60, 7) }).where('id', '=', secret.body.data.id).execute();
  const event = await t.database.db.transaction().execute((tx) =>
    recordEvent(tx, { merchantId: shop.id, type: 'payment.failed', paymentId: crypto.randomUUID(), data: { status: 'failed' } }),
  );
  const [d] = await eventually(async () => {
    const list = await t.app.services.webhookDeliveries.list(OPERATOR, { eventId: event.id });
    return list[0]?.status === 'failed' ? list : undefined;
  });
  expect(d!.attemptLog).toHaveLength(5);
  expect(d!.attemptLog.every((a) => a.error === 'the webhook secret could not be read')).toBe(true);
  expect(receiver.received).toHaveLength(0);
  await receiver.close();
});
