import type { EventPosition } from './events.ts';

/**
 * An event's place in the event log, as clients hold it: the `position` of each streamed event,
 * given back as `after` to resume a stream (CONTRACT §9). The log's order is the outbox's
 * (transaction id, then sequence within the log), so a position is those two numbers; clients
 * treat the text as opaque and only ever hand back what they were given.
 */

const PREFIX = 'event:';
/** A transaction id (PostgreSQL xid8) or a sequence number: decimal digits, at most 2^64. */
const NUMBER = /^(0|[1-9][0-9]{0,19})$/;

export function encodePosition(p: EventPosition): string {
  return Buffer.from(`${PREFIX}${p.xact}:${p.seq}`).toString('base64url');
}

/** The position a client sent, or undefined when the text is not one this service hands out. */
export function decodePosition(text: string): EventPosition | undefined {
  if (text.length > 64) return undefined;
  const plain = Buffer.from(text, 'base64url').toString('utf8');
  if (!plain.startsWith(PREFIX)) return undefined;
  const [xact, seq, ...rest] = plain.slice(PREFIX.length).split(':');
  if (rest.length > 0 || !xact || !seq || !NUMBER.test(xact) || !NUMBER.test(seq)) return undefined;
  const n = Number(seq);
  if (!Number.isSafeInteger(n) || BigInt(xact) >= 2n ** 64n) return undefined;
  return { xact, seq: n };
}

/** Log order: negative when `a` comes before `b`. */
export function comparePositions(a: EventPosition, b: EventPosition): number {
  if (a.xact !== b.xact) {
    // Decimal texts without leading zeros: the longer is the larger, else compare as text.
    if (a.xact.length !== b.xact.length) return a.xact.length - b.xact.length;
    return a.xact < b.xact ? -1 : 1;
  }
  return a.seq - b.seq;
}
