/**
 * `npm run bench [-- --duration 4 --rounds 3 --warmup 2 --connections 64 --scenario rest-reads,graphql-reads --smoke --profile]`
 *
 * Measures the embedded default first (embedded.ts: `npm start` without a database, through the
 * README's walk; `--embedded-only` stops there and needs no PostgreSQL). Then creates a fresh
 * PostgreSQL database, seeds it through zarpay's services, records the statements zarpay sends
 * for each measured operation (statements.ts), starts zarpay (compiled) and the reference
 * servers as child processes (the bare one; bare Yoga and PostGraphile for the GraphQL
 * scenarios), drives each scenario with wrk against zarpay and its references in turns, and
 * writes the table to bench/results/latest.md (partial.md for some scenarios only, smoke.md with
 * --smoke, profile/profile.md with --profile). --smoke only checks that everything runs: it
 * never fails on a number. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { ROOT } from '../test/support/processes.ts';
import { benchedServiceEnv, newRunId, scratchDatabase } from './database.ts';
import { embeddedWalk } from './embedded.ts';
import { assertWrk, load, loadWindows } from './load.ts';
import { assertPgbench } from './pgbench.ts';
import { type Child, OLD_SPACE_MIB, spawnServer } from './processes.ts';
import { renderReport } from './report.ts';
import { RssSampler, rssMiB } from './rss.ts';
import { webhookDispatch, sseFanout } from './scenarios/events.ts';
import { graphqlReads, graphqlWrites } from './scenarios/graphql.ts';
import { restReads, restWrites } from './scenarios/rest.ts';
import type { BenchContext, Row, Scenario } from './scenarios/types.ts';
import { PAYOUT_BODY, seed } from './seed.ts';
import { captureStatements, pgbenchScripts } from './statements.ts';

const SCENARIOS: Record<string, Scenario> = {
  'rest-reads': restReads,
  'rest-writes': restWrites,
  'graphql-reads': graphqlReads,
  'graphql-writes': graphqlWrites,
  webhooks: webhookDispatch,
  sse: sseFanout,
};
/** Both zarpay and the bare server use a pool of this many connections (src/db default). */
const POOL_SIZE = 20;

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '64' },
    scenario: { type: 'string', default: 'all' },
    merchants: { type: 'string' },
    'pgbench-clients': { type: 'string', default: String(POOL_SIZE) },
    smoke: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    'rate-limit-store': { type: 'string', default: 'postgres' },
    'embedded-only': { type: 'boolean', default: false },
  },
});
const smoke = args.smoke;
const durationSec = smoke ? 1 : Number(args.duration);
const warmupSec = smoke ? 0 : Number(args.warmup);
const rounds = smoke ? 1 : Number(args.rounds);
const connections = smoke ? 8 : Number(args.connections);
const merchants = Number(args.merchants ?? (smoke ? 20 : 1000));
const chosen = args.scenario === 'all' ? Object.keys(SCENARIOS) : args.scenario.split(',');
for (const name of chosen) if (!SCENARIOS[name]) throw new Error(`unknown scenario ${name} (known: ${Object.keys(SCENARIOS).join(', ')})`);
const rateLimitStore = args['rate-limit-store'];
if (rateLimitStore !== 'postgres' && rateLimitStore !== 'redis') throw new Error('--rate-limit-store is postgres or redis');
// The Redis store is the one production deployments with several instances are advised to run.
const redisUrl = rateLimitStore === 'redis' ? process.env.REDIS_URL || 'redis://127.0.0.1:6379' : undefined;

const runId = newRunId();
// Several checkouts sharing one PostgreSQL can keep their runs' databases apart by prefix.
const database = scratchDatabase(`${process.env.BENCH_DATABASE_PREFIX || 'zarpay_bench_'}${runId}`);
const work = mkdtempSync(join(tmpdir(), 'zarpay-bench-'));
const env: Record<string, string> = {
  ...benchedServiceEnv(database.url, work),
  SANDBOX_CONFIRM_DELAY_MS: '1000',
  ...(redisUrl && { REDIS_URL: redisUrl }),
};

