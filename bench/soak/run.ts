/**
 * `npm run soak [-- --minutes 10 | --seconds 75] [--rate 1] [--abuse-rate 1] [--abuse opname-flood,…] [--shops 8] [--keep]`
 *
 * A soak test that attacks while it checks: two compiled instances on one PostgreSQL database,
 * each through a TCP proxy of its own; merchants' traffic at a fixed rate and anonymous abuse at
 * the same time; at a third of the run one instance is killed with SIGKILL and restarted, at two
 * thirds the other one's database connections are cut for 5 s. At the end: the ledger, the
 * webhooks, the instances' memory and every answer are checked, the figures printed, and the exit
 * code is non-zero when any check fails (bench/README.md, "Soak").
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freePort, ROOT, zarpay } from '../../test/support/processes.ts';
import { newRunId, scratchDatabase } from '../database.ts';
import { abuseStreams } from './abuse.ts';
import { type Check, httpCheck, instancesCheck, ledgerCheck, readDeliveries, rssCheck, unrecordedWindows, webhookVerdict } from './checks.ts';
import type { MachineSamples } from './figures.ts';
import { Client, type Outcome } from './http.ts';
import { OLD_SPACE_MIB } from '../processes.ts';
import { Instance } from './instances.ts';
import { merchantStreams } from './merchants.ts';
import { createShops, OperatorApi, type Shop } from './shops.ts';
import { Followups, Pacer, type Stream, Troubles } from './pace.ts';
import { WebhookReceiver } from './receiver.ts';
import { render } from './report.ts';
import { seedPayouts } from './seed.ts';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string' },
    seconds: { type: 'string' },
    rate: { type: 'string', default: '1' },
    'abuse-rate': { type: 'string', default: '1' },
    abuse: { type: 'string', default: 'all' },
    shops: { type: 'string', default: '8' },
    keep: { type: 'boolean', default: false },
  },
});
const loadMs = args.seconds ? Number(args.seconds) * 1000 : Number(args.minutes ?? 10) * 60_000;
const rate = Number(args.rate);
const abuseRate = Number(args['abuse-rate']);
/** Some kinds of abuse only (`--abuse opname-flood,stream-reserve`: every kind whose name starts so), to see what each costs. */
const abuseKinds = args.abuse === 'all' ? null : args.abuse.split(',').map((k) => `abuse.${k.trim()}`);
{
  // The streams only send when run: built here for their names, to refuse a wrong one before anything starts.
  const names = abuseStreams({ targets: [], abusers: [], leakedKey: '', revokedKey: '' }, 1).map((s) => s.name);
  const unknown = (abuseKinds ?? []).filter((k) => !names.some((n) => n.startsWith(k)));
  if (unknown.length) throw new Error(`--abuse: no kind ${unknown.map((k) => k.slice('abuse.'.length)).join(', ')} (kinds: ${names.map((n) => n.slice('abuse.'.length)).join(', ')})`);
}
const shopCount = Number(args.shops);
if (!(loadMs >= 15_000) || !(rate > 0) || !(abuseRate >= 0) || !(shopCount >= 1)) {
  throw new Error('--seconds must be at least 15 (or --minutes at least 0.25), --rate above 0, --abuse-rate at least 0, --shops at least 1');
}
/** How long the other instance's database stays cut. */
const CUT_MS = 5_000;
/** The service's default attempt limit; an attempt's claim lasts twice this plus 5 s. */
const WEBHOOK_TIMEOUT_MS = 10_000;
/** After the load, how long the webhooks may take to be delivered (claims left by the kill and the cut expire within 25 s). */
const DRAIN_MS = 120_000;

const database = scratchDatabase(`${process.env.SOAK_DATABASE_PREFIX || 'zarpay_soak_'}${newRunId()}`);
const dbUrl = new URL(database.url);
const work = mkdtempSync(join(tmpdir(), 'zarpay-soak-'));

const log = (message: string) => console.error(`[soak ${new Date().toISOString().slice(11, 19)}] ${message}`);
/** Set by SIGINT or SIGTERM: the load ends early and the run cleans up without checking. */
const interruption = new AbortController();
/** Resolves after `ms`, or at once when the run is interrupted. */
const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    interruption.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

