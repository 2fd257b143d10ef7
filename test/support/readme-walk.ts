import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './processes.ts';

/** The README's `sh` blocks, in order: the walk a newcomer follows, as written. */
export function readmeBlocks(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  return [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

export interface WalkOptions {
  /** The scratch directory the walk runs in (it writes merchant.json and friends there). */
  cwd: string;
  /** The service's port, as a reader who chose it would have it. */
  port: string;
  /** The webhook receiver's port. */
  receiverPort: string;
  dataDir: string;
}

/**
 * Runs every `sh` block of the README in one shell, as written; only PORT, RECEIVER_PORT and
 * DATA_DIR are given. Resolves with the exit code and everything the shell printed.
 */
export async function runReadmeWalk(options: WalkOptions): Promise<{ code: number; output: string }> {
  // `npx zarpay` resolves the project's own bin only inside the checkout; the walk runs in a
  // scratch directory, so point it at bin/zarpay.js.
  const npx = `npx() { if [ "$1" = zarpay ]; then shift; node ${JSON.stringify(join(ROOT, 'bin/zarpay.js'))} "$@"; else command npx "$@"; fi; }`;
  const script = ['set -euo pipefail', npx, ...readmeBlocks()].join('\n');
  const child = spawn('bash', ['-c', script], {
    cwd: options.cwd,
    // No ZARPAY_URL: the README derives it from PORT, and the CLI does the same.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: options.port, RECEIVER_PORT: options.receiverPort, DATA_DIR: options.dataDir },
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const [code] = (await once(child, 'exit')) as [number];
  return { code, output };
}