const log = (message: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

async function main(): Promise<number> {
  if (!args['embedded-only']) {
    assertWrk();
    assertPgbench();
  }
  // As in production: compiled once (npm run build), run by plain node without a TypeScript loader.
  log('building (npm run build)');
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
  // The embedded default first, on its own: `npm start` without a database, through the README.
  log('the embedded default: npm start on a new DATA_DIR, then the README walk');
  const embedded = await embeddedWalk(work);
  log(`embedded: ${embedded.afterWalkRssMiB?.toFixed(0)} MiB after the walk (${embedded.walkSeconds.toFixed(0)} s)`);
  if (args['embedded-only']) {
    console.log(JSON.stringify(embedded));
    return 0;
  }
  await database.create();
  const stops: (() => Promise<void>)[] = [];
  try {
    log(`seeding ${database.name}: ${merchants} merchants`);
    const config = loadConfig({ ...env, PORT: '0' });
    const data = await seed(config, { merchants, payoutsPerMerchant: smoke ? 2 : 5, paymentsPerMerchant: smoke ? 1 : 2 });
    log(`seeded ${data.payouts.length} payouts, ${data.payments.length} payments; logs in ${work}`);
    const statements = await captureStatements(config, data, PAYOUT_BODY);
    const statementsFile = join(work, 'statements.json');
    writeFileSync(statementsFile, JSON.stringify(statements, null, 2));

    const profileDir = join(ROOT, 'bench/results/profile');
    if (args.profile) mkdirSync(profileDir, { recursive: true });
    // V8 lets its heap grow to about four times the live data before a full collection; a
    // production instance caps it to fit its container (docs/production.md). zarpay lives in
    // ~30 MB, ~70 MB with 1,000 open subscriptions.
    const heapCap = [`--max-old-space-size=${OLD_SPACE_MIB}`];
    // For experiments (--trace-gc, --max-semi-space-size=…); a published table is run without.
    const extraFlags = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
    // Named by process and run, so that profile-summary.ts can cut each to its measured windows.
    const profiled = (name: string) => (args.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}-${runId}.cpuprofile`] : []);
    const flags = [...heapCap, ...extraFlags, ...profiled('zarpay')];
    const zarpay = await spawnServer('build/src/main.js', env, join(work, 'zarpay.log'), flags);
    stops.push(zarpay.stop);
    const bare = await spawnServer('bench/reference-server.ts', { DATABASE_URL: database.url, BENCH_STATEMENTS: statementsFile }, join(work, 'bare.log'));
    stops.push(bare.stop);
    // The GraphQL references, only for the scenarios that use them (PostGraphile for the reads).
    let yoga: Child | null = null;
    let postgraphile: Child | null = null;
    if (chosen.some((s) => s.startsWith('graphql-'))) {
      yoga = await spawnServer('bench/references/yoga.ts', { DATABASE_URL: database.url, BENCH_STATEMENTS: statementsFile }, join(work, 'yoga.log'), profiled('yoga'));
      stops.push(yoga.stop);
    }
    // PostGraphile 5 needs Node 22 (its engines; on Node 20 it starts, then fails every query for
    // want of Promise.withResolvers): on an older Node its columns stay empty and the table says why.
    const postgraphileSkipped =
      chosen.includes('graphql-reads') && Number(process.versions.node.split('.')[0]) < 22 ? `PostGraphile not run: it needs Node ≥ 22, this is ${process.version}` : null;
    if (postgraphileSkipped) log(postgraphileSkipped);
    else if (chosen.includes('graphql-reads')) {
      const t0 = performance.now();
      const pglEnv = { DATABASE_URL: database.url, NODE_ENV: 'production', GRAPHILE_ENV: 'production' };
      postgraphile = await spawnServer('bench/references/postgraphile.ts', pglEnv, join(work, 'postgraphile.log'));
      stops.push(postgraphile.stop);
      log(`PostGraphile answering after ${((performance.now() - t0) / 1000).toFixed(1)} s (process start, introspection, schema)`);
    }
    const rss = new RssSampler(zarpay.child.pid!);
    const idleRss = rssMiB(zarpay.child.pid!);

    const ctx: BenchContext = {
      zarpayUrl: zarpay.url,
      bareUrl: bare.url,
      yogaUrl: yoga?.url ?? null,
      postgraphileUrl: postgraphile?.url ?? null,
      databaseUrl: database.url,
      operatorToken: env.OPERATOR_TOKEN!,
      seed: data,
      scripts: pgbenchScripts(statements),
      serviceEnv: env,
      workDir: work,
      connections,
      pgbenchClients: Number(args['pgbench-clients']),
      durationSec,
      rounds,
      warmupSec,
      runId,
      takeRssPeak: () => rss.reset(),
    };
    // Warm both servers' JIT and pools, so the first scenario is not the one that pays for it.
    const warm = (url: string, headers: Record<string, string>, graphql?: string) =>
      load({
        url, connections, durationSec: smoke ? 1 : 3, distinct: 1, isWarmup: true,
        request: () => (graphql ? { method: 'POST', path: '/graphql', headers, body: JSON.stringify({ query: graphql }) } : { path: '/api/v1/payouts/balance', headers }),
      });
    await warm(zarpay.url, { 'x-api-key': data.merchants[0]!.key });
    await warm(bare.url, { 'x-merchant-id': data.merchants[0]!.id });
    if (yoga) await warm(yoga.url, { 'x-merchant-id': data.merchants[0]!.id }, '{ balance { balanceCents } }');
    if (postgraphile) await warm(postgraphile.url, {}, `{ balanceByMerchantId(merchantId: "${data.merchants[0]!.id}") { balanceCents } }`);
    rss.reset();

    const rows: Row[] = [];
    for (const name of chosen) {
      log(`scenario ${name}`);
      rows.push(...(await SCENARIOS[name]!(ctx)));
    }
    const lifetimePeakRssMiB = rss.lifetimePeak();
    rss.stop();

    const cpu = cpus();
    const report = renderReport(rows, {
      cpus: `${cpu.length} × ${cpu[0]?.model ?? 'unknown'}, Node ${process.version}`,
      commit: execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim(),
      date: new Date().toISOString(),
      settings:
        `${smoke ? 'SMOKE (numbers meaningless) — ' : ''}wrk -t2, ${connections} HTTP connections, each side ${rounds} × ${durationSec} s in turns ` +
        `(median round; ${warmupSec} s unmeasured first), ` +
        `pgbench ${ctx.pgbenchClients} clients -j 2 -M prepared, DB pool ${POOL_SIZE}, ${merchants} merchants, ` +
        `${data.payouts.length} seeded payouts, ${data.payments.length} payments, SERVICE_ENV=tst, LOG_LEVEL=info to a file, RATE_LIMITS=all 10000000/min, ` +
        `${rateLimitStore === 'redis' ? 'Redis' : 'PostgreSQL'} rate-limit store, ` +
        `zarpay compiled (npm run build) and run with node ${[...heapCap, ...extraFlags].join(' ')}` +
        (postgraphileSkipped ? `; ${postgraphileSkipped}` : ''),
      lifetimePeakRssMiB,
      idleRssMiB: idleRss,
      embedded,
    });
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    if (args.profile) {
      // Which server each measured run loaded, and when: profile-summary.ts --windows.
      const names = Object.fromEntries(Object.entries({ zarpay, bare, yoga, postgraphile }).flatMap(([k, c]) => (c ? [[c.url, k]] : [])));
      const windows = loadWindows.map(({ url, ...w }) => ({ server: names[url] ?? url, ...w }));
      writeFileSync(join(profileDir, `windows-${runId}.json`), JSON.stringify(windows, null, 1));
    }
    // Only a full, unprofiled run of every scenario replaces latest.md: a profiler slows the
    // service it measures, and a table of some scenarios would pass for the whole.
    const partial = args.scenario !== 'all';
    const file = join(ROOT, 'bench/results', smoke ? 'smoke.md' : args.profile ? 'profile/profile.md' : partial ? 'partial.md' : 'latest.md');
    writeFileSync(file, report);
    console.log(report);
    log(`written ${file}`);
    return 0;
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    await database.drop().catch((e) => log(`could not drop ${database.name}: ${e.message}`));
  }
}

process.exitCode = await main();
