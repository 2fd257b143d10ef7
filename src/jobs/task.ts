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
 * to retry). `later(ms)` asks again in `ms` without counting a failure (asked too early; a
 * recurring job). `GiveUp` fails it for good at once (a try can never succeed).
 */
export interface Task<P = Record<string, unknown>, R = unknown> {
  readonly queue: Queue;
  /** Jobs of this queue one runner runs at once. */
  readonly concurrency: number;
  /** Jobs of one merchant one runner runs at once (default: all of `concurrency`). */
  readonly perMerchant?: number;
  /** How long a claim holds a job: comfortably longer than a run can take. */
  readonly leaseMs: number;
  /** The delay before each retry; there are as many tries as delays, plus one. */
  readonly retryDelaysMs: readonly number[];
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
  /** How many times the job has been run, this time included (`later` and a crash count too; a shutdown's release does not). */
  readonly attempt: number;
  readonly createdAt: Date;
  /** Aborted when the runner stops and its grace is over: let go, the job is given back. */
  readonly signal: AbortSignal;
}

/** What a run came to. */
export type Result<R> =
  | { readonly kind: 'done'; readonly result?: R }
  | { readonly kind: 'failure'; readonly error: string; readonly result?: R; readonly final?: boolean }
  | { readonly kind: 'later'; readonly inMs: number }
  | { readonly kind: 'released' };

export const done = <R>(result?: R): Result<R> => (result === undefined ? { kind: 'done' } : { kind: 'done', result });
export const failure = <R>(error: string, result?: R): Result<R> => (result === undefined ? { kind: 'failure', error } : { kind: 'failure', error, result });
export const later = (inMs: number): Result<never> => ({ kind: 'later', inMs });
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
