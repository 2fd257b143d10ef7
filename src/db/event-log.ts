import type { EventPosition, StreamedEvent } from '../domain/events.ts';
import type { DbOrTx } from './index.ts';
import { toRecordedEvent } from './outbox.ts';
import { statement } from './statement.ts';
import type { EventRow } from './types.ts';

/**
 * The event log read by position: what a resuming stream replays (CONTRACT §9). The rule is the
 * live bus's (event-bus.ts): only events of transactions older than every transaction still
 * running, which are final, in (transaction id, seq) order; so a replay and the live stream
 * agree on what came before what, and a position once passed never gains an event behind it.
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
  /** One merchant's events, or (null) every merchant's. */
  merchantId: string | null;
  /** Types starting with this (`payout.`). */
  prefix: string;
  /** Only these types (empty: all). */
  types: readonly string[];
}

/** Up to `limit` final events after `from` that pass `filter`, in log order. */
export async function eventsAfter(db: DbOrTx, from: EventPosition, filter: LogFilter, limit: number): Promise<StreamedEvent[]> {
  const args = { xact: from.xact, seq: from.seq, prefix: filter.prefix, types: [...filter.types], limit };
  const rows = filter.merchantId === null ? await allAfter.run(db, args) : await merchantAfter.run(db, { ...args, merchantId: filter.merchantId });
  return rows.map(toStreamedEvent);
}

const positionAge = statement<{ xact: string; seq: number; windowMs: number }, { within: boolean }>(
  'whether an event position is within the replay window',
  `select created_at >= now() - :windowMs::bigint * interval '1 millisecond' as within
     from events where seq = :seq::bigint and xact_id = :xact::xid8`,
);

/**
 * Whether a stream may resume after `p`: `within` when its event was recorded less than
 * `windowMs` ago, `expired` when earlier, `unknown` when no event has that position.
 */
export async function positionStanding(db: DbOrTx, p: EventPosition, windowMs: number): Promise<'within' | 'expired' | 'unknown'> {
  const [row] = await positionAge.run(db, { xact: p.xact, seq: p.seq, windowMs });
  return row === undefined ? 'unknown' : row.within ? 'within' : 'expired';
}