async function main(): Promise<number> {
  await database.create();
  const instances: Instance[] = [];
  const receiver = new WebhookReceiver();
  const outcomes: Outcome[] = [];
  const record = (o: Outcome) => void outcomes.push(o);
  const clients = {
    setup: new Client('127.0.0.1', () => {}),
    merchants: new Client('127.0.0.1', record),
    customers: new Client('127.0.0.4', record),
    abusers: [new Client('127.0.0.2', record), new Client('127.0.0.3', record)],
  };
  let sampler: NodeJS.Timeout | undefined;
  const machine: MachineSamples = { loadAverages: [], loopDelay: monitorEventLoopDelay({ resolution: 10 }), connections: [], maxConnections: 0 };
  // The soak's own look at the database: connections, then the checks.
  const db = new pg.Client({ connectionString: dbUrl.toString() });
  let counter: NodeJS.Timeout | undefined;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: ending the load early; cleaning up without checks`);
      // A Ctrl-C reaches the instances too: their exits are expected from now on.
      for (const i of instances) i.closing();
      interruption.abort();
    });
  }
  try {
    log(`database ${database.name}; logs in ${work}`);
    log('building (npm run build)');
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
    await receiver.start();
    const operatorToken = randomBytes(24).toString('hex');
    const env: Record<string, string> = {
      SERVICE_ENV: 'tst',
      OPERATOR_TOKEN: operatorToken,
      SERVICE_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'info',
      SANDBOX_CONFIRM_DELAY_MS: '1000',
      WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
      // A failed attempt is retried within seconds, not minutes, so the run can wait for it.
      WEBHOOK_RETRY_DELAYS_MS: '1000,2000,4000,8000',
      ...(process.env.REDIS_URL && { REDIS_URL: process.env.REDIS_URL }),
    };
    // One after the other: the first runs the migrations.
    for (const name of ['A', 'B']) {
      instances.push(await Instance.start(name, await freePort(), dbUrl, env, work));
      log(`instance ${name} on ${instances.at(-1)!.url} (pid ${instances.at(-1)!.pid})`);
    }
    const [a, b] = instances as [Instance, Instance];
    sampler = setInterval(() => {
      instances.forEach((i) => i.sample());
      machine.loadAverages.push(loadavg()[0]!);
    }, 1_000);
    await db.connect();
    db.on('error', () => {});
    machine.maxConnections = Number((await db.query<{ max_connections: string }>('show max_connections')).rows[0]!.max_connections);
    counter = setInterval(() => {
      // Client connections only: PostgreSQL's own background processes do not count against max_connections.
      db.query<{ total: number; ours: number }>(
        `select count(*)::int as total, count(*) filter (where datname = current_database())::int as ours
           from pg_stat_activity where backend_type = 'client backend'`,
      )
        .then(({ rows }) => void machine.connections.push(rows[0]!))
        .catch(() => {});
    }, 5_000);

    const targets = instances.map((i) => ({ name: i.name, url: i.url }));
    const trust = (shop: string, secret: string) => receiver.trust(shop, secret);
    const shops = await createShops(targets, clients.setup, operatorToken, Array.from({ length: shopCount }, (_, k) => `shop-${k + 1}`), receiver.url, trust);
    const [leaky] = await createShops(targets, clients.setup, operatorToken, ['leaky'], receiver.url, trust);
    const { revokedKey } = await revokedKeyOf(new OperatorApi(clients.setup, operatorToken), targets[0]!, leaky!);
    // A list for the expensive documents to return: 100 payouts of the merchant whose key leaked.
    await seedPayouts({ ...env, DATABASE_URL: dbUrl.toString(), DATA_DIR: join(work, 'seed') }, leaky!.key, 100);
    log(`${shops.length} shops and one whose key leaked (100 payouts); receiver ${receiver.url}`);

    const troubles = new Troubles();
    const followups = new Followups(troubles);
    const streams = [
      ...merchantStreams({ targets, merchants: clients.merchants, customers: clients.customers, operatorToken, shops, followups }, rate),
      ...(abuseRate > 0 ? chosenAbuse(abuseStreams({ targets, abusers: clients.abusers, leakedKey: leaky!.key, revokedKey }, abuseRate)) : []),
    ];
    const pacer = new Pacer(streams, troubles);
    const loadFrom = Date.now();
    machine.loopDelay.enable();
    log(`load for ${loadMs / 1000} s: ${streams.reduce((n, s) => n + s.perSecond, 0).toFixed(1)} requests/s launched (and the operator's and customers' follow-ups)`);
    const disruptions = (async () => {
      await sleep(loadMs / 3);
      if (interruption.signal.aborted) return;
      log(`kill -9 of ${a.name} (pid ${a.pid}) and its restart`);
      const w = await a.kill9AndRestart();
      log(`${a.name} answering again after ${((w.to - w.from) / 1000).toFixed(1)} s (pid ${a.pid})`);
      await sleep(Math.max(0, loadFrom + (2 * loadMs) / 3 - Date.now()));
      if (interruption.signal.aborted) return;
      log(`cutting ${b.name}'s database connections for ${CUT_MS / 1000} s`);
      const cut = await b.cutDatabase(CUT_MS);
      log(`${b.name} ready again ${((cut.to - cut.restoredAt) / 1000).toFixed(1)} s after the database came back`);
    })();
    await pacer.run(loadMs, () => interruption.signal.aborted);
    const loadTo = pacer.stoppedAt;
    machine.loopDelay.disable();
    await followups.close();
    await disruptions;
    if (interruption.signal.aborted) return 130;

    log('load over; waiting for every webhook to be delivered');
    const drained = await drain(db);
    if (!drained.done) log(`not drained after ${DRAIN_MS / 1000} s: ${drained.pending} deliveries pending, ${drained.confirming} sandbox confirmations waiting`);
    const verify = await zarpay(['ledger', 'verify'], { ZARPAY_URL: b.url, OPERATOR_TOKEN: operatorToken });
    clearInterval(sampler);
    clearInterval(counter);
    // Stopped before the checks read the database, so that nothing changes under them.
    for (const i of instances) await i.stop();
    const createdAt = new Map((await db.query<{ id: string; created_at: Date }>('select id, created_at from events')).rows.map((r) => [r.id, r.created_at.getTime()]));
    const checks: Check[] = [
      ledgerCheck(verify),
      webhookVerdict({ ...(await readDeliveries(db)), receipts: receiver.receipts, unrecorded: unrecordedWindows(instances, WEBHOOK_TIMEOUT_MS), drained: drained.done }),
      rssCheck(instances),
      httpCheck(outcomes, instances),
      instancesCheck(instances),
    ];
    const settings =
      `Two instances (compiled, node --max-old-space-size=${OLD_SPACE_MIB}, SERVICE_ENV=tst, default RATE_LIMITS with the ${env.REDIS_URL ? 'Redis' : 'PostgreSQL'} store), ` +
      `each through its own TCP proxy to one PostgreSQL database; merchants' traffic at --rate ${rate} over ${shopCount} shops, abuse at --abuse-rate ${abuseRate}${abuseKinds ? ` (--abuse ${args.abuse} only)` : ''} from 127.0.0.2 and 127.0.0.3.`;
    const report = render({ settings, checks, outcomes, instances, receipts: receiver.receipts, createdAt, loadFrom, loadTo, pacer, troubles, machine });
    console.log(report);
    const file = join(ROOT, 'bench/results', loadMs >= 600_000 ? 'soak.md' : 'soak-short.md');
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(file, report);
    log(`written ${file}`);
    return checks.every((c) => c.ok) ? 0 : 1;
  } finally {
    clearInterval(sampler);
    clearInterval(counter);
    await db.end().catch(() => {});
    for (const i of instances.reverse()) await i.stop().catch((e) => log(`stopping ${i.name}: ${e.message}`));
    await receiver.close().catch(() => {});
    for (const c of [clients.setup, clients.merchants, clients.customers, ...clients.abusers]) c.close();
    if (args.keep) log(`kept database ${database.name}`);
    else await database.drop().catch((e) => log(`could not drop ${database.name}: ${e.message}`));
  }
}

