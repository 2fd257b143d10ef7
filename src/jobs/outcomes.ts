import type { Db } from '../db/index.ts';
import { type ClaimedJob, type JobOutcome, type JobOutcomeKind, settleJobs } from '../db/jobs.ts';
import type { Recorded, Result, Task } from './task.ts';

/** Outcomes are written together: at most this many per statement, at most this long after the run. */
const RECORD_BATCH = 200;
const RECORD_WITHIN_MS = 5;
/** After a failed write of outcomes, the next try. */
const OUTCOME_RETRY_MS = 1_000;

/** A job a runner holds, with what is needed to record its outcome. */
export interface Held {
  job: ClaimedJob;
  token: string;
  startedAt: Date;
  /** Given up at shutdown (its run ignored the abort): its outcome is written already, whatever the run does. */
  abandoned?: boolean;
}

/** What was decided for a held job, waiting to be written. */
export interface Pending<R> extends Held {
  task: Task<unknown, R>;
  kind: JobOutcomeKind;
  result?: R;
  error: string | null;
  delayMs: number | null;
  payload: Record<string, unknown> | null;
}

/** What becomes of a job after a run. */
export type Decision<R> = Pick<Pending<R>, 'kind' | 'result' | 'error' | 'delayMs' | 'payload'>;

/**
 * What becomes of a job whose `attempt`-th run came to `result`: done and deleted; due again
 * (`later`); retried after the task's next delay; failed for good past them. A recurring task's
 * job, done or `later`, is due again (`again`: its tries counted afresh), and failed, is retried.
 */
export function decide<R>(task: Task<unknown, R>, attempt: number, result: Result<R>): Decision<R> {
  const none = { error: null, delayMs: null, payload: null };
  switch (result.kind) {
    case 'done':
      return task.recurring ? { ...none, kind: 'again', result: result.result, delayMs: task.recurring.everyMs } : { ...none, kind: 'done', result: result.result };
    case 'later':
      return { ...none, kind: task.recurring ? 'again' : 'later', delayMs: result.inMs, payload: result.payload ?? null };
    case 'released':
      return { ...none, kind: 'released' };
    case 'failure': {
      const delay = retryDelay(task, attempt, result.final === true);
      return delay === undefined
        ? { ...none, kind: 'failed', result: result.result, error: result.error }
        : { ...none, kind: 'retry', result: result.result, error: result.error, delayMs: delay };
    }
  }
}

/**
 * How long after its `attempt`-th try failed a job is tried again; undefined: it has failed for
 * good. A recurring job never has: past its delays it is tried at its period (or its last delay,
 * when longer).
 */
export function retryDelay(task: Task<any, any>, attempt: number, final: boolean): number | undefined {
  const delay = task.retryDelaysMs[attempt - 1];
  if (!task.recurring) return final ? undefined : delay;
  return delay ?? Math.max(task.retryDelaysMs.at(-1) ?? 0, task.recurring.everyMs);
}

export interface OutcomeWriterOptions {
  db: Db;
  onError: (message: string, err?: unknown) => void;
  /** A job written as due again in `ms` (a retry, `later`, a recurring run): the runner wakes then. */
  dueIn: (ms: number) => void;
  /** Whether the runner still runs: a stopped one does not try a failed write again. */
  running: () => boolean;
}

/**
 * A runner's outcomes, written together: many jobs per statement, only by the holder of each
 * claim, a task's own record of them (`Task.record`) in the same transaction.
 */
export class OutcomeWriter {
  private queued: Pending<unknown>[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly options: OutcomeWriterOptions) {}

  /** Queues an outcome for the next write (soon, or at once when a batch is full). */
  add(pending: Pending<unknown>) {
    this.queued.push(pending);
    if (this.queued.length >= RECORD_BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), RECORD_WITHIN_MS);
  }

  /** Writes every queued outcome, one batch at a time. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queued.splice(0);
    if (batch.length === 0) return this.writing;
    this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  /**
   * Outcomes of tasks without a record of their own are written in one statement; a task that
   * keeps its own record of them (webhook attempts) gets a transaction with both. Each part is
   * written, or tried again, by itself. Then the jobs written as due again wake the runner when due.
   */
  private async write(batch: Pending<unknown>[]) {
    const parts = new Map<Task<unknown, unknown> | undefined, Pending<unknown>[]>();
    for (const p of batch) {
      const key = p.task.record ? p.task : undefined;
      parts.set(key, [...(parts.get(key) ?? []), p]);
    }
    await Promise.all(
      [...parts].map(([task, part]) =>
        this.writePart(task, part).then(
          () => {
            for (const p of part) if (p.delayMs !== null && (p.kind === 'retry' || p.kind === 'later' || p.kind === 'again')) this.options.dueIn(p.delayMs);
          },
          (e) => this.notWritten(part, e),
        ),
      ),
    );
  }

  private async writePart(task: Task<unknown, unknown> | undefined, part: Pending<unknown>[]) {
    const outcomes = part.map((p): JobOutcome => ({ id: p.job.id, token: p.token, kind: p.kind, delayMs: p.delayMs, error: p.error, payload: p.payload }));
    if (!task?.record) {
      await settleJobs(this.options.db, outcomes);
      return;
    }
    await this.options.db.transaction().execute(async (tx) => {
      const held = await settleJobs(tx, outcomes);
      await task.record!(
        tx,
        part.map((p): Recorded<unknown> => ({ job: p.job, kind: p.kind, result: p.result, error: p.error, retryInMs: p.delayMs, startedAt: p.startedAt, held: held.has(p.job.id) })),
      );
    });
  }

  /**
   * A write failed (the database went away for a moment): nothing of that part was written.
   * Each outcome is tried again while its claim's lease still holds the job for us: dropped, a
   * job that was done would run again once the lease ran out. Past the lease another runner may
   * have taken it over, and at-least-once does the rest.
   */
  private notWritten(part: Pending<unknown>[], e: unknown) {
    this.options.onError('jobs: outcomes not written', e);
    if (!this.options.running()) return;
    const now = Date.now();
    const kept = part.filter((p) => p.startedAt.getTime() + p.task.leaseMs > now + OUTCOME_RETRY_MS);
    if (kept.length === 0) return;
    this.queued.unshift(...kept);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), OUTCOME_RETRY_MS);
  }
}
