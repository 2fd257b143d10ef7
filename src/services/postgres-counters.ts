import type pg from 'pg';
import { type Count, WINDOW_MS } from './memory-counters.ts';

/** The counters' table; created by `ensureTable`, swept by `sweep`. */
const PG_TABLE = 'rate_limit_counters';

interface Waiter {
  /** How many points the request counts for. */
  points: number;
  resolve(count: Count): void;
  reject(e: unknown): void;
}

/**
 * Adds each key's requests of the batch to its window, or starts the window again when it has
 * ended, and returns every key's new count. Rows are locked in key order, the same on every
 * instance, so two batches never deadlock.
 */
const COUNT = `
  insert into ${PG_TABLE} as c (key, points, expire)
  select key, n, $4::bigint from unnest($1::text[], $2::int[]) as batch(key, n) order by key
  on conflict (key) do update set
    points = case when c.expire <= $3::bigint then excluded.points else c.points + excluded.points end,
    expire = case when c.expire <= $3::bigint then excluded.expire else c.expire end
  returning key, points, expire`;

/**
 * Exact fixed-window counts in a PostgreSQL table shared by every instance, for a pool of
 * `pool.options.max` connections.
 *
 * Requests are counted one statement at a time while a connection is free; when every
 * connection is busy, the requests that arrive meanwhile wait and go together in the next
 * statement, one row per key incremented by its number of requests. The statement adds them
 * atomically and returns the key's total, so the requests of a batch get consecutive counts
 * (each the total before it plus its own points): as exact as one statement each, at a fraction of the statements under
 * load, and no request waits for a batch to fill.
 */
export class PostgresCounters {
  private queued = new Map<string, Waiter[]>();
  private running = 0;
  private flushing = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly concurrency: number,
  ) {}

  /** Counts one request of `key` (a budget's prefix and the merchant or address), for `points` points. */
  consume(key: string, points = 1): Promise<Count> {
    return new Promise<Count>((resolve, reject) => {
      let waiters = this.queued.get(key);
      if (!waiters) this.queued.set(key, (waiters = []));
      waiters.push({ points, resolve, reject });
      this.schedule();
    });
  }

  /** Sends what is queued once the current turn of the event loop has added all it will. */
  private schedule() {
    if (this.flushing || this.running >= this.concurrency || this.queued.size === 0) return;
    this.flushing = true;
    queueMicrotask(() => {
      this.flushing = false;
      void this.send();
    });
  }

  private async send() {
    if (this.running >= this.concurrency || this.queued.size === 0) return;
    const batch = this.queued;
    this.queued = new Map();
    this.running++;
    try {
      const keys = [...batch.keys()];
      const now = Date.now();
      const { rows } = await this.pool.query<{ key: string; points: number; expire: string }>({
        name: 'zarpay-rate-limit-count',
        text: COUNT,
        values: [keys, keys.map((k) => batch.get(k)!.reduce((n, w) => n + w.points, 0)), now, now + WINDOW_MS],
      });
      for (const row of rows) {
        const waiters = batch.get(row.key)!;
        const msBeforeNext = Math.max(0, Number(row.expire) - Date.now());
        let consumed = row.points - waiters.reduce((n, w) => n + w.points, 0);
        for (const w of waiters) w.resolve({ consumedPoints: (consumed += w.points), msBeforeNext });
        batch.delete(row.key);
      }
      if (batch.size > 0) throw new Error('rate-limit count returned no row for some keys');
    } catch (e) {
      for (const waiters of batch.values()) for (const w of waiters) w.reject(e);
    } finally {
      this.running--;
      this.schedule();
    }
  }
}

/**
 * Creates the counters' table if it is missing. Unlogged: counts need no crash safety or
 * replication, and skip the write-ahead log.
 */
export async function ensureTable(pool: pg.Pool): Promise<void> {
  try {
    await pool.query(`create unlogged table if not exists ${PG_TABLE} (key varchar(255) primary key, points integer not null default 0, expire bigint)`);
  } catch (e) {
    // Two instances creating the table at once: the loser sees a unique violation.
    if ((e as { code?: string }).code !== '23505') throw e;
  }
}

/**
 * Deletes the rows of windows that have ended. It skips rows a count holds rather than wait
 * for them, so it never takes part in a deadlock; they go at a later sweep.
 */
export async function sweep(pool: pg.Pool): Promise<void> {
  await pool.query(
    `delete from ${PG_TABLE} where key in (select key from ${PG_TABLE} where expire < $1 for update skip locked)`,
    [Date.now()],
  );
}
