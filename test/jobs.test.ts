import { type CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/index.ts';
import { enqueue, isRunnerStatement } from '../src/db/jobs.ts';
import { QUEUE, type Queue } from '../src/domain/jobs.ts';
import { JobRunner } from '../src/jobs/runner.ts';
import { done, failure, GiveUp, later, type Recorded, type Task } from '../src/jobs/task.ts';
import { createServices } from '../src/runtime.ts';
import { borrowed, freshDatabase, startApp, type TestApp, usingPostgres } from './support/app.ts';
import { createMerchant, gql, op } from './support/client.ts';
import { eventually } from './support/receiver.ts';

/**
 * The one job runner (src/jobs/runner.ts) with tasks of the test's own, on the real queue table:
 * retries and their backoff, a final failed state and the operator's retry, `later`, two runners
 * sharing a queue, and a stop that gives back what it cannot finish.
 */
let db: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.handle.close();
  await db?.drop();
});

let queues = 0;
/** A queue name of this test's own (the table takes any; the runner's tasks are typed by the closed list). */
const testQueue = () => `test.queue_${++queues}` as Queue;

function task(queue: Queue, run: Task['run'], more: Partial<Task> = {}): Task {
  return { queue, concurrency: 4, leaseMs: 30_000, retryDelaysMs: [20, 20], run, ...more };
}

