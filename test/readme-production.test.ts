import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, usingPostgres } from './support/app.ts';
import { freePort, ROOT } from './support/processes.ts';

/**
 * The README's production walk (issue 14, "Done means"), run as written: `SERVICE_ENV=prd`
 * refuses to start without a provider; then, with the Yoco double as its own process and the TLS
 * front end stand-in, a payment goes from initiation through Yoco's checkout and signed webhook to
 * captured, and its credited amount is paid out. Every `sh prd` block runs as written, in order,
 * in one shell, in a scratch directory, with PORT, FRONT_PORT and YOCO_PORT set to free ports.
 */
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```sh prd\n([\s\S]*?)```/g)].map((m) => m[1]!);

describe.skipIf(!usingPostgres)('the README production walk (needs PostgreSQL: prd requires DATABASE_URL)', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(async () => {
    await db?.handle.close();
    await db?.drop();
  });

  it('has its blocks', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(6);
  });

  it('walks a payment through Yoco\'s checkout and signed webhook to captured, and pays the credited amount out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zarpay-prd-walk-'));
    const [zarpay, front, yoco] = [await freePort(), await freePort(), await freePort()];
    // The walk runs from the repository root; here it runs in a scratch directory, so the
    // project's own commands are run from the root and `npx zarpay` is the checkout's bin.
    const shims = [
      `npm() { (cd ${JSON.stringify(ROOT)} && command npm "$@"); }`,
      `npx() { if [ "$1" = zarpay ]; then shift; node ${JSON.stringify(join(ROOT, 'bin/zarpay.js'))} "$@"; else (cd ${JSON.stringify(ROOT)} && command npx "$@"); fi; }`,
    ];
    const script = ['set -euo pipefail', ...shims, ...blocks].join('\n');
    const child = spawn('bash', ['-c', script], {
      cwd: dir,
      detached: true,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        PORT: String(zarpay),
        FRONT_PORT: String(front),
        YOCO_PORT: String(yoco),
        DATABASE_URL: db.url!,
      },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    try {
      const [code] = (await once(child, 'exit')) as [number];
      expect(code, out).toBe(0);
    } finally {
      // Whatever the walk left running (it kills its background jobs itself when it succeeds).
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    // prd without a provider: one line naming the missing settings, exit 1.
    expect(out).toContain('zarpay: invalid settings: SERVICE_ENV=prd requires a real payment provider: set YOCO_SECRET_KEY, YOCO_WEBHOOK_SECRET (Yoco)\nrefused, exit 1');
    // Pay hands the customer to Yoco; Yoco's page sends them back to zarpay.
    expect(out).toMatch(new RegExp(`303 http://127\\.0\\.0\\.1:${front}/pay/[0-9a-f-]{36}/checkout`));
    expect(out).toMatch(/303 https:\/\/pay\.example\.co\.za\/pay\/[0-9a-f-]{36}\/return\?outcome=success/);
    // Captured by the signed webhook (one accepted), the net credited, then paid out.
    expect(out).toMatch(/^1$/m);
    expect(out).toMatch(/"status":"captured","amount":300000,"currency":"ZAR","fee_cents":7500,"net_amount_cents":292500,"latest_attempt":\{"status":"succeeded","provider":"yoco"/);
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
  }, 240_000);
});
