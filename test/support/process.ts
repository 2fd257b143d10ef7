import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** Everything it wrote to stdout so far (its JSON log lines). */
  output(): string;
  /** SIGKILL: no shutdown code runs. */
  kill9(): Promise<void>;
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
}

export const OPERATOR_TOKEN = 'test-operator-token-for-child-processes';
/** Processes sharing a database must share it: it peppers key hashes and encrypts webhook secrets and bank details. */
export const SERVICE_SECRET = 'test-service-secret-shared-by-every-child-process';

/** `node --import tsx src/main.ts` as its own process, on port 0; resolves once it listens. */
export async function spawnService(env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: join(import.meta.dirname, '../..'),
    env: {
      ...process.env,
      PORT: '0',
      LOG_LEVEL: 'info',
      SERVICE_ENV: 'tst',
      RATE_LIMITS: 'off',
      OPERATOR_TOKEN,
      SERVICE_SECRET,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'zarpay-proc-')),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  let buffer = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start: ${stderr}`)), 30_000);
    child.stdout!.on('data', (c: Buffer) => {
      buffer += c.toString();
      const match = /"url":"(http:\/\/[^"]+)".*zarpay listening/.exec(buffer);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`service exited with ${code}: ${stderr}`)));
  });
  return {
    url,
    child,
    output: () => buffer,
    async kill9() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A request to a service process as a merchant (`key`) or anyone, redirects not followed. */
export async function callService(s: ServiceProcess, path: string, init: RequestInit & { key?: string } = {}) {
  const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
  if (init.key) headers['x-api-key'] = init.key;
  const res = await fetch(s.url + path, { ...init, headers, redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, location: res.headers.get('location'), text, json: () => JSON.parse(text) };
}

/** Operator GraphQL against a service process: the data, or an error naming what came back. */
export async function operatorOn(s: ServiceProcess, query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(`${s.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${OPERATOR_TOKEN}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: any; errors?: unknown[] };
  if (!body.data || body.errors) throw new Error(JSON.stringify(body));
  return body.data;
}
