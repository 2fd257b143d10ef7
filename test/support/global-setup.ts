import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import { migrateToLatest } from '../../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Name of the migrated template database; empty when tests run on embedded PGlite. */
    templateDatabase: string;
  }
}

/**
 * With DATABASE_URL: migrate one template database once; every test file clones it
 * (`CREATE DATABASE … TEMPLATE …`), which is far faster than migrating per file.
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    project.provide('templateDatabase', '');
    return;
  }
  const name = `zarpay_tpl_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: target.toString(), max: 2 }) }) });
  await migrateToLatest(db);
  await db.destroy();
  project.provide('templateDatabase', name);
  return async () => {
    // Clones made by crashed test files go too.
    const { rows } = await admin.query(`select datname from pg_database where datname like 'zarpay_t%_${process.pid}_%'`);
    for (const r of rows) await admin.query(`drop database if exists ${r.datname} with (force)`);
    await admin.end();
  };
}
