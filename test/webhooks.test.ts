import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, http, op, payoutBody, type TestMerchant } from './support/client.ts';
import { drained, eventually, type Received, type Receiver, sleep, startReceiver } from './support/receiver.ts';
import { OPERATOR } from '../src/domain/actor.ts';
import { QUEUE } from '../src/domain/jobs.ts';
import { JobRunner } from '../src/jobs/runner.ts';
import { httpTransport } from '../src/outside/webhook-http.ts';
import { PER_MERCHANT_IN_FLIGHT, webhookTask } from '../src/tasks/webhook-delivery.ts';

const FAST = { WEBHOOK_RETRY_DELAYS_MS: '50,50,50,50', WEBHOOK_TIMEOUT_MS: '2000' };

let t: TestApp;
let hook: Receiver;

beforeAll(async () => {
  t = await startApp(FAST);
  hook = await startReceiver();
});
afterAll(async () => {
  await t?.close();
  await hook?.close();
});

/** A merchant with its own receiver path, so each test reads only its own deliveries. */
async function shopWithHook(extra: Record<string, unknown> = {}) {
  const receiver = await startReceiver();
  const shop = await createMerchant(t, { webhookUrl: receiver.url, ...extra });
  await credit(t, shop.id, 1_000_000);
  return { shop, receiver };
}

const createPayout = async (shop: TestMerchant) => (await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(1_000) })).body.data;
const newSecret = async (shop: TestMerchant) => http(t, 'POST', '/api/v1/merchant/webhooks/secret', { key: shop.key });
const rotate = async (shop: TestMerchant) => http(t, 'POST', '/api/v1/merchant/webhooks/secret/rotate', { key: shop.key });
const headers = (r: Received) => r.headers as Record<string, string>;

