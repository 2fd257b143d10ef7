import { type MerchantScope, merchantFilter } from '../domain/actor.ts';
import type { EventPosition, RecordedEvent, StreamedEvent } from '../domain/events.ts';
import type { DbOrTx } from './index.ts';
import { toRecordedEvent } from './outbox.ts';
import { statement } from './statement.ts';
import type { EventRow } from './types.ts';

/**
 * The event log read, written by the outbox (outbox.ts). By position: what the live bus reads and
 * a resuming stream replays (CONTRACT §9), only events of transactions older than every
 * transaction still running, which are final, in (transaction id, seq) order; so a replay and the
 * live stream agree on what came before what, and a position once passed never gains an event
 * behind it. By resource: a payout's history.
 */

type Row = Pick<EventRow, 'id' | 'seq' | 'merchant_id' | 'type' | 'payout_id' | 'payment_id' | 'data' | 'created_at'> & { xact_id: string };

export const toStreamedEvent = (row: Row): StreamedEvent => ({ ...toRecordedEvent(row), position: { xact: row.xact_id, seq: row.seq } });

const COLUMNS = 'id, seq, merchant_id, type, payout_id, payment_id, data, created_at, xact_id::text as xact_id';
const AFTER = `(xact_id, seq) > (:xact::xid8, :seq::bigint)
   and xact_id < pg_snapshot_xmin(pg_current_snapshot())
   and starts_with(type, :prefix::text)
   and (cardinality(:types::text[]) = 0 or type = any(:types::text[]))`;

interface AfterArgs {
  xact: string;
  seq: number;
  prefix: string;
  types: readonly string[];
  limit: number;
}

// One statement per scope, so each is planned for its own index: (merchant_id, xact_id, seq)
// for a merchant, (xact_id, seq) for everyone.
const merchantAfter = statement<AfterArgs & { merchantId: string }, Row>(
  "a merchant's events after a position",
  `select ${COLUMNS} from events where merchant_id = :merchantId::uuid and ${AFTER} order by xact_id, seq limit :limit::int`,
);
const allAfter = statement<AfterArgs, Row>(
  "every merchant's events after a position",
  `select ${COLUMNS} from events where ${AFTER} order by xact_id, seq limit :limit::int`,
);

export interface LogFilter {
  /** Whose events: one merchant's, or (the operator's, zarpay's own) every merchant's. */
  scope: MerchantScope;
  /** Types starting with this (`payout.`). */
  prefix: string;
  /** Only these types (empty: all). */
  types: readonly string[];
}

/** Up to `limit` final events after `from` that pass `filter`, in log order. */
export async function eventsAfter(db: DbOrTx, from: EventPosition, filter: LogFilter, limit: number): Promise<StreamedEvent[]> {
  const args = { xact: from.xact, seq: from.seq, prefix: filter.prefix, types: [...filter.types], limit };
  const merchantId = merchantFilter(filter.scope);
  const rows = merchantId === null ? await allAfter.run(db, args) : await merchantAfter.run(db, { ...args, merchantId });
  return rows.map(toStreamedEvent);
}

const positionAge = statement<{ xact: string; seq: number; windowMs: number; merchantId: string | null }, { within: boolean }>(
  'whether an event position is within the replay window',
  `select created_at >= now() - :windowMs::bigint * interval '1 millisecond' as within
     from events where seq = :seq::bigint and xact_id = :xact::xid8 and (:merchantId::uuid is null or merchant_id = :merchantId::uuid)`,
);

/**
 * Whether a stream may resume after `p`: `within` when its event was recorded less than
 * `windowMs` ago, `expired` when earlier, `unknown` when no event within the scope has that
 * position (a merchant's streams only ever hand out positions of its own events).
 */
export async function positionStanding(db: DbOrTx, scope: MerchantScope, p: EventPosition, windowMs: number): Promise<'within' | 'expired' | 'unknown'> {
  const [row] = await positionAge.run(db, { xact: p.xact, seq: p.seq, windowMs, merchantId: merchantFilter(scope) });
  return row === undefined ? 'unknown' : row.within ? 'within' : 'expired';
}

const presentStatement = statement<Record<string, never>, { xact: string }>(
  "the event log's present",
  `select pg_snapshot_xmin(pg_current_snapshot())::text as xact`,
);

/** The position before every event still to become final: what the live bus starts from. */
export async function logPresent(db: DbOrTx): Promise<EventPosition> {
  const [row] = await presentStatement.run(db, {});
  return { xact: row!.xact, seq: 0 };
}

const nextStatement = statement<{ xact: string; seq: number; limit: number }, Row>(
  'the events after a position, for the live bus',
  `select ${COLUMNS} from events
    where (xact_id, seq) > (:xact::xid8, :seq::bigint) and xact_id < pg_snapshot_xmin(pg_current_snapshot())
    order by xact_id, seq limit :limit::int`,
);

/** Up to `limit` final events after `from`, of every merchant and type, in log order (the live bus's read). */
export async function nextEvents(db: DbOrTx, from: EventPosition, limit: number): Promise<StreamedEvent[]> {
  return (await nextStatement.run(db, { xact: from.xact, seq: from.seq, limit })).map(toStreamedEvent);
}

const ofPayoutsStatement = statement<{ payoutIds: string[]; merchantId: string | null }, Omit<Row, 'seq' | 'xact_id'>>(
  'the events of payouts',
  `select id, merchant_id, type, payout_id, payment_id, data, created_at from events
    where payout_id = any(:payoutIds::uuid[]) and (:merchantId::uuid is null or merchant_id = :merchantId::uuid)
    order by seq`,
);

/** The events within the scope of these payouts, oldest first, by payout id (one statement for any number of payouts). */
export async function eventsOfPayouts(db: DbOrTx, scope: MerchantScope, payoutIds: readonly string[]): Promise<Map<string, RecordedEvent[]>> {
  const byPayout = new Map<string, RecordedEvent[]>();
  if (payoutIds.length === 0) return byPayout;
  for (const row of await ofPayoutsStatement.run(db, { payoutIds: [...payoutIds], merchantId: merchantFilter(scope) })) {
    let list = byPayout.get(row.payout_id!);
    if (!list) byPayout.set(row.payout_id!, (list = []));
    list.push(toRecordedEvent(row));
  }
  return byPayout;
}

const existsStatement = statement<{ id: string }, { id: string }>('whether an event exists', `select id from events where id = :id::uuid`);

export async function eventExists(db: DbOrTx, id: string): Promise<boolean> {
  return (await existsStatement.run(db, { id })).length > 0;
}
