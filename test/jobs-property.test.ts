import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/index.ts';
import { enqueue } from '../src/db/jobs.ts';
import type { Queue } from '../src/domain/jobs.ts';
import { JobRunner } from '../src/jobs/runner.ts';
import { later, type Task } from '../src/jobs/task.ts';
import { freshDatabase, usingPostgres } from './support/app.ts';
import { eventually } from './support/receiver.ts';

/**
 * The runner's promises, checked over many random worlds (fast-check): N runners share one queue
 * of jobs from M merchants and one recurring job; runs fail at random; runners are killed at
 * random mid-job (the process gone: its runs never end, nothing more of it reaches the database,
 * its leases are left to run out) and some come back as new runners. Whatever happens:
 *
 * - no job runs on two runners at once (a lease holds it while its run can still act);
 * - none is lost: every job ends done or failed, as its own runs decide (the last run that
 *   counted: done if it worked; failed if it failed with no tries left), and the recurring job
 *   never fails for good and keeps running;
 * - no runner runs more of one merchant's jobs at once than the merchant's share.
 *
 * PostgreSQL only: the embedded database serves one connection, so runners never race there.
 */
/** Long beside a run (a few milliseconds), so only a killed runner's jobs are ever taken again. */
const LEASE_MS = 600;
const CONCURRENCY = 4;
const SHARE = 2;
const RETRY_DELAYS_MS = [10, 10];
const TRIES = RETRY_DELAYS_MS.length + 1;
/** A job's runs fail or work by this pattern, try after try (repeated past its end: kills add tries). */
const PATTERN = 6;
/** The recurring job's period, and how many of its runs a world waits for. */
const EVERY_MS = 20;
const TICKS = 6;

let db: Awaited<ReturnType<typeof freshDatabase>> | undefined;
beforeAll(async () => {
  if (usingPostgres) db = await freshDatabase();
});
afterAll(async () => {
  await db?.handle.close();
  await db?.drop();
});

/**
 * The database as one runner's process sees it, until `cut()`: then every statement it sends
 * fails, as for a process that died (what it had sent already still lands).
 */
