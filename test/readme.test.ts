import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, ROOT, startService } from './support/processes.ts';
import { readmeBlocks, runReadmeWalk } from './support/readme-walk.ts';

/**
 * The README's walks are documentation a merchant follows step by step, so they must work as
 * written: every `sh` block runs here, in order, in one shell, against a freshly started service
 * on a free port (never the default 8080: the README's commands must follow PORT and ZARPAY_URL;
 * and never a fixed one, so that two runs on one machine do not collide).
 * Nothing in the blocks is rewritten; the shell only gets PORT and RECEIVER_PORT, as a reader
 * who chose other ports would have them.
 */
const blocks = readmeBlocks();

describe('the README walk', () => {
  let service: Awaited<ReturnType<typeof startService>>;
  let dataDir: string;
  let PORT: string;
  beforeAll(async () => {
    PORT = String(await freePort());
    dataDir = mkdtempSync(join(tmpdir(), 'zarpay-readme-'));
    service = await startService({ DATA_DIR: dataDir, SANDBOX_CONFIRM_DELAY_MS: '100', PORT });
  });
  afterAll(async () => {
    service?.child.kill('SIGTERM');
    if (service) await once(service.child, 'exit');
  });

  it('has runnable blocks, and it and docs/ link only inside the repository', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    for (const page of pages) {
      const text = readFileSync(join(ROOT, page), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (target!.startsWith('#')) continue;
        const path = join(ROOT, dirname(page), target!.split('#')[0]!);
        expect(/^[a-z]+:/i.test(target!) || relative(ROOT, path).startsWith('..') ? `${page}: ${target}` : '', 'a link out of the repository').toBe('');
        expect(existsSync(path), `${page}: ${target}`).toBe(true);
      }
    }
  });

  it('runs every sh block as written', async () => {
    const { code, output: out } = await runReadmeWalk({ cwd: dataDir, port: PORT, receiverPort: String(await freePort()), dataDir });
    expect(code, out).toBe(0);
    // The figures the README promises.
    expect(out).toContain('"available_cents":74500');
    expect(out).toContain('"withdrawals_cents":25000');
    expect(out).toContain('"status":"captured"');
    expect(out).toContain('"net_amount_cents":12036');
    expect(out).toContain('"balance_cents":86536');
    // The statement of the day: what moved the balance, and where it ended.
    expect(out).toMatch(/"opening_balance_cents":0,"entries":\[.*"type":"credit".*"type":"payout".*"type":"payout_fee".*"type":"payment".*\],"closing_balance_cents":86536,"total":4/);
    expect(out).toContain('posted_at,type,reference,amount_cents,balance_after_cents,description');
    expect(out).toMatch(/,payment,[0-9a-f-]{36},12036,86536,Payment for order ORD-1001/);
    expect(out).toMatch(/"ok": true/);
    // The receiver verified both deliveries with the secret it was given.
    expect(out).toMatch(/verified payout\.created [0-9a-f-]{36}/);
    expect(out).toMatch(/verified payout\.approved [0-9a-f-]{36}/);
    expect(out).not.toContain('REJECTED');
  }, 240_000);
});
