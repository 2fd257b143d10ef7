import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/index.ts';

/**
 * The embedded database is tuned for one small process (src/db/embedded.ts); what that holds
 * after the README walk is a figure of the benchmark (bench/README.md, "The embedded default").
 */
describe('the embedded database', () => {
  it("runs with 16MB of shared buffers (and 512kB of WAL buffers), not PostgreSQL's 128MB", async () => {
    const handle = await openDatabase({ dataDir: 'memory://' });
    try {
      const show = async (name: string) => ((await handle.pglite!.query<Record<string, string>>(`show ${name}`)).rows[0]!)[name];
      expect(await show('shared_buffers')).toBe('16MB');
      expect(await show('wal_buffers')).toBe('512kB');
      // PGlite's own start parameters are kept beside ours.
      expect(await show('max_worker_processes')).toBe('0');
    } finally {
      await handle.close();
    }
  }, 120_000);

  it("compiles every function of PGlite's WebAssembly with V8's baseline compiler alone, as --liftoff-only will", () => {
    // Under --liftoff-only a function the baseline compiler cannot take is a fatal error when it is
    // first called; compiling them all up front turns that into this test failing on an upgrade.
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    for (const file of ['pglite.wasm', 'initdb.wasm']) {
      const compile = `new WebAssembly.Module(require('node:fs').readFileSync(${JSON.stringify(join(dist, file))}))`;
      const run = spawnSync(process.execPath, ['--liftoff-only', '--no-wasm-lazy-compilation', '-e', compile], { encoding: 'utf8' });
      expect(run.status, `${file}: ${run.stderr}`).toBe(0);
    }
  }, 120_000);
});
