import { load, type Measurement } from '../load.ts';
import { pgbench } from '../pgbench.ts';
import { PAYOUT_BODY } from '../seed.ts';
import { type BenchContext, pick, ratio, type Row, type Scenario } from './types.ts';

interface ReadCase {
  name: string;
  script: string;
  /** Path and merchant index of request i. */
  target: (ctx: BenchContext, i: number) => { path: string; merchant: number };
}

export const READS: ReadCase[] = [
  {
    name: 'GET /payouts/{id}',
    script: 'payout-get.sql',
    target: ({ seed }, i) => {
      const p = seed.payouts[pick(i, seed.payouts.length)]!;
      return { path: `/api/v1/payouts/${p.id}`, merchant: p.merchant };
    },
  },
  {
    name: 'GET /payments/{id}',
    script: 'payment-get.sql',
    target: ({ seed }, i) => {
      const p = seed.payments[pick(i, seed.payments.length)]!;
      return { path: `/api/v1/payments/${p.id}`, merchant: p.merchant };
    },
  },
  {
    name: 'GET /payouts/balance',
    script: 'balance.sql',
    target: ({ seed }, i) => ({ path: '/api/v1/payouts/balance', merchant: pick(i, seed.merchants.length) }),
  },
  {
    name: 'GET /payouts?limit=50',
    script: 'payouts-list.sql',
    target: ({ seed }, i) => ({ path: '/api/v1/payouts?limit=50', merchant: pick(i, seed.merchants.length) }),
  },
];

export const pgVars = (ctx: BenchContext) => ({
  merchants: ctx.seed.merchants.length,
  payouts: ctx.seed.payouts.length,
  payments: ctx.seed.payments.length,
});

/** zarpay with the merchant's key; the bare server with the merchant's id, then with the key; pgbench. */
async function threeWays(
  ctx: BenchContext,
  method: 'GET' | 'POST',
  target: (i: number) => { path: string; merchant: number; body?: string },
  script: string,
  vars: Record<string, number>,
) {
  const base = { connections: ctx.connections, durationSec: ctx.durationSec, method, inspectBodies: method === 'POST' };
  const zarpay = await load({
    ...base,
    url: ctx.zarpayUrl,
    request: (i) => {
      const t = target(i);
      return { path: t.path, headers: { 'x-api-key': ctx.seed.merchants[t.merchant]!.key }, body: t.body };
    },
  });
  const rssMiB = ctx.takeRssPeak();
  const bare = await load({
    ...base,
    url: ctx.bareUrl,
    request: (i) => {
      const t = target(i);
      return { path: t.path, headers: { 'x-merchant-id': ctx.seed.merchants[t.merchant]!.id }, body: t.body };
    },
  });
  const bareAuth = await load({
    ...base,
    url: ctx.bareUrl,
    request: (i) => {
      const t = target(i);
      return { path: t.path, headers: { 'x-api-key': ctx.seed.merchants[t.merchant]!.key }, body: t.body };
    },
  });
  const pg = await pgbench({ databaseUrl: ctx.databaseUrl, script, clients: ctx.pgbenchClients, durationSec: ctx.durationSec, vars });
  return { zarpay, bare, bareAuth, pgbench: pg, rssMiB };
}

const readTarget = (m: Measurement, bare: Measurement) => {
  const r = ratio(m, bare) ?? 0;
  return { text: '≥ 0.8× bare, p99 < 25 ms', met: r >= 0.8 && (m.p99 ?? Infinity) < 25 };
};

export const restReads: Scenario = async (ctx) => {
  const rows: Row[] = [];
  for (const c of READS) {
    const r = await threeWays(ctx, 'GET', (i) => c.target(ctx, i), c.script, pgVars(ctx));
    rows.push({ group: 'rest-reads', name: `REST ${c.name}`, ...r, target: readTarget(r.zarpay, r.bare) });
  }
  return rows;
};

/** zarpay alone on one REST case: the twin GraphQL rows are compared with, measured adjacently. */
export function restOnly(ctx: BenchContext, method: 'GET' | 'POST', target: (i: number) => { path: string; merchant: number; body?: string }) {
  return load({
    url: ctx.zarpayUrl,
    connections: ctx.connections,
    durationSec: ctx.durationSec,
    method,
    inspectBodies: method === 'POST',
    request: (i) => {
      const t = target(i);
      return { path: t.path, headers: { 'x-api-key': ctx.seed.merchants[t.merchant]!.key }, body: t.body };
    },
  });
}

export const payoutBody = (i: number) => JSON.stringify({ ...PAYOUT_BODY, amount_cents: 100 + (i % 900) });

/** Only these codes are acceptable under load; anything else (5xx, deadlock, timeout) fails. */
const onlyInsufficient = (m: Measurement) => Object.keys(m.errors).every((code) => code === 'INSUFFICIENT_BALANCE');

export const restWrites: Scenario = async (ctx) => {
  const n = ctx.seed.merchants.length;
  const many = await threeWays(
    ctx,
    'POST',
    (i) => ({ path: '/api/v1/payouts', merchant: i % n, body: payoutBody(i) }),
    'payout-create.sql',
    pgVars(ctx),
  );
  const manyRatio = ratio(many.zarpay, many.pgbench) ?? 0;
  const one = await threeWays(
    ctx,
    'POST',
    (i) => ({ path: '/api/v1/payouts', merchant: 0, body: payoutBody(i) }),
    'payout-create.sql',
    { ...pgVars(ctx), merchants: 1 },
  );
  const init = await load({
    url: ctx.zarpayUrl,
    connections: ctx.connections,
    durationSec: ctx.durationSec,
    method: 'POST',
    inspectBodies: true,
    request: (i) => ({
      path: '/api/v1/payments/init',
      headers: { 'x-api-key': ctx.seed.merchants[i % n]!.key },
      body: JSON.stringify({ amount: 10_000 + (i % 1000), currency: 'ZAR', merchant_order_id: `bench-${ctx.runId}-${i}` }),
    }),
  });
  return [
    {
      group: 'rest-writes',
      name: `REST POST /payouts, ${n} merchants`,
      ...many,
      target: { text: '≥ 0.7× pgbench tps, no errors', met: manyRatio >= 0.7 && Object.keys(many.zarpay.errors).length === 0 },
    },
    {
      group: 'rest-writes',
      name: 'REST POST /payouts, 1 merchant (hot row)',
      ...one,
      target: { text: 'only INSUFFICIENT_BALANCE errors', met: onlyInsufficient(one.zarpay) },
    },
    {
      group: 'rest-writes',
      name: 'REST POST /payments/init',
      zarpay: init,
      rssMiB: ctx.takeRssPeak(),
      target: { text: 'no errors', met: Object.keys(init.errors).length === 0 },
      note: 'no reference (no SQL twin written yet)',
    },
  ];
};
