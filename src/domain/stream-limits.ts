/**
 * The bounds of live event streams (graphql-sse at `/graphql/stream`), in one place; listed in
 * docs/limits.md. A principal is who holds the streams: one merchant API key (by its kid), or
 * the operator. Requests without credentials hold nothing once answered.
 */
export const STREAM_LIMITS = {
  /** Single-connection reservations (`PUT`) a principal may hold before connecting them. */
  reservationsPerPrincipal: 5,
  /** A reservation not connected within this long is freed, with whatever was sent to it. */
  reservationTtlMs: 10_000,
  /** Event-stream connections a principal may hold open: distinct-connection streams and connected reservations. */
  connectionsPerPrincipal: 20,
  /** Operations a principal may run at once, over every connection of either mode. */
  operationsPerPrincipal: 20,
  /**
   * Results written to one connection and not yet taken by its socket. Past this an operation
   * waits before it takes its next event, so a reader that does not read leaves its events
   * queued in the stream (bounded below) rather than in the connection.
   */
  unsentPerConnection: 32,
  /** A connection whose reader has taken nothing for this long while results wait is closed. */
  stalledConnectionMs: 60_000,
  /** After a key ends, how long its connections may take to deliver their last messages before they are cut. */
  closeGraceMs: 5_000,
  /** Events one stream holds for its reader; one more and it ends (it fell behind: resume with `after`). */
  queuedEventsPerStream: 1_000,
} as const;

export type StreamLimits = { -readonly [K in keyof typeof STREAM_LIMITS]: number };
