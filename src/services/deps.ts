import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';

/** What every service is built from. */
export interface ServiceDeps {
  db: Db;
  config: Config;
}
