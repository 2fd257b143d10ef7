import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { forgetInstance, forgetStaleInstances, reportInstance } from '../db/instance-heartbeats.ts';
import type { Db } from '../db/index.ts';
import type { Keyring } from '../domain/sealing.ts';

/** How often a running process says it is there. */
export const HEARTBEAT_EVERY_MS = 10_000;
/**
 * A process silent this long is taken to be gone (killed, cut off) and its row is deleted. Six
 * beats: a process stalled by a long garbage collection or a slow database is not forgotten.
 */
export const HEARTBEAT_STALE_MS = 60_000;

/**
 * This process's heartbeat: a row in `instance_heartbeats` with its host, pid, what it runs and the
 * data keys (kids) it can open, refreshed every HEARTBEAT_EVERY_MS and deleted when it stops
 * cleanly, so that `zarpay rotate-data-key` knows whether every running process could open what
 * it would seal (services/data-keys.ts).
 *
 * A timer of the process's own, not a job: the job runner hands a job to whichever runner claims
 * it, and a heartbeat is worth something only when the process it speaks for writes it.
 */
export class InstanceHeartbeat {
  readonly id = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  /** The beat under way, if any. */
  private beating: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly keyring: Keyring,
    private readonly everyMs = HEARTBEAT_EVERY_MS,
  ) {}

  /** Writes the first beat (a failure stops the start, like the other start-up writes), then one every `everyMs`. */
  async start(command: string, onError: (message: string, err?: unknown) => void): Promise<void> {
    const beat = {
      id: this.id,
      host: hostname(),
      pid: process.pid,
      command,
      kids: this.keyring.checks().map((c) => c.kid),
      currentKid: this.keyring.currentKid,
    };
    await forgetStaleInstances(this.db, HEARTBEAT_STALE_MS);
    await reportInstance(this.db, beat);
    this.timer = setInterval(() => {
      // One at a time (a database that hangs gets no pile of beats), and `stop` waits for it: a
      // beat landing after the row's deletion would bring the row back.
      if (this.stopped || this.beating) return;
      this.beating = reportInstance(this.db, beat)
        .catch((e) => onError('heartbeat: could not report this process', e))
        .finally(() => (this.beating = undefined));
    }, this.everyMs).unref();
  }

  /** Stops beating and deletes the row (before the database closes). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    if (this.timer === undefined) return;
    await this.beating;
    // A database already gone leaves the row to go stale: a minute later it is ignored, and deleted.
    await forgetInstance(this.db, this.id).catch(() => {});
  }
}
