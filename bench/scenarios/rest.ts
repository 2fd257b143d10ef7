import { interleaved, load, type LoadRequest, type Measurement } from '../load.ts';
import { pgbench } from '../pgbench.ts';
import { PAYOUT_BODY } from '../seed.ts';
import { paymentBody } from '../statements.ts';
import { type BenchContext, pick, ratio, type Row, type Scenario } from './types.ts';

/** A REST call as zarpay and the bare server both take it: the merchant travels as a key, or as an id. */
export interface Call {
  method?: 'GET' | 'POST';
  path: string;
  merchant: number;
  body?: string;
}

interface ReadCase {
  name: string;
  script: keyof BenchContext['scripts'];
  call: (ctx: BenchContext, i: number) => Call;
}

export const READS: ReadCase[] = [
  {
    name: 'GET /payouts/{id}',
    script: 'payoutGet',
    call: ({ seed }, i) => {
      const p = seed.payouts[pick(i, seed.payouts.length)]!;
      return { path: `/api/v1/payouts/${p.id}`, merchant: p.merchant };
    },
  },
  {
    name: 'GET /payments/{id}',
    script: 'paymentGet',
    call: ({ seed }, i) => {
      const p = seed.payments[pick(i, seed.payments.length)]!;
      return { path: `/api/v1/payments/${p.id}`, merchant: p.merchant };
    },
  },
  { name: 'GET /payouts/balance', script: 'balance', call: ({ seed }, i) => ({ path: '/api/v1/payouts/balance', merchant: pick(i, seed.merchants.length) }) },
  { name: 'GET /payouts?limit=50', script: 'payoutList', call: ({ seed }, i) => ({ path: '/api/v1/payouts?limit=50', merchant: pick(i, seed.merchants.length) }) },
];

export const pgVars = (ctx: BenchContext) => ({
  merchants: ctx.seed.merchants.length,
  payouts: ctx.seed.payouts.length,
  payments: ctx.seed.payments.length,
});

/**
 * One round of `call` against zarpay (merchant by API key) or the bare server (merchant by id);
 * the first round is preceded by a warm-up. With `distinct`, each round (and the warm-up) takes
 * its own stretch of requests, so that new ids stay new.
 */
export function drive(ctx: BenchContext, target: 'zarpay' | 'bare', call: (i: number) => Call, round = 0, distinct?: number): Promise<Measurement> {
  // Each (target, round) has four stretches of `distinct` requests: its round, its warm-up (the
  // next stretch, see load.ts), and two for the other target.
  const offset = distinct === undefined ? 0 : (4 * round + (target === 'bare' ? 2 : 0)) * distinct;
  return load({
    url: target === 'zarpay' ? ctx.zarpayUrl : ctx.bareUrl,
    connections: ctx.connections,
    durationSec: ctx.durationSec,
    warmupSec: round === 0 ? ctx.warmupSec : 0,
    inspectBodies: call(0).method === 'POST',
    ...(distinct !== undefined && { distinct }),
    request: (i): LoadRequest => {
      const c = call(i + offset);
      const m = ctx.seed.merchants[c.merchant]!;
      return {
        method: c.method ?? 'GET',
        path: c.path,
        headers: target === 'zarpay' ? { 'x-api-key': m.key } : { 'x-merchant-id': m.id },
        ...(c.body !== undefined && { body: c.body }),
      };
    },
  });
}

/** zarpay, the bare server and pgbench on the same case, in turns (see `interleaved`). */
async function threeWays(
  ctx: BenchContext,
  call: (i: number) => Call,
  script: keyof BenchContext['scripts'],
  vars: Record<string, number>,
  distinct?: number,
) {
  const { zarpay, bare, pgbench: pg } = await interleaved(ctx.rounds, {
    zarpay: (round) => drive(ctx, 'zarpay', call, round, distinct),
    bare: (round) => drive(ctx, 'bare', call, round, distinct),
    pgbench: () => pgbench({ databaseUrl: ctx.databaseUrl, script: ctx.scripts[script], clients: ctx.pgbenchClients, durationSec: ctx.durationSec, vars }),
  });
  return { zarpay, bare, pgbench: pg, rssMiB: ctx.takeRssPeak() };
}

const readTarget = (m: Measurement, bare: Measurement) => {
  const r = ratio(m, bare) ?? 0;
  return { text: '≥ 0.8× bare, p99 < 25 ms', met: r >= 0.8 && (m.p99 ?? Infinity) < 25 && Object.keys(m.errors).length === 0 };
};

export const restReads: Scenario = async (ctx) => {
  const rows: Row[] = [];
  for (const c of READS) {
    const r = await threeWays(ctx, (i) => c.call(ctx, i), c.script, pgVars(ctx));
    rows.push({ group: 'rest-reads', name: `REST ${c.name}`, ...r, target: readTarget(r.zarpay, r.bare) });
  }
  return rows;
};

export const payoutBody = (i: number) => JSON.stringify({ ...PAYOUT_BODY, amount_cents: 100 + (i % 900) });
export const createCall = (n: number, merchant: (i: number) => number) => (i: number): Call => ({
  method: 'POST',
  path: '/api/v1/payouts',
  merchant: merchant(i),
  body: payoutBody(i),
});

/** Only these codes are acceptable under load; anything else (5xx, deadlock, timeout) fails. */
const onlyInsufficient = (m: Measurement) => Object.keys(m.errors).every((code) => code === 'INSUFFICIENT_BALANCE');

export const restWrites: Scenario = async (ctx) => {
  const n = ctx.seed.merchants.length;
  const many = await threeWays(ctx, createCall(n, (i) => i % n), 'payoutCreate', pgVars(ctx));
  const manyRatio = ratio(many.zarpay, many.pgbench) ?? 0;
  const one = await threeWays(ctx, createCall(n, () => 0), 'payoutCreate', { ...pgVars(ctx), merchants: 1 });
  // A new order id for every request of the run, so that every request creates a payment (wrk
  // cycles through its list: the list is long enough for the whole round).
  const initCall = (i: number): Call => ({
    method: 'POST',
    path: '/api/v1/payments/init',
    merchant: i % n,
    body: JSON.stringify(paymentBody(10_000 + (i % 1000), `bench-${ctx.runId}-${i}`)),
  });
  const init = await threeWays(ctx, initCall, 'paymentInit', pgVars(ctx), Math.max(2000, ctx.durationSec * 5000));
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
      target: { text: 'only INSUFFICIENT_BALANCE errors', met: onlyInsufficient(one.zarpay) && onlyInsufficient(one.bare) },
    },
    {
      group: 'rest-writes',
      name: 'REST POST /payments/init',
      ...init,
      target: { text: 'no errors', met: Object.keys(init.zarpay.errors).length === 0 },
    },
  ];
};
