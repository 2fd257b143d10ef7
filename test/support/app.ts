import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { bootOn } from '../../src/boot.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/index.ts';
import { isHeartbeatStatement } from '../../src/db/instance-heartbeats.ts';
import { isRunnerStatement } from '../../src/db/jobs.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { type App, type AppOptions, createApp } from '../../src/server.ts';

export const usingPostgres = Boolean(process.env.DATABASE_URL);

/**
 * For a statement counter: false for the statements of the service's own background work (the
 * job runner's claim, every second, and its outcomes; the process's heartbeat; the sandbox provider reading its books),
 * which may fall inside any request's window.
 */
export const ofRequests = (sql: string): boolean => !isRunnerStatement(sql) && !isHeartbeatStatement(sql) && !/\bsandbox\.checkouts\b/.test(sql);

/**
 * What `prd` needs beyond the credentials (CONTRACT §9): an https PUBLIC_BASE_URL and a real
 * payment provider. Tests that never take a payment in prd point Yoco at a closed port.
 */
export const PRD_PROVIDER = {
  PUBLIC_BASE_URL: 'https://pay.zarpay.example',
  YOCO_SECRET_KEY: 'sk_test_for_prd_tests_that_take_no_payment',
  YOCO_WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 9).toString('base64')}`,
  YOCO_API_URL: 'http://127.0.0.1:9/api',
};

let counter = 0;

/**
 * The test's database for a second service over it (another environment, another instance in
 * one process): the services own their database and close it when they stop, except this one.
 */
export const borrowed = (database: DatabaseHandle): DatabaseHandle => ({ ...database, close: async () => {} });

/** A fresh database for one test file: a clone of the template, or an in-memory PGlite. */
export async function freshDatabase(
  onQuery?: (sql: string) => void,
): Promise<{ handle: DatabaseHandle; url?: string; drop(): Promise<void> }> {
  const template = inject('templateDatabase');
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl || !template) {
    const handle = await openDatabase({ dataDir: 'memory://', ...(onQuery && { onQuery }) });
    await migrateToLatest(handle.db);
    return { handle, drop: async () => {} };
  }
  const name = `zarpay_t${++counter}_${template.split('_')[2]}_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), dataDir: '', poolSize: 30, ...(onQuery && { onQuery }) });
  return {
    handle,
    url: url.toString(),
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

export interface TestApp {
  url: string;
  config: Config;
  app: App;
  database: DatabaseHandle;
  /** The database's own URL (PostgreSQL only), e.g. for a second service process. */
  databaseUrl?: string;
  close(): Promise<void>;
}

/**
 * Starts the real service on port 0 over a fresh database, with settings overridden by `env`;
 * `onQuery` sees the SQL of every statement the service runs.
 */
export async function startApp(
  env: Record<string, string> = {},
  opts: AppOptions & { onQuery?: (sql: string) => void } = {},
): Promise<TestApp> {
  const db = await freshDatabase(opts.onQuery);
  const config = loadConfig({
    SERVICE_ENV: 'tst',
    PORT: '0',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'zarpay-test-')),
    RATE_LIMITS: 'off',
    ...(db.url && { DATABASE_URL: db.url }),
    ...env,
  });
  // Up the way every process comes up: migrations sealed with the data key, the keys' proof.
  const app = createApp((await bootOn(config, db.handle)).services, opts);
  const url = await app.start();
  return {
    url,
    config,
    app,
    database: db.handle,
    ...(db.url && { databaseUrl: db.url }),
    close: async () => {
      // Stopping the app stops its services, which close the database.
      await app.stop();
      await db.drop();
    },
  };
}
