import type { Db } from '../db/index.ts';
import { liveSessions } from '../db/people.ts';
import { AppError } from '../domain/errors.ts';
import { SESSION_IDLE_MS } from '../domain/people.ts';
import { CACHE_CHANNEL } from '../outside/commit-notifications.ts';
import type { KeyEnded } from './key-watch.ts';
import type { Notifications } from './notifications.ts';

/** Open event streams of sessions are checked this often (the idle and absolute ends; a lost notification of another process's revocation). */
const RECHECK_MS = 15_000;

/**
 * The dashboard sessions that hold streams open in this process, and the end of each: a session
 * ended here (`end`), in another process (its change notification, migration
 * 2026-11-25T0060's trigger), or found no longer live when read again (idle, absolute end, a
 * notification that went missing). The sessions' twin of key-watch.ts.
 */
export class SessionWatch {
  private readonly watched = new Map<string, Set<KeyEnded>>();
  private sweep: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    notifications: Notifications,
  ) {
    notifications.on(CACHE_CHANNEL, (payload) => {
      if (payload.startsWith('session:')) this.end([payload.slice('session:'.length)]);
    });
    notifications.onResync(() => void this.recheck());
  }

  /** Calls `onEnd` once when the session ends; returns the function that stops watching. */
  watch(sessionId: string, onEnd: KeyEnded): () => void {
    let set = this.watched.get(sessionId);
    if (!set) this.watched.set(sessionId, (set = new Set()));
    set.add(onEnd);
    this.sweep ??= setInterval(() => void this.recheck(), RECHECK_MS).unref();
    return () => {
      const s = this.watched.get(sessionId);
      s?.delete(onEnd);
      if (s && s.size === 0) this.watched.delete(sessionId);
      if (this.watched.size === 0 && this.sweep) {
        clearInterval(this.sweep);
        this.sweep = undefined;
      }
    };
  }

  /** Reads the watched sessions again: those no longer valid end their streams. */
  async recheck(): Promise<void> {
    const ids = [...this.watched.keys()];
    let live: Set<string>;
    try {
      live = await liveSessions(this.db, ids, SESSION_IDLE_MS);
    } catch {
      return; // the database is away: tried again at the next sweep
    }
    this.end(ids.filter((id) => !live.has(id)));
  }

  /** These sessions have ended: whatever they hold open here closes now. */
  end(ids: readonly string[]): void {
    for (const id of ids) {
      const listeners = this.watched.get(id);
      if (!listeners) continue;
      this.watched.delete(id);
      for (const listener of listeners) listener(new AppError('UNAUTHORIZED', 'your session has ended: sign in again'));
    }
  }

  stop(): void {
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = undefined;
  }
}
