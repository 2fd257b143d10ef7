import { NoAnswer } from './http.ts';

/** A stream of one kind of request at a fixed rate. */
export interface Stream {
  name: string;
  perSecond: number;
  /** Sends one request (the n-th of this stream). */
  run(n: number): Promise<unknown>;
}

/** At most this many requests of one stream wait for answers; beyond it the soak skips, and says so. */
const MAX_IN_FLIGHT = 200;

/** Counts what went wrong on the soak's own side (an answer it could not use), by label. */
export class Troubles extends Map<string, number> {
  note(label: string, e: unknown) {
    // A request with no answer is already recorded as such.
    if (e instanceof NoAnswer) return;
    const key = `${label}: ${e instanceof Error ? e.message : String(e)}`;
    this.set(key, (this.get(key) ?? 0) + 1);
  }
}

/**
 * Launches every stream at its fixed rate for `durationMs`, whatever the answers take: an open
 * loop, as real callers are, so a slow service meets the same arrivals rather than fewer. Resolves
 * when the time is up and every request it sent has ended; `skipped` counts launches that would
 * have passed MAX_IN_FLIGHT.
 */
export class Pacer {
  readonly skipped = new Map<string, number>();
  /** When the last launch was due (ms since the epoch): the load's end, whatever the answers still take. */
  stoppedAt = 0;
  private readonly launched = new Map<string, number>();
  private readonly inFlight = new Map<string, number>();
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly streams: Stream[],
    private readonly troubles: Troubles,
  ) {}

  async run(durationMs: number, stopEarly: () => boolean = () => false): Promise<void> {
    const started = performance.now();
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const elapsed = Math.min(performance.now() - started, durationMs);
        for (const s of this.streams) this.launch(s, Math.floor((s.perSecond * elapsed) / 1000));
        if (elapsed >= durationMs || stopEarly()) {
          clearInterval(timer);
          this.stoppedAt = Date.now();
          resolve();
        }
      }, 10);
    });
    await Promise.allSettled([...this.pending]);
  }

  private launch(s: Stream, due: number) {
    for (let n = this.launched.get(s.name) ?? 0; n < due; n++) {
      this.launched.set(s.name, n + 1);
      if ((this.inFlight.get(s.name) ?? 0) >= MAX_IN_FLIGHT) {
        this.skipped.set(s.name, (this.skipped.get(s.name) ?? 0) + 1);
        continue;
      }
      this.inFlight.set(s.name, (this.inFlight.get(s.name) ?? 0) + 1);
      const p: Promise<unknown> = s
        .run(n)
        .catch((e) => this.troubles.note(s.name, e))
        .finally(() => {
          this.inFlight.set(s.name, this.inFlight.get(s.name)! - 1);
          this.pending.delete(p);
        });
      this.pending.add(p);
    }
  }

  /** Requests launched per stream. */
  counts(): Map<string, number> {
    return new Map(this.launched);
  }
}

/**
 * Requests that follow another after a delay (approving a payout once created, settling a payment
 * once initiated), at the pace the streams that start them set. `close()` cancels those not yet
 * due and waits for those under way.
 */
export class Followups {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly pending = new Set<Promise<unknown>>();
  private open = true;

  constructor(private readonly troubles: Troubles) {}

  after(ms: number, label: string, task: () => Promise<unknown>) {
    if (!this.open) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const p: Promise<unknown> = task()
        .catch((e) => this.troubles.note(label, e))
        .finally(() => this.pending.delete(p));
      this.pending.add(p);
    }, ms);
    this.timers.add(timer);
  }

  async close() {
    this.open = false;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.pending]);
  }
}
