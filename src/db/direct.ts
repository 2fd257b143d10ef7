/**
 * The way registered statements (statement.ts) reach the root database outside a transaction;
 * a module of its own so that neither index.ts nor statement.ts imports the other.
 */

/** Runs SQL text with its values on a pool connection of its own, answering the rows. */
export type DirectRunner = (sql: string, values: unknown[]) => Promise<unknown[]>;

const directRunners = new WeakMap<object, DirectRunner>();

/**
 * Lets statements run on `db` itself (outside a transaction) straight on its `pg` pool, the way
 * Kysely would send them but without its executor: a connection checked out, the statement
 * sent prepared, the rows read, the connection back, in one call of the pool (index.ts). A
 * transaction (`Transaction`, another object) still runs on its own connection through Kysely.
 * About three microseconds of CPU a statement, a twentieth of a REST read.
 */
export function runDirectlyOn(db: object, run: DirectRunner): void {
  directRunners.set(db, run);
}

/** How statements run on `db` directly, if they do (the root database on PostgreSQL). */
export const directRunnerOf = (db: object): DirectRunner | undefined => directRunners.get(db);
