import type { Tx } from '../db/index.ts';
import type { ClaimedJob, JobOutcomeKind } from '../db/jobs.ts';
import type { Queue } from '../domain/jobs.ts';

/**
 * A task: what the jobs of one queue mean. The runner claims a queue's jobs, hands each to `run`,
 * and records what came of it; a task never loops, sleeps, leases or retries by itself.
 *
 * `run` resolves (or returns `done(result)`) when the job is done: it is deleted. It throws, or
 * returns `failure(…)`, when this try failed: the job is tried again after the next of
 * `retryDelaysMs`, and past the last one it has failed for good (kept, `failed`, for an operator
 * to retry). `later(ms)` asks again in `ms` without counting a failure (asked too early).
 * `GiveUp` fails it for good at once (a try can never succeed).
 *
 * A `recurring` task never fails for good. Done, or `later(ms)`, it
 * is due again (after its period, or in `ms`) with its tries counted afresh; failed, it backs off
 * through `retryDelaysMs` and then keeps trying at its period, its last error and the tries since
 * it last succeeded on its row for an operator to see.
 */
export interface Task<P = Record<string, unknown>, R = unknown> {
  readonly queue: Queue;
  /** Jobs of this queue one runner runs at once. */
  readonly concurrency: number;
  /** Jobs of one merchant one runner runs at once (default: all of `concurrency`). */
  readonly perMerchant?: number;
  /** How long a claim holds a job: comfortably longer than a run can take. */
  readonly leaseMs: number;
  /** The delay before each retry; there are as many tries as delays, plus one (a recurring task: then its period). */
  readonly retryDelaysMs: readonly number[];
  /**
   * One job for the whole deployment, under `key`, queued by every runner's start (which also
   * queues again one left failed), run every `everyMs`.
   */
  readonly recurring?: { readonly key: string; readonly everyMs: number };
  run(job: RunningJob<P>): Promise<Result<R> | void>;
  /**
   * Writes what the task keeps of a batch of outcomes (a webhook's attempt log), in the
   * transaction that records them in the queue: both are written, or neither.
   */
  record?(tx: Tx, outcomes: readonly Recorded<R>[]): Promise<void>;
}

export interface RunningJob<P> {
  readonly id: number;
  readonly key: string;
  readonly merchantId: string | null;
  readonly payload: P;
  /**
   * How many times the job has been run, this time included (`later` and a crash count too; a
   * shutdown's release does not); for a recurring job, since its last run that worked.
   */
  readonly attempt: number;
  readonly createdAt: Date;
  /**
   * Aborted when the runner stops and its grace is over: pass it to every outside call, and let
   * go. Whatever the run then ends with, unless done, the job is given back untried.
   */
  readonly signal: AbortSignal;
  /**
   * One item of a batch failed and the run goes on with the others (src/jobs/batch.ts): logged,
   * and counted for /metrics (`zarpay_jobs_item_failures_total`).
   */
  itemFailed(item: string, error: unknown, note: string): void;
}

/** What a run came to. */
export type Result<R> =
  | { readonly kind: 'done'; readonly result?: R }
  | { readonly kind: 'failure'; readonly error: string; readonly result?: R; readonly final?: boolean }
  /** `payload`: what the job carries into its next run instead (a recurring job's memory). */
  | { readonly kind: 'later'; readonly inMs: number; readonly payload?: Record<string, unknown> }
  | { readonly kind: 'released' };

export const done = <R>(result?: R): Result<R> => (result === undefined ? { kind: 'done' } : { kind: 'done', result });
export const failure = <R>(error: string, result?: R): Result<R> => (result === undefined ? { kind: 'failure', error } : { kind: 'failure', error, result });
export const later = (inMs: number, payload?: Record<string, unknown>): Result<never> => (payload === undefined ? { kind: 'later', inMs } : { kind: 'later', inMs, payload });
/** Cut short by the runner's shutdown: the job goes back untried, for another runner at once. */
export const released = (): Result<never> => ({ kind: 'released' });

/** Thrown by a run that can never succeed: the job fails for good at once. */
export class GiveUp extends Error {
  override name = 'GiveUp';
}

/** One outcome as `record` sees it: what was decided for the job, and whether this runner still held it. */
export interface Recorded<R> {
  readonly job: ClaimedJob;
  readonly kind: JobOutcomeKind;
  readonly result?: R;
  readonly error: string | null;
  /** When the job is due again (`retry`, `later`), else null. */
  readonly retryInMs: number | null;
  readonly startedAt: Date;
  /**
   * False when the lease had run out and another runner took the job over meanwhile: the job
   * is now theirs, and only what this try did (an attempt made) is worth recording.
   */
  readonly held: boolean;
}
