import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Queue } from '../src/domain/jobs.ts';
import { eachItem, type Passing, passedOver } from '../src/jobs/batch.ts';
import { decide, retryDelay } from '../src/jobs/outcomes.ts';
import { done, failure, GiveUp, later, released, type RunningJob, type Task } from '../src/jobs/task.ts';

/**
 * The job runner's rules that need no database, called directly (src/jobs/task.ts,
 * src/jobs/outcomes.ts, src/jobs/batch.ts): what a task's run can come to, what then becomes of
 * its job (done, retried after which delay, failed for good, due again), and how a batch task
 * passes over the items that fail. Each expectation is exact, so that mutation testing
 * (`npm run mutate`, docs/testing.md) finds a change to any of them; the runner's loop, claims
 * and shutdown are pinned on a real queue in test/jobs.test.ts.
 */

const Q = 'test.rules' as Queue;
const run = async () => undefined;
/** A task that retries after 20 ms, then 40 ms, then fails for good (three tries). */
const ordinary: Task = { queue: Q, concurrency: 1, leaseMs: 30_000, retryDelaysMs: [20, 40], run };
/** The same delays, for a job run every second that never fails for good. */
const everySecond: Task = { ...ordinary, recurring: { key: 'tick', everyMs: 1_000 } };
const none = { error: null, delayMs: null, payload: null };

describe('task.ts: what a run comes to', () => {
  it('done, with or without a result (a result of null is kept)', () => {
    expect(done()).toStrictEqual({ kind: 'done' });
    expect(done({ id: 'sms_1' })).toStrictEqual({ kind: 'done', result: { id: 'sms_1' } });
    expect(done(null)).toStrictEqual({ kind: 'done', result: null });
  });

  it('a failure, with its error and, when given, what the try did', () => {
    expect(failure('receiver down')).toStrictEqual({ kind: 'failure', error: 'receiver down' });
    expect(failure('HTTP 500', { statusCode: 500 })).toStrictEqual({ kind: 'failure', error: 'HTTP 500', result: { statusCode: 500 } });
    expect(failure('', 0)).toStrictEqual({ kind: 'failure', error: '', result: 0 });
  });

  it('later: asked again in so many milliseconds, carrying a payload only when given one', () => {
    expect(later(250)).toStrictEqual({ kind: 'later', inMs: 250 });
    expect(later(0, { passing: {} })).toStrictEqual({ kind: 'later', inMs: 0, payload: { passing: {} } });
  });

  it('released: given back untried', () => {
    expect(released()).toStrictEqual({ kind: 'released' });
  });

  it('GiveUp is an Error named GiveUp, with its message', () => {
    const e = new GiveUp('the payment has no customer e-mail');
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('GiveUp');
    expect(String(e)).toBe('GiveUp: the payment has no customer e-mail');
  });
});

describe('outcomes.ts: what becomes of a job after a run', () => {
  it('an ordinary job: done is deleted (its result kept for the record), later is due again in its time', () => {
    expect(decide(ordinary, 1, done({ ok: true }))).toStrictEqual({ ...none, kind: 'done', result: { ok: true } });
    expect(decide(ordinary, 3, done())).toStrictEqual({ ...none, kind: 'done', result: undefined });
    expect(decide(ordinary, 2, later(15))).toStrictEqual({ ...none, kind: 'later', delayMs: 15 });
    expect(decide(ordinary, 2, later(15, { n: 2 }))).toStrictEqual({ ...none, kind: 'later', delayMs: 15, payload: { n: 2 } });
    expect(decide(ordinary, 1, released())).toStrictEqual({ ...none, kind: 'released' });
  });

  it('an ordinary job that failed is retried after the delay of its try, and fails for good past the last', () => {
    expect(decide(ordinary, 1, failure('down', { code: 503 }))).toStrictEqual({ ...none, kind: 'retry', result: { code: 503 }, error: 'down', delayMs: 20 });
    expect(decide(ordinary, 2, failure('down'))).toStrictEqual({ ...none, kind: 'retry', result: undefined, error: 'down', delayMs: 40 });
    expect(decide(ordinary, 3, failure('down', { code: 503 }))).toStrictEqual({ ...none, kind: 'failed', result: { code: 503 }, error: 'down' });
  });

  it('a final failure (GiveUp) fails an ordinary job for good on its first try', () => {
    expect(decide(ordinary, 1, { kind: 'failure', error: 'no e-mail', final: true })).toStrictEqual({ ...none, kind: 'failed', result: undefined, error: 'no e-mail' });
    expect(decide(ordinary, 1, { kind: 'failure', error: 'down', final: false })).toMatchObject({ kind: 'retry', delayMs: 20 });
  });

  it('a recurring job, done or later, is due again (after its period, or when asked), its tries counted afresh', () => {
    expect(decide(everySecond, 4, done('swept'))).toStrictEqual({ ...none, kind: 'again', result: 'swept', delayMs: 1_000 });
    expect(decide(everySecond, 1, later(30))).toStrictEqual({ ...none, kind: 'again', delayMs: 30 });
    expect(decide(everySecond, 1, later(30, { cursor: 7 }))).toStrictEqual({ ...none, kind: 'again', delayMs: 30, payload: { cursor: 7 } });
  });

  it('a recurring job that failed backs off through its delays, then tries at its period, even on a final failure', () => {
    expect(decide(everySecond, 1, failure('db down'))).toStrictEqual({ ...none, kind: 'retry', result: undefined, error: 'db down', delayMs: 20 });
    expect(decide(everySecond, 2, failure('db down'))).toMatchObject({ kind: 'retry', delayMs: 40 });
    expect(decide(everySecond, 3, failure('db down'))).toMatchObject({ kind: 'retry', delayMs: 1_000 });
    expect(decide(everySecond, 9, { kind: 'failure', error: 'never', final: true })).toMatchObject({ kind: 'retry', delayMs: 1_000 });
  });

  it('retryDelay: the delay of the try, none past the last or on a final failure', () => {
    expect(retryDelay(ordinary, 1, false)).toBe(20);
    expect(retryDelay(ordinary, 2, false)).toBe(40);
    expect(retryDelay(ordinary, 3, false)).toBeUndefined();
    expect(retryDelay(ordinary, 1, true)).toBeUndefined();
  });

  it('retryDelay of a recurring job past its delays: its period, or its last delay when that is longer', () => {
    expect(retryDelay(everySecond, 1, true)).toBe(20);
    expect(retryDelay(everySecond, 3, false)).toBe(1_000);
    const slowBackoff = { ...everySecond, retryDelaysMs: [20, 5_000, 2_000] };
    expect(retryDelay(slowBackoff, 4, false)).toBe(2_000);
    expect(retryDelay(slowBackoff, 2, false)).toBe(5_000);
    const noDelays = { ...everySecond, retryDelaysMs: [] };
    expect(retryDelay(noDelays, 1, false)).toBe(1_000);
  });
});

