import { OPERATOR } from '../src/domain/actor.ts';
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRD_PROVIDER, startApp, type TestApp, usingPostgres } from './support/app.ts';
import { http, payoutBody } from './support/client.ts';
import { ROOT, startService, zarpay } from './support/processes.ts';

describe('the service process (npm start)', () => {
  it('refuses to start in prd without its required settings, naming them', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', SERVICE_ENV: 'prd', DATA_DIR: mkdtempSync(join(tmpdir(), 'zp-')) },
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('OPERATOR_TOKEN, SERVICE_SECRET, DATABASE_URL');
    expect(r.stderr).toContain('requires a real payment provider: set YOCO_SECRET_KEY, YOCO_WEBHOOK_SECRET');
    // One line.
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('says in one line why it cannot start, and exits 1: bad settings, a busy port, a database that does not answer', async () => {
    const start = (env: Record<string, string>) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', DATA_DIR: mkdtempSync(join(tmpdir(), 'zp-')), LOG_LEVEL: 'silent', ...env },
        encoding: 'utf8',
        timeout: 60_000,
      });
    const oneLine = (r: ReturnType<typeof start>) => {
      expect(r.status).toBe(1);
      const lines = r.stderr.trim().split('\n');
      expect(lines, r.stderr).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      return lines[0]!;
    };
    expect(oneLine(start({ PORT: 'eighty' }))).toBe('zarpay: invalid settings: PORT: PORT must be a whole number');

    const busy = createServer();
    busy.listen(0, '127.0.0.1');
    await once(busy, 'listening');
    const port = (busy.address() as AddressInfo).port;
    try {
      expect(oneLine(start({ PORT: String(port) }))).toBe(`zarpay: port ${port} on 127.0.0.1 is already in use (another zarpay?): stop it or set PORT to a free port`);
    } finally {
      busy.close();
    }

    const down = oneLine(start({ DATABASE_URL: 'postgres://zarpay:s3cret@127.0.0.1:9/zarpay' }));
    expect(down).toBe('zarpay: cannot reach the database at postgres://zarpay:***@127.0.0.1:9/zarpay (ECONNREFUSED): is PostgreSQL running, and is DATABASE_URL right?');
  }, 120_000);

  it('keeps the embedded database across restarts, logs JSON without keys, and exits cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'zp-embedded-'));
    const first = await startService({ DATA_DIR: dataDir });
    const env = { ZARPAY_URL: first.url, DATA_DIR: dataDir };
    const m = (await zarpay(['merchant', 'create', '--name', 'Persistent'], env)).json;
    await zarpay(['balance', 'credit', m.merchant_id, '5000'], env);
    const created = await http({ url: first.url }, 'POST', '/api/v1/payouts', { key: m.api_key, body: payoutBody(1_000) });
    expect(created.status).toBe(201);

    first.child.kill('SIGTERM');
    const [code] = await once(first.child, 'exit');
    expect(code).toBe(0);

    const logs = first.output();
    // One human line says where everything is (on stderr; stdout is the JSON log).
    expect(logs).toMatch(/^zarpay \(tst\) on http:\/\/localhost:\d+: API .*\/api\/v1, reference .*\/docs, GraphQL .*\/graphql, health .*\/healthz; operator token: .*operator-token$/m);
    const lines = logs.split('\n').filter((l) => l.startsWith('{'));
    expect(lines.length).toBeGreaterThan(3);
    for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
    expect(lines.some((l) => JSON.parse(l).reqId)).toBe(true);
    expect(logs).not.toContain(m.api_key);
    expect(logs).not.toContain(m.api_key.split('-')[3]);

    const second = await startService({ DATA_DIR: dataDir });
    try {
      const again = await http({ url: second.url }, 'GET', `/api/v1/payouts/${created.body.data.id}`, { key: m.api_key });
      expect(again.status).toBe(200);
      expect(again.body.data.status).toBe('pending');
    } finally {
      second.child.kill('SIGTERM');
      await once(second.child, 'exit');
    }
  }, 240_000);
});

describe('draining', () => {
  it('lets a request in flight finish before stop() resolves, and refuses new ones', async () => {
    const t = await startApp();
    const m = await t.app.services.merchants.create(OPERATOR, { name: 'Drain', webhookUrl: null });
    const balances = t.app.services.balances;
    const original = balances.get.bind(balances);
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => (entered = r));
    balances.get = async (actor, merchantId) => {
      entered();
      await new Promise((r) => setTimeout(r, 400));
      return original(actor, merchantId);
    };
    const inflight = http(t, 'GET', '/api/v1/payouts/balance', { key: m.fullKey });
    await inHandler;
    const stopping = t.app.stop();
    const answered = await inflight;
    expect(answered.status).toBe(200);
    expect(answered.body.data.merchant_id).toBe(m.merchant.id);
    await stopping;
    await expect(fetch(`${t.url}/healthz`)).rejects.toThrow();
    await t.close();
  });
});

describe.skipIf(!usingPostgres)('production transport (needs PostgreSQL: prd requires DATABASE_URL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({
      SERVICE_ENV: 'prd',
      OPERATOR_TOKEN: 'o'.repeat(40),
      SERVICE_SECRET: 's'.repeat(40),
      TRUST_PROXY: '127.0.0.1',
      ...PRD_PROVIDER,
    });
  });
  afterAll(() => t?.close());

  it('refuses plain HTTP with 403 FORBIDDEN unless a trusted proxy says https', async () => {
    const plain = await http(t, 'GET', '/api/v1/payouts/balance');
    expect(plain.status).toBe(403);
    expect(plain.body.error.code).toBe('FORBIDDEN');
    const proxied = await http(t, 'GET', '/api/v1/payouts/balance', { headers: { 'x-forwarded-proto': 'https' } });
    expect(proxied.status).toBe(401);
    expect((await http(t, 'GET', '/healthz')).status).toBe(200);
  });

  it('protects /metrics with the operator token in prd', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    expect((await http(t, 'GET', '/metrics', { headers: https })).status).toBe(401);
    const ok = await fetch(`${t.url}/metrics`, { headers: { ...https, authorization: `Bearer ${'o'.repeat(40)}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('zarpay_http_requests_total');
  });

  it('serves no GraphiQL in prd', async () => {
    const res = await fetch(`${t.url}/graphql`, { headers: { accept: 'text/html', 'x-forwarded-proto': 'https' } });
    expect(await res.text()).not.toContain('graphiql');
  });
});
