import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { listenOn, notifyChannel } from '../db/listen.ts';

/** "New events committed": a poke without payload, sent after the commit (see EventBus). */
export const EVENTS_CHANNEL = 'zarpay_events';
/** `key:<kid>` and `merchant:<id>`, published by the triggers of migration 0004 on every change. */
export const CACHE_CHANNEL = 'zarpay_cache';
const CHANNELS = [EVENTS_CHANNEL, CACHE_CHANNEL] as const;
export type Channel = (typeof CHANNELS)[number];

/** Tells this process about commits anywhere on the database: PostgreSQL LISTEN, or the embedded database's. */
export interface NotificationSource {
  /**
   * Listens on every channel; `onLive(false)` when the connection is lost (notifications may be
   * missed from then on), `onLive(true)` once it listens (again).
   */
  start(onNotification: (channel: Channel, payload: string) => void, onLive: (live: boolean) => void): Promise<void>;
  stop(): Promise<void>;
  /** Sends a notification on `channel` to every process, this one included. */
  notify?(channel: Channel): Promise<void>;
}

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

/** A dedicated LISTEN connection (never a pooled one), re-established with backoff when lost. */
export function postgresNotifications(connectionString: string): NotificationSource {
  let client: pg.Client | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  return {
    async start(onNotification, onLive) {
      stopped = false;
      let backoff = 250;
      const connect = async (isReconnect: boolean) => {
        if (stopped) return;
        // Keepalive, so a connection that dies silently is noticed (the key cache stops trusting itself).
        const c = new pg.Client({ connectionString, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
        const retry = () => {
          c.removeAllListeners();
          c.on('error', () => {});
          void c.end().catch(() => {});
          if (client === c) {
            client = undefined;
            onLive(false);
          }
          if (stopped) return;
          timer = setTimeout(() => void connect(true), backoff);
          backoff = Math.min(backoff * 2, 10_000);
        };
        c.on('error', retry);
        c.on('end', () => !stopped && client === c && retry());
        c.on('notification', (n) => {
          if (n.payload && (CHANNELS as readonly string[]).includes(n.channel)) onNotification(n.channel as Channel, n.payload);
        });
        try {
          await c.connect();
          await listenOn(c, CHANNELS);
          client = c;
          backoff = 250;
          onLive(true);
        } catch (e) {
          if (!isReconnect) throw e;
          retry();
        }
      };
      await connect(false);
    },
    async notify(channel) {
      if (client) await notifyChannel(client, channel);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      const c = client;
      client = undefined;
      if (c) {
        c.removeAllListeners();
        c.on('error', () => {});
        await c.end().catch(() => {});
      }
    },
  };
}

/** The embedded database delivers NOTIFY to its own process, also on commit only. */
export function embeddedNotifications(pglite: PGlite): NotificationSource {
  let unlisten: (() => Promise<void>)[] = [];
  return {
    async start(onNotification, onLive) {
      for (const channel of CHANNELS) {
        unlisten.push(await pglite.listen(channel, (payload) => payload && onNotification(channel, payload)));
      }
      onLive(true);
    },
    async stop() {
      if (!pglite.closed) await Promise.all(unlisten.map((u) => u()));
      unlisten = [];
    },
  };
}
