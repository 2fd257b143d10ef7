import { OPERATOR } from '../src/domain/actor.ts';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirBusy, LOCK_FILE, lockDataDir } from '../src/db/data-dir-lock.ts';
import { freshDatabase, PRD_PROVIDER, startApp, type TestApp, usingPostgres } from './support/app.ts';
import { http, payoutBody } from './support/client.ts';
import { freePort, ROOT, startService, zarpay } from './support/processes.ts';
import { eventually } from './support/receiver.ts';

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
    expect(logs).toMatch(/^zarpay \(tst\) on http:\/\/localhost:\d+: dashboard .*\/dashboard, API .*\/api\/v1, reference .*\/docs, GraphQL .*\/graphql, health .*\/healthz; operator token: .*operator-token$/m);
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

describe('npm start as a person runs it', () => {
  /** Whether something still accepts connections on the port. */
  const listening = (port: string) =>
    new Promise<boolean>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });

  it('stops the service when the PID npm start gave is signalled: nothing is left listening', async () => {
    const port = String(await freePort());
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: mkdtempSync(join(tmpdir(), 'zp-npm-')), PORT: port, LOG_LEVEL: 'silent' },
    });
    let output = '';
    npm.stderr.on('data', (d) => (output += d));
    try {
      await eventually(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.ok === true || npm.exitCode !== null, 90_000);
      expect(npm.exitCode, output).toBeNull();
      npm.kill('SIGTERM');
      await once(npm, 'exit');
      // The service behind the wrapper ends too, within its 5 s (CONTRACT §1), not only npm.
      await eventually(async () => !(await listening(port)), 15_000);
    } finally {
      if (npm.exitCode === null) npm.kill('SIGKILL');
    }
  }, 120_000);

  const oldNode = ['/usr/bin/node', '/usr/local/bin/node']
    .map((path) => ({ path, version: existsSync(path) ? spawnSync(path, ['--version'], { encoding: 'utf8' }).stdout.trim() : '' }))
    .find((n) => /^v(1\d|2[01])\./.test(n.version));
  it.skipIf(!oldNode)(`refuses a Node.js older than 22 in one line, at start and in the CLI (needs an old node at /usr/bin/node)`, () => {
    for (const entry of ['bin/start.js', 'bin/zarpay.js']) {
      const r = spawnSync(oldNode!.path, [entry, '--help'], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(`zarpay: Node.js ${oldNode!.version.slice(1)} is not supported; use Node.js 22 (22.15 or newer) or 24 (see .nvmrc)\n`);
    }
  });
});


