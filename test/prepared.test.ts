import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatementNames } from '../src/db/prepared.ts';
import { freshDatabase, usingPostgres } from './support/app.ts';

describe('statement names', () => {
  it('gives one name per distinct statement, for reads and writes only', () => {
    const names = new StatementNames();
    const a = names.nameOf('select * from "payouts" where "id" = $1');
    expect(a).toMatch(/^zarpay_\d+$/);
    expect(names.nameOf('select * from "payouts" where "id" = $1')).toBe(a);
    expect(names.nameOf('  with x as (select 1) select * from x')).toMatch(/^zarpay_/);
    expect(names.nameOf('insert into t values ($1)')).not.toBe(a);
    for (const unnamed of ['begin', 'commit', 'rollback', 'savepoint s1', 'create table t (id int)', 'LISTEN zarpay_events']) {
      expect(names.nameOf(unnamed)).toBeUndefined();
    }
  });

  it('stops naming past its bound, so neither cache grows without limit', () => {
    const names = new StatementNames(2);
    expect(names.nameOf('select 1')).toBeDefined();
    expect(names.nameOf('select 2')).toBeDefined();
    expect(names.nameOf('select 3')).toBeUndefined();
    expect(names.nameOf('select 1')).toBeDefined();
  });
});

describe.skipIf(!usingPostgres)('prepared statements on PostgreSQL (needs PostgreSQL: set DATABASE_URL)', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(async () => {
    await db?.handle.close();
    await db?.drop();
  });

  it('runs Kysely statements as named prepared statements, many times over one connection', async () => {
    const query = () => sql<{ name: string }>`select name from pg_prepared_statements where name like ${'zarpay_%'}`.execute(db.handle.db);
    for (let i = 0; i < 3; i++) await query();
    const { rows } = await query();
    expect(rows.length).toBeGreaterThan(0);
  });
});
