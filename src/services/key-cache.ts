import { CACHE_CHANNEL, type Notifications } from './notifications.ts';

/** How long an entry may serve before it is read again, should an invalidation ever go missing. */
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

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
 * A read that started before an invalidation is not stored: every invalidation moves `epoch`,
 * and a load keeps its result only if the epoch is the one it started under.
 */
export class KeyCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private epoch = 0;

  constructor(private readonly notifications: Notifications) {
    notifications.on(CACHE_CHANNEL, (payload) => {
      const [kind, id] = [payload.slice(0, payload.indexOf(':')), payload.slice(payload.indexOf(':') + 1)];
      if (kind === 'key') this.forgetKey(id);
      else if (kind === 'merchant') this.forgetMerchant(id);
      else this.clear();
    });
    notifications.onResync(() => this.clear());
  }

  /** The value for `kid`, from memory when it may be trusted, else from `load` (and kept). */
  async get(kid: string, load: () => Promise<{ merchantId: string; value: T } | undefined>): Promise<T | undefined> {
    if (!this.notifications.live) return (await load())?.value;
    const hit = this.entries.get(kid);
    if (hit && Date.now() - hit.loadedAt < TTL_MS) return hit.value;
    const epoch = this.epoch;
    const loaded = await load();
    if (loaded && epoch === this.epoch && this.notifications.live) {
      this.entries.delete(kid);
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(kid, { ...loaded, loadedAt: Date.now() });
    }
    return loaded?.value;
  }

  forgetKey(kid: string) {
    this.epoch++;
    this.entries.delete(kid);
  }

  forgetMerchant(merchantId: string) {
    this.epoch++;
    for (const [kid, e] of this.entries) if (e.merchantId === merchantId) this.entries.delete(kid);
  }

  clear() {
    this.epoch++;
    this.entries.clear();
  }
}
