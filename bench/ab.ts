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
 * (from /proc, so Linux only) and the database's (every `postgres` process on the machine: run
 * it on a PostgreSQL nothing else uses), then the median of each. `ENV_B='{"RATE_LIMITS":"off"}'`
 * gives one side other settings (ENV_A the other): the cost of a feature, by switching it off;
 * `FLAGS_B='--max-semi-space-size=32'` gives it more node flags.
 * `--b bare` runs the bare reference (reference-server.ts) as B: what zarpay costs above it.
 *
 * `--embedded` runs both on the embedded database instead, each on its own copy of one seeded
 * DATA_DIR (`--merchants`, 1,000 by default; 200 seed in about a minute); the database's CPU is
 * then the process's own. `--path create-payout` measures `POST /payouts` (writes) instead of a read.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { benchedServiceEnv, newRunId, scratchDatabase } from './database.ts';
import { load, loadWindows } from './load.ts';
import { OLD_SPACE_MIB, spawnServer } from './processes.ts';
import { cpuSeconds } from './rss.ts';
import { PAYOUT_BODY, seed } from './seed.ts';
import { captureStatements } from './statements.ts';

const { values: args } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    path: { type: 'string', default: 'balance' },
    rounds: { type: 'string', default: '6' },
    profile: { type: 'boolean', default: false },
    embedded: { type: 'boolean', default: false },
    merchants: { type: 'string', default: '1000' },
  },
});
if (!args.a || !args.b) throw new Error('--a and --b: two copies of build/ in the checkout (npm run build, then cp -r build build-a)');
if (!['balance', 'payout', 'create-payout'].includes(args.path)) throw new Error('--path is balance, payout or create-payout');
if (args.embedded && args.b === 'bare') throw new Error('the bare reference runs on PostgreSQL only');

const database = scratchDatabase(`zarpay_ab_${newRunId()}`);
const work = mkdtempSync(join(tmpdir(), 'zarpay-ab-'));
const { DATABASE_URL, ...embeddedEnv } = benchedServiceEnv(database.url, join(work, 'seed'));
const env = args.embedded ? embeddedEnv : { DATABASE_URL, ...embeddedEnv, DATA_DIR: work };
/** Each side's settings: on the embedded database, a copy of the seeded DATA_DIR of its own. */
const sideEnv = (name: string) => (args.embedded ? { ...env, DATA_DIR: join(work, name) } : env);

/** CPU seconds so far of every PostgreSQL process (server and backends) on the machine. */
function databaseCpuSeconds(): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres')) total += cpuSeconds(pid) ?? 0;
    } catch {
      // ended meanwhile
    }
  }
  return total;
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
/** PostgreSQL's share; the embedded database runs inside the measured process and counts there. */
const dbText = (us: number) => (args.embedded ? 'database in the process' : `database ${us.toFixed(1)} µs`);

