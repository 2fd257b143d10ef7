import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, ROOT } from '../test/support/processes.ts';
import { runReadmeWalk } from '../test/support/readme-walk.ts';
import { rssMiB } from './rss.ts';

/** The embedded default's memory, in MiB, around the README's walk. */
export interface EmbeddedWalk {
  /** The service's RSS once /healthz answers: initdb and the migrations done. */
  startedRssMiB: number | null;
  /** Its RSS once every `sh` block of the README has run: the figure the target is about. */
  afterWalkRssMiB: number | null;
  /** Its VmHWM by then (the kernel's peak, reached during initdb on a new DATA_DIR). */
  peakRssMiB: number | null;
  /** npm's own process, which `npm start` keeps beside the service until it ends. */
  npmRssMiB: number | null;
  startSeconds: number;
  walkSeconds: number;
}

/** The processes `pid` started (from /proc: Linux only, like the rest of the benchmark). */
function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
    readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
}

/**
 * `npm start` on a new DATA_DIR without DATABASE_URL, as a newcomer runs it (the compiled service
 * when build/ is fresh, as after `npm install`), then the README's walk against it
 * (test/support/readme-walk.ts, the blocks test/readme.test.ts runs), then its memory. The start
 * script `exec`s node, so npm's one child is the service itself.
 */
export async function embeddedWalk(workDir: string): Promise<EmbeddedWalk> {
  const dataDir = mkdtempSync(join(workDir, 'embedded-'));
  const port = String(await freePort());
  const log = openSync(join(workDir, 'embedded.log'), 'a');
  const t0 = performance.now();
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: port, DATA_DIR: dataDir },
    stdio: ['ignore', log, log],
  });
  let service: number | undefined;
  try {
    const deadline = Date.now() + 180_000;
    for (;;) {
      if (npm.exitCode !== null) throw new Error(`npm start exited with ${npm.exitCode}; see ${join(workDir, 'embedded.log')}`);
      if (Date.now() > deadline) throw new Error(`npm start did not answer /healthz in 3 minutes; see ${join(workDir, 'embedded.log')}`);
      const up = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
      if (up) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const startSeconds = (performance.now() - t0) / 1000;
    service = childrenOf(npm.pid!)[0];
    if (!service) throw new Error('npm start has no child process');
    const startedRssMiB = rssMiB(service);
    const t1 = performance.now();
    const walk = await runReadmeWalk({ cwd: dataDir, port, receiverPort: String(await freePort()), dataDir });
    if (walk.code !== 0) throw new Error(`the README walk failed (exit ${walk.code}):\n${walk.output.slice(-3000)}`);
    return {
      startedRssMiB,
      afterWalkRssMiB: rssMiB(service),
      peakRssMiB: rssMiB(service, 'VmHWM'),
      npmRssMiB: rssMiB(npm.pid!),
      startSeconds,
      walkSeconds: (performance.now() - t1) / 1000,
    };
  } finally {
    if (npm.exitCode === null && npm.signalCode === null) {
      const exited = once(npm, 'exit');
      // npm passes the signal on to the service and ends with it.
      npm.kill('SIGTERM');
      const timer = setTimeout(() => {
        npm.kill('SIGKILL');
        if (service) process.kill(service, 'SIGKILL');
      }, 15_000);
      await exited;
      clearTimeout(timer);
    }
  }
}
