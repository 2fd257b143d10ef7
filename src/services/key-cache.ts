import { CACHE_CHANNEL } from '../outside/commit-notifications.ts';
import type { Notifications } from './notifications.ts';

/** How long an entry may serve before it is read again, should an invalidation ever go missing. */
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;
/** Unknown kids remembered; past this, the oldest is forgotten (and costs one read again). */
const MAX_UNKNOWN = 10_000;

/** One read of a kid under way, and what was invalidated while it ran. */
interface Load {
  kid: string;
  /** The key changed (or everything must be read again): keep nothing. */
  stale: boolean;
  /** A key with this kid was inserted: do not remember it as unknown. */
  created: boolean;
  merchants: Set<string>;
}

interface Entry<T> {
  merchantId: string;
  value: T;
  loadedAt: number;
}

/**
 * What authentication reads for an API key (the key's row, its hash and its merchant), kept in
 * memory so that a request does not pay a database round trip to learn who sent it.
 *
 * It is only used while this process hears every change: the `api_keys` and `merchants`
 * triggers NOTIFY `key:<kid>` / `merchant:<id>` on commit, and the process that made the change
 * forgets the entry itself at once (before its response leaves). While the listening connection
 * is down the cache is bypassed, and it is emptied when listening resumes. So a revoked key is
 * refused at once by the instance that revoked it and within the notification's delivery (a few
 * milliseconds) by every other instance; the TTL bounds the damage of a connection that dies
 * silently.
 *
 * A kid the database does not know is remembered too (bounded, oldest first out), so that after
 * the first miss an unknown kid costs no round trip, exactly like a known kid with a wrong
 * secret: neither timing nor load tells a caller whether a kid exists. A key's insert makes every
 * process forget that its kid was unknown (`created:<kid>` from the `api_keys` insert trigger, and
 * the process that issued it at once), so a new key is never refused for having been guessed
 * before.
 *
 * A read that started before an invalidation of what it read is not stored: each load in flight
 * is told of the invalidations that touch it (its kid, the merchant it finds, or everything), so
 * that the stream of unrelated changes on a busy database never keeps a kid from being
 * remembered.
 */
export class KeyCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /** kid → when the database said it has no such key. */
  private readonly unknown = new Map<string, number>();
  /** Loads under way; an invalidation that touches one marks it so that its result is not kept. */
  private readonly loading = new Set<Load>();

  constructor(private readonly notifications: Notifications) {
    notifications.on(CACHE_CHANNEL, (payload) => {
      const [kind, id] = [payload.slice(0, payload.indexOf(':')), payload.slice(payload.indexOf(':') + 1)];
      if (kind === 'key') this.forgetKey(id);
      else if (kind === 'created') this.keyCreated(id);
      else if (kind === 'merchant') this.forgetMerchant(id);
      else if (kind === 'session') return; // a dashboard session ended: no key changed (services/people.ts)
      else this.clear();
    });
    notifications.onResync(() => this.clear());
  }

  /**
   * The value for `kid`: from memory, at once and without a promise, when it may be trusted (its
   * value, or `undefined` for a kid the database said it does not know), else from `load` (and
   * kept). Nearly every request is answered from memory, so it costs no turn of the event loop.
   */
  get(kid: string, load: () => Promise<{ merchantId: string; value: T } | undefined>): T | undefined | Promise<T | undefined> {
    if (!this.notifications.live) return load().then((loaded) => loaded?.value);
    const hit = this.entries.get(kid);
    if (hit && Date.now() - hit.loadedAt < TTL_MS) return hit.value;
    const missed = this.unknown.get(kid);
    if (missed !== undefined && Date.now() - missed < TTL_MS) return undefined;
    return this.read(kid, load);
  }

  /** Reads `kid` and keeps what was read, unless an invalidation touched it meanwhile. */
  private async read(kid: string, load: () => Promise<{ merchantId: string; value: T } | undefined>): Promise<T | undefined> {
    const inFlight: Load = { kid, stale: false, created: false, merchants: new Set() };
    this.loading.add(inFlight);
    try {
      const loaded = await load();
      const fresh = loaded ? !inFlight.stale && !inFlight.merchants.has(loaded.merchantId) : !inFlight.stale && !inFlight.created;
      if (fresh && this.notifications.live) {
        if (loaded) remember(this.entries, kid, { ...loaded, loadedAt: Date.now() }, MAX_ENTRIES);
        else remember(this.unknown, kid, Date.now(), MAX_UNKNOWN);
      }
      return loaded?.value;
    } finally {
      this.loading.delete(inFlight);
    }
  }

  forgetKey(kid: string) {
    for (const l of this.loading) if (l.kid === kid) l.stale = true;
    this.entries.delete(kid);
    this.unknown.delete(kid);
  }

  /**
   * A key with this kid was inserted: forget only that the kid was unknown. Whatever was read of
   * the key itself came after the insert's commit (it was found), so it stays good; the late
   * notification of a new key must not cost its first requests a second read.
   */
  keyCreated(kid: string) {
    for (const l of this.loading) if (l.kid === kid) l.created = true;
    this.unknown.delete(kid);
  }

  forgetMerchant(merchantId: string) {
    for (const l of this.loading) l.merchants.add(merchantId);
    for (const [kid, e] of this.entries) if (e.merchantId === merchantId) this.entries.delete(kid);
  }

  clear() {
    for (const l of this.loading) l.stale = true;
    this.entries.clear();
    this.unknown.clear();
  }

  /** How many kids are remembered as unknown (tests check the bound). */
  get unknownCount(): number {
    return this.unknown.size;
  }
}

/** Sets `key` as the newest entry of `map`, dropping the oldest when `map` is full. */
function remember<V>(map: Map<string, V>, key: string, value: V, max: number) {
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
}