/** The test's database, counting the statements that write outcomes (src/db/jobs.ts's settle). */
function countingWrites(root: Db): { db: Db; writes(): number } {
  let writes = 0;
  const counted = new Proxy(root, {
    get(target, prop) {
      if (prop === 'executeQuery') {
        return (query: CompiledQuery) => {
          if (query.sql.startsWith('with outcome as')) writes++;
          return target.executeQuery(query);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: counted, writes: () => writes };
}

/**
 * Makes the queue's jobs due a second ago: runDue runs what was due when it was called, to the
 * millisecond, and a job queued within that millisecond (the database keeps microseconds) is not.
 */
const dueAlready = (queue: string) => db.handle.db.updateTable('jobs').set({ run_at: sql<Date>`run_at - interval '1 second'` }).where('queue', '=', queue).execute();

const jobRow = (queue: string, key: string) => db.handle.db.selectFrom('jobs').selectAll().where('queue', '=', queue).where('key', '=', key).executeTakeFirst();

/** Whether `p` settles within `ms`: a bound on what must end, so that a hang fails the test instead of stalling it. */
async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([p.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('the job runner', () => {
  it('retries a failing job after its task\'s delays, then deletes it once done', async () => {
    const queue = testQueue();
    const tries: number[] = [];
    const runner = new JobRunner({
      db: db.handle.db,
      tasks: [
        task(queue, async (job) => {
          tries.push(job.attempt);
          if (job.attempt < 3) throw new Error(`not yet (${job.attempt})`);
        }),
      ],
    });
    await enqueue(db.handle.db, { queue, key: 'k1', payload: { n: 1 } });
    runner.start();
    try {
      await eventually(async () => ((await jobRow(queue, 'k1')) === undefined ? true : null), 10_000);
      expect(tries).toEqual([1, 2, 3]);
      expect(runner.counts().get(queue)).toMatchObject({ processed: 1, retried: 2, failed: 0 });
    } finally {
      await runner.stop();
    }
  });

  it('keeps a job that failed every try as failed, with its error, until it is retried', async () => {
    const queue = testQueue();
    let succeed = false;
    const runner = new JobRunner({
      db: db.handle.db,
      tasks: [
        task(queue, async () => {
          if (!succeed) throw new Error('receiver down');
        }),
      ],
    });
    await enqueue(db.handle.db, { queue, key: 'k2' });
    runner.start();
    try {
      const failed = await eventually(async () => {
        const row = await jobRow(queue, 'k2');
        return row?.status === 'failed' ? row : null;
      }, 10_000);
      // One try and two retries (the task's two delays).
      expect(failed).toMatchObject({ status: 'failed', attempts: 3, last_error: 'receiver down', locked_by: null });
      succeed = true;
      await db.handle.db.updateTable('jobs').set({ status: 'queued', run_at: new Date(), attempts: 0 }).where('id', '=', failed.id).execute();
      runner.nudge();
      await eventually(async () => ((await jobRow(queue, 'k2')) === undefined ? true : null), 10_000);
    } finally {
      await runner.stop();
    }
  });

  it('gives up at once on GiveUp, and asks again later without counting a failure on later()', async () => {
    const [doomed, patient] = [testQueue(), testQueue()];
    let asked = 0;
    const runner = new JobRunner({
      db: db.handle.db,
      tasks: [
        task(doomed, async () => {
          throw new GiveUp('the payment has no customer e-mail');
        }),
        task(patient, async () => (++asked < 3 ? later(20) : undefined)),
      ],
    });
    await enqueue(db.handle.db, { queue: doomed, key: 'k' });
    await enqueue(db.handle.db, { queue: patient, key: 'k' });
    runner.start();
    try {
      const gaveUp = await eventually(async () => {
        const row = await jobRow(doomed, 'k');
        return row?.status === 'failed' ? row : null;
      }, 10_000);
      expect(gaveUp).toMatchObject({ attempts: 1, last_error: 'the payment has no customer e-mail' });
      await eventually(async () => ((await jobRow(patient, 'k')) === undefined ? true : null), 10_000);
      expect(asked).toBe(3);
      expect(runner.counts().get(patient)).toMatchObject({ processed: 1, retried: 0, failed: 0 });
    } finally {
      await runner.stop();
    }
  });

  it('runs each job once when two runners share a queue', async () => {
    const queue = testQueue();
    const runs = new Map<string, number>();
    const work = task(queue, async (job) => {
      runs.set(job.key, (runs.get(job.key) ?? 0) + 1);
      await new Promise((resolve) => setImmediate(resolve));
    });
    const a = new JobRunner({ db: db.handle.db, tasks: [work] });
    const b = new JobRunner({ db: db.handle.db, tasks: [work] });
    for (let i = 0; i < 40; i++) await enqueue(db.handle.db, { queue, key: `k${i}` });
    a.start();
    b.start();
    try {
      await eventually(async () => {
        const left = await db.handle.db.selectFrom('jobs').select('id').where('queue', '=', queue).execute();
        return left.length === 0 ? true : null;
      }, 20_000);
      expect(runs.size).toBe(40);
      expect([...runs.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('on stop, lets a run finish within the grace, and gives back one that does not, its try not counted', async () => {
    const queue = testQueue();
    let started = 0;
    const runner = new JobRunner({
      db: db.handle.db,
      tasks: [
        task(queue, (job) => {
          started++;
          // Never ends by itself: only the runner's abort ends it.
          return new Promise((_resolve, reject) => job.signal.addEventListener('abort', () => reject(new Error('aborted'))));
        }),
      ],
    });
    await enqueue(db.handle.db, { queue, key: 'hangs' });
    runner.start();
    await eventually(async () => (started === 1 ? true : null), 10_000);
    await runner.stop(100);
    expect(await jobRow(queue, 'hangs')).toMatchObject({ status: 'queued', attempts: 0, locked_by: null, locked_until: null });
  });

  it('a recurring task never fails for good: it backs off, its row shows the error and the tries since it last worked, and it runs on', async () => {
    const queue = testQueue();
    let failing = true;
    const runner = new JobRunner({
      db: db.handle.db,
      tasks: [
        task(
          queue,
          async () => {
            if (failing) throw new Error('the database said no');
          },
          // Past its two delays a job of an ordinary task would have failed for good.
          { recurring: { key: 'every', everyMs: 30 } },
        ),
      ],
    });
    await enqueue(db.handle.db, { queue, key: 'every' });
    runner.start();
    try {
      const failingRow = await eventually(async () => {
        const row = await jobRow(queue, 'every');
        return row && row.attempts >= 5 ? row : null;
      }, 10_000);
      expect(failingRow).toMatchObject({ status: 'queued', last_error: 'the database said no' });
      expect(runner.counts().get(queue)).toMatchObject({ failed: 0 });
      expect(runner.counts().get(queue)!.retried).toBeGreaterThanOrEqual(4);
      failing = false;
      // Working again: its tries are counted afresh and its error is cleared; it stays queued for its next run.
      const healed = await eventually(async () => {
        const row = await jobRow(queue, 'every');
        return row?.attempts === 0 && row.last_error === null ? row : null;
      }, 10_000);
      expect(healed.status).toBe('queued');
    } finally {
      await runner.stop();
    }
  });

  it('stop() is bounded: a run that ignores its abort is given up, and another runner takes its job once the lease runs out', async () => {
    const queue = testQueue();
    let started = 0;
    const heard: string[] = [];
    const deaf = new JobRunner({
      db: db.handle.db,
      onError: (message) => heard.push(message),
      tasks: [
        task(
          queue,
          () => {
            started++;
            // Never ends, and never looks at its signal.
            return new Promise(() => {});
          },
          { leaseMs: 1_000 },
        ),
      ],
    });
    await enqueue(db.handle.db, { queue, key: 'deaf' });
    deaf.start();
    await eventually(async () => (started === 1 ? true : null), 10_000);
    expect(await settlesWithin(deaf.stop(50, 100), 10_000)).toBe(true);
    const given = await jobRow(queue, 'deaf');
    // Given back as after a crash: the try counts, and the lease keeps anyone else off while the stray run may still act.
    expect(given).toMatchObject({ status: 'queued', attempts: 1, locked_by: null, last_error: 'given up at shutdown: still running 100 ms after its abort' });
    expect(heard).toEqual([`jobs: ${queue} job deaf ignored its abort; left to another runner once its lease runs out`]);
    expect(given!.locked_until).not.toBeNull();
    expect(deaf.counts().get(queue)).toMatchObject({ inFlight: 0 });

    let retaken = 0;
    const next = new JobRunner({ db: db.handle.db, pollMs: 50, tasks: [task(queue, async () => void retaken++)] });
    next.start();
    try {
      await eventually(async () => ((await jobRow(queue, 'deaf')) === undefined ? true : null), 10_000);
      expect(retaken).toBe(1);
    } finally {
      await next.stop();
    }
  });

  it('runDue runs what is due now and says how many; its counts and messages say what came of each', async () => {
    const queue = testQueue();
    const heard: string[] = [];
    const counted = countingWrites(db.handle.db);
    const runner = new JobRunner({
      db: counted.db,
      onError: (message) => heard.push(message),
      tasks: [
        task(
          queue,
          async (job) => {
            if (job.key === 'fails') throw new Error('receiver down');
            if (job.key === 'gives-up') throw new GiveUp('no address');
            if (job.key === 'items') job.itemFailed('pay_1', new Error('row locked'), 'failed 1 time; passed over for 60 s');
          },
          { retryDelaysMs: [2_000] },
        ),
      ],
    });
    for (const key of ['works', 'fails', 'gives-up', 'items']) await enqueue(db.handle.db, { queue, key });
    await enqueue(db.handle.db, { queue, key: 'tomorrow', inMs: 86_400_000 });
    await dueAlready(queue);
    expect(await runner.runDue([queue])).toBe(4);
    // The four outcomes are written together, in one statement.
    expect(counted.writes()).toBe(1);
    expect(runner.counts().get(queue)).toEqual({ processed: 2, failed: 1, retried: 1, itemFailures: 1, inFlight: 0 });
    expect(heard.sort()).toEqual([
      `jobs: ${queue} job fails failed (try 1, again in 2 s)`,
      `jobs: ${queue} job gives-up failed (try 1, giving up)`,
      `jobs: ${queue} job items: pay_1 failed, the others go on (failed 1 time; passed over for 60 s)`,
    ]);
    const left = await db.handle.db.selectFrom('jobs').select(['key', 'status', 'attempts', 'last_error']).where('queue', '=', queue).orderBy('key').execute();
    expect(left).toEqual([
      { key: 'fails', status: 'queued', attempts: 1, last_error: 'receiver down' },
      { key: 'gives-up', status: 'failed', attempts: 1, last_error: 'no address' },
      { key: 'tomorrow', status: 'queued', attempts: 0, last_error: null },
    ]);
    // The retry is due in 2 s, the other tomorrow: nothing is due now, and a queue it has no task for is none of its business.
    expect(await runner.runDue([queue, testQueue()])).toBe(0);
  });

  it('runDue stops after its number of claims; a job due again at once waits for the next call, with the payload it asked for', async () => {
    const queue = testQueue();
    const seen: unknown[] = [];
    const runner = new JobRunner({
      db: db.handle.db,
      tasks: [
        task(
          queue,
          async (job) => {
            seen.push(`${job.key}:${JSON.stringify(job.payload)}`);
            if (job.key === 'counts' && Number(job.payload.n) < 3) return later(0, { n: Number(job.payload.n) + 1 });
          },
          { concurrency: 1 },
        ),
      ],
    });
    await enqueue(db.handle.db, { queue, key: 'counts', payload: { n: 1 } });
    await enqueue(db.handle.db, { queue, key: 'a' });
    await enqueue(db.handle.db, { queue, key: 'b' });
    await dueAlready(queue);
    expect(await runner.runDue([queue], 2)).toBe(2);
    await dueAlready(queue);
    expect(await runner.runDue([queue])).toBe(2);
    await dueAlready(queue);
    expect(await runner.runDue([queue])).toBe(1);
    await dueAlready(queue);
    expect(seen).toEqual(['counts:{"n":1}', 'a:{}', 'b:{}', 'counts:{"n":2}', 'counts:{"n":3}']);
    expect(await runner.runDue([queue])).toBe(0);
  });

  it('no merchant has more than its share of one runner\'s slots at once; without a share, it may have them all', async () => {
    const merchant = crypto.randomUUID();
    const atOnce = (share?: number) => {
      let now = 0;
      let most = 0;
      const queue = testQueue();
      const runner = new JobRunner({
        db: db.handle.db,
        tasks: [
          task(
            queue,
            async (job) => {
              if (job.merchantId === merchant) most = Math.max(most, ++now);
              await new Promise((resolve) => setImmediate(resolve));
              if (job.merchantId === merchant) now--;
            },
            share === undefined ? {} : { perMerchant: share },
          ),
        ],
      });
      return {
        async run() {
          for (const key of ['m1', 'm2', 'm3']) await enqueue(db.handle.db, { queue, key, merchantId: merchant });
          await enqueue(db.handle.db, { queue, key: 'ours' });
          await dueAlready(queue);
          return { ran: await runner.runDue([queue]), most };
        },
      };
    };
    expect(await atOnce(1).run()).toEqual({ ran: 4, most: 1 });
    expect(await atOnce().run()).toEqual({ ran: 4, most: 3 });
  });

  it('a task\'s record of its outcomes is written with them: what each run came to, and whether the runner still held the job', async () => {
    const queue = testQueue();
    const recorded: Recorded<unknown>[] = [];
    let finishFirst: (() => void) | undefined;
    const recording = task(
      queue,
      async (job) => {
        if (job.key === 'ok') return done({ status: 200 });
        if (job.key === 'bad') return failure('HTTP 500', { status: 500 });
        if (job.key === 'long') throw new Error('x'.repeat(1_200));
        // The first try outlives its lease: another runner takes the job over meanwhile.
        if (job.attempt === 1) await new Promise<void>((resolve) => (finishFirst = resolve));
      },
      { leaseMs: 50, retryDelaysMs: [60_000], record: async (_tx, outcomes) => void recorded.push(...outcomes) },
    );
    const [a, b] = [new JobRunner({ db: db.handle.db, tasks: [recording] }), new JobRunner({ db: db.handle.db, tasks: [recording] })];
    for (const key of ['ok', 'bad', 'long']) await enqueue(db.handle.db, { queue, key });
    await dueAlready(queue);
    expect(await a.runDue([queue])).toBe(3);
    const shown = (r: Recorded<unknown>) => ({ key: r.job.key, attempts: r.job.attempts, kind: r.kind, result: r.result, error: r.error, retryInMs: r.retryInMs, held: r.held });
    expect(recorded.map(shown).sort((x, y) => x.key.localeCompare(y.key))).toEqual([
      { key: 'bad', attempts: 1, kind: 'retry', result: { status: 500 }, error: 'HTTP 500', retryInMs: 60_000, held: true },
      // What a run threw is kept to its first 1000 characters.
      { key: 'long', attempts: 1, kind: 'retry', result: undefined, error: 'x'.repeat(1_000), retryInMs: 60_000, held: true },
      { key: 'ok', attempts: 1, kind: 'done', result: { status: 200 }, error: null, retryInMs: null, held: true },
    ]);
    expect(recorded.every((r) => r.startedAt instanceof Date && Date.now() - r.startedAt.getTime() < 10_000)).toBe(true);

    recorded.length = 0;
    await enqueue(db.handle.db, { queue, key: 'slow' });
    await dueAlready(queue);
    const first = a.runDue([queue]);
    await eventually(async () => finishFirst !== undefined, 5_000);
    await eventually(async () => (await b.runDue([queue])) === 1, 5_000);
    finishFirst!();
    await first;
    expect(recorded.map(shown)).toEqual([
      { key: 'slow', attempts: 2, kind: 'done', result: undefined, error: null, retryInMs: null, held: true },
      { key: 'slow', attempts: 1, kind: 'done', result: undefined, error: null, retryInMs: null, held: false },
    ]);
  });

  it('a record that fails writes nothing of its outcomes: the job stays as claimed, and a stopped runner does not try again', async () => {
    const queue = testQueue();
    const heard: string[] = [];
    const runner = new JobRunner({
      db: db.handle.db,
      onError: (message) => heard.push(message),
      tasks: [
        task(queue, async () => undefined, {
          record: async () => {
            throw new Error('attempt log full');
          },
        }),
      ],
    });
    await enqueue(db.handle.db, { queue, key: 'k' });
    await dueAlready(queue);
    expect(await runner.runDue([queue])).toBe(1);
    expect(heard).toEqual(['jobs: outcomes not written']);
    const row = await jobRow(queue, 'k');
    expect(row).toMatchObject({ status: 'queued', attempts: 1 });
    expect(row!.locked_by).not.toBeNull();
  });

  it('knows its queues, starts on those asked for, takes more on while running, and claims none once stopped', async () => {
    const [a, b] = [testQueue(), testQueue()];
    const ran: string[] = [];
    // No poll to speak of: only the start, a nudge or a freed slot makes it claim.
    const runner = new JobRunner({ db: db.handle.db, pollMs: 60_000, tasks: [task(a, async (job) => void ran.push(job.key)), task(b, async (job) => void ran.push(job.key))] });
    expect(runner.queueNames).toEqual([a, b]);
    expect(runner.activeQueues).toEqual([]);
    runner.start([]);
    expect(runner.activeQueues).toEqual([]);
    await enqueue(db.handle.db, { queue: b, key: 'b1' });
    runner.start([a]);
    try {
      expect(runner.activeQueues).toEqual([a]);
      runner.start([b, a]);
      expect(runner.activeQueues).toEqual([a, b]);
      await eventually(async () => ran.includes('b1'), 5_000);
      await enqueue(db.handle.db, { queue: a, key: 'a1' });
      runner.nudge();
      await eventually(async () => ran.includes('a1'), 5_000);
    } finally {
      await runner.stop();
    }
    expect(runner.activeQueues).toEqual([]);
    await runner.stop();
    runner.nudge();
    runner.wakeIn(0);
    expect(await new JobRunner({ db: db.handle.db, tasks: [] }).stop()).toBeUndefined();
  });

  it('wakes for its own retries, for a job that asked to be run later, for a recurring job\'s next run and for a freed slot, without waiting for the poll', async () => {
    const [retried, asked, recurring] = [testQueue(), testQueue(), testQueue()];
    const tries: string[] = [];
    let ticks = 0;
    // No poll to speak of: only a runner's own wake-ups make it claim (a runner for each kind of
    // wake-up, so that none is woken by another's).
    const runners = [
      task(
        retried,
        async (job) => {
          tries.push(`${job.key}#${job.attempt}`);
          if (job.key === 'a' && job.attempt === 1) throw new Error('once');
        },
        { concurrency: 1 },
      ),
      task(asked, async (job) => {
        tries.push(`${job.key}#${job.attempt}`);
        if (job.payload.again === undefined) return later(20, { again: true });
      }),
      task(recurring, async () => void ticks++, { recurring: { key: 'tick', everyMs: 20 } }),
    ].map((t) => new JobRunner({ db: db.handle.db, pollMs: 60_000, tasks: [t] }));
    for (const key of ['a', 'b']) await enqueue(db.handle.db, { queue: retried, key });
    await enqueue(db.handle.db, { queue: asked, key: 'c' });
    await enqueue(db.handle.db, { queue: recurring, key: 'tick' });
    for (const r of runners) r.start();
    try {
      await eventually(async () => tries.length === 5 && ticks >= 3, 5_000);
      // One slot for `a` and `b`: `b` once `a` has ended, `a` again once its retry is due; `c` again once its `later`.
      expect(tries.filter((t) => !t.startsWith('c'))).toEqual(['a#1', 'b#1', 'a#2']);
      expect(tries.filter((t) => t.startsWith('c'))).toEqual(['c#1', 'c#2']);
    } finally {
      await Promise.all(runners.map((r) => r.stop()));
    }
  });

  it('goes on claiming after a claim failed, saying so', async () => {
    const queue = testQueue();
    const heard: string[] = [];
    let claims = 0;
    const failingFirstClaim = new Proxy(db.handle.db, {
      get(target, prop) {
        if (prop === 'executeQuery') {
          return (query: CompiledQuery) => (isRunnerStatement(query.sql) && !query.sql.startsWith('with outcome as') && ++claims === 1 ? Promise.reject(new Error('connection refused')) : target.executeQuery(query));
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    let ran = 0;
    const runner = new JobRunner({ db: failingFirstClaim, pollMs: 50, onError: (message) => heard.push(message), tasks: [task(queue, async () => void ran++)] });
    await enqueue(db.handle.db, { queue, key: 'k' });
    runner.start();
    try {
      await eventually(async () => ((await jobRow(queue, 'k')) === undefined ? true : null), 5_000);
      expect(ran).toBe(1);
      expect(heard).toEqual(['jobs: a claim failed']);
    } finally {
      await runner.stop();
    }
  });

  it('writes again, a second later, outcomes whose write failed while their lease still holds; past it, leaves the job to the next claim', async () => {
    const [long, short] = [testQueue(), testQueue()];
    const runs: string[] = [];
    /** What each task's record was asked to write: the tries, by the job's attempt. */
    const written: Record<string, number[]> = { long: [], short: [] };
    const failingOnce = (name: string) => {
      let calls = 0;
      return async (_tx: unknown, outcomes: readonly Recorded<unknown>[]) => {
        written[name]!.push(...outcomes.map((o) => o.job.attempts));
        if (++calls === 1) throw new Error('connection reset');
      };
    };
    const heard: string[] = [];
    const runner = new JobRunner({
      db: db.handle.db,
      pollMs: 50,
      onError: (message) => heard.push(message),
      tasks: [
        task(long, async (job) => void runs.push(`long#${job.attempt}`), { record: failingOnce('long') }),
        // A lease shorter than the wait before the second try to write: that try is not made.
        task(short, async (job) => void runs.push(`short#${job.attempt}`), { leaseMs: 600, record: failingOnce('short') }),
      ],
    });
    await enqueue(db.handle.db, { queue: long, key: 'k' });
    await enqueue(db.handle.db, { queue: short, key: 'k' });
    runner.start();
    try {
      await eventually(async () => ((await jobRow(long, 'k')) === undefined && (await jobRow(short, 'k')) === undefined ? true : null), 5_000);
      expect(runs.sort()).toEqual(['long#1', 'short#1', 'short#2']);
      expect(written).toEqual({ long: [1, 1], short: [1, 2] });
      expect(heard).toEqual(['jobs: outcomes not written', 'jobs: outcomes not written']);
    } finally {
      await runner.stop();
    }
  });

  it('on stop, a run that finishes despite the abort is done; one that fails or asks again because of it goes back untried', async () => {
    const queue = testQueue();
    const runner = new JobRunner({
      db: db.handle.db,
      tasks: [
        task(queue, async (job) => {
          await new Promise((resolve) => job.signal.addEventListener('abort', resolve));
          if (job.key === 'fails') return failure('cut short');
          if (job.key === 'later') return later(60_000);
        }),
      ],
    });
    for (const key of ['finishes', 'fails', 'later']) await enqueue(db.handle.db, { queue, key });
    runner.start();
    await eventually(async () => runner.counts().get(queue)!.inFlight === 3, 5_000);
    await runner.stop(10);
    const left = await db.handle.db.selectFrom('jobs').select(['key', 'status', 'attempts', 'last_error', 'locked_by']).where('queue', '=', queue).orderBy('key').execute();
    expect(left).toEqual([
      { key: 'fails', status: 'queued', attempts: 0, last_error: null, locked_by: null },
      { key: 'later', status: 'queued', attempts: 0, last_error: null, locked_by: null },
    ]);
    expect(runner.counts().get(queue)).toMatchObject({ processed: 1, failed: 0, retried: 0, inFlight: 0 });
  });

  it('queues its recurring jobs once, and again one that had failed for good, saying so', async () => {
    const [recurring, plain] = [testQueue(), testQueue()];
    const heard: string[] = [];
    const runner = new JobRunner({
      db: db.handle.db,
      onError: (message) => heard.push(message),
      tasks: [task(recurring, async () => undefined, { recurring: { key: 'hourly', everyMs: 3_600_000 } }), task(plain, async () => undefined)],
    });
    const rows = () => db.handle.db.selectFrom('jobs').select(['queue', 'key', 'status', 'attempts']).where('queue', 'in', [recurring, plain]).execute();
    await runner.arm([plain]);
    expect(await rows()).toEqual([]);
    await runner.arm();
    await runner.arm();
    expect(await rows()).toEqual([{ queue: recurring, key: 'hourly', status: 'queued', attempts: 0 }]);
    expect(heard).toEqual([]);
    const failAgain = (lastError: string | null) => db.handle.db.updateTable('jobs').set({ status: 'failed', attempts: 4, last_error: lastError }).where('queue', '=', recurring).execute();
    await failAgain('connection reset');
    await runner.arm();
    await failAgain(null);
    await runner.arm([recurring]);
    expect(await rows()).toEqual([{ queue: recurring, key: 'hourly', status: 'queued', attempts: 0 }]);
    expect(heard).toEqual([
      `jobs: the recurring ${recurring} job had failed for good (connection reset); queued again`,
      `jobs: the recurring ${recurring} job had failed for good (no error kept); queued again`,
    ]);
  });

  it('a second enqueue of the same queue and key is the same job', async () => {
    const queue = testQueue();
    expect(await enqueue(db.handle.db, { queue, key: 'once' })).toBe(true);
    expect(await enqueue(db.handle.db, { queue, key: 'once' })).toBe(false);
    const rows = await db.handle.db.selectFrom('jobs').select('id').where('queue', '=', queue).execute();
    expect(rows).toHaveLength(1);
  });
});

describe('the operator\'s view of background work', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ RATE_LIMITS: '' });
  });
  afterAll(() => t?.close());

  it('lists failed jobs and queues one again; a merchant may do neither', async () => {
    // A customer e-mail that gave up (as after every retry), for a payment that has no e-mail.
    await enqueue(t.database.db, { queue: QUEUE.customerEmail, key: crypto.randomUUID() });
    const id = (await t.database.db.selectFrom('jobs').select('id').where('queue', '=', QUEUE.customerEmail).executeTakeFirstOrThrow()).id;
    await t.database.db.updateTable('jobs').set({ status: 'failed', attempts: 5, last_error: '451 try later' }).where('id', '=', id).execute();

    const listed = await op(t, '{ jobs(status: FAILED, queue: "customer.email") { id queue status attempts lastError } }');
    expect(listed.jobs).toEqual([{ id: String(id), queue: 'customer.email', status: 'FAILED', attempts: 5, lastError: '451 try later' }]);
    const retried = await op(t, `mutation { retryJob(id: "${id}") { job { status attempts } } }`);
    expect(retried.retryJob.job).toEqual({ status: 'QUEUED', attempts: 0 });
    const again = await gql(t, `mutation { retryJob(id: "${id}") { job { id } } }`, {}, { operator: true });
    expect(again.body.errors?.[0]?.extensions?.code).toBe('INVALID_STATUS_TRANSITION');
    const unknown = await gql(t, 'mutation { retryJob(id: "987654321") { job { id } } }', {}, { operator: true });
    expect(unknown.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const bad = await gql(t, '{ jobs(queue: "no.such") { id } }', {}, { operator: true });
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    const shop = await createMerchant(t);
    for (const query of ['{ jobs { id } }', '{ jobQueues { name } }', `mutation { retryJob(id: "${id}") { job { id } } }`]) {
      const asMerchant = await gql(t, query, {}, { key: shop.key });
      expect(asMerchant.body.errors?.[0]?.extensions?.code, query).toBe('FORBIDDEN');
    }
  });

  it('shows every queue in figures, in GraphQL and on /metrics', async () => {
    // The hourly purge, queued at start-up and run at once: then due again in an hour.
    const queues = await eventually(async () => {
      const data = await op(t, '{ jobQueues { name due scheduled running failed oldestDueSeconds } }');
      return data.jobQueues.find((q: { name: string }) => q.name === QUEUE.purge).scheduled === 1 ? data : null;
    }, 10_000);
    expect(queues.jobQueues.map((q: { name: string }) => q.name)).toEqual(Object.values(QUEUE));
    expect(queues.jobQueues.find((q: { name: string }) => q.name === QUEUE.purge)).toMatchObject({ due: 0, running: 0, failed: 0 });
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).toContain('zarpay_jobs{queue="maintenance.purge",state="scheduled"} 1');
    expect(metrics).toMatch(/zarpay_jobs_oldest_due_seconds\{queue="webhook.deliver"\} \d/);
    expect(metrics).toMatch(/zarpay_jobs_finished_total\{queue="maintenance.purge",outcome="done"\} 1/);
  });

  it('queues again, at the next start, a recurring job left failed for good', async () => {
    // The purge, failed for good as an older version let it after a few minutes of failures.
    await t.database.db.updateTable('jobs').set({ status: 'failed', attempts: 4, last_error: 'connection reset' }).where('queue', '=', QUEUE.purge).execute();
    const heard: string[] = [];
    const next = createServices(t.config, borrowed(t.database));
    await next.start({ queues: [QUEUE.purge], onError: (message) => heard.push(message) });
    try {
      // Queued, due now: one of the two runners runs it, and it is due again in an hour, with its tries counted afresh.
      const ran = await eventually(async () => {
        const row = await t.database.db.selectFrom('jobs').selectAll().where('queue', '=', QUEUE.purge).executeTakeFirstOrThrow();
        return row.status === 'queued' && row.attempts === 0 && row.last_error === null && row.run_at.getTime() > Date.now() + 50 * 60_000 ? row : null;
      }, 10_000);
      expect(ran.key).toBe('hourly');
      expect(heard).toContainEqual(expect.stringContaining('the recurring maintenance.purge job had failed for good (connection reset); queued again'));
    } finally {
      await next.stop();
    }
  });

  it.skipIf(!usingPostgres)('sweeps the PostgreSQL rate-limit counters as a recurring job (needs PostgreSQL: set DATABASE_URL)', async () => {
    expect(t.app.services.rateLimits.store).toBe('postgres');
    const sweep = await t.database.db.selectFrom('jobs').selectAll().where('queue', '=', QUEUE.rateLimitSweep).executeTakeFirstOrThrow();
    expect(sweep.key).toBe('minutely');
    // Run now: it sweeps, and is due again in a minute. (The service's own loop may claim it first,
    // when its poll falls just then: then its outcome is written a moment later.)
    await t.database.db.updateTable('jobs').set({ run_at: new Date(Date.now() - 1) }).where('id', '=', sweep.id).execute();
    await t.app.services.runner.runDue([QUEUE.rateLimitSweep]);
    const after = await eventually(async () => {
      const row = await t.database.db.selectFrom('jobs').selectAll().where('id', '=', sweep.id).executeTakeFirstOrThrow();
      return row.run_at.getTime() > Date.now() + 50_000 ? row : null;
    }, 5_000);
    expect(after.status).toBe('queued');
  });
});
