import type { Config } from '../config.ts';
import type { DatabaseHandle, Db } from '../db/index.ts';

/** What every service is built from. */
export interface ServiceDeps {
  db: Db;
  config: Config;
  /** The database behind `db`, for LISTEN/NOTIFY; without it no live events reach this process. */
  database?: DatabaseHandle;
}
