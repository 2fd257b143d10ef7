import { type MerchantScope, merchantFilter, type OneMerchantScope } from '../domain/actor.ts';
import type { Payout, PayoutStatus } from '../domain/payout.ts';
import type { DbOrTx, Tx } from './index.ts';
import { type KeysetPage, listing } from './listing.ts';
import { statement } from './statement.ts';
import { QUEUE_DELIVERIES_SQL } from './webhook-dispatch.ts';
import type { PayoutRow } from './types.ts';

/**
 * Every statement about payouts. Reads and locks take the caller's `MerchantScope` (never
 * optional): one merchant's payouts, or all of them for the operator.
 */

/** The columns of a payout's public shape (never its bank details or request hash). */
const COLUMNS = `id, merchant_id, amount_cents, fee_cents, gross_amount_cents, currency, status, payout_method,
  merchant_reference, description, metadata, external_transfer_id, failure_reason, rejection_reason,
  created_at, updated_at, completed_at, returned_at, return_reason`;

type Row = Pick<
  PayoutRow,
  | 'id' | 'merchant_id' | 'amount_cents' | 'fee_cents' | 'gross_amount_cents' | 'currency' | 'status' | 'payout_method'
  | 'merchant_reference' | 'description' | 'metadata' | 'external_transfer_id' | 'failure_reason' | 'rejection_reason'
  | 'created_at' | 'updated_at' | 'completed_at' | 'returned_at' | 'return_reason'
>;

export function toPayout(row: Row): Payout {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    amountCents: row.amount_cents,
    feeCents: row.fee_cents,
    grossAmountCents: row.gross_amount_cents,
    currency: 'ZAR',
    status: row.status as PayoutStatus,
    payoutMethod: 'eft',
    merchantReference: row.merchant_reference,
    description: row.description,
    metadata: row.metadata,
    externalTransferId: row.external_transfer_id,
    failureReason: row.failure_reason,
    rejectionReason: row.rejection_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    completedAt: row.completed_at,
    returnedAt: row.returned_at,
    returnReason: row.return_reason,
  };
}

/** Within the scope: `:merchantId` null stands for every merchant (the operator's scope). */
const SCOPED = `(:merchantId::uuid is null or merchant_id = :merchantId::uuid)`;

const byId = statement<{ id: string; merchantId: string | null }, Row>(
  'a payout by id',
  `select ${COLUMNS} from payouts where id = :id::uuid and ${SCOPED}`,
);

/** One payout, undefined when missing or outside the scope. */
export async function findPayout(db: DbOrTx, scope: MerchantScope, id: string): Promise<Payout | undefined> {
  const [row] = await byId.run(db, { id, merchantId: merchantFilter(scope) });
  return row && toPayout(row);
}

const byIds = statement<{ ids: string[]; merchantId: string | null }, Row>(
  'payouts by id',
  `select ${COLUMNS} from payouts where id = any(:ids::uuid[]) and ${SCOPED}`,
);

/** Payouts by id in the order of `ids`, null where missing or outside the scope (one statement). */
export async function findPayouts(db: DbOrTx, scope: MerchantScope, ids: readonly string[]): Promise<(Payout | null)[]> {
  if (ids.length === 0) return [];
  // A batch of one reads by `= id`: an index lookup whatever generic plan is cached (see findPayments).
  const rows = ids.length === 1 ? await byId.run(db, { id: ids[0]!, merchantId: merchantFilter(scope) }) : await byIds.run(db, { ids: [...ids], merchantId: merchantFilter(scope) });
  const found = new Map(rows.map((r) => [r.id, toPayout(r)]));
  return ids.map((id) => found.get(id) ?? null);
}

const listings = listing<Row>({ what: 'payouts', table: 'payouts p', columns: COLUMNS.replace(/(\w+)/g, 'p.$1') });

/** Offset listing, newest first, beside the count of all that match: one statement. */
export async function listPayouts(
  db: DbOrTx,
  scope: MerchantScope,
  q: { status?: PayoutStatus | undefined; limit: number; offset: number },
): Promise<{ payouts: Payout[]; total: number }> {
  const { rows, total } = await listings.page(db, scope, q);
  return { payouts: rows.map(toPayout), total };
}

export async function pagePayouts(db: DbOrTx, scope: MerchantScope, status: PayoutStatus | undefined, page: KeysetPage) {
  return (await listings.keyset(db, scope, status, page)).map((r) => ({ node: toPayout(r), seq: r.seq }));
}

