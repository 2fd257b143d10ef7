import { type Compilable, type CompiledQuery, createQueryId, type Kysely } from 'kysely';
import type { DbOrTx } from './index.ts';
import type { Database } from './types.ts';

/** Stands for one value of the arguments in a query compiled once; replaced by that value on each run. */
class Slot {
  constructor(readonly path: readonly (string | number)[]) {}
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
/** A list of objects is structure (each object's members are values); a list of plain values is one value (`= any(...)`). */
const isList = (v: unknown): v is unknown[] => Array.isArray(v) && v.some(isObject);

/** The arguments' structure (keys, lengths of lists of objects) with a slot in place of every value. */
function slotsFor(value: unknown, path: (string | number)[] = []): unknown {
  if (isList(value)) return value.map((v, i) => slotsFor(v, [...path, i]));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, slotsFor(v, [...path, k])]));
  return new Slot(path);
}

/** A text naming the arguments' structure: one compiled query per structure. */
function shapeOf(value: unknown): string {
  if (isList(value)) return `[${value.map(shapeOf).join(',')}]`;
  // A member that is undefined is as absent as a missing one.
  if (isObject(value)) return `{${Object.keys(value).filter((k) => value[k] !== undefined).map((k) => `${k}:${shapeOf(value[k])}`).join(',')}}`;
  return '';
}

function valueAt(args: unknown, path: readonly (string | number)[]): unknown {
  let v = args;
  for (const key of path) v = (v as Record<string | number, unknown>)[key];
  return v;
}

/**
 * A query that Kysely builds and compiles once (per structure of its arguments), then runs
 * again with fresh values: the hot paths skip rebuilding the same SQL text on every request,
 * which was most of Kysely's share of a GET and more of a payout's creation. `build` receives
 * the arguments with a stand-in for every value and must use each only as a value
 * (`where(col, '=', a.id)`, `sql\`${a.x}::uuid\``, `limit(a.n)`; a list of plain values is one
 * value: `sql\`id = any(${a.ids}::uuid[])\``): the query's shape may depend on which members exist
 * and on the length of lists of objects, never on values. Runs on a database or inside a
 * transaction alike.
 */
export function compiledQuery<Args extends object, Row>(
  build: (db: Kysely<Database>, args: Args) => Compilable<Row>,
): (db: DbOrTx, args: Args) => Promise<Row[]> {
  const templates = new Map<string, CompiledQuery<Row>>();
  return async (db, args) => {
    const shape = shapeOf(args);
    let template = templates.get(shape);
    if (!template) {
      template = build(db, slotsFor(args) as Args).compile();
      templates.set(shape, template);
    }
    const parameters = template.parameters.map((p) => (p instanceof Slot ? valueAt(args, p.path) : p));
    // A fresh query id per run, as a plugin keeping per-query state would expect.
    const { rows } = await db.executeQuery<Row>({ ...template, parameters, queryId: createQueryId() });
    return rows;
  };
}
