import type { RunningJob } from './task.ts';

/** An item that failed: passed over until `retryAt` (ISO time), for a while that doubles each time. */
export interface PassedOver {
  readonly failures: number;
  readonly retryAt: string;
  readonly error: string;
}

/** What a batch task remembers between runs, in its job's payload: the items it passes over, by id. */
export type Passing = Readonly<Record<string, PassedOver>>;

/** The first pass-over lasts this long, and doubles with every failure after it, up to the cap. */
const FIRST_PASS_MS = 60_000;
const LONGEST_PASS_MS = 60 * 60_000;
/** At most this many items are remembered (the payload stays small); the soonest due are let go first. */
const MOST_REMEMBERED = 500;

/** The items of `passing` still to be passed over at `now`: leave them out of the next batch. */
export function passedOver(passing: Passing | undefined, now = new Date()): string[] {
  return Object.entries(passing ?? {})
    .filter(([, p]) => Date.parse(p.retryAt) > now.getTime())
    .map(([item]) => item);
}

/**
 * Works through one batch of a batch task (payment expiry) item by item, so that one item that
 * throws (a poison item) stops nothing else: the item is reported (`job.itemFailed`: logged and
 * counted for /metrics), remembered in what the run returns, and passed over for a while that
 * doubles with each failure (a minute, up to an hour), so that it is not tried again and again.
 * An item that works again, or is no longer in the batch, is forgotten.
 *
 * A batch where every item failed is the run's failure, not the items' (the database away, most
 * likely): it throws, and the job backs off as any failed run does, remembering nothing new.
 * After the runner's abort it stops between items and throws, and the job is given back.
 *
 * `complete`: `items` is every item due (not the first of many), so a remembered item not among
 * them has gone (its payment ended another way) and is forgotten.
 */
export async function eachItem(
  job: RunningJob<{ passing?: Passing }>,
  items: readonly string[],
  work: (item: string) => Promise<void>,
  opts: { complete: boolean },
): Promise<Passing> {
  const passing: Record<string, PassedOver> = { ...job.payload.passing };
  let succeeded = 0;
  let firstError: unknown;
  for (const item of items) {
    job.signal.throwIfAborted();
    try {
      await work(item);
      succeeded++;
      delete passing[item];
    } catch (e) {
      if (job.signal.aborted) throw e;
      firstError ??= e;
      const failures = (passing[item]?.failures ?? 0) + 1;
      const passMs = Math.min(LONGEST_PASS_MS, FIRST_PASS_MS * 2 ** (failures - 1));
      passing[item] = { failures, retryAt: new Date(Date.now() + passMs).toISOString(), error: errorText(e) };
      job.itemFailed(item, e, `failed ${failures} time${failures === 1 ? '' : 's'}; passed over for ${Math.round(passMs / 1000)} s`);
    }
  }
  if (items.length > 0 && succeeded === 0) throw firstError;
  if (opts.complete) {
    const now = Date.now();
    const seen = new Set(items);
    for (const [item, p] of Object.entries(passing)) if (!seen.has(item) && Date.parse(p.retryAt) <= now) delete passing[item];
  }
  return keepMost(passing);
}

function keepMost(passing: Record<string, PassedOver>): Passing {
  const entries = Object.entries(passing);
  if (entries.length <= MOST_REMEMBERED) return passing;
  entries.sort(([, a], [, b]) => Date.parse(b.retryAt) - Date.parse(a.retryAt));
  return Object.fromEntries(entries.slice(0, MOST_REMEMBERED));
}

function errorText(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).slice(0, 200);
}
