import { randomUUID } from 'node:crypto';
import type { Db } from '../db/index.ts';
import { type ClaimedJob, claimJobs, type JobOutcome, type JobOutcomeKind, type QueueClaim, settleJobs } from '../db/jobs.ts';
import type { Queue } from '../domain/jobs.ts';
import { GiveUp, type Recorded, type Result, type Task } from './task.ts';

/** The fallback poll: for jobs nothing announced (retries and scheduled jobs of other processes). */
const POLL_MS = 1_000;
/** After a claim that found nothing, the next waits at least this long, however many nudges arrive. */
const EMPTY_CLAIM_SPACING_MS = 50;
/**
 * After a claim that took jobs, the next waits this long, so that what frees slots and what is
 * committed meanwhile is claimed together instead of one statement per job.
 */
const CLAIM_SPACING_MS = 5;
/** Outcomes are written together: at most this many per statement, at most this long after the run. */
const RECORD_BATCH = 200;
const RECORD_WITHIN_MS = 5;
/** After a failed write of outcomes, the next try. */
const OUTCOME_RETRY_MS = 1_000;

export interface RunnerOptions {
  db: Db;
  /** The tasks this runner runs: its queues. */
  tasks: readonly Task<any, any>[];
  /** Hears about failures the runner survives (the database down, a task that threw oddly). */
  onError?: (message: string, err?: unknown) => void;
  pollMs?: number;
}

/** A job this runner holds, with what is needed to record its outcome. */
interface Held {
  job: ClaimedJob;
  token: string;
  startedAt: Date;
}

interface Pending<R> extends Held {
  task: Task<unknown, R>;
  kind: JobOutcomeKind;
  result?: R;
  error: string | null;
  delayMs: number | null;
}

class QueueState {
  readonly inFlight = new Set<Promise<void>>();
  readonly byMerchant = new Map<string, number>();
  /** A claim is worth making (nudged, a slot freed after a full claim, a timer, the poll). */
  wanted = true;
  /** When the next claim may be made (spacing claims out, so that what arrives meanwhile goes together). */
  notBefore = 0;
  lastClaimAt = 0;
  processed = 0;
  failed = 0;
  retried = 0;
  constructor(readonly task: Task<any, any>) {}
  get free() {
    return this.task.concurrency - this.inFlight.size;
  }
}

/**
 * The one runner of zarpay's background work (STYLE.md §15; graphile-worker is the model). Any
 * number of runners (each service process, `zarpay worker`) share the queue in PostgreSQL or the
 * embedded database:
 *
 * - one claim statement for all its queues (src/db/jobs.ts), with per-queue concurrency and a
 *   fair share per merchant, leases written and committed at once;
 * - one loop: it claims when nudged (a commit here, a NOTIFY from another process), when a slot
 *   frees after a full claim, when a retry it scheduled falls due, and every second anyway;
 * - jobs run outside any transaction; their outcomes are written together, many per statement,
 *   each only by the holder of its claim; a task's own record of them goes in the same transaction;
 * - retries with each task's backoff, then a final `failed` state an operator can list and retry;
 * - one `start`/`stop`: stop claims nothing more, lets runs finish for the grace, aborts the rest
 *   and gives their jobs back untried, then writes every outcome.
 *
 * A job survives a kill -9: its lease runs out and the next claim takes it again (the try counts).
 */
export class JobRunner {
  private readonly queues = new Map<Queue, QueueState>();
  /** The queues the loop claims from (start's choice); `runDue` can run any of `queues`. */
  private active: QueueState[] = [];
  private readonly onError: (message: string, err?: unknown) => void;
  private readonly pollMs: number;
  private running = false;
  private loopDone: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private abort = new AbortController();
  private outcomes: Pending<unknown>[] = [];
  private recordTimer: NodeJS.Timeout | undefined;
  private recording: Promise<void> = Promise.resolve();

  constructor(private readonly options: RunnerOptions) {
    for (const task of options.tasks) this.queues.set(task.queue, new QueueState(task));
    this.onError = options.onError ?? (() => {});
    this.pollMs = options.pollMs ?? POLL_MS;
  }

  /** The queues this runner knows the tasks of. */
  get queueNames(): Queue[] {
    return [...this.queues.keys()];
  }

  /** The queues the loop claims from while running (none when stopped). */
  get activeQueues(): Queue[] {
    return this.running ? this.active.map((q) => q.task.queue) : [];
  }

  /** Starts the loop over `queues` (default: every queue it knows); while running, adds them to its queues. */
  start(queues: readonly Queue[] = this.queueNames) {
    const more = queues.map((name) => this.queues.get(name)).filter((q): q is QueueState => q !== undefined && !this.active.includes(q));
    if (this.running) {
      // Running already: the loop takes these queues on too.
      this.active.push(...more);
      for (const q of more) q.wanted = true;
      this.wakeUp?.();
      return;
    }
    this.active = more;
    if (this.active.length === 0) return;
    this.running = true;
    this.abort = new AbortController();
    for (const q of this.active) q.wanted = true;
    this.loopDone = this.loop();
  }

