import { findJob, listJobs, queueStats, retryJob } from '../db/jobs.ts';
import { type Actor, requireOperator } from '../domain/actor.ts';
import { AppError } from '../domain/errors.ts';
import { type Job, JOB_STATUSES, type JobStatus, QUEUE, type QueueStats } from '../domain/jobs.ts';
import type { JobRunner } from '../jobs/runner.ts';
import type { ServiceDeps } from './deps.ts';

const QUEUES: readonly string[] = Object.values(QUEUE);

/** The operator's view of background work: the queues in figures, the jobs, and a retry of one that failed. */
export class JobService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly runner: JobRunner,
  ) {}

  async list(actor: Actor, filter: { queue?: string | null; status?: JobStatus | null; limit?: number | null }): Promise<Job[]> {
    requireOperator(actor);
    const limit = filter.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new AppError('VALIDATION_FAILED', 'limit: must be 1 to 100');
    if (filter.queue && !QUEUES.includes(filter.queue)) throw new AppError('VALIDATION_FAILED', `queue: one of ${QUEUES.join(', ')}`);
    if (filter.status && !JOB_STATUSES.includes(filter.status)) throw new AppError('VALIDATION_FAILED', `status: one of ${JOB_STATUSES.join(', ')}`);
    return listJobs(this.deps.db, { queue: filter.queue ?? null, status: filter.status ?? null, limit });
  }

  /** A failed job, queued again with its tries counted afresh; it runs at once on a runner of its queue. */
  async retry(actor: Actor, id: number): Promise<Job> {
    requireOperator(actor);
    if (!Number.isSafeInteger(id) || id < 1) throw new AppError('NOT_FOUND', 'job not found');
    const job = await retryJob(this.deps.db, id);
    if (!job) {
      const existing = await findJob(this.deps.db, id);
      if (!existing) throw new AppError('NOT_FOUND', 'job not found');
      throw new AppError('INVALID_STATUS_TRANSITION', `job ${id} is ${existing.status}: only a failed job can be retried`);
    }
    this.deps.committed?.();
    return job;
  }

  /** Every queue in figures (queues without jobs show zeros), and what this process has run. */
  async stats(actor: Actor): Promise<QueueStats[]> {
    requireOperator(actor);
    return this.figures();
  }

  /** The same, for /metrics (no actor: totals only, never one merchant's data). */
  async figures(): Promise<QueueStats[]> {
    const rows = new Map((await queueStats(this.deps.db)).map((r) => [r.queue, r]));
    return QUEUES.map((queue) => rows.get(queue) ?? { queue, due: 0, scheduled: 0, running: 0, failed: 0, retrying: 0, oldestDueSeconds: 0 });
  }

  /** Runs finished in this process since it started, by queue. */
  processed() {
    return this.runner.counts();
  }
}
