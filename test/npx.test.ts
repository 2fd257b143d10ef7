import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/processes.ts';

/**
 * `npx zarpay` must run the checkout's own CLI from the first call: npm's exec installs the
 * package of the current directory into its cache whenever that package.json names the command
 * as a bin, packing the checkout first, which reruns `prepare` (a whole build over build/). How
 * long the first call takes in a fresh clone is measured by CI (.ci/run) right after `npm ci`.
 */
describe('npx zarpay', () => {
  it('runs bin/zarpay.js from node_modules/.bin, with an empty npm cache and no network: nothing installed, nothing built', () => {
    const cache = mkdtempSync(join(tmpdir(), 'zarpay-npm-cache-'));
    const compiled = join(ROOT, 'build/src/main.js');
    const builtAt = existsSync(compiled) ? statSync(compiled).mtimeMs : null;
    const run = spawnSync('npx', ['zarpay', '--version'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', npm_config_cache: cache, npm_config_offline: 'true', npm_config_update_notifier: 'false' },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    // npx keeps what it installs under _npx in its cache.
    expect(existsSync(join(cache, '_npx')), 'npx installed something').toBe(false);
    expect(existsSync(compiled) ? statSync(compiled).mtimeMs : null, 'build/ was rewritten').toBe(builtAt);
  }, 150_000);
});
