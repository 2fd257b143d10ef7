import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, ROOT, startService } from './support/processes.ts';

/**
 * Like the README's, the shell examples in docs/*.md are followed step by step, so they must
 * work as written: every `sh` block of a page runs, in order, in one shell, against a running
 * service. A block that must not run (it starts a server, or streams until interrupted) is
 * fenced as `text` with a comment saying why; `bash` is not used in docs/.
 */
const DOCS = join(ROOT, 'docs');
const pages = readdirSync(DOCS)
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((file) => {
    const text = readFileSync(join(DOCS, file), 'utf8');
    return { file, text, blocks: [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!) };
  });

describe('the shell examples in docs/', () => {
  let service: Awaited<ReturnType<typeof startService>>;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'zarpay-docs-'));
    service = await startService({ DATA_DIR: dataDir, SANDBOX_CONFIRM_DELAY_MS: '100' });
  });
  afterAll(async () => {
    service?.child.kill('SIGTERM');
    if (service) await once(service.child, 'exit');
  });

  it('use sh for what runs and text for what does not', () => {
    for (const { file, text } of pages) expect(text, file).not.toMatch(/```bash\n/);
    expect(pages.filter((p) => p.blocks.length > 0).map((p) => p.file)).toEqual(expect.arrayContaining(['graphql.md', 'payments.md', 'typescript.md']));
  });

  it.each(pages.filter((p) => p.blocks.length > 0).map((p) => [p.file, p] as const))('%s runs as written', async (_file, page) => {
    const cwd = mkdtempSync(join(tmpdir(), 'zarpay-docs-walk-'));
    // `npx zarpay` and the project's other tools resolve inside the checkout only; the walk runs
    // in a scratch directory, so point npx at the checkout's own bins (nothing is downloaded).
    const npx = `npx() { if [ "$1" = zarpay ]; then shift; node ${JSON.stringify(join(ROOT, 'bin/zarpay.js'))} "$@"; elif [ -x ${JSON.stringify(join(ROOT, 'node_modules/.bin'))}/"$1" ]; then local c="$1"; shift; ${JSON.stringify(join(ROOT, 'node_modules/.bin'))}/"$c" "$@"; else command npx "$@"; fi; }`;
    const child = spawn('bash', ['-c', ['set -euo pipefail', npx, ...page.blocks].join('\n')], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: new URL(service.url).port, DATA_DIR: dataDir, RECEIVER_PORT: String(await freePort()) },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const [code] = (await once(child, 'exit')) as [number];
    expect(code, out).toBe(0);
    expect(out).not.toMatch(/"status":\s*"error"|"errors":/);
    if (page.file === 'payments.md') expect(out).toContain('"status":"captured"');
    if (page.file === 'graphql.md') expect(out).toContain('"grossAmountCents":25500');
  }, 120_000);
});