function chosenAbuse(streams: Stream[]): Stream[] {
  return abuseKinds ? streams.filter((s) => abuseKinds.some((k) => s.name.startsWith(k))) : streams;
}

/** A second key of the leaky merchant, revoked: the abusers present it too (403). */
async function revokedKeyOf(operator: OperatorApi, target: { name: string; url: string }, shop: Shop) {
  const issued = await operator.data(target, 'setup', 'mutation($m: UUID!) { issueApiKey(merchantId: $m) { apiKey { kid } fullKey } }', { m: shop.id });
  await operator.data(target, 'setup', 'mutation($k: String!) { revokeApiKey(kid: $k) { apiKey { kid status } } }', { k: issued.issueApiKey.apiKey.kid });
  return { revokedKey: issued.issueApiKey.fullKey as string };
}

/**
 * Waits until no delivery is pending, no sandbox confirmation is waiting to be sent (it would make
 * an event) and no new event has appeared, for 3 s in a row; at most DRAIN_MS.
 */
async function drain(db: pg.Client): Promise<{ done: boolean; pending: number; confirming: number }> {
  const deadline = Date.now() + DRAIN_MS;
  let quiet = 0;
  let lastEvents = -1;
  for (;;) {
    const { rows } = await db.query<{ pending: number; confirming: number; events: number }>(`
      select (select count(*)::int from webhook_deliveries where status = 'pending') as pending,
             (select count(*)::int from jobs where queue = 'sandbox.confirm' and status = 'queued') as confirming,
             (select count(*)::int from events) as events`);
    const { pending, confirming, events } = rows[0]!;
    quiet = pending === 0 && confirming === 0 && events === lastEvents ? quiet + 1 : 0;
    lastEvents = events;
    if (quiet >= 3) return { done: true, pending, confirming };
    if (Date.now() > deadline || interruption.signal.aborted) return { done: false, pending, confirming };
    await sleep(1_000);
  }
}

process.exitCode = await main().catch((e) => {
  console.error(e);
  return 2;
});