export const countPayouts = (db: DbOrTx, scope: MerchantScope, status: PayoutStatus | undefined) => listings.count(db, scope, status);

/** `pagePayouts` and `countPayouts` in one statement. */
export async function pagePayoutsWithTotal(db: DbOrTx, scope: MerchantScope, status: PayoutStatus | undefined, page: KeysetPage) {
  const { rows, total } = await listings.keysetWithTotal(db, scope, status, page);
  return { page: rows.map((r) => ({ node: toPayout(r), seq: r.seq })), total };
}

const byReference = statement<{ merchantId: string; reference: string }, Row & { request_hash: string }>(
  'a merchant\'s payout by merchant_reference',
  `select ${COLUMNS}, request_hash from payouts where merchant_id = :merchantId::uuid and merchant_reference = :reference::text`,
);

/** The merchant's payout with this reference and the hash of the request that created it. */
export async function findByReference(db: DbOrTx, scope: OneMerchantScope, reference: string) {
  const [row] = await byReference.run(db, { merchantId: scope.merchantId, reference });
  return row && { payout: toPayout(row), requestHash: row.request_hash };
}

export interface NewPayout {
  id: string;
  merchantId: string;
  amountCents: number;
  /** The bank details, sealed by the service (domain/sealing.ts): never in the clear here. */
  paymentDetails: Buffer;
  merchantReference: string | null;
  description: string | null;
  metadata: string | null;
  /** The bank the branch code belongs to (domain/za-banks.ts). */
  bank: string;
  /** The saved payee it pays, when it names one (its details are copied into `paymentDetails`). */
  payeeId: string | null;
  requestHash: string;
  createdAt: Date;
  /** The `payout.created` event's data without `fee_cents` and `gross_amount_cents`, which the statement adds. */
  eventData: string;
  eventId: string;
  deliveryId: string;
  transactionId: string;
}

const createStatement = statement<NewPayout, Partial<Row> & { fee: number }>(
  'create a payout: reserve, journal, payout, event, delivery',
  `
  with merchant as (
    -- The fee the payout is created with: the merchant's payout fee as this statement reads it.
    select id, payout_fee_cents as fee, webhook_url from merchants where id = :merchantId::uuid
  ),
  reserved as (
    -- The reservation (CONTRACT §5): the gross amount moves from available to reserved, only if
    -- the available amount covers it. The update locks the merchant's balance row, so concurrent
    -- creations serialise here and the sum reserved can never exceed the balance.
    update balances b
       set reserved_cents = b.reserved_cents + (:amountCents::bigint + m.fee), updated_at = now()
      from merchant m
     where b.merchant_id = m.id
       and b.balance_cents - b.reserved_cents >= :amountCents::bigint + m.fee
    returning b.merchant_id, m.fee, :amountCents::bigint + m.fee as gross
  ),
  journal as (
    -- The ledger's record of the reservation (domain/ledger.ts): available -gross, reserved +gross.
    insert into ledger_transactions (id, merchant_id, kind, payout_id)
    select :transactionId::uuid, merchant_id, 'payout_reserve', :id::uuid from reserved
    returning id, merchant_id
  ),
  legs as (
    insert into ledger_entries (transaction_id, merchant_id, account, amount_cents)
    select j.id, j.merchant_id, leg.account, leg.amount
      from journal j
     cross join reserved r
     cross join lateral (values ('merchant_available', -r.gross), ('merchant_reserved', r.gross)) as leg(account, amount)
  ),
  created as (
    insert into payouts (id, merchant_id, amount_cents, fee_cents, gross_amount_cents, currency, status, payout_method,
                         payment_details_sealed, merchant_reference, description, metadata, bank, payee_id, request_hash, created_at, updated_at)
    select :id::uuid, merchant_id, :amountCents::bigint, fee, gross, 'ZAR', 'pending', 'eft',
           :paymentDetails::bytea, :merchantReference::text, :description::text, :metadata::jsonb, :bank::text, :payeeId::uuid, :requestHash::text,
           :createdAt::timestamptz, :createdAt::timestamptz
      from reserved
    returning ${COLUMNS}
  ),
  recorded as (
    -- The payout.created event, in the outbox (db/outbox.ts) with the fee this statement read.
    insert into events (id, merchant_id, type, payout_id, data)
    select :eventId::uuid, merchant_id, 'payout.created', id,
           :eventData::jsonb || jsonb_build_object('fee_cents', fee_cents, 'gross_amount_cents', gross_amount_cents)
      from created
    returning id, merchant_id
  ),
  queued as (
    -- Its webhook delivery, to the merchant's URL (a payout event has none of its own).
    insert into webhook_deliveries (id, event_id, merchant_id, url, status)
    select :deliveryId::uuid, e.id, e.merchant_id, m.webhook_url, 'pending'
      from recorded e cross join merchant m
     where m.webhook_url is not null
    returning id, merchant_id
  ),
  job as (${QUEUE_DELIVERIES_SQL}
  )
  select c.*, m.fee from merchant m left join created c on true`,
);

