import type { Config } from '../config.ts';
import type { DatabaseHandle, Db } from '../db/index.ts';

/** What every service is built from. */
export interface ServiceDeps {
  db: Db;
  config: Config;
  /** The database behind `db`, for LISTEN/NOTIFY; without it no other process's commits are heard. */
  database?: DatabaseHandle;
  /** Called after a commit that recorded events, so that live subscribers hear of them at once. */
  eventsCommitted?: () => void;
}
