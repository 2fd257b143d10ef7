import { CompiledQuery } from 'kysely';
import { directRunnerOf } from './direct.ts';
import type { DbOrTx } from './index.ts';

/**
 * A statement written out in full as SQL, fixed when its module loads. Values only ever travel
 * as parameters, named in the text (`where id = :id`, `:data::jsonb`), so one text serves every
 * call: nothing is built per request, the database prepares it once per connection (prepared.ts),
 * and no value can change the SQL that runs.
 *
 * The hot paths, every statement that moves money and most others are written this way; Kysely's
 * builder remains for some colder ones.
 */
export interface Statement<Args, Row> {
  /** What it does, for errors and the test that prepares every statement. */
  readonly name: string;
  readonly sql: string;
  /** The parameter names, in `$1…$n` order. */
  readonly parameters: readonly string[];
  run(db: DbOrTx, args: Args): Promise<Row[]>;
  /** `args` in `$1…$n` order: for a connection of its own, outside Kysely (the rate-limit counters' pool). */
  values(args: Args): unknown[];
}

// `:name`, but not the second half of a `::type` cast.
const PARAMETER = /(?<![:\w]):([a-zA-Z][a-zA-Z0-9]*)\b/g;

const registry: Statement<never, unknown>[] = [];

/** Every statement the service defines (the test suite prepares each against the schema). */
export const allStatements = (): readonly Statement<never, unknown>[] => registry;

/**
 * Declares a statement. A parameter used twice is one parameter. `run` refuses an argument that
 * is `undefined` (pass `null` for SQL NULL), so a misspelt name fails at once.
 */
export function statement<Args extends object, Row = Record<string, unknown>>(name: string, text: string): Statement<Args, Row> {
  const parameters: string[] = [];
  const sql = text.trim().replace(PARAMETER, (_match, parameter: string) => {
    let index = parameters.indexOf(parameter);
    if (index < 0) index = parameters.push(parameter) - 1;
    return `$${index + 1}`;
  });
  const s: Statement<Args, Row> = {
    name,
    sql,
    parameters,
    // Not async: on the hot path a statement is one promise, the pool's. A missing argument
    // still fails as a rejected promise, never as a throw.
    run(db, args) {
      let values: unknown[];
      try {
        values = s.values(args);
      } catch (e) {
        return Promise.reject(e);
      }
      const direct = directRunnerOf(db);
      if (direct) return direct(sql, values) as Promise<Row[]>;
      return db.executeQuery<Row>(CompiledQuery.raw(sql, values)).then((r) => r.rows as Row[]);
    },
    values(args) {
      return parameters.map((p) => {
        const value = (args as Record<string, unknown>)[p];
        if (value === undefined) throw new Error(`statement "${name}": no value for :${p}`);
        return value;
      });
    },
  };
  registry.push(s as unknown as Statement<never, unknown>);
  return s;
}
