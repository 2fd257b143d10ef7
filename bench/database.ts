import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { RATE_LIMITED_OPERATIONS } from '../src/config.ts';

/** The PostgreSQL server the runs make their databases on, by its admin connection. */
const ADMIN_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** A run's timestamp to the second (`20261128061500`): its database's name and its files'. */
export const newRunId = () => new Date().toISOString().replace(/\D/g, '').slice(0, 14);

export interface ScratchDatabase {
  name: string;
  url: string;
  create(): Promise<void>;
  /** Drops it, whatever is still connected. */
  drop(): Promise<void>;
}

/** A database of a run's own on that server, named `name`, from `create` to `drop`. */
export function scratchDatabase(name: string): ScratchDatabase {
  return {
    name,
    url: Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString(),
    create: () => admin(`create database "${name}"`),
    drop: () => admin(`drop database if exists "${name}" with (force)`),
  };
}

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * zarpay's settings under a benchmark: `tst` on the run's database, every rate limit overridden
 * to 10,000,000 a minute rather than `off` (so the limiter's own cost is part of what is
 * measured), request lines logged, and the webhook runner off (the webhook scenario starts a
 * dispatcher of its own, to measure it working off a backlog).
 */
export function benchedServiceEnv(databaseUrl: string, dataDir: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    SERVICE_ENV: 'tst',
    DATA_DIR: dataDir,
    OPERATOR_TOKEN: randomBytes(24).toString('hex'),
    SERVICE_SECRET: randomBytes(32).toString('hex'),
    RATE_LIMITS: RATE_LIMITED_OPERATIONS.map((op) => `${op}=10000000`).join(','),
    LOG_LEVEL: 'info',
    RUN_DISPATCHER: 'false',
  };
}
