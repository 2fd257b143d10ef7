/**
 * Two builds of zarpay side by side on one seeded database, in turns: the way to tell whether a
 * change to the request path helps, on a machine whose speed drifts more between runs of
 * `npm run bench` than most changes move the figures.
 *
 *   git checkout OLD -- src rest && npm run build && cp -r build build-a && git checkout HEAD -- src rest
 *   npm run build && cp -r build build-b
 *   npx tsx bench/ab.ts --a build-a --b build-b [--path balance|payout] [--rounds 6]
 *
 * The copies stay in the checkout (build-a/, build-b/; git ignores them), where a build finds
 * node_modules and the migrations.
 *
 * Each round measures both (4 s of wrk, 64 connections, keys and ids rotating over the seed;
 * the order alternates), and prints requests per second and the process's CPU time per request
 * (from /proc, so Linux only), then the median of each. `ENV_B='{"RATE_LIMITS":"off"}'` gives
 * one side other settings (ENV_A the other): the cost of a feature, by switching it off.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { benchedServiceEnv, newRunId, scratchDatabase } from './database.ts';
import { load } from './load.ts';
import { spawnServer } from './processes.ts';
import { seed } from './seed.ts';

const { values: args } = parseArgs({
  options: { a: { type: 'string' }, b: { type: 'string' }, path: { type: 'string', default: 'balance' }, rounds: { type: 'string', default: '6' } },
});
if (!args.a || !args.b) throw new Error('--a and --b: two copies of build/ in the checkout (npm run build, then cp -r build build-a)');
if (args.path !== 'balance' && args.path !== 'payout') throw new Error('--path is balance or payout');

const database = scratchDatabase(`zarpay_ab_${newRunId()}`);
const work = mkdtempSync(join(tmpdir(), 'zarpay-ab-'));
const env = benchedServiceEnv(database.url, work);

/** The process's user and system CPU time so far, in ms (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

await database.create();
try {
  const data = await seed(loadConfig({ ...env, PORT: '0' }), { merchants: 1000, payoutsPerMerchant: 5, paymentsPerMerchant: 2 });
  const start = (dir: string, name: string, extra: string | undefined) =>
    spawnServer(join(resolve(dir), 'src/main.js'), { ...env, ...JSON.parse(extra ?? '{}') }, join(work, `${name}.log`), ['--max-old-space-size=160']);
  const servers = { a: await start(args.a, 'a', process.env.ENV_A), b: await start(args.b, 'b', process.env.ENV_B) };
  try {
    const request = (i: number) => {
      if (args.path === 'balance') return { path: '/api/v1/payouts/balance', headers: { 'x-api-key': data.merchants[i % data.merchants.length]!.key } };
      const p = data.payouts[i % data.payouts.length]!;
      return { path: `/api/v1/payouts/${p.id}`, headers: { 'x-api-key': data.merchants[p.merchant]!.key } };
    };
    for (const s of ['a', 'b'] as const) await load({ url: servers[s].url, connections: 64, durationSec: 3, request, distinct: 2000, isWarmup: true });
    const seen = { a: [] as { rps: number; us: number }[], b: [] as { rps: number; us: number }[] };
    for (let round = 0; round < Number(args.rounds); round++) {
      for (const s of round % 2 ? (['b', 'a'] as const) : (['a', 'b'] as const)) {
        const pid = servers[s].child.pid!;
        const before = cpuMs(pid);
        const m = await load({ url: servers[s].url, connections: 64, durationSec: 4, request, distinct: 2000 });
        const us = ((cpuMs(pid) - before) * 1000) / m.total;
        seen[s].push({ rps: m.requestsPerSec, us });
        console.log(`${s} ${Math.round(m.requestsPerSec)} req/s, ${us.toFixed(1)} µs CPU a request${Object.keys(m.errors).length ? `, errors ${JSON.stringify(m.errors)}` : ''}`);
      }
    }
    for (const s of ['a', 'b'] as const) {
      console.log(`${s} (${s === 'a' ? args.a : args.b}): median ${Math.round(median(seen[s].map((r) => r.rps)))} req/s, ${median(seen[s].map((r) => r.us)).toFixed(1)} µs CPU a request`);
    }
  } finally {
    await Promise.all([servers.a.stop(), servers.b.stop()]);
  }
} finally {
  await database.drop();
}
