import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { openSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import pg from 'pg';
import { ROOT } from '../../test/support/processes.ts';
import { load } from '../load.ts';
import { rssMiB } from '../rss.ts';
import { createCall } from './rest.ts';
import type { BenchContext, Row, Scenario } from './types.ts';

/** Runs `task` over `items`, `width` at a time. */
async function inBatches<T>(items: T[], width: number, task: (item: T) => Promise<unknown>) {
  for (let k = 0; k < items.length; k += width) await Promise.all(items.slice(k, k + width).map(task));
}

async function operator(ctx: BenchContext, query: string, variables: Record<string, unknown>) {
  const res = await fetch(`${ctx.zarpayUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.operatorToken}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { errors?: unknown };
  if (body.errors) throw new Error(`operator call failed: ${JSON.stringify(body.errors)}`);
}

/**
 * Webhook deliveries per second, signed and acknowledged by a local receiver. Every merchant gets
 * a webhook secret and its URL points at the receiver; payouts are created for the run's
 * duration while no dispatcher runs (the service is started with RUN_DISPATCHER=false), then
 * one `zarpay dispatcher` process, as an operator would start one, works the backlog off. The
 * rate is taken from the first delivery to the last.
 */
export const webhookDispatch: Scenario = async (ctx) => {
  const name = 'Webhook dispatch: backlog drained by one `zarpay dispatcher` (deliveries/s)';
  const target = '≥ 1,000 deliveries/s';
  const ids = new Set<string>();
  let signed = 0;
  let received = 0;
  let first = 0;
  let last = 0;
  const receiver = createServer((req, res) => {
    const id = req.headers['webhook-id'];
    if (typeof id === 'string') ids.add(id);
    if (req.headers['webhook-signature']) signed++;
    req.resume();
    req.on('end', () => {
      last = performance.now();
      if (received++ === 0) first = last;
      res.writeHead(200).end();
    });
  }).listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  try {
    await inBatches(ctx.seed.merchants, 50, (m) =>
      operator(ctx, 'mutation($id: UUID!, $url: String!) { updateMerchant(id: $id, input: { webhookUrl: $url }) { merchant { id } } }', { id: m.id, url: hook }),
    );
    await inBatches(ctx.seed.merchants, 50, async (m) => {
      const res = await fetch(`${ctx.zarpayUrl}/api/v1/merchant/webhooks/secret`, { method: 'POST', headers: { 'x-api-key': m.key } });
      if (res.status !== 201 && res.status !== 409) throw new Error(`webhook secret: HTTP ${res.status}`);
    });
    const n = ctx.seed.merchants.length;
    const created = await load({
      url: ctx.zarpayUrl,
      connections: ctx.connections,
      // One stretch as long as a comparison's rounds together.
      durationSec: ctx.durationSec * ctx.rounds,
      inspectBodies: true,
      request: (i) => {
        const c = createCall(n, (k) => k % n)(i);
        return { method: 'POST', path: c.path, headers: { 'x-api-key': ctx.seed.merchants[c.merchant]!.key }, body: c.body! };
      },
    });
    if (Object.keys(created.errors).length > 0) throw new Error(`creating the backlog failed: ${JSON.stringify(created.errors)}`);
    // wrk does not count the answers still on their way when it stops: the database knows, once
    // the last creations have committed.
    await new Promise((r) => setTimeout(r, 1000));
    const expected = await pendingDeliveries(ctx.databaseUrl);
    const log = openSync(join(ctx.workDir, 'dispatcher.log'), 'a');
    // The compiled CLI, as the service itself runs in this benchmark (`npx zarpay dispatcher` is the same code).
    const dispatcher = spawn(process.execPath, ['build/src/cli/index.js', 'dispatcher'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...ctx.serviceEnv },
      stdio: ['ignore', log, log],
    });
    let dispatcherRss = 0;
    const sampler = setInterval(() => (dispatcherRss = Math.max(dispatcherRss, rssMiB(dispatcher.pid!) ?? 0)), 250);
    try {
      const deadline = performance.now() + 60_000 + expected * 10;
      while (received < expected && performance.now() < deadline && dispatcher.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    } finally {
      clearInterval(sampler);
      dispatcher.kill('SIGTERM');
      await once(dispatcher, 'exit');
    }
    const perSec = received > 1 ? (received - 1) / ((last - first) / 1000) : 0;
    const errors: Record<string, number> = {};
    if (received < expected) errors.undelivered = expected - received;
    if (ids.size < received) errors['delivered twice'] = received - ids.size;
    if (signed < received) errors.unsigned = received - signed;
    return [
      {
        group: 'events',
        name,
        zarpay: { requestsPerSec: perSec, p50: null, p99: null, max: null, errors, total: received },
        rssMiB: dispatcherRss,
        target: { text: target, met: perSec >= 1000 && Object.keys(errors).length === 0 },
        note: `${received} deliveries of ${expected} payouts; peak RSS column = the dispatcher process`,
      },
    ];
  } finally {
    receiver.close();
  }
};

/**
 * Commit-to-receipt latency with one graphql-sse subscriber per merchant (distinct
 * connections): payouts are created across those merchants; each event's `createdAt` (set in
 * the creating statement) is compared with the moment it reaches its subscriber.
 */
export const sseFanout: Scenario = async (ctx) => {
  const name = `SSE fan-out, ${ctx.seed.merchants.length} subscribers (commit → receipt)`;
  const { createClient } = await import('graphql-sse');
  const latencies: number[] = [];
  let subscribed = 0;
  const clients = ctx.seed.merchants.map((m) =>
    createClient({ url: `${ctx.zarpayUrl}/graphql/stream`, headers: { 'x-api-key': m.key }, retryAttempts: 0 }),
  );
  const errors: Record<string, number> = {};
  const stops = clients.map((client, k) =>
    client.subscribe(
      { query: `subscription { payoutEvents(merchantId: "${ctx.seed.merchants[k]!.id}") { id type createdAt } }` },
      {
        next: (msg) => {
          const at = Date.parse((msg.data as { payoutEvents?: { createdAt?: string } })?.payoutEvents?.createdAt ?? '');
          if (Number.isFinite(at)) latencies.push(Date.now() - at);
        },
        error: (e) => (errors[String((e as Error)?.message ?? e).slice(0, 60)] = (errors[String((e as Error)?.message ?? e).slice(0, 60)] ?? 0) + 1),
        complete: () => {},
      },
    ),
  );
  try {
    // Every stream open before the load starts.
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      subscribed = await subscriberCount(ctx);
      if (subscribed >= clients.length) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const n = ctx.seed.merchants.length;
    const created = await load({
      url: ctx.zarpayUrl,
      connections: Math.min(ctx.connections, 16),
      durationSec: ctx.durationSec * ctx.rounds,
      inspectBodies: true,
      request: (i) => {
        const c = createCall(n, (k) => k % n)(i);
        return { method: 'POST', path: c.path, headers: { 'x-api-key': ctx.seed.merchants[c.merchant]!.key }, body: c.body! };
      },
    });
    await new Promise((r) => setTimeout(r, 1000));
    latencies.sort((a, b) => a - b);
    const at = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]! : null);
    const expected = created.total - Object.values(created.errors).reduce((a, b) => a + b, 0);
    if (latencies.length < expected) errors['events not received'] = expected - latencies.length;
    const p99 = at(0.99);
    return [
      {
        group: 'events',
        name,
        zarpay: { requestsPerSec: latencies.length / (ctx.durationSec * ctx.rounds), p50: at(0.5), p99, max: at(1), errors, total: latencies.length },
        rssMiB: ctx.takeRssPeak(),
        target: { text: 'p99 < 100 ms', met: p99 !== null && p99 < 100 && Object.keys(errors).length === 0 },
        note: `${subscribed} subscribers open; req/s column = events received per second`,
      },
    ];
  } finally {
    stops.forEach((stop) => stop());
    clients.forEach((c) => c.dispose());
  }
};

async function pendingDeliveries(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>("select count(*)::int as n from webhook_deliveries where status = 'pending'");
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

/** Open subscriptions in the service, from its metrics. */
async function subscriberCount(ctx: BenchContext): Promise<number> {
  const text = await (await fetch(`${ctx.zarpayUrl}/metrics`)).text();
  const m = /^zarpay_subscriptions(?:\{[^}]*\})? (\d+)/m.exec(text);
  return m ? Number(m[1]) : 0;
}
