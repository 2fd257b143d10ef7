import { type Compilable, type CompiledQuery, createQueryId, type Kysely } from 'kysely';
import type { DbOrTx } from './index.ts';
import type { Database } from './types.ts';

/** Stands for an argument in a query compiled once; replaced by the argument's value on each run. */
class Slot {
  constructor(readonly name: string) {}
}

/**
 * A query that Kysely builds and compiles the first time it runs, then runs again with fresh
 * values: the hot paths skip rebuilding the same SQL text on every request (most of Kysely's
 * share of a GET). `build` receives stand-ins for `args` and must use each only as a value
 * (`where(col, '=', a.id)`, `.values({ col: a.x })`, `limit(a.n)`): the query's shape may not
 * depend on them. Runs on a database or inside a transaction alike.
 */
export function compiledQuery<Args extends Record<string, unknown>, Row>(
  build: (db: Kysely<Database>, args: Args) => Compilable<Row>,
): (db: DbOrTx, args: Args) => Promise<Row[]> {
  let template: CompiledQuery<Row> | undefined;
  return async (db, args) => {
    if (!template) {
      const slots = new Proxy({}, { get: (_target, name) => new Slot(String(name)) }) as Args;
      template = build(db, slots).compile();
    }
    const parameters = template.parameters.map((p) => (p instanceof Slot ? args[p.name] : p));
    // A fresh query id per run, as a plugin keeping per-query state would expect.
    const { rows } = await db.executeQuery<Row>({ ...template, parameters, queryId: createQueryId() });
    return rows;
  };
}
