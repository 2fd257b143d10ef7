import type { PGlite } from '@electric-sql/pglite';
import { setFlagsFromString } from 'node:v8';

/**
 * PostgreSQL's settings for the embedded database, after PGlite's own: one small process on a
 * laptop or a 1 GB machine, not a server. `shared_buffers` is 16MB instead of 128MB (and
 * `wal_buffers`, a 32nd of it, 512kB): the operating system's page cache keeps the data files
 * warm below it, and the buffers sit inside PGlite's WebAssembly memory, which never gives a page
 * back. The rest were measured and left alone: `work_mem`, `maintenance_work_mem` and
 * `temp_buffers` are taken only while a sort, an index build or a temporary table needs them, and
 * `max_connections` sizes a few MB of lock tables (bench/README.md, "The embedded default").
 */
export const EMBEDDED_SETTINGS = ['-c', 'shared_buffers=16MB'];

/**
 * Opens PGlite on `dataDir` (`memory://` for tests) tuned for one small process.
 *
 * Its WebAssembly runs on V8's baseline compiler alone (`--liftoff-only`, set before PGlite
 * compiles anything; it holds for the whole process). V8 otherwise recompiles PostgreSQL's hot
 * functions with its optimising compiler as they run: on a new data directory, during initdb and
 * the migrations, that peaked at 140 MB of compiler memory on the C heap, which glibc kept long
 * after (90 MB of the 720 MB a newcomer's first `npm start` held), besides the optimised code.
 * What it costs in speed is measured in bench/README.md. Every function of PGlite's WebAssembly
 * compiles with the baseline compiler (test/embedded.test.ts checks it, for each upgrade).
 */
export async function openPGlite(dataDir: string): Promise<PGlite> {
  setFlagsFromString('--liftoff-only');
  const { PGlite } = await import('@electric-sql/pglite');
  // PGlite's own start parameters (single user, no parallel workers…) are kept, ours appended.
  return PGlite.create(dataDir, { startParams: [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS] });
}
