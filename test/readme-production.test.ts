import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { usingPostgres } from './support/app.ts';
import { freePort, ROOT } from './support/processes.ts';

/**
 * The README's production walk (issue 14, "Done means"), run as written: `SERVICE_ENV=prd`
 * refuses to start without a provider; then, with the Yoco double as its own process and the TLS
 * front end stand-in, a payment goes from initiation through Yoco's checkout and signed webhook to
 * captured, and its credited amount is paid out. Every `sh prd` block runs as written, in order,
 * in one shell, in a scratch checkout, with PORT, FRONT_PORT and YOCO_PORT set to free ports, twice.
 */
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```sh prd\n([\s\S]*?)```/g)].map((m) => m[1]!);

describe.skipIf(!usingPostgres)('the README production walk (needs PostgreSQL: prd requires DATABASE_URL)', () => {
  // The walk makes its own database, new each run; this one's name is the test's own.
  const admin = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const dbName = `zarpay_prd_walk_${process.pid}_${Date.now()}`;
  afterAll(async () => {
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    await client.query(`drop database if exists ${dbName} with (force)`);
    await client.end();
  });

  it('has its blocks', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(6);
  });

  /** Whether anything accepts connections on the port. */
  const listening = (port: number) =>
    new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });

  it('walks a payment through Yoco\'s checkout and signed webhook to captured, and pays the credited amount out; twice, leaving nothing running', async () => {
    // A scratch checkout: the repository's files linked into a new directory, so the walk runs
    // as written (npm start, npx zarpay, node --import tsx) and its files land in the scratch.
    const dir = mkdtempSync(join(tmpdir(), 'zarpay-prd-walk-'));
    // Everything but the files a walk writes (JSON and logs of its own) and the embedded database.
    const walkOutput = (name: string) => (/\.(json|log)$/.test(name) && !/^(package|package-lock|tsconfig.*)\.json$/.test(name)) || name === '.data';
    for (const entry of readdirSync(ROOT)) if (!walkOutput(entry)) symlinkSync(join(ROOT, entry), join(dir, entry));
    const [zarpay, front, yoco] = [await freePort(), await freePort(), await freePort()];
    let out = '';
    for (const run of [1, 2]) {
      const child = spawn('bash', ['-c', ['set -euo pipefail', ...blocks].join('\n')], {
        cwd: dir,
        detached: true,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          PORT: String(zarpay),
          FRONT_PORT: String(front),
          YOCO_PORT: String(yoco),
          WALK_DB: dbName,
        },
      });
      out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      try {
        const [code] = (await once(child, 'exit')) as [number];
        expect(code, `run ${run}: ${out}`).toBe(0);
        // The walk stopped the service and both stand-ins itself: the next run finds its ports free.
        for (const port of [zarpay, front, yoco]) expect(await listening(port), `run ${run}: port ${port}`).toBe(false);
      } finally {
        // Whatever a failed walk left running.
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    // prd without a provider: one line naming the missing settings, exit 1.
    expect(out).toContain('zarpay: invalid settings: SERVICE_ENV=prd requires a real payment provider: set YOCO_SECRET_KEY, YOCO_WEBHOOK_SECRET (Yoco)\nrefused, exit 1');
    // Pay hands the customer to Yoco; Yoco's page sends them back to zarpay.
    expect(out).toMatch(new RegExp(`303 http://127\\.0\\.0\\.1:${front}/pay/[0-9a-f-]{36}/checkout`));
    expect(out).toMatch(/303 https:\/\/pay\.example\.co\.za\/pay\/[0-9a-f-]{36}\/return\?outcome=success/);
    // Captured by the signed webhook (one accepted), the net credited, then paid out.
    expect(out).toMatch(/^1$/m);
    expect(out).toMatch(/"status":"captured","failure_reason":null,"amount":300000,"currency":"ZAR","fee_cents":7500,"net_amount_cents":292500,"latest_attempt":\{"status":"succeeded","provider":"yoco"/);
    expect(out).toMatch(/"voucher_code":"\d{4}-\d{4}-\d{4}-\d{4}","voucher_redeemed":false/);
    expect(out).toContain('"available_cents":292500');
    const payout = JSON.parse(readFileSync(join(dir, 'payout.json'), 'utf8'));
    expect(payout.data).toMatchObject({ status: 'pending', amount_cents: 292_500, gross_amount_cents: 292_500 });
    // The operator's view masks the account; the audited reveal shows it.
    expect(out).toContain('"account_number_masked": "****5678"');
    expect(out).toContain('"account_number": "62012345678"');
    expect(out).toMatch(/"action": "payout.reveal_bank_account"/);
    const log = readFileSync(join(dir, 'zarpay.log'), 'utf8');
    expect(log).toContain('customer e-mail confirmations: off (SMTP_URL is not set), nothing is sent');
    expect(log).toContain('"provider":"yoco","providers":["yoco"]');
    expect(log).not.toContain('62012345678');
  }, 480_000);
});