  /**
   * Runs every job of `queues` that is due now, claim after claim until none is left (jobs that
   * fall due meanwhile, its own retries included, are left for later), and writes
   * their outcomes, whether the loop runs or not (the operator's "now", and tests that decide when
   * work happens). Returns how many jobs it ran. Jobs another runner holds are left to it.
   */
  async runDue(queues: readonly Queue[], maxClaims = 100): Promise<number> {
    const states = queues.map((name) => this.queues.get(name)).filter((q): q is QueueState => q !== undefined);
    // What was due when asked: a job run here and due again a moment later waits for its turn.
    const dueBy = new Date();
    let ran = 0;
    for (let round = 0; round < maxClaims; round++) {
      const room = states.filter((q) => q.free > 0);
      if (room.length === 0) break;
      const before = new Set(room.flatMap((q) => [...q.inFlight]));
      const jobs = await this.claim(room, dueBy);
      if (jobs.length === 0) break;
      ran += jobs.length;
      await Promise.allSettled(room.flatMap((q) => [...q.inFlight].filter((w) => !before.has(w))));
      await this.flush();
    }
    return ran;
  }

  /**
   * Stops claiming, lets the runs under way finish for up to `graceMs`, then aborts the rest
   * (their jobs go back untried, for another runner at once), and writes every outcome.
   */
  async stop(graceMs = 3_000): Promise<void> {
    if (!this.running) return;
    this.running = false;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.wakeUp?.();
    await this.loopDone;
    const settled = Promise.allSettled([...this.queues.values()].flatMap((q) => [...q.inFlight]));
    this.active = [];
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([settled, graceOver.then(() => this.abort.abort())]);
    await settled;
    clearTimeout(timer);
    await this.flush();
  }

  /** Something was committed that may have queued work (here, or in another process). */
  nudge() {
    if (!this.running) return;
    for (const q of this.active) q.wanted = true;
    this.wakeUp?.();
  }

