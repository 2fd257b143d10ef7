import { keyStates } from '../db/api-keys.ts';
import type { Db } from '../db/index.ts';
import type { ApiKeyRecord } from '../domain/api-key.ts';
import type { MerchantActor } from '../domain/actor.ts';
import { AppError } from '../domain/errors.ts';
import { CACHE_CHANNEL } from '../outside/commit-notifications.ts';
import type { Notifications } from './notifications.ts';

/** Every watched key is read again this often, should a notification ever go missing (the key cache's TTL, for streams). */
const RECHECK_MS = 60_000;
/** A read that failed (the database unreachable) is tried again this soon. */
const RETRY_MS = 1_000;
/** setTimeout's longest delay: an expiry further away is re-armed on the way. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** What decides whether a key still works. */
export type KeyState = Pick<ApiKeyRecord, 'status' | 'expiresAt'>;
/** Told once, with the refusal a request with the key would now get. */
export type KeyEnded = (reason: AppError) => void;
/** Calls `onEnd` once when the credential of a merchant caller (its key, or a person's session) stops working; returns the function that stops watching. */
export type WatchCaller = (actor: MerchantActor, onEnd: KeyEnded) => () => void;
/** Calls `onEnd` once when `key` stops working; returns the function that stops watching. */
export type WatchKey = (key: ApiKeyRecord, onEnd: KeyEnded) => () => void;

interface Watched {
  listeners: Set<KeyEnded>;
  state: KeyState;
  timer?: NodeJS.Timeout;
}

/** Why a key in this state no longer works, or nothing while it does. */
function keyEnd(state: KeyState | undefined, now = new Date()): AppError | undefined {
  if (!state) return new AppError('FORBIDDEN', 'API key no longer exists');
  if (state.status === 'revoked') return new AppError('FORBIDDEN', 'API key has been revoked');
  if (state.status === 'expired' || (state.expiresAt !== null && state.expiresAt <= now)) return new AppError('FORBIDDEN', 'API key has expired');
  return undefined;
}

/**
 * Tells what a key holds open (its event streams) when the key stops working: revoked,
 * replaced by regenerate, expired, or deleted, whether here or in another process, and when
 * its `expires_at` passes.
 *
 * A change made by this process is applied at once (`changed`). Any other is heard through the
 * `key:<kid>` notification every change to `api_keys` sends on commit (migration 0004), after
 * which the key is read again; so is every watched key when listening resumes after a lost
 * connection, and once a minute anyway. A key starts being watched with a read too: a request
 * authenticated just before a revocation elsewhere may register after its notification was
 * heard, and that read is what sees it.
 */
export class KeyWatch {
  private readonly watched = new Map<string, Watched>();
  private sweep: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    notifications: Notifications,
  ) {
    notifications.on(CACHE_CHANNEL, (payload) => {
      if (payload.startsWith('key:')) void this.recheck([payload.slice('key:'.length)]);
    });
    notifications.onResync(() => void this.recheck([...this.watched.keys()]));
  }

  /** Keys watched in this process. */
  get size(): number {
    return this.watched.size;
  }

  watch: WatchKey = (key, onEnd) => {
    let entry = this.watched.get(key.kid);
    const fresh = !entry;
    if (!entry) this.watched.set(key.kid, (entry = { listeners: new Set(), state: key }));
    const watched = entry;
    watched.listeners.add(onEnd);
    if (fresh) {
      this.sweep ??= setInterval(() => void this.recheck([...this.watched.keys()]), RECHECK_MS).unref();
      this.apply(key.kid, key);
      void this.recheck([key.kid]);
    }
    return () => {
      watched.listeners.delete(onEnd);
      if (watched.listeners.size === 0 && this.watched.get(key.kid) === watched) this.forget(key.kid, watched);
    };
  };

  /** Stops every timer (the service stops): watchers are not told, their streams are closed by then. */
  stop() {
    for (const [kid, watched] of this.watched) this.forget(kid, watched);
  }

  /** This process has just changed the key (`undefined`: deleted it): applied without a read. */
  changed(kid: string, state: KeyState | undefined) {
    this.apply(kid, state);
  }

  /** Reads the keys again and applies what it finds; a failed read is tried again shortly. */
  private async recheck(kids: string[]) {
    const wanted = kids.filter((kid) => this.watched.has(kid));
    if (wanted.length === 0) return;
    let found: Map<string, KeyState>;
    try {
      found = await keyStates(this.db, wanted);
    } catch {
      setTimeout(() => void this.recheck(wanted), RETRY_MS).unref();
      return;
    }
    for (const kid of wanted) this.apply(kid, found.get(kid));
  }

  /** Ends the key's watchers if it no longer works; otherwise arms the timer of its expiry. */
  private apply(kid: string, state: KeyState | undefined) {
    const watched = this.watched.get(kid);
    if (!watched) return;
    clearTimeout(watched.timer);
    watched.timer = undefined;
    const reason = keyEnd(state);
    if (reason) {
      this.forget(kid, watched);
      for (const listener of watched.listeners) listener(reason);
      return;
    }
    watched.state = state!;
    const expiresAt = state!.expiresAt;
    if (expiresAt) {
      const delay = Math.min(Math.max(0, expiresAt.getTime() - Date.now()), LONGEST_TIMER_MS);
      watched.timer = setTimeout(() => this.apply(kid, watched.state), delay).unref();
    }
  }

  private forget(kid: string, watched: Watched) {
    clearTimeout(watched.timer);
    this.watched.delete(kid);
    if (this.watched.size === 0) {
      clearInterval(this.sweep);
      this.sweep = undefined;
    }
  }
}
