import { AppError } from '../domain/errors.ts';
import { QUEUE } from '../domain/jobs.ts';
import { GiveUp, later, released, type Task } from '../jobs/task.ts';
import type { PayoutBatchService } from '../services/payout-batches.ts';

/** A run takes steps for about this long, then gives the runner back its slot and goes on at once. */
const RUN_BUDGET_MS = 5_000;

/**
 * One job of `payout.bank_report` per imported report, queued with the stored report by the
 * operator's import (PayoutBatchService.import). It applies the report in steps
 * (PayoutBatchService.applyStep): each a transaction that applies some entries, records them and
 * the report's progress, so a process killed in the middle loses at most the step under way and
 * the job, claimed again once its lease runs out, goes on after the last step that committed.
 * A run stops between steps when its budget is spent or the runner is stopping.
 */
export function bankReportTask(payoutBatches: PayoutBatchService): Task<{ report: string; operator?: string | null }> {
  return {
    queue: QUEUE.bankReport,
    // One report at a time: its steps lock payouts in file order.
    concurrency: 1,
    // A run ends after its budget and the step under way. Should a step wait longer on the payouts
    // it locks, another run of the job waits on the report's lock: never two steps at once.
    leaseMs: 15_000,
    retryDelaysMs: [1_000, 10_000, 60_000, 300_000],
    async run(job) {
      const started = Date.now();
      try {
        while (!(await payoutBatches.applyStep(job.payload.report, job.payload.operator ?? null))) {
          if (job.signal.aborted) return released();
          if (Date.now() - started > RUN_BUDGET_MS) return later(0);
        }
      } catch (e) {
        // The stored report cannot be read: importing the file again is the way on, not a retry.
        if (e instanceof AppError && e.code === 'CONFLICT') throw new GiveUp(e.message);
        throw e;
      }
    },
  };
}