/** Verification as a merchant would write it without a library. */
function handVerify(secret: string, r: Received): boolean {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const h = headers(r);
  const expected = createHmac('sha256', key).update(`${h['webhook-id']}.${h['webhook-timestamp']}.${r.body}`).digest();
  return h['webhook-signature']!.split(' ').some((sig) => {
    const given = Buffer.from(sig.replace(/^v1,/, ''), 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

describe('webhook secrets over REST', () => {
  it('creates one active secret in whsec_ format, then refuses a second with 409', async () => {
    const shop = await createMerchant(t);
    const first = await newSecret(shop);
    expect(first.status).toBe(201);
    expect(first.body.data.secret).toMatch(/^whsec_[A-Za-z0-9]{43}$/);
    expect(Buffer.from(first.body.data.secret.slice(6), 'base64url')).toHaveLength(32);
    expect(first.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.body.data.kid).toMatch(/^whk_[a-z2-7]{12}$/);
    const again = await newSecret(shop);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ status: 'error', error: { code: 'CONFLICT' }, metadata: { api_version: 'v1' } });
    // Encrypted at rest: the row holds neither the secret nor its key bytes.
    const row = await t.database.db.selectFrom('webhook_secrets').selectAll().where('id', '=', first.body.data.id).executeTakeFirstOrThrow();
    const stored = Buffer.from(row.secret_enc);
    expect(stored.includes(Buffer.from(first.body.data.secret.slice(6)))).toBe(false);
    expect(stored.includes(Buffer.from(first.body.data.secret.slice(6), 'base64url'))).toBe(false);
  });

  it('rotate creates a first secret when none is active', async () => {
    const shop = await createMerchant(t);
    const res = await rotate(shop);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ rotating_kid: null, rotating_until: null });
    expect(res.body.data.secret).toMatch(/^whsec_[A-Za-z0-9]{43}$/);
  });

  it('rotating twice disables the secret already rotating, so at most two sign', async () => {
    const shop = await createMerchant(t);
    const a = (await newSecret(shop)).body.data;
    const b = (await rotate(shop)).body.data;
    expect(b.rotating_kid).toBe(a.kid);
    expect(Date.parse(b.rotating_until) - Date.now()).toBeGreaterThan(86_000_000);
    const c = (await rotate(shop)).body.data;
    expect(c.rotating_kid).toBe(b.kid);
    const list = await t.app.services.webhookSecrets.list(OPERATOR, shop.id);
    expect(Object.fromEntries(list.map((s) => [s.kid, s.status]))).toEqual({ [a.kid]: 'disabled', [b.kid]: 'rotating', [c.kid]: 'active' });
    expect(list.some((s) => 'secret' in s)).toBe(false);
    // The secret disabled by the second rotation stopped signing then: no window still open.
    const disabled = list.find((s) => s.kid === a.kid)!;
    expect(disabled.rotatingUntil!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(list.find((s) => s.kid === b.kid)!.rotatingUntil!.getTime()).toBeGreaterThan(Date.now() + 86_000_000);
  });

  it('needs an API key', async () => {
    const res = await http(t, 'POST', '/api/v1/merchant/webhooks/secret');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('delivery', () => {
  it('signs with the active secret: standardwebhooks and a hand-written HMAC both verify', async () => {
    const { shop, receiver } = await shopWithHook();
    const secret = (await newSecret(shop)).body.data.secret as string;
    const payout = await createPayout(shop);
    const [r] = await receiver.waitFor(1);
    const h = headers(r!);
    expect(h['content-type']).toBe('application/json');
    const body = JSON.parse(r!.body);
    expect(body).toMatchObject({ type: 'payout.created', api_version: 'v1', data: { id: payout.id, status: 'pending', amount_cents: 1_000 } });
    expect(Object.keys(body)).toEqual(['id', 'type', 'created_at', 'api_version', 'data']);
    expect(h['webhook-id']).toBe(body.id);
    expect(h['x-service-event-id']).toBe(body.id);
    expect(Math.abs(Number(h['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(10);
    expect(h['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(r!.body, h)).toEqual(body);
    expect(handVerify(secret, r!)).toBe(true);
    expect(() => new Webhook(secret).verify(r!.body.replace('1000', '1001'), h)).toThrow();
    await receiver.close();
  });

  it('goes out unsigned while the merchant has no secret', async () => {
    const { shop, receiver } = await shopWithHook();
    await createPayout(shop);
    const [r] = await receiver.waitFor(1);
    expect(headers(r!)['webhook-signature']).toBeUndefined();
    expect(headers(r!)['webhook-id']).toBe(JSON.parse(r!.body).id);
    await receiver.close();
  });

  it('delivers every payout event in order, each once', async () => {
    const { shop, receiver } = await shopWithHook();
    const p = await createPayout(shop);
    for (const f of ['approvePayout', 'startPayoutTransfer', 'completePayout']) await op(t, `mutation { ${f}(id: "${p.id}") { payout { id } } }`);
    const got = await receiver.waitFor(4);
    await drained(t.database.db, QUEUE.webhook);
    expect(receiver.received).toHaveLength(4);
    expect(got.map((r) => JSON.parse(r.body).type).sort()).toEqual(['payout.approved', 'payout.completed', 'payout.created', 'payout.processing']);
    expect(new Set(got.map((r) => headers(r)['webhook-id'])).size).toBe(4);
    await receiver.close();
  });

  it('works off a backlog in batches: few statements, kept-alive connections, each event once', async () => {
    const statements: string[] = [];
    const counted = await startApp({ ...FAST, RUN_DISPATCHER: 'false' }, { onQuery: (q) => statements.push(q) });
    const receiver = await startReceiver();
    try {
      const shop = await createMerchant(counted, { webhookUrl: receiver.url });
      await credit(counted, shop.id, 1_000_000);
      const n = 60;
      await Promise.all(Array.from({ length: n }, () => http(counted, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(1_000) })));
      statements.length = 0;
      counted.app.services.runner.start([QUEUE.webhook]);
      await receiver.waitFor(n);
      await drained(counted.database.db, QUEUE.webhook);
      expect(new Set(receiver.received.map((r) => headers(r)['webhook-id'])).size).toBe(n);
      expect(receiver.received).toHaveLength(n);
      // Claims, and the outcomes' writes (the jobs, and the attempt log with the deliveries), each
      // take many deliveries at once: far fewer statements of each kind than deliveries.
      const claims = statements.filter((q) => /^\s*with wanted as/i.test(q));
      const settled = statements.filter((q) => /^\s*with outcome as[\s\S]*delete from jobs/i.test(q));
      const logged = statements.filter((q) => /insert into webhook_attempts/i.test(q));
      expect(claims.length).toBeGreaterThan(0);
      for (const kind of [claims, settled, logged]) expect(kind.length).toBeLessThan(n / 2);
      // Deliveries one after another reuse a kept-alive connection.
      for (let k = 1; k <= 3; k++) {
        await http(counted, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(1_000) });
        await receiver.waitFor(n + k);
      }
      expect(new Set(receiver.received.slice(n).map((r) => r.port)).size).toBe(1);
      await eventually(async () => {
        const rows = await counted.database.db.selectFrom('webhook_deliveries').select(['status', 'attempts']).where('merchant_id', '=', shop.id).execute();
        return rows.length === n + 3 && rows.every((r) => r.status === 'succeeded' && r.attempts === 1);
      }, 2000);
    } finally {
      await counted.close();
      await receiver.close();
    }
  });

  it('writes an outcome again when its first write fails, so a delivered webhook is not sent twice', async () => {
    const quiet = await startApp({ ...FAST, RUN_DISPATCHER: 'false' });
    const receiver = await startReceiver();
    // A database that fails the first write of outcomes, as a dropped connection would: the
    // attempt log refuses its first insert (a sequence, since a rolled-back write undoes all else).
    await sql`create sequence flaky_write`.execute(quiet.database.db);
    await sql`create function flaky_write() returns trigger language plpgsql as $$
      begin
        if nextval('flaky_write') = 1 then raise exception 'Connection terminated unexpectedly'; end if;
        return null;
      end $$`.execute(quiet.database.db);
    await sql`create trigger flaky_write before insert on webhook_attempts for each statement execute function flaky_write()`.execute(quiet.database.db);
    const flaky = quiet.database.db;
    const errors: unknown[] = [];
    const task = webhookTask({ db: flaky, config: quiet.config }, quiet.app.services.webhookSecrets, httpTransport);
    const runner = new JobRunner({ db: flaky, tasks: [task], onError: (_message, e) => errors.push(e) });
    try {
      const shop = await createMerchant(quiet, { webhookUrl: receiver.url });
      await credit(quiet, shop.id, 1_000_000);
      await http(quiet, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(1_000) });
      runner.start();
      await receiver.waitFor(1);
      const rows = await eventually(async () => {
        const r = await quiet.database.db.selectFrom('webhook_deliveries').select(['status', 'attempts']).where('merchant_id', '=', shop.id).execute();
        return r[0]?.status === 'succeeded' ? r : null;
      }, 10_000);
      expect(rows).toEqual([{ status: 'succeeded', attempts: 1 }]);
      expect(errors.map((e) => (e as Error).message)).toEqual(['Connection terminated unexpectedly']);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await runner.stop(1000);
      await receiver.close();
      await quiet.close();
    }
  });

  it('retries failures with the same event id until a 2xx', async () => {
    const { shop, receiver } = await shopWithHook();
    receiver.plan = [500, 503, 302];
    await createPayout(shop);
    const got = await receiver.waitFor(4);
    const ids = new Set(got.map((r) => headers(r)['webhook-id']));
    expect(ids.size).toBe(1);
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    const [eventId] = [...ids];
    const [delivery] = await eventually(async () => {
      const d = await t.app.services.webhookDeliveries.list(OPERATOR, { eventId: eventId! });
      return d[0]?.status === 'succeeded' ? d : undefined;
    });
    expect(delivery!.attemptLog.map((a) => [a.attempt, a.statusCode, a.succeeded])).toEqual([
      [1, 500, false],
      [2, 503, false],
      [3, 302, false],
      [4, 200, true],
    ]);
    expect(delivery!.attemptLog[2]!.error).toMatch(/redirect/);
    expect(receiver.received.every((r) => !r.headers['location'])).toBe(true);
    await receiver.close();
  });

  it('gives up after exactly 5 attempts, and the operator can redeliver', async () => {
    const { shop, receiver } = await shopWithHook();
    receiver.fallback = 500;
    await createPayout(shop);
    await receiver.waitFor(5);
    const eventId = headers(receiver.received[0]!)['webhook-id']!;
    const [failed] = await eventually(async () => {
      const d = await t.app.services.webhookDeliveries.list(OPERATOR, { eventId });
      return d[0]?.status === 'failed' ? d : undefined;
    });
    expect(failed!.attempts).toBe(5);
    expect(failed!.attemptLog).toHaveLength(5);
    expect(failed!.attemptLog.every((a) => a.statusCode === 500 && a.durationMs >= 0 && a.error === 'HTTP 500')).toBe(true);
    // Failed for good: its job is kept as failed, and nothing is left to send.
    await drained(t.database.db, QUEUE.webhook);
    expect(receiver.received).toHaveLength(5);

    receiver.fallback = 200;
    const again = await t.app.services.webhookDeliveries.redeliver(OPERATOR, eventId);
    expect(again.status).toBe('pending');
    const [r] = (await receiver.waitFor(6)).slice(5);
    expect(headers(r!)['webhook-id']).toBe(eventId);
    expect(r!.body).toBe(receiver.received[0]!.body);
    await eventually(async () => (await t.app.services.webhookDeliveries.list(OPERATOR, { eventId })).find((d) => d.status === 'succeeded'));
    await receiver.close();
  });

  it('queues nothing for a merchant without a webhook URL, and redelivery says why', async () => {
    const shop = await createMerchant(t);
    await credit(t, shop.id, 10_000);
    await createPayout(shop);
    const event = await t.database.db.selectFrom('events').select('id').where('merchant_id', '=', shop.id).executeTakeFirstOrThrow();
    expect(await t.app.services.webhookDeliveries.list(OPERATOR, { eventId: event.id })).toEqual([]);
    await expect(t.app.services.webhookDeliveries.redeliver(OPERATOR, event.id)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('records the failure when the receiver is down', async () => {
    const { shop, receiver } = await shopWithHook();
    await receiver.close();
    await createPayout(shop);
    const [d] = await eventually(async () => {
      const list = await t.app.services.webhookDeliveries.list(OPERATOR, { merchantId: shop.id });
      return list[0] && list[0].attemptLog.length >= 1 ? list : undefined;
    });
    expect(d!.attemptLog[0]).toMatchObject({ statusCode: null, succeeded: false });
    expect(d!.attemptLog[0]!.error).toMatch(/ECONNREFUSED/);
  });
});

describe('rotation window', () => {
  let short: TestApp;
  beforeAll(async () => {
    short = await startApp({ ...FAST, WEBHOOK_SECRET_ROTATION_WINDOW_MS: '1500' });
  });
  afterAll(() => short?.close());

  it('signs with new and old secrets inside the window (new first), with the new one only after it', async () => {
    const receiver = await startReceiver();
    const shop = await createMerchant(short, { webhookUrl: receiver.url });
    await credit(short, shop.id, 100_000);
    const oldSecret = (await http(short, 'POST', '/api/v1/merchant/webhooks/secret', { key: shop.key })).body.data.secret;
    const rotated = (await http(short, 'POST', '/api/v1/merchant/webhooks/secret/rotate', { key: shop.key })).body.data;
    const newSecret = rotated.secret as string;
    const pay = () => http(short, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(1_000) });

    await pay();
    const [inside] = await receiver.waitFor(1);
    const sigs = headers(inside!)['webhook-signature']!.split(' ');
    expect(sigs).toHaveLength(2);
    const id = headers(inside!)['webhook-id']!;
    const ts = Number(headers(inside!)['webhook-timestamp']);
    const sign = (s: string) => 'v1,' + createHmac('sha256', Buffer.from(s.slice(6), 'base64')).update(`${id}.${ts}.${inside!.body}`).digest('base64');
    expect(sigs).toEqual([sign(newSecret), sign(oldSecret)]);
    expect(() => new Webhook(oldSecret).verify(inside!.body, headers(inside!))).not.toThrow();
    expect(() => new Webhook(newSecret).verify(inside!.body, headers(inside!))).not.toThrow();

    await sleep(Math.max(0, Date.parse(rotated.rotating_until) - Date.now()) + 100);
    await pay();
    const [, after] = await receiver.waitFor(2);
    expect(headers(after!)['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(() => new Webhook(newSecret).verify(after!.body, headers(after!))).not.toThrow();
    expect(() => new Webhook(oldSecret).verify(after!.body, headers(after!))).toThrow();
    expect(handVerify(oldSecret, after!)).toBe(false);
    const states = await short.app.services.webhookSecrets.list(OPERATOR, shop.id);
    expect(states.map((s) => s.status)).toEqual(['active', 'disabled']);
    await receiver.close();
  });
});

describe('fairness between merchants', () => {
  it('a merchant whose receiver hangs, with 150 events queued, holds its share of the dispatcher; another merchant\'s webhook arrives within the specification\'s window', async () => {
    // The default time limit (10 s): without a share per merchant, the hanging receiver's
    // deliveries took every slot and the other merchant waited at least that long.
    const fair = await startApp({ RUN_DISPATCHER: 'false' });
    const hanging = await startReceiver();
    hanging.fallback = 0;
    const healthy = await startReceiver();
    try {
      expect(fair.config.webhookTimeoutMs).toBe(10_000);
      const a = await createMerchant(fair, { name: 'Hanging Receiver', webhookUrl: hanging.url });
      const b = await createMerchant(fair, { name: 'Healthy Receiver', webhookUrl: healthy.url });
      await credit(fair, a.id, 10_000_000);
      await credit(fair, b.id, 10_000_000);
      for (let k = 0; k < 150; k += 25) {
        await Promise.all(Array.from({ length: 25 }, () => http(fair, 'POST', '/api/v1/payouts', { key: a.key, body: payoutBody(1_000) })));
      }
      fair.app.services.runner.start([QUEUE.webhook]);
      // The dispatcher is as busy with A as it will get: its share is out, and hangs.
      await hanging.waitFor(PER_MERCHANT_IN_FLIGHT, 10_000);

      const sent = Date.now();
      const created = await http(fair, 'POST', '/api/v1/payouts', { key: b.key, body: payoutBody(2_000) });
      expect(created.status).toBe(201);
      const [arrived] = await healthy.waitFor(1, 5_000);
      expect(arrived!.at - sent).toBeLessThan(5_000);
      // The claim that took B's delivery took none more of A's: A still has its share, no more.
      expect(hanging.received).toHaveLength(PER_MERCHANT_IN_FLIGHT);
      expect(JSON.parse(arrived!.body)).toMatchObject({ type: 'payout.created', data: { id: created.body.data.id } });
      // A still has only its share out, the rest of its backlog waiting its turn.
      expect(hanging.received).toHaveLength(PER_MERCHANT_IN_FLIGHT);
      const leased = await fair.database.db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('queue', '=', QUEUE.webhook)
        .where('merchant_id', '=', a.id)
        .where('locked_until', '>', new Date())
        .executeTakeFirstOrThrow();
      expect(Number(leased.n)).toBe(PER_MERCHANT_IN_FLIGHT);
    } finally {
      await fair.close();
      await hanging.close();
      await healthy.close();
    }
  }, 60_000);
});
