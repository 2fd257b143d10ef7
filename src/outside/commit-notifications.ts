import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { listenOn, notifyChannel } from '../db/listen.ts';

/**
 * How a process hears of commits made anywhere on its database: the channels, and the two
 * sources, PostgreSQL's LISTEN on a connection of its own or the embedded database's.
 */

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
