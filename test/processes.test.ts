import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, usingPostgres } from './support/app.ts';
import { operatorOn, type ServiceProcess, spawnService } from './support/process.ts';
import { QUEUE } from '../src/domain/jobs.ts';
import { drained, eventually, type Receiver, startReceiver } from './support/receiver.ts';
import { sseClient, subscribe } from './support/sse.ts';

async function merchantOn(s: ServiceProcess, webhookUrl: string) {
  const d = await operatorOn(s, 'mutation($i: MerchantInput!) { createMerchant(input: $i) { merchant { id } fullKey } }', { i: { name: 'Proc Shop', webhookUrl } });
  const m = { id: d.createMerchant.merchant.id as string, key: d.createMerchant.fullKey as string };
  await operatorOn(s, 'mutation($m: UUID!) { creditBalance(merchantId: $m, amountCents: 1000000) { balance { balanceCents } } }', { m: m.id });
  return m;
}

async function payoutOn(s: ServiceProcess, key: string) {
  const res = await fetch(`${s.url}/api/v1/payouts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({
      amount_cents: 1_000,
      currency: 'ZAR',
      payout_method: 'eft',
      payment_details: { account_number: '62012345678', branch_code: '250655', account_holder: 'T N', bank_name: 'FNB' },
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: string } }).data;
}

describe.skipIf(!usingPostgres)('service processes on one PostgreSQL database (needs PostgreSQL: set DATABASE_URL)', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let receiver: Receiver;
  const running: ServiceProcess[] = [];
  const service = async (env: Record<string, string> = {}) => {
    const s = await spawnService({ DATABASE_URL: db.url!, WEBHOOK_TIMEOUT_MS: '500', ...env });
    running.push(s);
    return s;
  };

  beforeAll(async () => {
    db = await freshDatabase();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    for (const s of running) await s.stop();
    await receiver?.close();
    await db?.handle.close();
    await db?.drop();
  });

  it('loses nothing across kill -9: pending and mid-flight deliveries complete after a restart', async () => {
    receiver.received.length = 0;
    receiver.plan = [0]; // the first POST hangs: the process dies holding its lease
    receiver.fallback = 500;
    const first = await service({ WEBHOOK_RETRY_DELAYS_MS: '1500,1500,1500,1500' });
    const shop = await merchantOn(first, receiver.url);
    const payouts = [await payoutOn(first, shop.key), await payoutOn(first, shop.key), await payoutOn(first, shop.key)];
    await receiver.waitFor(3);
    await first.kill9();

    const rows = await db.handle.db.selectFrom('webhook_deliveries').selectAll().where('merchant_id', '=', shop.id).execute();
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.status === 'pending')).toBe(true);
    // The hung one (and any whose answer had not been recorded) is a job still held by an unexpired lease.
    const jobs = await db.handle.db.selectFrom('jobs').selectAll().where('queue', '=', 'webhook.deliver').where('key', 'in', rows.map((r) => r.id)).execute();
    const now = Date.now();
    expect(jobs).toHaveLength(3);
    expect(jobs.some((j) => j.locked_until !== null && j.locked_until.getTime() > now && rows.find((r) => r.id === j.key)!.attempts === 0)).toBe(true);

    receiver.fallback = 200;
    await service({ WEBHOOK_RETRY_DELAYS_MS: '50,50,50,50' });
    const done = await eventually(async () => {
      const r = await db.handle.db.selectFrom('webhook_deliveries').selectAll().where('merchant_id', '=', shop.id).execute();
      return r.every((d) => d.status === 'succeeded') ? r : undefined;
    }, 20_000);
    expect(done).toHaveLength(3);
    const events = await db.handle.db.selectFrom('events').select(['id', 'payout_id']).where('merchant_id', '=', shop.id).execute();
    expect(events.map((e) => e.payout_id).sort()).toEqual(payouts.map((p) => p.id).sort());
    const okIds = new Set(
      receiver.received.filter((r, i) => i >= 3 && JSON.parse(r.body).data.merchant_id === shop.id).map((r) => r.headers['webhook-id']),
    );
    for (const e of events) expect(okIds.has(e.id)).toBe(true);
  }, 60_000); // three service processes started in turn, one killed

  it('streams to subscribers on one process what another process commits, and sends each webhook once', async () => {
    receiver.received.length = 0;
    receiver.plan = [];
    receiver.fallback = 200;
    const [a, b] = [running.at(-1)!, await service({ WEBHOOK_RETRY_DELAYS_MS: '50,50,50,50' })];
    const shop = await merchantOn(b, receiver.url);
    const client = sseClient(a.url, false, { 'x-api-key': shop.key });
    const sub = subscribe(client, 'subscription { payoutEvents { id type payout { id status } } }');
    // Subscribed once process A counts the stream open (its /metrics).
    await eventually(async () => Number(/^zarpay_subscriptions (\d+)/m.exec(await (await fetch(`${a.url}/metrics`)).text())?.[1]) > 0);

    const p = await payoutOn(b, shop.key);
    await operatorOn(b, `mutation { approvePayout(id: "${p.id}") { payout { id } } }`);
    const [created, approved] = await sub.waitFor(2);
    expect(created!.data.payoutEvents).toMatchObject({ type: 'payout.created', payout: { id: p.id, status: 'PENDING' } });
    expect(approved!.data.payoutEvents).toMatchObject({ type: 'payout.approved', payout: { id: p.id, status: 'APPROVED' } });

    // Two dispatchers share the queue: each event reaches the receiver exactly once.
    await receiver.waitFor(2);
    await drained(db.handle.db, QUEUE.webhook);
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(ids.sort()).toEqual([created!.data.payoutEvents.id, approved!.data.payoutEvents.id].sort());
    sub.dispose();
    client.dispose();
  });

  it('refuses a key revoked on one process on the other one too, though it had the key in memory', async () => {
    const [a, b] = [running.at(-2)!, running.at(-1)!];
    const shop = await merchantOn(a, receiver.url);
    const balanceOn = async (s: ServiceProcess) =>
      (await fetch(`${s.url}/api/v1/payouts/balance`, { headers: { 'x-api-key': shop.key } })).status;
    expect(await balanceOn(b)).toBe(200);
    expect(await balanceOn(b)).toBe(200);
    const kid = shop.key.split('-')[2];
    await operatorOn(a, `mutation { revokeApiKey(kid: "${kid}") { apiKey { status } } }`);
    expect(await balanceOn(a)).toBe(403);
    const revokedAt = Date.now();
    await eventually(async () => (await balanceOn(b)) === 403, 2000);
    expect(Date.now() - revokedAt).toBeLessThan(2000);
  });
});
