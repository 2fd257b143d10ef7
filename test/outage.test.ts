import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/index.ts';
import { createApp } from '../src/server.ts';
import { freshDatabase, type TestApp, usingPostgres } from './support/app.ts';
import { createMerchant, credit, expectLedgerOk, gql, http, payoutBody, type TestMerchant } from './support/client.ts';
import { TcpProxy } from './support/tcp-proxy.ts';
import { createServices } from '../src/runtime.ts';

// The outage is simulated by cutting a TCP proxy between the service and PostgreSQL, so the
// shared server keeps running for the other test files. Embedded PGlite cannot go away.
describe.skipIf(!usingPostgres)('PostgreSQL outage (needs PostgreSQL: set DATABASE_URL)', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let direct: Awaited<ReturnType<typeof freshDatabase>>;
  let shop: TestMerchant;

  beforeAll(async () => {
    direct = await freshDatabase();
    const target = new URL(direct.url!);
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    const viaProxy = new URL(direct.url!);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(await proxy.start());
    const database = await openDatabase({ databaseUrl: viaProxy.toString(), dataDir: '' });
    // Rate limits on (the default), so the limiter's own PostgreSQL store goes down too.
    const config = loadConfig({
      SERVICE_ENV: 'tst',
      PORT: '0',
      LOG_LEVEL: 'silent',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'zarpay-test-')),
      DATABASE_URL: viaProxy.toString(),
      ...(process.env.DBG_RL && { RATE_LIMITS: 'off' }),
    });
    const app = createApp(createServices(config, database));
    const url = await app.start();
    t = { url, config, app, database, close: async () => {} };
    shop = await createMerchant(t);
    await credit(t, shop.id, 100_000);
  });

  afterAll(async () => {
    await t?.app.stop();
    await t?.database.close();
    await proxy?.stop();
    await direct?.handle.close();
    await direct?.drop();
  });

  const timed = async <T>(call: () => Promise<T>): Promise<{ value: T; ms: number }> => {
    const started = Date.now();
    const value = await call();
    return { value, ms: Date.now() - started };
  };

  const payoutCount = async () =>
    Number((await direct.handle.db.selectFrom('payouts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('answers 503 SERVICE_UNAVAILABLE on REST and GraphQL, fails /readyz and keeps /healthz, then recovers', async () => {
    const before = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(1_000) });
    expect(before.status).toBe(201);
    const payoutsBefore = await payoutCount();

    await proxy.cut();

    const calls = {
      balance: () => http(t, 'GET', '/api/v1/payouts/balance', { key: shop.key }),
      create: () => http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(2_000) }),
      list: () => http(t, 'GET', '/api/v1/payouts', { key: shop.key }),
      one: () => http(t, 'GET', `/api/v1/payouts/${before.body.data.id}`, { key: shop.key }),
    };
    for (const [name, call] of Object.entries(calls)) {
      const { value: res, ms } = await timed(call);
      expect(res.status, name).toBe(503);
      expect(res.body, name).toMatchObject({ status: 'error', error: { code: 'SERVICE_UNAVAILABLE' }, metadata: { api_version: 'v1' } });
      expect(JSON.stringify(res.body), name).not.toMatch(/ECONNREFUSED|select|127\.0\.0\.1/i);
      expect(ms, name).toBeLessThan(6_000);
    }

    const merchant = await gql(t, '{ viewer { id balance { balanceCents } } }', {}, { key: shop.key });
    expect(merchant.status).toBe(503);
    expect(merchant.body.errors?.[0]?.extensions).toEqual({ code: 'SERVICE_UNAVAILABLE' });
    const operator = await gql(t, '{ merchants { id } }', {}, { operator: true });
    expect(operator.status).toBe(503);
    expect(operator.body.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');
    const mutation = await gql(t, `mutation { creditBalance(merchantId: "${shop.id}", amountCents: 5) { balance { balanceCents } } }`, {}, { operator: true });
    expect(mutation.body.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');

    const ready = await http(t, 'GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect((await http(t, 'GET', '/healthz')).status).toBe(200);
    expect(await payoutCount()).toBe(payoutsBefore);

    await proxy.restore();

    // Recovers by itself: the pool opens new connections, no restart.
    const deadline = Date.now() + 15_000;
    while ((await http(t, 'GET', '/readyz')).status !== 200) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect((await http(t, 'GET', '/api/v1/payouts/balance', { key: shop.key })).status).toBe(200);
    const after = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(3_000) });
    expect(after.status).toBe(201);
    const g = await gql(t, '{ viewer { balance { reservedCents } } }', {}, { key: shop.key });
    expect(g.body.data?.viewer.balance.reservedCents).toBe(4_000);

    // No lost events: every payout, before and after the outage, has its payout.created event,
    // and the refused one left neither a payout nor an event behind.
    const rows = await direct.handle.db
      .selectFrom('payouts as p')
      .leftJoin('events as e', (j) => j.onRef('e.payout_id', '=', 'p.id').on('e.type', '=', 'payout.created'))
      .select(['p.id', 'e.id as event_id'])
      .execute();
    expect(rows).toHaveLength(payoutsBefore + 1);
    expect(rows.every((r) => r.event_id !== null)).toBe(true);
    await expectLedgerOk(t);
  });
});