function cuttable(root: Db): { db: Db; cut(): void } {
  let cut = false;
  const gone = () => Promise.reject(new Error('the process is gone'));
  const db = new Proxy(root, {
    get(target, prop) {
      if (prop === 'executeQuery') return (...args: Parameters<Db['executeQuery']>) => (cut ? gone() : target.executeQuery(...args));
      if (prop === 'transaction') return () => (cut ? { execute: gone } : target.transaction());
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db, cut: () => void (cut = true) };
}

const world = fc.record({
  runners: fc.integer({ min: 2, max: 4 }),
  merchants: fc.integer({ min: 1, max: 4 }),
  jobs: fc.array(
    fc.record({
      // null: zarpay's own work, which is no merchant's share.
      merchant: fc.option(fc.nat(3), { nil: null, freq: 5 }),
      fails: fc.array(fc.boolean(), { minLength: PATTERN, maxLength: PATTERN }),
      workMs: fc.integer({ min: 0, max: 4 }),
    }),
    { minLength: 6, maxLength: 30 },
  ),
  // The recurring job's runs, one after the other (repeated past its end).
  ticks: fc.array(fc.boolean(), { minLength: PATTERN, maxLength: PATTERN }),
  // The runner whose run is the `afterStarts`-th to start is killed then, mid-job.
  kills: fc.array(fc.record({ afterStarts: fc.nat(20), comesBack: fc.boolean() }), { minLength: 1, maxLength: 2 }),
});

type World = typeof world extends fc.Arbitrary<infer W> ? W : never;

let worlds = 0;

/** One world, to its end; the violations of the three promises it saw. */
async function live(root: Db, w: World): Promise<string[]> {
  const queue = `test.property_${++worlds}` as Queue;
  const recurring = `test.property_${worlds}_recurring` as Queue;
  await enqueue(root, { queue: recurring, key: 'tick' });
  const merchants = Array.from({ length: w.merchants }, () => randomUUID());
  const spec = new Map(w.jobs.map((j, i) => [`j${i}`, j]));
  for (const [key, j] of spec) await enqueue(root, { queue, key, merchantId: j.merchant === null ? null : merchants[j.merchant % w.merchants]! });

  const violations: string[] = [];
  /** The runs that ended on a live runner, in order: the last one of a job is what decided it. */
  const ended: { key: string; attempt: number; worked: boolean }[] = [];
  /** Job → the runner running it now. */
  const running = new Map<string, number>();
  let starts = 0;
  let kills = 0;
  let ticks = 0;

  interface Member {
    id: number;
    dead: boolean;
    runner: JobRunner;
    cut(): void;
    /** Merchant → its jobs this runner runs now. */
    busy: Map<string, number>;
  }
  const members: Member[] = [];

  /** A run starts on `me`: the promises checked, and the world's kills that are due done. */
  function enter(me: Member, key: string, merchant: string | null) {
    const other = running.get(key);
    if (other !== undefined) violations.push(`${key} ran on runners ${other} and ${me.id} at once`);
    running.set(key, me.id);
    if (merchant) {
      const n = (me.busy.get(merchant) ?? 0) + 1;
      me.busy.set(merchant, n);
      if (n > SHARE) violations.push(`runner ${me.id} ran ${n} jobs of one merchant at once (its share: ${SHARE})`);
    }
    starts++;
    killDue(me);
  }

  function leave(me: Member, key: string, merchant: string | null) {
    if (me.dead) return;
    running.delete(key);
    if (merchant) me.busy.set(merchant, me.busy.get(merchant)! - 1);
  }

  /** A dead process runs nothing more: a run it starts, or one it was in, never ends. */
  const never = () => new Promise<never>(() => {});

  function join(): Member {
    const link = cuttable(root);
    const me = { id: members.length, dead: false, busy: new Map<string, number>(), cut: link.cut } as Member;
    const work: Task = {
      queue,
      concurrency: CONCURRENCY,
      perMerchant: SHARE,
      leaseMs: LEASE_MS,
      retryDelaysMs: RETRY_DELAYS_MS,
      async run(job) {
        if (me.dead) return never();
        enter(me, job.key, job.merchantId);
        const j = spec.get(job.key)!;
        try {
          if (j.workMs > 0) await new Promise((resolve) => setTimeout(resolve, j.workMs));
          if (me.dead) return never();
          const worked = !j.fails[(job.attempt - 1) % PATTERN];
          ended.push({ key: job.key, attempt: job.attempt, worked });
          if (!worked) throw new Error(`fails on try ${job.attempt}`);
        } finally {
          leave(me, job.key, job.merchantId);
        }
      },
    };
    const tick: Task = {
      queue: recurring,
      concurrency: 1,
      leaseMs: LEASE_MS,
      retryDelaysMs: RETRY_DELAYS_MS,
      recurring: { key: 'tick', everyMs: EVERY_MS },
      async run() {
        if (me.dead) return never();
        enter(me, 'tick', null);
        try {
          await new Promise((resolve) => setImmediate(resolve));
          if (me.dead) return never();
          if (w.ticks[ticks++ % PATTERN]) throw new Error(`tick ${ticks} fails`);
          return later(EVERY_MS);
        } finally {
          leave(me, 'tick', null);
        }
      },
    };
    me.runner = new JobRunner({ db: link.db, tasks: [work, tick], pollMs: 25 });
    members.push(me);
    me.runner.start();
    return me;
  }

  function kill(me: Member) {
    me.dead = true;
    me.cut();
    for (const [key, id] of running) if (id === me.id) running.delete(key);
    me.busy.clear();
    // Its loop and timers end; nothing it still has to write can reach the database.
    void me.runner.stop(0, 0);
  }

  function killDue(me: Member) {
    while (!me.dead && kills < w.kills.length && starts >= w.kills[kills]!.afterStarts) {
      const k = w.kills[kills++]!;
      kill(me);
      // Someone must be left to finish the work: the last one always comes back.
      if (k.comesBack || members.every((m) => m.dead)) join();
    }
  }

  for (let i = 0; i < w.runners; i++) join();
  try {
    const left = () => root.selectFrom('jobs').select(['queue', 'key', 'status', 'attempts']).where('queue', 'in', [queue, recurring]).execute();
    // Killed runs' leases run out and their jobs are taken again: every job ends, within a few
    // leases, and the recurring job runs on (or, against its rules, fails for good).
    const rows = await eventually(async () => {
      const now = await left();
      const tick = now.find((r) => r.queue === recurring);
      const settled = now.every((r) => r.queue === recurring || r.status === 'failed');
      return settled && (ticks >= TICKS || tick?.status !== 'queued') ? now : null;
    }, 20 * LEASE_MS);
    const tick = rows.find((r) => r.queue === recurring);
    if (tick?.status !== 'queued') violations.push(`the recurring job is ${tick ? `${tick.status} after ${ticks} runs` : 'gone'}`);
    const remaining = rows.filter((r) => r.queue === queue);
    const failed = new Map(remaining.map((r) => [r.key, r]));
    for (const key of spec.keys()) {
      const last = ended.filter((e) => e.key === key).at(-1);
      if (!last) violations.push(`${key} ended without a run that counted`);
      else if (failed.has(key) && (last.worked || last.attempt < TRIES)) violations.push(`${key} failed, but its last run ${last.worked ? 'worked' : `was try ${last.attempt} of ${TRIES}`}`);
      else if (!failed.has(key) && !last.worked) violations.push(`${key} is done, but its last run failed`);
    }
  } finally {
    await Promise.all(members.filter((m) => !m.dead).map((m) => m.runner.stop()));
    await root.deleteFrom('jobs').where('queue', 'in', [queue, recurring]).execute();
  }
  return violations;
}

describe('the job runner, in random worlds', () => {
  it.skipIf(!usingPostgres)(
    'N runners × M merchants with random failures and kills: no job twice at once, none lost, no merchant past its share (needs PostgreSQL: set DATABASE_URL)',
    async () => {
      await fc.assert(
        fc.asyncProperty(world, async (w) => {
          expect(await live(db!.handle.db, w)).toEqual([]);
        }),
        // A world takes a second or so (the leases of killed runners run out): a few keep CI quick.
        { numRuns: 4, endOnFailure: true },
      );
    },
  );
});