describe('one process per embedded database (CONTRACT §9)', () => {
  const oneLine = (stderr: string) => {
    const lines = stderr.trim().split('\n');
    expect(lines, stderr).toHaveLength(1);
    return lines[0]!;
  };
  const startAgain = (dataDir: string) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' },
      });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.once('exit', (code) => resolve({ code, stderr }));
    });

  it('refuses a second npm start and zarpay migrate, dispatcher, reconciler and rotate-data-key on a DATA_DIR in use, naming it and the holding process; a start after kill -9 works', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'zp-one-'));
    const first = await startService({ DATA_DIR: dataDir });
    const pid = first.child.pid!;
    const holder = new RegExp(`^the embedded database in ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in use by process ${pid} \\(the service, since [0-9T:.Z-]+\\): one process per DATA_DIR`);
    const env = { ZARPAY_URL: first.url, DATA_DIR: dataDir };
    const m = (await zarpay(['merchant', 'create', '--name', 'Locked In'], env)).json;
    await zarpay(['balance', 'credit', m.merchant_id, '5000'], env);
    const created = await http({ url: first.url }, 'POST', '/api/v1/payouts', { key: m.api_key, body: payoutBody(1_000) });
    expect(created.status).toBe(201);

    const second = await startAgain(dataDir);
    expect(second.code).toBe(1);
    expect(oneLine(second.stderr).replace(/^zarpay: /, '')).toMatch(holder);
    for (const command of ['migrate', 'dispatcher', 'reconciler', 'rotate-data-key']) {
      const refused = await zarpay([command], { DATA_DIR: dataDir });
      expect(refused.code, command).toBe(1);
      oneLine(refused.stderr);
      expect(refused.json.code, command).toBe('SERVICE_UNAVAILABLE');
      expect(refused.json.message, command).toMatch(holder);
    }
    // The commands that talk to the service still work beside it.
    expect((await zarpay(['payout', 'list'], env)).json.total).toBe(1);

    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    // Its lock is still there, naming a process that is gone: the next start takes it at once.
    expect(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).toContain(`"pid":${pid}`);
    const restarted = await startService({ DATA_DIR: dataDir });
    try {
      expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(restarted.child.pid);
      const again = await http({ url: restarted.url }, 'GET', `/api/v1/payouts/${created.body.data.id}`, { key: m.api_key });
      expect(again.status).toBe(200);
    } finally {
      restarted.child.kill('SIGTERM');
      await once(restarted.child, 'exit');
    }
    // A clean stop leaves the directory free, for a command that opens it alone.
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    const migrated = await zarpay(['migrate'], { DATA_DIR: dataDir });
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.json).toEqual({ ok: true, applied: [], database: 'embedded' });
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  }, 240_000);

  it('takes over a lock whose process is gone, and refuses one held by a live process', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'zp-lock-'));
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const lockOf = (pid: number) => JSON.stringify({ pid, host: hostname(), command: 'zarpay dispatcher', since: '2026-11-20T08:00:00.000Z' });
    writeFileSync(join(dataDir, LOCK_FILE), lockOf(Number(gone.stdout)));
    const lock = lockDataDir(dataDir, 'test');
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    // This process holds it now: opening it again is refused too.
    expect(() => lockDataDir(dataDir, 'test')).toThrow(DataDirBusy);
    lock.release();
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);

    // The parent of this test process is alive: its lock stands.
    writeFileSync(join(dataDir, LOCK_FILE), lockOf(process.ppid));
    expect(() => lockDataDir(dataDir, 'test')).toThrow(
      `the embedded database in ${dataDir} is in use by process ${process.ppid} (zarpay dispatcher, since 2026-11-20T08:00:00.000Z): one process per DATA_DIR; stop it first, or use the running service`,
    );
    // Another host's process cannot be looked at from here: its lock stands while it is renewed…
    writeFileSync(join(dataDir, LOCK_FILE), JSON.stringify({ pid: 1, host: 'other-host', command: 'the service', since: '2026-11-20T08:00:00.000Z' }));
    expect(() => lockDataDir(dataDir, 'test')).toThrow(
      'in use by process 1 on other-host (the service, since 2026-11-20T08:00:00.000Z): one process per DATA_DIR; stop it first, or use the running service; if it no longer runs, the lock is taken over 60 s after it stopped',
    );
    // …and is taken over once it has not been for a minute.
    const minuteAgo = new Date(Date.now() - 61_000);
    utimesSync(join(dataDir, LOCK_FILE), minuteAgo, minuteAgo);
    lockDataDir(dataDir, 'test').release();
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  });

  it.skipIf(!usingPostgres)('takes no lock on PostgreSQL (needs PostgreSQL: set DATABASE_URL)', async () => {
    const db = await freshDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'zp-pg-'));
    try {
      const lock = lockDataDir(dataDir, 'a process that would hold an embedded database');
      const migrated = await zarpay(['migrate'], { DATA_DIR: dataDir, DATABASE_URL: db.url!, SERVICE_SECRET: 's'.repeat(40) });
      expect(migrated.code, migrated.stderr).toBe(0);
      expect(migrated.json.database).toBe('postgres');
      lock.release();
    } finally {
      await db.handle.close();
      await db.drop();
    }
  }, 60_000);
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