  /** A job of this runner's queues falls due in `ms` (scheduled here): claim then. */
  wakeIn(ms: number) {
    if (!this.running) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.nudge();
    }, Math.max(0, ms) + 5);
    timer.unref();
    this.timers.add(timer);
  }

  /** Runs finished here since start, by queue: done, failed for good, and tries that will be retried. */
  counts(): Map<Queue, { processed: number; failed: number; retried: number; inFlight: number }> {
    return new Map([...this.queues].map(([name, q]) => [name, { processed: q.processed, failed: q.failed, retried: q.retried, inFlight: q.inFlight.size }]));
  }

  private async loop() {
    while (this.running) {
      const now = Date.now();
      const wanted = this.active.filter((q) => q.wanted && q.free > 0 && q.notBefore <= now);
      if (wanted.length > 0) {
        for (const q of wanted) q.wanted = false;
        let claimed: ClaimedJob[] = [];
        try {
          claimed = await this.claim(wanted);
        } catch (e) {
          this.onError('jobs: a claim failed', e);
          // The database may be down: the poll tries again.
        }
        const took = new Map<QueueState, number>();
        for (const job of claimed) {
          const q = this.queues.get(job.queue as Queue)!;
          took.set(q, (took.get(q) ?? 0) + 1);
        }
        const at = Date.now();
        for (const q of wanted) {
          const n = took.get(q) ?? 0;
          q.lastClaimAt = at;
          q.notBefore = at + (n === 0 ? EMPTY_CLAIM_SPACING_MS : CLAIM_SPACING_MS);
          // Took some and has room left: what commits meanwhile is claimed after the spacing.
          if (n > 0 && q.free > 0) q.wanted = true;
        }
      }
      if (!this.running) break;
      await this.sleep();
    }
  }

  /** Until something is wanted and may be claimed, or the poll. */
  private sleep(): Promise<void> {
    const now = Date.now();
    let wait = this.pollMs;
    for (const q of this.active) if (q.wanted && q.free > 0) wait = Math.min(wait, Math.max(0, q.notBefore - now));
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        if (wait === this.pollMs) for (const q of this.active) q.wanted = true;
        resolve();
      }, wait);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => (this.wakeUp = undefined));
  }

  private async claim(wanted: QueueState[], dueBy: Date | null = null): Promise<ClaimedJob[]> {
    const token = randomUUID();
    const claims: QueueClaim[] = wanted.map((q) => ({
      queue: q.task.queue,
      limit: q.free,
      perMerchant: q.task.perMerchant ?? q.task.concurrency,
      busy: q.byMerchant,
      leaseMs: q.task.leaseMs,
    }));
    const jobs = await claimJobs(this.options.db, token, claims, dueBy);
    for (const job of jobs) this.begin(this.queues.get(job.queue as Queue)!, { job, token, startedAt: new Date() });
    return jobs;
  }

  private begin(q: QueueState, held: Held) {
    const merchant = held.job.merchant_id;
    if (merchant) q.byMerchant.set(merchant, (q.byMerchant.get(merchant) ?? 0) + 1);
    const work = this.execute(q.task, held).finally(() => {
      q.inFlight.delete(work);
      if (merchant) {
        const left = q.byMerchant.get(merchant)! - 1;
        if (left > 0) q.byMerchant.set(merchant, left);
        else q.byMerchant.delete(merchant);
      }
      // A freed slot (and its merchant's share) may take a job at once: after the short spacing,
      // even when the last claim found nothing (its merchants were all at their share).
      q.wanted = true;
      q.notBefore = Math.min(q.notBefore, q.lastClaimAt + CLAIM_SPACING_MS);
      this.wakeUp?.();
    });
    q.inFlight.add(work);
  }

  private async execute(task: Task<unknown, unknown>, held: Held) {
    const { job } = held;
    let result: Result<unknown> | void;
    try {
      result = await task.run({
        id: job.id,
        key: job.key,
        merchantId: job.merchant_id,
        payload: job.payload,
        attempt: job.attempts,
        createdAt: job.created_at,
        signal: this.abort.signal,
      });
    } catch (e) {
      if (this.abort.signal.aborted) result = { kind: 'released' };
      else {
        result = { kind: 'failure', error: errorText(e), final: e instanceof GiveUp };
        const final = e instanceof GiveUp || task.retryDelaysMs[job.attempts - 1] === undefined;
        this.onError(`jobs: ${task.queue} job ${job.key} failed (try ${job.attempts}${final ? ', giving up' : ''})`, e);
      }
    }
    this.settle(task, held, result ?? { kind: 'done' });
  }

  /** Decides what becomes of the job, and queues the outcome for the next write. */
  private settle(task: Task<unknown, unknown>, held: Held, result: Result<unknown>) {
    const q = this.queues.get(task.queue)!;
    const base = { ...held, task, error: null, delayMs: null } as Pending<unknown>;
    let pending: Pending<unknown>;
    switch (result.kind) {
      case 'done':
        q.processed++;
        pending = { ...base, kind: 'done', result: result.result };
        break;
      case 'later':
        pending = { ...base, kind: 'later', delayMs: result.inMs };
        break;
      case 'released':
        pending = { ...base, kind: 'released' };
        break;
      case 'failure': {
        const delay = result.final ? undefined : task.retryDelaysMs[held.job.attempts - 1];
        if (delay === undefined) q.failed++;
        else q.retried++;
        pending =
          delay === undefined
            ? { ...base, kind: 'failed', result: result.result, error: result.error }
            : { ...base, kind: 'retry', result: result.result, error: result.error, delayMs: delay };
      }
    }
    this.outcomes.push(pending);
    if (this.outcomes.length >= RECORD_BATCH) void this.flush();
    else this.recordTimer ??= setTimeout(() => void this.flush(), RECORD_WITHIN_MS);
  }

  /** Writes every queued outcome, one batch at a time. */
  private flush(): Promise<void> {
    clearTimeout(this.recordTimer);
    this.recordTimer = undefined;
    const batch = this.outcomes.splice(0);
    if (batch.length === 0) return this.recording;
    this.recording = this.recording.then(() => this.write(batch));
    return this.recording;
  }

  /**
   * Outcomes of tasks without a record of their own are written in one statement; a task that
   * keeps its own record of them (webhook attempts) gets a transaction with both. Each part is
   * written, or tried again, by itself. Then the retries written here wake this runner when due.
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
            for (const p of part) if (p.delayMs !== null && (p.kind === 'retry' || p.kind === 'later')) this.wakeIn(p.delayMs);
          },
          (e) => this.notWritten(part, e),
        ),
      ),
    );
  }

  private async writePart(task: Task<unknown, unknown> | undefined, part: Pending<unknown>[]) {
    const outcomes = part.map((p): JobOutcome => ({ id: p.job.id, token: p.token, kind: p.kind, delayMs: p.delayMs, error: p.error }));
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
    this.onError('jobs: outcomes not written', e);
    if (!this.running) return;
    const now = Date.now();
    const kept = part.filter((p) => p.startedAt.getTime() + p.task.leaseMs > now + OUTCOME_RETRY_MS);
    if (kept.length === 0) return;
    this.outcomes.unshift(...kept);
    clearTimeout(this.recordTimer);
    this.recordTimer = setTimeout(() => void this.flush(), OUTCOME_RETRY_MS);
  }
}

function errorText(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.slice(0, 1000);
}