if (args.embedded) mkdirSync(env.DATA_DIR!);
else await database.create();
try {
  const config = loadConfig({ ...env, PORT: '0' });
  const data = await seed(config, { merchants: Number(args.merchants), payoutsPerMerchant: 5, paymentsPerMerchant: 2 });
  if (args.embedded) for (const side of ['a', 'b']) cpSync(env.DATA_DIR!, join(work, side), { recursive: true });
  // --profile: each side's CPU profile in the work directory, for profile-summary.ts.
  const profiled = (name: string) => (args.profile ? ['--cpu-prof', `--cpu-prof-dir=${work}`, `--cpu-prof-name=${name}.cpuprofile`] : []);
  // FLAGS_A / FLAGS_B: more node flags for one side (`--max-semi-space-size=32`, `--trace-gc`).
  const flagsOf = (name: string) => process.env[`FLAGS_${name.toUpperCase()}`]?.split(' ').filter(Boolean) ?? [];
  const start = (dir: string, name: string, extra: string | undefined) =>
    spawnServer(join(resolve(dir), 'src/main.js'), { ...sideEnv(name), ...JSON.parse(extra ?? '{}') }, join(work, `${name}.log`), [
      `--max-old-space-size=${OLD_SPACE_MIB}`,
      ...flagsOf(name),
      ...profiled(name),
    ]);
  const bare = args.b === 'bare';
  const startB = async () => {
    if (!bare) return start(args.b!, 'b', process.env.ENV_B);
    const file = join(work, 'statements.json');
    writeFileSync(file, JSON.stringify(await captureStatements(config, data, PAYOUT_BODY)));
    return spawnServer('bench/reference-server.ts', { DATABASE_URL: database.url, BENCH_STATEMENTS: file }, join(work, 'bare.log'), profiled('b'));
  };
  const servers = { a: await start(args.a, 'a', process.env.ENV_A), b: await startB() };
  try {
    // The bare reference takes the merchant by id, zarpay by its key.
    const who = (s: 'a' | 'b', m: number): Record<string, string> => (s === 'b' && bare ? { 'x-merchant-id': data.merchants[m]!.id } : { 'x-api-key': data.merchants[m]!.key });
    const requestOf = (s: 'a' | 'b') => (i: number) => {
      if (args.path === 'balance') return { path: '/api/v1/payouts/balance', headers: who(s, i % data.merchants.length) };
      if (args.path === 'create-payout') {
        const headers = { ...who(s, i % data.merchants.length), 'content-type': 'application/json' };
        return { method: 'POST' as const, path: '/api/v1/payouts', headers, body: JSON.stringify(PAYOUT_BODY) };
      }
      const p = data.payouts[i % data.payouts.length]!;
      return { path: `/api/v1/payouts/${p.id}`, headers: who(s, p.merchant) };
    };
    for (const s of ['a', 'b'] as const) await load({ url: servers[s].url, connections: 64, durationSec: 3, request: requestOf(s), distinct: 2000, isWarmup: true });
    const seen = { a: [] as { rps: number; us: number; db: number }[], b: [] as { rps: number; us: number; db: number }[] };
    for (let round = 0; round < Number(args.rounds); round++) {
      for (const s of round % 2 ? (['b', 'a'] as const) : (['a', 'b'] as const)) {
        const pid = servers[s].child.pid!;
        const before = cpuSeconds(pid)!;
        const dbBefore = databaseCpuSeconds();
        const m = await load({ url: servers[s].url, connections: 64, durationSec: 4, request: requestOf(s), distinct: 2000 });
        const us = ((cpuSeconds(pid)! - before) * 1e6) / m.total;
        const db = ((databaseCpuSeconds() - dbBefore) * 1e6) / m.total;
        seen[s].push({ rps: m.requestsPerSec, us, db });
        console.log(
          `${s} ${Math.round(m.requestsPerSec)} req/s, ${us.toFixed(1)} µs CPU a request, ${dbText(db)}${Object.keys(m.errors).length ? `, errors ${JSON.stringify(m.errors)}` : ''}`,
        );
      }
    }
    for (const s of ['a', 'b'] as const) {
      const of = (k: 'rps' | 'us' | 'db') => median(seen[s].map((r) => r[k]));
      console.log(`${s} (${s === 'a' ? args.a : args.b}): median ${Math.round(of('rps'))} req/s, ${of('us').toFixed(1)} µs CPU a request, ${dbText(of('db'))}`);
    }
  } finally {
    await Promise.all([servers.a.stop(), servers.b.stop()]);
    if (args.profile) {
      const names = { [servers.a.url]: 'a', [servers.b.url]: 'b' };
      const windows = join(work, 'windows.json');
      writeFileSync(windows, JSON.stringify(loadWindows.map(({ url, ...w }) => ({ server: names[url], ...w }))));
      console.log(`profiles: npx tsx bench/profile-summary.ts ${join(work, 'a.cpuprofile')} --windows ${windows} --server a (b: b.cpuprofile, --server b)`);
    }
  }
} finally {
  if (!args.embedded) await database.drop();
}
