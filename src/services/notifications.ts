import type { Channel, NotificationSource } from '../outside/commit-notifications.ts';

/** Pokes are spaced at least this far apart; those asked for meanwhile go as one. */
const POKE_SPACING_MS = 10;

/**
 * One listening connection per process, shared by everything that reacts to commits made
 * elsewhere: live events (the event bus) and the key cache's invalidations. NOTIFY is delivered
 * only on commit, on every process connected to the database, the committing one included.
 */
export class Notifications {
  private readonly handlers = new Map<Channel, Set<(payload: string) => void>>();
  private readonly resyncs = new Set<() => void>();
  private isLive = false;
  private wasLive = false;
  private started = false;
  private readonly pokes = new Map<Channel, { sending: boolean; again: boolean }>();

  constructor(private readonly source: NotificationSource | undefined) {}

  /**
   * True while this process is sure to hear of every commit: listening, and not since a lost
   * connection without a resync. Without a source (no database handle) it is never live.
   */
  get live(): boolean {
    return this.isLive;
  }

  on(channel: Channel, handler: (payload: string) => void): () => void {
    let set = this.handlers.get(channel);
    if (!set) this.handlers.set(channel, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  /** `handler` runs when listening resumes after a lost connection: whatever it missed, it must re-read. */
  onResync(handler: () => void): () => void {
    this.resyncs.add(handler);
    return () => this.resyncs.delete(handler);
  }

  /**
   * Tells the other processes to look at `channel`'s table. Outside any transaction, and
   * coalesced: one poke under way at a time, the ones asked for meanwhile sent as one after it.
   */
  poke(channel: Channel) {
    if (!this.source?.notify || !this.started) return;
    let state = this.pokes.get(channel);
    if (!state) this.pokes.set(channel, (state = { sending: false, again: false }));
    if (state.sending) {
      state.again = true;
      return;
    }
    const send = async () => {
      state.sending = true;
      do {
        state.again = false;
        await this.source!.notify!(channel).catch(() => {});
        await new Promise((r) => setTimeout(r, POKE_SPACING_MS));
      } while (state.again && this.started);
      state.sending = false;
    };
    void send();
  }

  async start() {
    if (this.started || !this.source) return;
    this.started = true;
    await this.source.start(
      (channel, payload) => {
        for (const handler of this.handlers.get(channel) ?? []) {
          try {
            handler(payload);
          } catch {
            // one handler's failure is not another's
          }
        }
      },
      (live) => {
        this.isLive = live;
        if (!live) return;
        if (this.wasLive) for (const resync of this.resyncs) resync();
        this.wasLive = true;
      },
    );
  }

  async stop() {
    this.isLive = false;
    if (!this.started) return;
    this.started = false;
    this.wasLive = false;
    await this.source?.stop();
  }
}

