import { AppError } from '../domain/errors.ts';
import { QUEUE } from '../domain/jobs.ts';
import { GiveUp, later, released, type Task } from '../jobs/task.ts';
import type { BankReportService } from '../services/bank-reports.ts';

/** A run takes steps for about this long, then gives the runner back its slot and goes on at once. */
const RUN_BUDGET_MS = 5_000;
/**
 * After a run that failed, the next is this much later; past the last, the job fails for good.
 * Counted by the job itself (its payload): the runner's count of tries grows with every run of
 * a long report, and a report of many runs must not fail for good at its first error.
 */
const RETRY_DELAYS_MS = [1_000, 10_000, 60_000, 300_000];

type Payload = { report: string; operator?: string | null; failures?: number };

/**
 * One job of `payout.bank_report` per imported report, queued with the stored report by the
 * operator's import (BankReportService.import). It applies the report in steps
 * (BankReportService.applyStep): each a transaction that applies some entries, records them and
 * the report's progress, so a process killed in the middle loses at most the step under way and
 * the job, claimed again once its lease runs out, goes on after the last step that committed.
 * A run stops between steps when its budget is spent or the runner is stopping.
 */
export function bankReportTask(bankReports: Pick<BankReportService, 'applyStep'>, onError: (m: string, e?: unknown) => void): Task<Payload> {
  return {
    queue: QUEUE.bankReport,
    // One report at a time: its steps lock payouts in file order.
    concurrency: 1,
    // A run ends after its budget and the step under way. Should a step wait longer on the payouts
    // it locks, another run of the job waits on the report's lock: never two steps at once.
    leaseMs: 15_000,
    retryDelaysMs: [],
    async run(job) {
      const started = Date.now();
      const failures = job.payload.failures ?? 0;
      try {
        while (!(await bankReports.applyStep(job.payload.report, job.payload.operator ?? null))) {
          if (job.signal.aborted) return released();
          if (Date.now() - started > RUN_BUDGET_MS) return later(0, { ...job.payload, failures: 0 });
        }
      } catch (e) {
        if (job.signal.aborted) return released();
        // The stored report cannot be read: importing the file again is the way on, not a retry.
        if (e instanceof AppError && e.code === 'CONFLICT') throw new GiveUp(e.message);
        const delay = RETRY_DELAYS_MS[failures];
        if (delay === undefined) throw new GiveUp(`applying bank report ${job.payload.report} failed ${failures + 1} times in a row: ${(e as Error).message}`);
        onError(`bank reports: applying report ${job.payload.report} failed (${failures + 1} in a row), tried again in ${delay / 1000} s`, e);
        return later(delay, { ...job.payload, failures: failures + 1 });
      }
    },
  };
}
