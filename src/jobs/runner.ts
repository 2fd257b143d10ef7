import { randomUUID } from 'node:crypto';
import type { Db } from '../db/index.ts';
import { armRecurring, type ClaimedJob, claimJobs, type QueueClaim } from '../db/jobs.ts';
import type { Queue } from '../domain/jobs.ts';
import { decide, type Held, OutcomeWriter, retryDelay } from './outcomes.ts';
import { GiveUp, type Result, type Task } from './task.ts';

/** The fallback poll: for jobs nothing announced (retries and scheduled jobs of other processes). */
const POLL_MS = 1_000;
/** After a claim that found nothing, the next waits at least this long, however many nudges arrive. */
const EMPTY_CLAIM_SPACING_MS = 50;
/**
 * After a claim that took jobs, the next waits this long, so that what frees slots and what is
 * committed meanwhile is claimed together instead of one statement per job.
 */
const CLAIM_SPACING_MS = 5;
/**
 * At shutdown, how long runs still under way after the abort are waited for: a run that ignores
 * its signal is then given up (its lease left to run out), and the stop goes on without it.
 */
const AFTER_ABORT_MS = 1_000;

export interface RunnerOptions {
  db: Db;
  /** The tasks this runner runs: its queues. */
  tasks: readonly Task<any, any>[];
  /** Hears about failures the runner survives (the database down, a task that threw oddly). */
  onError?: (message: string, err?: unknown) => void;
  pollMs?: number;
}

class QueueState {
  /** The runs under way, by the job each holds. */
  readonly inFlight = new Map<Held, Promise<void>>();
  readonly byMerchant = new Map<string, number>();
  /** A claim is worth making (nudged, a slot freed after a full claim, a timer, the poll). */
  wanted = true;
  /** When the next claim may be made (spacing claims out, so that what arrives meanwhile goes together). */
  notBefore = 0;
  lastClaimAt = 0;
  processed = 0;
  failed = 0;
  retried = 0;
  itemFailures = 0;
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
 *   a recurring task's job never fails for good: it backs off, shows its error, and runs again;
 * - one `start`/`stop`: stop claims nothing more, lets runs finish for the grace, aborts the rest
 *   and gives their jobs back untried, gives up on runs that ignore the abort, then writes every
 *   outcome: it waits for the tasks no longer than its grace and a second, whatever they do.
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
  private stopping: Promise<void> | undefined;
  private readonly outcomes: OutcomeWriter;

  constructor(private readonly options: RunnerOptions) {
    for (const task of options.tasks) this.queues.set(task.queue, new QueueState(task));
    this.onError = options.onError ?? (() => {});
    this.pollMs = options.pollMs ?? POLL_MS;
    this.outcomes = new OutcomeWriter({ db: options.db, onError: (m, e) => this.onError(m, e), dueIn: (ms) => this.wakeIn(ms), running: () => this.running });
  }

  /** The queues this runner knows the tasks of. */
  get queueNames(): Queue[] {
    return [...this.queues.keys()];
  }

  /** The queues the loop claims from while running (none when stopped). */
  get activeQueues(): Queue[] {
    return this.running ? this.active.map((q) => q.task.queue) : [];
  }

