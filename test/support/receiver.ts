import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/types.ts';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  /** The sender's port: deliveries over one kept-alive connection share it. */
  port: number;
}

/** A merchant's webhook endpoint: records every request; answers from `plan`, then `fallback`. */
export interface Receiver {
  url: string;
  received: Received[];
  /** Status codes for the next requests, in order; 0 holds the request open without answering. */
  plan: number[];
  fallback: number;
  /** Resolves once `n` requests have arrived (or rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hook'): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const r: Receiver = {
    url: '',
    received,
    plan: [],
    fallback: 200,
    async waitFor(n, timeoutMs = 10_000) {
      if (received.length < n) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`receiver got ${received.length} of ${n} requests`)), timeoutMs);
          waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
        });
      }
      return received.slice(0, n);
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), port: req.socket.remotePort ?? 0 });
      const status = r.plan.shift() ?? r.fallback;
      if (status === 0) return notify();
      if (status >= 300 && status < 400) res.setHeader('location', `http://127.0.0.1:${(server.address() as AddressInfo).port}/elsewhere`);
      res.writeHead(status).end('ok');
      notify();
    });
  });
  const notify = () => {
    for (const w of [...waiters]) if (received.length >= w.n) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return r;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a truthy value (or throws after `timeoutMs`). */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(50);
  }
}

/**
 * Waits until no job of `queue` is left to run in `db` (done jobs are deleted; a failed one stays
 * and does not count): whatever its runners were going to send has been sent and recorded. What
 * a test then finds received is all there will be, without waiting a fixed time for nothing.
 */
export async function drained(db: Kysely<Database>, queue: string, timeoutMs = 10_000): Promise<void> {
  await eventually(async () => (await db.selectFrom('jobs').select('id').where('queue', '=', queue).where('status', '!=', 'failed').execute()).length === 0, timeoutMs);
}
