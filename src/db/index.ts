import type { PGlite } from '@electric-sql/pglite';
import { Kysely, type LogEvent, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.ts';
import { openPGlite } from './embedded.ts';
import { preparedStatementPool, StatementNames, sendPrepared } from './prepared.ts';
import { runDirectlyOn } from './direct.ts';
import type { Database } from './types.ts';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
export type DbOrTx = Db | Tx;

// `pg` returns int8 as a string; money is bigint cents and counts are int8, so turn them into
// numbers here, once, refusing anything that would lose precision.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value out of safe range: ${value}`);
  return n;
});

export interface DatabaseHandle {
  db: Db;
  kind: 'postgres' | 'embedded';
  /** The `pg` pool, for LISTEN/NOTIFY and pool metrics; absent when embedded. */
  pool?: pg.Pool;
  /** The embedded database, when there is one. */
  pglite?: PGlite;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** Directory of the embedded database; `memory://` keeps it in memory (tests). */
  dataDir: string;
  poolSize?: number;
  /**
   * Called with the SQL and parameters of every statement run, failed ones included (tests count
   * them to catch N+1; the benchmark gives its references zarpay's own statements).
   */
  onQuery?: (sql: string, parameters: readonly unknown[]) => void;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const { onQuery } = options;
  const log = onQuery && { log: (event: LogEvent) => onQuery(event.query.sql, event.query.parameters) };
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 20,
      // Fail fast when the database is unreachable: a request answers 503 within seconds
      // instead of hanging; query_timeout also covers a connection that silently stops answering.
      connectionTimeoutMillis: 3000,
      query_timeout: 15_000,
    });
    // An idle client losing its connection (database restart) must not crash the process.
    pool.on('error', () => {});
    // Nor a checked-out one: pg-pool listens for errors only on idle clients, and Kysely not at
    // all, so a connection dropping while a request holds the client emitted an unhandled
    // 'error' (process crash). The query itself still fails (→ 503) and the pool discards the
    // broken client on release.
    pool.on('connect', (client) => client.on('error', () => {}));
    const names = new StatementNames();
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparedStatementPool(pool, names) }), ...log });
    // Registered statements outside a transaction skip Kysely's executor (statement.ts), under
    // the same names, reported to `onQuery` like Kysely's own.
    runDirectlyOn(db, (sql, values) => {
      const rows = sendPrepared(pool, names, sql, values).then((r) => r.rows);
      return onQuery ? rows.finally(() => onQuery(sql, values)) : rows;
    });
    return {
      db,
      kind: 'postgres',
      pool,
      close: () => db.destroy(),
    };
  }
  // Loaded only when embedded: a service on PostgreSQL never pays PGlite's memory (~50 MB).
  const [pglite, { PGliteDialect }] = await Promise.all([openPGlite(options.dataDir), import('kysely-pglite-dialect')]);
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite), ...log });
  return {
    db,
    kind: 'embedded',
    pglite,
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

/**
 * The database the settings name: `DATABASE_URL`, else the embedded one under `DATA_DIR/pg`,
 * which one process at a time may open (the lock is held until `close()`; `command` names this
 * process to a second opener). Throws `DataDirBusy` when another live process has it.
 */
export async function openConfiguredDatabase(config: { databaseUrl: string | undefined; dataDir: string }, command: string): Promise<DatabaseHandle> {
  if (config.databaseUrl) return openDatabase({ databaseUrl: config.databaseUrl, dataDir: '' });
  const lock = lockDataDir(config.dataDir, command);
  try {
    const handle = await openDatabase({ dataDir: `${config.dataDir}/pg` });
    return {
      ...handle,
      close: async () => {
        try {
          await handle.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (e) {
    lock.release();
    throw e;
  }
}
