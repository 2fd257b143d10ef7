import type pg from 'pg';
import { statement } from './statement.ts';

/**
 * The rate-limit counters' table, shared by every instance on one PostgreSQL (the counting itself
 * is services/postgres-counters.ts). Its statements run on the counters' own small pool, not
 * through Kysely, so that counting never waits behind (or starves) the money queries of the main
 * pool; they are declared like every other statement all the same, so the statement test prepares
 * them against the table `ensureTable` creates.
 *
 * The table comes from `ensureTable`, not from a migration: only a service counting in PostgreSQL
 * needs it (not one on Redis, in memory or embedded), and an unlogged table of two minutes of
 * counts is nothing a migration should have to carry or a backup restore.
 */

/** What can send SQL text: the counters' pool, or any connection (the statement test's). */
interface SendsSql {
  query(text: string): Promise<unknown>;
}

/**
 * Creates the counters' table if it is missing. Unlogged: counts need no crash safety or
 * replication, and skip the write-ahead log.
 */
export async function ensureTable(db: SendsSql): Promise<void> {
  try {
    await db.query(`create unlogged table if not exists rate_limit_counters (key varchar(255) primary key, points integer not null default 0, expire bigint)`);
  } catch (e) {
    // Two instances creating the table at once: the loser sees a unique violation.
    if ((e as { code?: string }).code !== '23505') throw e;
  }
}

export interface CountBatch {
  /** The keys counted, each once. */
  keys: string[];
  /** The points each key's requests count for, in the order of `keys`. */
  points: number[];
  /** Now, and when a window starting now ends (ms since the epoch). */
  now: number;
  expire: number;
}

/**
 * Adds each key's requests of the batch to its window, or starts the window again when it has
 * ended, and returns every key's new count. Rows are locked in key order, the same on every
 * instance, so two batches never deadlock.
 */
const countStatement = statement<CountBatch, { key: string; points: number; expire: number | string }>(
  'count rate-limited requests',
  `insert into rate_limit_counters as c (key, points, expire)
   select key, n, :expire::bigint from unnest(:keys::text[], :points::int[]) as batch(key, n) order by key
   on conflict (key) do update set
     points = case when c.expire <= :now::bigint then excluded.points else c.points + excluded.points end,
     expire = case when c.expire <= :now::bigint then excluded.expire else c.expire end
   returning key, points, expire`,
);

/** Counts a batch in one statement, prepared once per connection of the pool; each key's total and when its window ends. */
export async function countBatch(pool: pg.Pool, batch: CountBatch): Promise<{ key: string; points: number; expire: number }[]> {
  const { rows } = await pool.query<{ key: string; points: number; expire: number | string }>({
    name: 'zarpay-rate-limit-count',
    text: countStatement.sql,
    values: countStatement.values(batch),
  });
  return rows.map((r) => ({ key: r.key, points: r.points, expire: Number(r.expire) }));
}

const sweepStatement = statement<{ now: number }, never>(
  'sweep ended rate-limit windows',
  `delete from rate_limit_counters where key in (select key from rate_limit_counters where expire < :now::bigint for update skip locked)`,
);

/**
 * Deletes the rows of windows that have ended. It skips rows a count holds rather than wait
 * for them, so it never takes part in a deadlock; they go at a later sweep.
 */
export async function sweep(pool: pg.Pool): Promise<void> {
  await pool.query(sweepStatement.sql, sweepStatement.values({ now: Date.now() }));
}
