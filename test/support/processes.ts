import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json?: any;
}

/** Runs `zarpay …` exactly as an operator would (`bin/zarpay.js`), returning its output. */
export async function zarpay(args: string[], env: Record<string, string>): Promise<CliResult> {
  const child = spawn(process.execPath, ['bin/zarpay.js', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const [code] = (await once(child, 'exit')) as [number];
  let json: unknown;
  try {
    json = JSON.parse(code === 0 ? stdout : stderr);
  } catch {
    // not JSON
  }
  return { code, stdout, stderr, json };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** Starts `node src/main.ts` as `npm start` does and waits until /healthz answers. */
export async function startService(env: Record<string, string>): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const port = env.PORT ?? String(await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', ...env, PORT: port },
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}: ${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { child, url, output: () => output };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`service did not start: ${output}`);
}
