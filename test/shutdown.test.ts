import { sql } from 'kysely';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, startApp, type TestApp, usingPostgres } from './support/app.ts';
import { createMerchant, credit, http, payoutBody } from './support/client.ts';
import { ROOT, startService } from './support/processes.ts';
import { eventually } from './support/receiver.ts';

/**
 * `zarpay dispatcher` and `npm start` own every connection they open (database, LISTEN, Redis,
 * deliveries under way) and end within 5 s of SIGINT or SIGTERM, whatever is configured:
 * deliveries under way finish when they can, and are released for another try when they cannot.
 */
const redisUp = await (async () => {
  const r = new Redis('redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 500, enableOfflineQueue: false });
  r.on('error', () => {});
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
})();

const LIMIT_MS = 5_000;
const SECRETS = { OPERATOR_TOKEN: 'shutdown-test-operator-token-0123456789', SERVICE_SECRET: 'shutdown-test-service-secret-0123456789' };

/** Signals a child and measures how long it takes to exit, and with what code. */
async function stopTimed(child: ChildProcess, signal: NodeJS.Signals): Promise<{ ms: number; code: number | null }> {
  const exited = once(child, 'exit') as Promise<[number | null]>;
  const started = performance.now();
  child.kill(signal);
  const [code] = await exited;
  return { ms: performance.now() - started, code };
}

/** `zarpay dispatcher` as an operator starts it; resolves once it says it runs. */
async function startDispatcher(env: Record<string, string>) {
  const child = spawn(process.execPath, ['bin/zarpay.js', 'dispatcher'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...SECRETS, ...env },
  });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  await eventually(async () => err.includes('dispatcher running') || child.exitCode !== null, 30_000);
  if (child.exitCode !== null) throw new Error(`dispatcher exited: ${err}`);
  return child;
}

/** A webhook receiver that answers after `delayMs` (Infinity: never). */
async function slowReceiver(delayMs: number): Promise<{ url: string; arrived: Promise<void>; answered: () => number; server: Server }> {
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  let answered = 0;
  const server = createServer((req, res) => {
    req.resume();
    arrive();
    if (Number.isFinite(delayMs)) setTimeout(() => (answered++, res.writeHead(200).end()), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, arrived, answered: () => answered, server };
}

describe.skipIf(!usingPostgres)('zarpay dispatcher ends within 5 s of a signal (needs PostgreSQL: it shares the database with the service)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ ...SECRETS, RUN_DISPATCHER: 'false' });
  });
  afterAll(() => t?.close());

  const configurations = [
    { name: 'without REDIS_URL', env: {} as Record<string, string> },
    ...(redisUp ? [{ name: 'with REDIS_URL', env: { REDIS_URL: 'redis://127.0.0.1:6379' } }] : []),
  ];

  it.each(configurations.flatMap((c) => (['SIGINT', 'SIGTERM'] as const).map((signal) => ({ ...c, signal }))))(
    '$name, on $signal, idle',
    async ({ env, signal }) => {
      const child = await startDispatcher({ DATABASE_URL: t.databaseUrl!, ...env });
      const { ms, code } = await stopTimed(child, signal);
      expect(code).toBe(0);
      expect(ms).toBeLessThan(LIMIT_MS);
    },
    60_000,
  );

  it('finishes a delivery under way before it exits', async () => {
    const receiver = await slowReceiver(1_500);
    const m = await createMerchant(t, { webhookUrl: receiver.url });
    await credit(t, m.id, 10_000);
    const payout = (await http(t, 'POST', '/api/v1/payouts', { key: m.key, body: payoutBody(1_000) })).body.data;
    const child = await startDispatcher({ DATABASE_URL: t.databaseUrl!, ...(redisUp && { REDIS_URL: 'redis://127.0.0.1:6379' }) });
    await receiver.arrived;
    const { ms, code } = await stopTimed(child, 'SIGINT');
    expect(code).toBe(0);
    expect(ms).toBeLessThan(LIMIT_MS);
    expect(receiver.answered()).toBe(1);
    const delivery = await t.database.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('events as e', 'e.id', 'd.event_id')
      .select(['d.status', 'd.attempts'])
      .where('e.payout_id', '=', payout.id)
      .executeTakeFirstOrThrow();
    expect(delivery).toEqual({ status: 'succeeded', attempts: 1 });
    receiver.server.close();
  }, 60_000);

  it('releases a delivery whose receiver does not answer, without counting an attempt, and still exits in time', async () => {
    const receiver = await slowReceiver(Number.POSITIVE_INFINITY);
    const m = await createMerchant(t, { webhookUrl: receiver.url });
    await credit(t, m.id, 10_000);
    const payout = (await http(t, 'POST', '/api/v1/payouts', { key: m.key, body: payoutBody(1_000) })).body.data;
    const child = await startDispatcher({ DATABASE_URL: t.databaseUrl! });
    await receiver.arrived;
    const { ms, code } = await stopTimed(child, 'SIGTERM');
    expect(code).toBe(0);
    expect(ms).toBeLessThan(LIMIT_MS);
    const delivery = await t.database.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('events as e', 'e.id', 'd.event_id')
      .innerJoin('jobs as j', (join) => join.on('j.queue', '=', 'webhook.deliver').on(sql<boolean>`j.key = d.id::text`))
      .select(['d.status', 'd.attempts', 'j.locked_until', 'j.attempts as tries'])
      .where('e.payout_id', '=', payout.id)
      .executeTakeFirstOrThrow();
    expect(delivery).toEqual({ status: 'pending', attempts: 0, locked_until: null, tries: 0 });
    receiver.server.closeAllConnections();
    receiver.server.close();
  }, 60_000);
});

describe('npm start ends within 5 s of a signal', () => {
  const configurations = [
    { name: 'on the embedded database', env: {} as Record<string, string>, needs: true },
    { name: 'on PostgreSQL with REDIS_URL', env: { REDIS_URL: 'redis://127.0.0.1:6379' }, needs: usingPostgres && redisUp },
  ];
  it.each(configurations.filter((c) => c.needs))('$name', async ({ env }) => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    // A database of the test's own: the admin database is shared by every checkout on the
    // server, and one with other migrations applied would refuse this one.
    const db = env.REDIS_URL ? await freshDatabase() : undefined;
    await db?.handle.close();
    try {
      const extra: Record<string, string> = db ? { DATABASE_URL: db.url!, RATE_LIMITS: 'balance=1000' } : {};
      const service = await startService({ ...SECRETS, DATA_DIR: mkdtempSync(join(tmpdir(), 'zp-stop-')), ...env, ...extra });
      // A refused key counts against the address's budget, so the rate-limit store (Redis) is open.
      await fetch(`${service.url}/api/v1/payouts/balance`, { headers: { 'x-api-key': 'sec1-tst-aaaaaaaaaaaa-x-x' } });
      const { ms, code } = await stopTimed(service.child, 'SIGINT');
      expect(code).toBe(0);
      expect(ms).toBeLessThan(LIMIT_MS);
    } finally {
      await db?.drop();
    }
  }, 120_000);
});