  /**
   * Queues the recurring jobs of `queues` (default: every queue it knows), once per deployment,
   * and queues again, due now, one that had failed for good (as an older version let them): the
   * start re-arms it, with no operator needed.
   */
  async arm(queues: readonly Queue[] = this.queueNames): Promise<void> {
    for (const name of queues) {
      const task = this.queues.get(name)?.task;
      if (!task?.recurring) continue;
      const rearmed = await armRecurring(this.options.db, task.queue, task.recurring.key);
      if (rearmed) this.onError(`jobs: the recurring ${task.queue} job had failed for good (${rearmed.lastError ?? 'no error kept'}); queued again`);
    }
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
      const before = new Set(room.flatMap((q) => [...q.inFlight.values()]));
      const jobs = await this.claim(room, dueBy);
      if (jobs.length === 0) break;
      ran += jobs.length;
      await Promise.allSettled(room.flatMap((q) => [...q.inFlight.values()].filter((w) => !before.has(w))));
      await this.outcomes.flush();
    }
    return ran;
  }

  /**
   * Stops claiming, lets the runs under way finish for up to `graceMs`, then aborts the rest
   * (their jobs go back untried, for another runner at once). A run still going `afterAbortMs`
   * after the abort ignores its signal: it is given up, its job left to another runner once the
   * lease runs out (as after a crash), and its end, whenever it comes, changes nothing. Then
   * every outcome is written. A second call waits for the first.
   */
  stop(graceMs = 3_000, afterAbortMs = AFTER_ABORT_MS): Promise<void> {
    if (!this.running) return this.stopping ?? Promise.resolve();
    this.running = false;
    this.stopping = this.halt(graceMs, afterAbortMs);
    return this.stopping;
  }

  private async halt(graceMs: number, afterAbortMs: number) {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.wakeUp?.();
    await this.loopDone;
    this.active = [];
    const settled = Promise.allSettled([...this.queues.values()].flatMap((q) => [...q.inFlight.values()]));
    if (!(await within(settled, graceMs))) {
      this.abort.abort();
      if (!(await within(settled, afterAbortMs))) this.abandon(afterAbortMs);
    }
    await this.outcomes.flush();
  }

  /** Gives up on the runs still under way: their slots freed, their jobs written as abandoned. */
  private abandon(afterAbortMs: number) {
    for (const q of this.queues.values()) {
      for (const held of [...q.inFlight.keys()]) {
        held.abandoned = true;
        this.release(q, held);
        const error = `given up at shutdown: still running ${afterAbortMs} ms after its abort`;
        this.onError(`jobs: ${q.task.queue} job ${held.job.key} ignored its abort; left to another runner once its lease runs out`);
        this.outcomes.add({ ...held, task: q.task, kind: 'abandoned', error, delayMs: null, payload: null });
      }
    }
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
  counts(): Map<Queue, { processed: number; failed: number; retried: number; itemFailures: number; inFlight: number }> {
    return new Map(
      [...this.queues].map(([name, q]) => [name, { processed: q.processed, failed: q.failed, retried: q.retried, itemFailures: q.itemFailures, inFlight: q.inFlight.size }]),
    );
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
    const work = this.execute(q, held).finally(() => this.release(q, held));
    q.inFlight.set(held, work);
  }

  /** A run's slot (and its merchant's share) is free again; once per run, at its end or when given up. */
  private release(q: QueueState, held: Held) {
    if (!q.inFlight.delete(held)) return;
    const merchant = held.job.merchant_id;
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
  }

  private async execute(q: QueueState, held: Held) {
    const { task } = q;
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
        itemFailed: (item, e, note) => {
          q.itemFailures++;
          this.onError(`jobs: ${task.queue} job ${job.key}: ${item} failed, the others go on (${note})`, e);
        },
      });
    } catch (e) {
      if (this.abort.signal.aborted) result = { kind: 'released' };
      else {
        result = { kind: 'failure', error: errorText(e), final: e instanceof GiveUp };
        const delay = retryDelay(task, job.attempts, e instanceof GiveUp);
        this.onError(`jobs: ${task.queue} job ${job.key} failed (try ${job.attempts}${delay === undefined ? ', giving up' : `, again in ${Math.round(delay / 1000)} s`})`, e);
      }
    }
    // Given up at shutdown: its outcome is written already.
    if (held.abandoned) return;
    // Cut short by the abort: given back untried, unless it finished.
    if (this.abort.signal.aborted && result && result.kind !== 'done') result = { kind: 'released' };
    this.settle(q, held, result ?? { kind: 'done' });
  }

  /** Decides what becomes of the job, counts it, and queues the outcome for the next write. */
  private settle(q: QueueState, held: Held, result: Result<unknown>) {
    const task = q.task as Task<unknown, unknown>;
    const decided = decide(task, held.job.attempts, result);
    if (decided.kind === 'done' || decided.kind === 'again') q.processed++;
    else if (decided.kind === 'retry') q.retried++;
    else if (decided.kind === 'failed') q.failed++;
    this.outcomes.add({ ...held, task, ...decided });
  }
}

/** Whether `p` settles within `ms`. */
async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([p.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

function errorText(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.slice(0, 1000);
}
