import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue } from '../src/db/jobs.ts';
import { QUEUE, type Queue } from '../src/domain/jobs.ts';
import { JobRunner } from '../src/jobs/runner.ts';
import { GiveUp, later, type Task } from '../src/jobs/task.ts';
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
    const deaf = new JobRunner({
      db: db.handle.db,
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
    expect(given).toMatchObject({ status: 'queued', attempts: 1, locked_by: null, last_error: expect.stringContaining('given up at shutdown') });
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
    // Run now: it sweeps, and is due again in a minute.
    await t.database.db.updateTable('jobs').set({ run_at: new Date(Date.now() - 1) }).where('id', '=', sweep.id).execute();
    await t.app.services.runner.runDue([QUEUE.rateLimitSweep]);
    const after = await t.database.db.selectFrom('jobs').selectAll().where('id', '=', sweep.id).executeTakeFirstOrThrow();
    expect(after.status).toBe('queued');
    expect(after.run_at.getTime()).toBeGreaterThan(Date.now() + 50_000);
  });
});