describe('batch.ts: a batch task passes over the items that fail', () => {
  const NOW = Date.parse('2026-11-29T08:00:00.000Z');
  const at = (ms: number) => new Date(NOW + ms).toISOString();
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A run of a batch job remembering `passing`; what it reports of failed items lands in `failed`. */
  function batchJob(passing?: Passing, signal = new AbortController().signal) {
    const failed: { item: string; error: unknown; note: string }[] = [];
    const job: RunningJob<{ passing?: Passing }> = {
      id: 1,
      key: 'minutely',
      merchantId: null,
      payload: passing === undefined ? {} : { passing },
      attempt: 1,
      createdAt: new Date(NOW),
      signal,
      itemFailed: (item, error, note) => void failed.push({ item, error, note }),
    };
    return { job, failed };
  }
  /** Work that throws for the items in `bad` and records the items it was given. */
  function work(bad: Record<string, unknown> = {}) {
    const seen: string[] = [];
    const fn = async (item: string) => {
      seen.push(item);
      if (item in bad) throw bad[item];
    };
    return { fn, seen };
  }

  it('passedOver: the items whose pass-over has not ended yet (one ending now is tried again)', () => {
    const passing: Passing = {
      pay_a: { failures: 1, retryAt: at(1), error: 'x' },
      pay_b: { failures: 1, retryAt: at(0), error: 'x' },
      pay_c: { failures: 2, retryAt: at(-1), error: 'x' },
    };
    expect(passedOver(passing)).toEqual(['pay_a']);
    expect(passedOver(passing, new Date(NOW - 1))).toEqual(['pay_a', 'pay_b']);
    expect(passedOver(undefined)).toEqual([]);
  });

  it('works every item; all working, nothing is remembered', async () => {
    const { job, failed } = batchJob();
    const w = work();
    expect(await eachItem(job, ['pay_1', 'pay_2'], w.fn, { complete: true })).toStrictEqual({});
    expect(w.seen).toEqual(['pay_1', 'pay_2']);
    expect(failed).toEqual([]);
  });

  it('an item that throws is reported, remembered and passed over for a minute; the others go on', async () => {
    const { job, failed } = batchJob();
    const boom = new Error('row locked');
    const w = work({ pay_2: boom });
    const passing = await eachItem(job, ['pay_1', 'pay_2', 'pay_3'], w.fn, { complete: false });
    expect(w.seen).toEqual(['pay_1', 'pay_2', 'pay_3']);
    expect(passing).toStrictEqual({ pay_2: { failures: 1, retryAt: '2026-11-29T08:01:00.000Z', error: 'row locked' } });
    expect(failed).toEqual([{ item: 'pay_2', error: boom, note: 'failed 1 time; passed over for 60 s' }]);
  });

  it('the pass-over doubles with each failure, up to an hour', async () => {
    const before = (failures: number) => ({ failures, retryAt: at(-1), error: 'old' });
    const { job, failed } = batchJob({ pay_2: before(1), pay_6: before(5), pay_7: before(6), pay_9: before(8) });
    const w = work({ pay_2: new Error('again'), pay_6: new Error('again'), pay_7: new Error('again'), pay_9: new Error('again') });
    const passing = await eachItem(job, ['pay_0', 'pay_2', 'pay_6', 'pay_7', 'pay_9'], w.fn, { complete: false });
    expect(passing).toStrictEqual({
      pay_2: { failures: 2, retryAt: '2026-11-29T08:02:00.000Z', error: 'again' },
      pay_6: { failures: 6, retryAt: '2026-11-29T08:32:00.000Z', error: 'again' },
      pay_7: { failures: 7, retryAt: '2026-11-29T09:00:00.000Z', error: 'again' },
      pay_9: { failures: 9, retryAt: '2026-11-29T09:00:00.000Z', error: 'again' },
    });
    expect(failed.map((f) => f.note)).toEqual([
      'failed 2 times; passed over for 120 s',
      'failed 6 times; passed over for 1920 s',
      'failed 7 times; passed over for 3600 s',
      'failed 9 times; passed over for 3600 s',
    ]);
  });

  it('keeps the first 200 characters of what an item threw, an Error or not', async () => {
    const { job } = batchJob();
    const w = work({ pay_2: 'x'.repeat(250), pay_3: 42 });
    const passing = await eachItem(job, ['pay_1', 'pay_2', 'pay_3'], w.fn, { complete: false });
    expect(passing.pay_2!.error).toBe('x'.repeat(200));
    expect(passing.pay_3!.error).toBe('42');
  });

  it('an item that works again is forgotten', async () => {
    const { job } = batchJob({ pay_1: { failures: 3, retryAt: at(-1), error: 'old' } });
    expect(await eachItem(job, ['pay_1'], work().fn, { complete: false })).toStrictEqual({});
  });

  it('a batch where every item failed is the run\'s failure: the first error is thrown', async () => {
    const { job, failed } = batchJob();
    const first = new Error('connection refused');
    await expect(eachItem(job, ['pay_1', 'pay_2'], work({ pay_1: first, pay_2: new Error('second') }).fn, { complete: true })).rejects.toBe(first);
    expect(failed.map((f) => f.item)).toEqual(['pay_1', 'pay_2']);
  });

  it('an empty batch is no failure: what is remembered stays, unless it has gone from a complete batch', async () => {
    const remembered = { pay_1: { failures: 1, retryAt: at(30_000), error: 'old' } };
    const { job } = batchJob(remembered);
    expect(await eachItem(job, [], work().fn, { complete: false })).toStrictEqual(remembered);
    expect(await eachItem(job, [], work().fn, { complete: true })).toStrictEqual(remembered);
  });

  it('a complete batch forgets a remembered item that is no longer due once its pass-over has ended', async () => {
    const { job } = batchJob({
      ended: { failures: 1, retryAt: at(-1), error: 'old' },
      endsNow: { failures: 1, retryAt: at(0), error: 'old' },
      passing: { failures: 1, retryAt: at(1), error: 'old' },
    });
    expect(Object.keys(await eachItem(job, ['pay_1'], work().fn, { complete: true }))).toEqual(['passing']);
    expect(Object.keys(await eachItem(job, ['pay_1'], work().fn, { complete: false }))).toEqual(['ended', 'endsNow', 'passing']);
  });

  it('remembers at most 500 items, letting go of those due soonest', async () => {
    const many = (n: number): Passing => Object.fromEntries(Array.from({ length: n }, (_, i) => [`pay_${i}`, { failures: 1, retryAt: at(60_000 + i), error: 'x' }]));
    const { job: full } = batchJob(many(500));
    const all = Object.keys(await eachItem(full, [], work().fn, { complete: false }));
    // Up to 500, they stay as they were remembered.
    expect(all).toHaveLength(500);
    expect([all[0], all[499]]).toEqual(['pay_0', 'pay_499']);
    const { job: over } = batchJob(many(502));
    const kept = Object.keys(await eachItem(over, [], work().fn, { complete: false }));
    expect(kept).toHaveLength(500);
    expect(kept).not.toContain('pay_0');
    expect(kept).not.toContain('pay_1');
    expect(kept).toContain('pay_2');
    expect(kept[0]).toBe('pay_501');
  });

  it('after the runner\'s abort, stops between items and throws; an item cut short by it is no item failure', async () => {
    const stop = new AbortController();
    const { job, failed } = batchJob(undefined, stop.signal);
    const seen: string[] = [];
    const cut = new Error('aborted mid-item');
    const run = eachItem(job, ['pay_1', 'pay_2', 'pay_3'], async (item) => {
      seen.push(item);
      if (item === 'pay_2') {
        stop.abort();
        throw cut;
      }
    }, { complete: false });
    await expect(run).rejects.toBe(cut);
    expect(seen).toEqual(['pay_1', 'pay_2']);
    expect(failed).toEqual([]);

    const { job: aborted } = batchJob(undefined, AbortSignal.abort());
    const w = work();
    await expect(eachItem(aborted, ['pay_1'], w.fn, { complete: false })).rejects.toThrow('This operation was aborted');
    expect(w.seen).toEqual([]);
  });
});
