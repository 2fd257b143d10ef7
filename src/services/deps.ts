import type { Config } from '../config.ts';
import type { Db, Tx } from '../db/index.ts';
import { createKeyring, type Keyring } from '../domain/sealing.ts';

/** What every service is built from. */
export interface ServiceDeps {
  db: Db;
  config: Config;
  /** Seals and opens bank details and voucher codes (domain/sealing.ts); by default the ring of `config`. */
  keyring?: Keyring;
  /**
   * Called after a commit that recorded events or queued jobs: live subscribers hear of the events
   * at once, this process's job runner looks for work, and other processes are poked to do the same.
   */
  committed?: () => void;
}

/** Runs `work` in a transaction that may record events and queue jobs; once it has committed, they are announced. */
export async function withEvents<T>(deps: ServiceDeps, work: (tx: Tx) => Promise<T>): Promise<T> {
  const result = await deps.db.transaction().execute(work);
  deps.committed?.();
  return result;
}

const rings = new WeakMap<Config, Keyring>();

/** The deps' key ring: the one given, or the one `config` describes (built once per config). */
export function keyringOf(deps: ServiceDeps): Keyring {
  if (deps.keyring) return deps.keyring;
  let ring = rings.get(deps.config);
  if (!ring) rings.set(deps.config, (ring = createKeyring(deps.config.serviceSecret, deps.config.dataKeys)));
  return ring;
}
