import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/** Statements worth keeping prepared: reads and writes, not transaction control or DDL. */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * Names for prepared statements, one per distinct SQL text, shared by every connection of the
 * process. Bounded: texts beyond `max` (e.g. `in (…)` lists of every length) run unnamed, so
 * neither this map nor PostgreSQL's per-connection statement cache can grow without limit.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly max = 500) {}

  nameOf(sql: string): string | undefined {
    const known = this.names.get(sql);
    if (known !== undefined || this.names.size >= this.max || !PREPARABLE.test(sql)) return known;
    const name = `zarpay_${this.names.size}`;
    this.names.set(sql, name);
    return name;
  }
}

/** Sends `sql` on a client of the pool, or on the pool itself: named (prepared) when `names` gives it a name. */
export function sendPrepared(client: pg.Pool | pg.PoolClient, names: StatementNames, sql: string, values: unknown[]) {
  const name = names.nameOf(sql);
  return name === undefined ? client.query(sql, values) : client.query({ name, text: sql, values });
}

/**
 * A `pg` pool for Kysely whose clients send each statement as a named prepared statement: the
 * database parses and plans a statement once per connection instead of on every execution, which
 * is most of its work for the short indexed queries of an API. Kysely's SQL is parameterised, so
 * one text serves every request of its kind.
 */
export function preparedStatementPool(pool: pg.Pool, names = new StatementNames()): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => ({
    query: ((sqlOrCursor: unknown, parameters?: readonly unknown[]) => {
      if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as never);
      // Kysely hands over a fresh array of its own, so it can be given to pg as it is.
      return sendPrepared(client, names, sqlOrCursor, (parameters ?? []) as unknown[]);
    }) as unknown as PostgresPoolClient['query'],
    release: () => client.release(),
  });
  return {
    async connect() {
      const client = await pool.connect();
      let w = wrapped.get(client);
      if (!w) wrapped.set(client, (w = wrap(client)));
      return w;
    },
    end: () => pool.end(),
  };
}
