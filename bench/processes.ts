import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { openSync } from 'node:fs';
import { freePort, ROOT } from '../test/support/processes.ts';

/** The service's old-generation cap, as a production start command sets it (docs/production.md). */
export const OLD_SPACE_MIB = 160;

export interface Child {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/**
 * Spawns `node <entry>` (compiled JavaScript) or `node --import tsx <entry>` (TypeScript) with its
 * output in `logFile`; waits until `/healthz` answers. On `env.PORT` when given (a restart keeps
 * its address), else on a free port.
 */
export async function spawnServer(entry: string, env: Record<string, string>, logFile: string, nodeFlags: string[] = []): Promise<Child> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const log = openSync(logFile, 'a');
  const loader = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...nodeFlags, ...loader, entry], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, PORT: String(port) },
    stdio: ['ignore', log, log],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}; see ${logFile}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${entry} did not start; see ${logFile}`);
    }
    try {
      if ((await fetch(`${url}/healthz`)).status < 500) break;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    child,
    url,
    async stop() {
      // Exited already, by itself or by a signal (a Ctrl-C reaches the whole process group).
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
