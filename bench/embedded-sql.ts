/**
 * What the embedded database's tuning (src/db/embedded.ts) costs the database itself:
 *
 *   npx tsx bench/embedded-sql.ts [--rounds 3]
 *
 * Each round starts two processes in turns on copies of one data directory, PGlite as the
 * service opens it ("tuned": 16MB of shared buffers, its WebAssembly on V8's baseline compiler
 * alone, the start script's node flags and malloc setting) and PGlite's defaults ("untuned": 128MB,
 * V8 optimising PostgreSQL's hot functions as they run). Each runs the same work three times and
 * times the third pass (by then the untuned one has optimised what it runs), in CPU time of the
 * whole process: reads by primary key, small write transactions, and an aggregate over 100,000 rows,
 * the kind of statement the baseline compiler slows most. bench/ab.ts --embedded measures
 * the same two through HTTP, where the rest of a request's work dilutes the difference.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { PGlite } from '@electric-sql/pglite';
import { ROOT } from '../test/support/processes.ts';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    side: { type: 'string' },
    dir: { type: 'string' },
  },
});

const ROWS = 100_000;
const READS = 3000;
const WRITES = 300;
const AGGREGATES = 10;
/** Unmeasured passes first: the untuned side optimises what it runs meanwhile, as a server would. */
const WARMUP_PASSES = 2;

/** CPU time of this process in µs (every thread: the compilers' background work counts too). */
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

async function pass(pg: PGlite) {
  const t0 = cpu();
  for (let i = 0; i < READS; i++) await pg.query('select id, merchant, amount_cents from bench_rows where id = $1', [(i * 7919) % ROWS]);
  const t1 = cpu();
  for (let i = 0; i < WRITES; i++) {
    await pg.transaction(async (tx) => {
      await tx.query('update bench_rows set amount_cents = amount_cents + 1 where id = $1', [(i * 104729) % ROWS]);
      await tx.query('insert into bench_log (row_id, amount_cents) values ($1, 1)', [(i * 104729) % ROWS]);
    });
  }
  const t2 = cpu();
  for (let i = 0; i < AGGREGATES; i++) {
    await pg.query('select merchant, sum(amount_cents), count(*) from bench_rows group by merchant order by 2 desc limit 10');
  }
  const t3 = cpu();
  return { readUs: (t1 - t0) / READS, writeUs: (t2 - t1) / WRITES, aggregateMs: (t3 - t2) / AGGREGATES / 1000 };
}

async function side(name: string, dir: string) {
  let pg: PGlite;
  if (name === 'tuned') {
    const { openPGlite } = await import('../src/db/embedded.ts');
    pg = await openPGlite(dir);
  } else {
    const { PGlite } = await import('@electric-sql/pglite');
    pg = await PGlite.create(dir);
  }
  for (let i = 0; i < WARMUP_PASSES; i++) await pass(pg);
  const measured = await pass(pg);
  await pg.close();
  console.log(JSON.stringify(measured));
}

/** One data directory with the tables, made once and copied for every process. */
async function template(dir: string) {
  const { PGlite } = await import('@electric-sql/pglite');
  const pg = await PGlite.create(dir);
  await pg.exec(`
    create table bench_rows (id int primary key, merchant int not null, amount_cents bigint not null, note text not null);
    insert into bench_rows select g, g % 1000, g * 100, md5(g::text) from generate_series(0, ${ROWS - 1}) g;
    create table bench_log (id bigint generated always as identity primary key, row_id int not null, amount_cents bigint not null, at timestamptz not null default now());
  `);
  await pg.exec('vacuum analyze');
  await pg.close();
}

if (args.side) {
  await side(args.side, args.dir!);
} else {
  const work = mkdtempSync(join(tmpdir(), 'zarpay-embedded-sql-'));
  await template(join(work, 'template'));
  const results: Record<string, { readUs: number; writeUs: number; aggregateMs: number }[]> = { untuned: [], tuned: [] };
  for (let round = 0; round < Number(args.rounds); round++) {
    for (const name of round % 2 ? ['tuned', 'untuned'] : ['untuned', 'tuned']) {
      const dir = join(work, `${name}-${round}`);
      cpSync(join(work, 'template'), dir, { recursive: true });
      // The tuned side as `npm start` runs it: its node flags and malloc setting (package.json).
      const flags = name === 'tuned' ? ['--max-old-space-size=160', '--max-semi-space-size=4'] : [];
      const env = name === 'tuned' ? { ...process.env, MALLOC_MMAP_THRESHOLD_: '131072' } : process.env;
      const out = execFileSync(process.execPath, [...flags, '--import', 'tsx', 'bench/embedded-sql.ts', '--side', name, '--dir', dir], { cwd: ROOT, env, encoding: 'utf8' });
      const r = JSON.parse(out.trim().split('\n').pop()!);
      results[name]!.push(r);
      console.log(`round ${round + 1} ${name}: read ${r.readUs.toFixed(0)} µs, write transaction ${r.writeUs.toFixed(0)} µs, aggregate ${r.aggregateMs.toFixed(1)} ms (CPU)`);
      rmSync(dir, { recursive: true });
    }
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  for (const name of ['untuned', 'tuned']) {
    const of = (k: 'readUs' | 'writeUs' | 'aggregateMs') => median(results[name]!.map((r) => r[k]));
    console.log(`${name}: median read ${of('readUs').toFixed(0)} µs, write transaction ${of('writeUs').toFixed(0)} µs, aggregate ${of('aggregateMs').toFixed(1)} ms (CPU)`);
  }
  rmSync(work, { recursive: true });
}
