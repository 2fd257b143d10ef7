import type { OneMerchantScope } from '../domain/actor.ts';
import type { JournalMovement } from '../domain/statement.ts';
import type { DbOrTx } from './index.ts';
import { statement } from './statement.ts';

/**
 * A merchant's statement, read from the journal (domain/statement.ts says what it shows). The
 * balance is the sum of the merchant's `merchant_available` and `merchant_reserved` legs, so an
 * opening balance is that sum before an instant, and each journal transaction moves it by the sum
 * of its own merchant legs. Reads go in keyset batches over (created_at, id), the index
 * `ledger_transactions_merchant_time_idx`: a year of a busy merchant's journal is never held at once.
 */

const BALANCE_ACCOUNTS = `('merchant_available', 'merchant_reserved')`;

const openingStatement = statement<{ merchantId: string; before: Date }, { cents: number | string | null }>(
  'a merchant\'s balance at an instant, from the journal',
  `select coalesce(sum(e.amount_cents), 0)::bigint as cents
     from ledger_transactions t join ledger_entries e on e.transaction_id = t.id
    where t.merchant_id = :merchantId::uuid and t.created_at < :before::timestamptz
      and e.account in ${BALANCE_ACCOUNTS}`,
);

/** The scope's merchant's balance_cents as the journal had it just before `before`. */
export async function balanceBefore(db: DbOrTx, scope: OneMerchantScope, before: Date): Promise<number> {
  const [row] = await openingStatement.run(db, { merchantId: scope.merchantId, before });
  return Number(row?.cents ?? 0);
}

interface MovementRow {
  id: string;
  /** created_at as the database's text: an exact keyset position (a JS Date would lose its microseconds). */
  position: string;
  created_at: Date;
  kind: string;
  payment_id: string | null;
  payout_id: string | null;
  refund_id: string | null;
  memo: string | null;
  movement: number | string;
  fees: number | string;
  entry_leg: string;
  fee_leg: string | null;
  merchant_order_id: string | null;
  merchant_reference: string | null;
  external_transfer_id: string | null;
}

/**
 * One batch of journal transactions that moved the balance, oldest first, after a keyset
 * position. A refund's transactions name it in `refund_id`.
 */
const batchStatement = statement<
  { merchantId: string; start: Date; end: Date; afterAt: string | null; afterId: string | null; limit: number },
  MovementRow
>(
  'a batch of a merchant\'s statement movements',
  `select t.id, t.created_at::text as position, t.created_at, t.kind, t.payment_id, t.payout_id,
          t.refund_id::text as refund_id, t.memo,
          sum(e.amount_cents) filter (where e.account in ${BALANCE_ACCOUNTS})::bigint as movement,
          coalesce(sum(e.amount_cents) filter (where e.account = 'fees'), 0)::bigint as fees,
          (min(e.id) filter (where e.account in ${BALANCE_ACCOUNTS}))::text as entry_leg,
          (min(e.id) filter (where e.account = 'fees'))::text as fee_leg,
          p.merchant_order_id, po.merchant_reference, po.external_transfer_id
     from ledger_transactions t
     join ledger_entries e on e.transaction_id = t.id
     left join payments p on p.id = t.payment_id
     left join payouts po on po.id = t.payout_id
    where t.merchant_id = :merchantId::uuid
      and t.created_at >= :start::timestamptz and t.created_at < :end::timestamptz
      and (:afterAt::timestamptz is null or (t.created_at, t.id) > (:afterAt::timestamptz, :afterId::uuid))
    group by t.id, p.merchant_order_id, po.merchant_reference, po.external_transfer_id
   having coalesce(sum(e.amount_cents) filter (where e.account in ${BALANCE_ACCOUNTS}), 0) <> 0
    order by t.created_at, t.id
    limit :limit::int`,
);

const toMovement = (r: MovementRow): JournalMovement => ({
  transactionId: r.id,
  postedAt: r.created_at,
  kind: r.kind,
  paymentId: r.payment_id,
  payoutId: r.payout_id,
  refundId: r.refund_id,
  memo: r.memo,
  movementCents: Number(r.movement),
  feesCents: Number(r.fees),
  entryLegId: r.entry_leg,
  feeLegId: r.fee_leg,
  merchantOrderId: r.merchant_order_id,
  merchantReference: r.merchant_reference,
  externalTransferId: r.external_transfer_id,
});

/**
 * The movements of the scope's merchant's balance in [start, end), oldest first, read `batchSize`
 * transactions at a time: each batch is one statement, and only one batch is held at once.
 */
export async function* movementsBetween(db: DbOrTx, scope: OneMerchantScope, start: Date, end: Date, batchSize = 500): AsyncGenerator<JournalMovement> {
  let afterAt: string | null = null;
  let afterId: string | null = null;
  for (;;) {
    const rows = await batchStatement.run(db, { merchantId: scope.merchantId, start, end, afterAt, afterId, limit: batchSize });
    for (const r of rows) yield toMovement(r);
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    afterAt = last.position;
    afterId = last.id;
  }
}