/**
 * Creates a pending payout in one statement (one round trip, atomic): `payout` when it was
 * written; otherwise `requiredCents`, the gross amount the available balance did not cover.
 * Undefined when the merchant does not exist.
 */
export async function createPayout(db: DbOrTx, values: NewPayout): Promise<{ payout: Payout } | { requiredCents: number } | undefined> {
  const [row] = await createStatement.run(db, values);
  if (!row) return undefined;
  return row.id ? { payout: toPayout(row as Row) } : { requiredCents: values.amountCents + row.fee };
}

const lockStatement = statement<{ id: string; merchantId: string | null }, Pick<Row, 'merchant_id' | 'status' | 'amount_cents' | 'fee_cents' | 'gross_amount_cents' | 'returned_at'>>(
  'lock a payout',
  `select merchant_id, status, amount_cents, fee_cents, gross_amount_cents, returned_at from payouts where id = :id::uuid and ${SCOPED} for update`,
);

/** Locks a payout for a move (inside the move's transaction); undefined when missing or outside the scope. */
export async function lockPayout(tx: Tx, scope: MerchantScope, id: string) {
  const [row] = await lockStatement.run(tx, { id, merchantId: merchantFilter(scope) });
  return row && { ...row, status: row.status as PayoutStatus };
}

export interface PayoutMoveValues {
  id: string;
  to: PayoutStatus;
  rejectionReason: string | null;
  failureReason: string | null;
  externalTransferId: string | null;
}

const moveStatement = statement<PayoutMoveValues, Row>(
  'move a payout to another state',
  `
  update payouts
     set status = :to::text,
         updated_at = now(),
         rejection_reason = coalesce(:rejectionReason::text, rejection_reason),
         failure_reason = coalesce(:failureReason::text, failure_reason),
         external_transfer_id = case when :to::text = 'completed' then :externalTransferId::text else external_transfer_id end,
         completed_at = case when :to::text = 'completed' then now() else completed_at end
   where id = :id::uuid
  returning ${COLUMNS}`,
);

export async function movePayout(tx: Tx, values: PayoutMoveValues): Promise<Payout> {
  const [row] = await moveStatement.run(tx, values);
  if (!row) throw new Error(`payout ${values.id} vanished while locked`);
  return toPayout(row);
}

const returnStatement = statement<{ id: string; reason: string }, Row>(
  'mark a completed payout returned by the bank',
  `update payouts set returned_at = now(), return_reason = :reason::text, updated_at = now()
    where id = :id::uuid and status = 'completed' and returned_at is null
   returning ${COLUMNS}`,
);

/** Marks a locked, completed payout returned (CONTRACT §11); undefined when it was not completed or already returned. */
export async function markReturned(tx: Tx, id: string, reason: string): Promise<Payout | undefined> {
  const [row] = await returnStatement.run(tx, { id, reason });
  return row && toPayout(row);
}

const sealedStatement = statement<{ ids: string[]; merchantId: string | null }, { id: string; merchant_id: string; payment_details_sealed: Buffer; bank: string | null }>(
  'the sealed bank details of payouts',
  `select id, merchant_id, payment_details_sealed, bank from payouts where id = any(:ids::uuid[]) and ${SCOPED}`,
);

/**
 * The sealed bank details of the payouts in the scope (operator views open them; nothing else
 * reads them), by payout id; payouts missing or outside the scope are absent.
 */
export async function sealedDetails(
  db: DbOrTx,
  scope: MerchantScope,
  ids: readonly string[],
): Promise<Map<string, { merchantId: string; sealed: Buffer; bank: string | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await sealedStatement.run(db, { ids: [...ids], merchantId: merchantFilter(scope) });
  return new Map(rows.map((r) => [r.id, { merchantId: r.merchant_id, sealed: r.payment_details_sealed, bank: r.bank }]));
}
