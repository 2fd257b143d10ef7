import { once } from 'node:events';
import { createServer } from 'node:http';
import { load } from '../load.ts';
import { PAYOUT_BODY } from '../seed.ts';
import type { BenchContext, Row, Scenario } from './types.ts';

/**
 * Webhook dispatch and SSE fan-out. Both features are being built on other branches; until they
 * merge, each scenario detects its feature and reports "not available in this build".
 */

const absent = (name: string, target: string, why: string): Row => ({
  group: 'events',
  name,
  zarpay: null,
  target: { text: target, met: null },
  note: `not available in this build: ${why}`,
});

/** `POST /api/v1/merchant/webhooks/secret` answers 404 NOT_FOUND when the route does not exist. */
async function hasWebhooks(ctx: BenchContext): Promise<boolean> {
  const res = await fetch(`${ctx.zarpayUrl}/api/v1/merchant/webhooks/secret`, {
    method: 'POST',
    headers: { 'x-api-key': ctx.seed.merchants[ctx.seed.merchants.length - 1]!.key },
  });
  const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
  return !(res.status === 404 && body?.error?.code === 'NOT_FOUND');
}

/** The schema has a `payoutEvents` subscription field. */
async function hasPayoutEvents(ctx: BenchContext): Promise<boolean> {
  const res = await fetch(`${ctx.zarpayUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.operatorToken}` },
    body: JSON.stringify({ query: '{ __type(name: "Subscription") { fields { name } } }' }),
  });
  const json = (await res.json().catch(() => null)) as { data?: { __type?: { fields?: { name: string }[] } | null } } | null;
  return json?.data?.__type?.fields?.some((f) => f.name === 'payoutEvents') ?? false;
}

/**
 * Events delivered and acknowledged per second: every merchant's webhook URL points at a local
 * receiver answering 200; payouts are created for `durationSec`, then the receiver counts until
 * every `payout.created` event has arrived (or 30 s pass).
 */
export const webhookDispatch: Scenario = async (ctx) => {
  const name = 'Webhook dispatch (deliveries/s)';
  const target = '≥ 1,000 deliveries/s';
  if (!(await hasWebhooks(ctx))) return [absent(name, target, 'POST /api/v1/merchant/webhooks/secret is 404')];
  let received = 0;
  let first = 0;
  let last = 0;
  const receiver = createServer((req, res) => {
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
    // Every merchant's webhook URL → the receiver, through the operator's `updateMerchant`
    // (already in this build), 50 at a time.
    const setHook = (id: string) =>
      fetch(`${ctx.zarpayUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.operatorToken}` },
        body: JSON.stringify({
          query: 'mutation($id: UUID!, $url: String!) { updateMerchant(id: $id, input: { webhookUrl: $url }) { merchant { id } } }',
          variables: { id, url: hook },
        }),
      });
    for (let k = 0; k < ctx.seed.merchants.length; k += 50) {
      await Promise.all(ctx.seed.merchants.slice(k, k + 50).map((m) => setHook(m.id)));
    }
    const n = ctx.seed.merchants.length;
    const created = await load({
      url: ctx.zarpayUrl, connections: ctx.connections, durationSec: ctx.durationSec, method: 'POST', inspectBodies: true,
      request: (i) => ({ path: '/api/v1/payouts', headers: { 'x-api-key': ctx.seed.merchants[i % n]!.key }, body: JSON.stringify({ ...PAYOUT_BODY, amount_cents: 100 }) }),
    });
    const expected = created.total - Object.values(created.errors).reduce((a, b) => a + b, 0);
    const deadline = performance.now() + 30_000;
    while (received < expected && performance.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const perSec = received / Math.max(0.001, (last - first) / 1000);
    return [{
      group: 'events', name, rssMiB: ctx.takeRssPeak(),
      zarpay: { requestsPerSec: perSec, p50: null, p99: null, max: null, errors: received < expected ? { undelivered: expected - received } : {}, total: received },
      target: { text: target, met: perSec >= 1000 && received >= expected },
    }];
  } finally {
    receiver.close();
  }
};

/**
 * Commit-to-receipt latency with 1,000 graphql-sse subscribers (one per merchant, distinct
 * connections): payouts are created across those merchants; each event's `createdAt` (set in
 * the committing transaction) is compared with the time it reaches its subscriber.
 */
export const sseFanout: Scenario = async (ctx) => {
  const name = `SSE fan-out, ${ctx.seed.merchants.length} subscribers (latency)`;
  const target = 'p99 < 100 ms';
  if (!(await hasPayoutEvents(ctx))) return [absent(name, target, 'no payoutEvents subscription in the schema')];
  const { createClient } = await import('graphql-sse');
  const latencies: number[] = [];
  const clients = ctx.seed.merchants.map((m) =>
    createClient({ url: `${ctx.zarpayUrl}/graphql/stream`, headers: { 'x-api-key': m.key }, retryAttempts: 0 }),
  );
  const stops = clients.map((client, k) =>
    client.subscribe(
      { query: `subscription { payoutEvents(merchantId: "${ctx.seed.merchants[k]!.id}") { id type createdAt } }` },
      {
        next: (msg) => {
          const at = Date.parse((msg.data as any)?.payoutEvents?.createdAt ?? '');
          if (Number.isFinite(at)) latencies.push(Date.now() - at);
        },
        error: () => {},
        complete: () => {},
      },
    ),
  );
  try {
    await new Promise((r) => setTimeout(r, 2000)); // let every stream open
    const n = ctx.seed.merchants.length;
    await load({
      url: ctx.zarpayUrl, connections: Math.min(ctx.connections, 16), durationSec: ctx.durationSec, method: 'POST',
      request: (i) => ({ path: '/api/v1/payouts', headers: { 'x-api-key': ctx.seed.merchants[i % n]!.key }, body: JSON.stringify({ ...PAYOUT_BODY, amount_cents: 100 }) }),
    });
    await new Promise((r) => setTimeout(r, 1000));
    latencies.sort((a, b) => a - b);
    const at = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]! : null);
    const p99 = at(0.99);
    return [{
      group: 'events', name, rssMiB: ctx.takeRssPeak(),
      zarpay: { requestsPerSec: latencies.length / ctx.durationSec, p50: at(0.5), p99, max: at(1), errors: {}, total: latencies.length },
      target: { text: target, met: p99 !== null && p99 < 100 },
      note: 'req/s column = events received per second',
    }];
  } finally {
    stops.forEach((stop) => stop());
    clients.forEach((c) => c.dispose());
  }
};
