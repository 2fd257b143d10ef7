import type { Config } from '../config.ts';
import type { Db, Tx } from '../db/index.ts';

/** What every service is built from. */
export interface ServiceDeps {
  db: Db;
  config: Config;
  /** Called after a commit that recorded events, so that live subscribers hear of them at once. */
  eventsCommitted?: () => void;
}

/** Runs `work` in a transaction that may record events; once it has committed, the event bus hears of them. */
export async function withEvents<T>(deps: ServiceDeps, work: (tx: Tx) => Promise<T>): Promise<T> {
  const result = await deps.db.transaction().execute(work);
  deps.eventsCommitted?.();
  return result;
}
