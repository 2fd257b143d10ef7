import type { PaymentScope } from '../domain/actor.ts';
import { QUEUE } from '../domain/jobs.ts';
import type { Refund, RefundStatus } from '../domain/refund.ts';
import type { DbOrTx, Tx } from './index.ts';
import { ATTEMPT_SCOPED, type PaymentFilter, paymentFilter } from './scope.ts';
import { statement } from './statement.ts';
import type { Selectable } from 'kysely';
import type { RefundsTable } from './types.ts';

/**
 * Every statement about refunds (services/refunds.ts decides when). Reads and locks take the
 * caller's `PaymentScope`: a merchant's own, the operator's and zarpay's every refund, a provider's
 * the refunds of its own attempts (its signed notification reaches nothing else).
 */

type Row = Pick<
  Selectable<RefundsTable>,
  | 'id' | 'merchant_id' | 'payment_id' | 'attempt_id' | 'provider' | 'amount_cents' | 'reason' | 'merchant_reference'
  | 'provider_key' | 'provider_refund_ref' | 'failure_reason' | 'completed_at' | 'submitted_at'
> & { status: RefundStatus; created_at: Date; updated_at: Date; attempt_provider_ref: string | null };

/** A refund with what the service needs to ask its provider. */
export interface StoredRefund extends Refund {
  attemptId: string;
  provider: string;
  /** The provider's reference of the attempt whose money goes back (Yoco: the checkout id). */
  attemptProviderRef: string | null;
  /** The Idempotency-Key the provider is asked with. */
  providerKey: string;
  /** The provider's id for the refund, once it accepted it. */
  providerRefundRef: string | null;
  /** When its request under `providerKey` was first sent; null: never. */
  submittedAt: Date | null;
  updatedAt: Date;
}

function toRefund(r: Row): StoredRefund {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    paymentId: r.payment_id,
    status: r.status,
    amountCents: r.amount_cents,
    currency: 'ZAR',
    reason: r.reason,
    merchantReference: r.merchant_reference,
    failureReason: r.failure_reason,
    createdAt: r.created_at,
    completedAt: r.completed_at,
    attemptId: r.attempt_id,
    provider: r.provider,
    attemptProviderRef: r.attempt_provider_ref,
    providerKey: r.provider_key,
    providerRefundRef: r.provider_refund_ref,
    submittedAt: r.submitted_at,
    updatedAt: r.updated_at,
  };
}

const COLUMNS = `r.id, r.merchant_id, r.payment_id, r.attempt_id, r.provider, r.status, r.amount_cents, r.reason, r.merchant_reference,
  r.provider_key, r.provider_refund_ref, r.failure_reason, r.created_at, r.updated_at, r.completed_at, r.submitted_at, a.provider_ref as attempt_provider_ref`;
const FROM = `refunds r join payment_attempts a on a.id = r.attempt_id join payments p on p.id = r.payment_id`;

const byId = statement<{ id: string } & PaymentFilter, Row>('a refund by id', `select ${COLUMNS} from ${FROM} where r.id = :id::uuid and ${ATTEMPT_SCOPED}`);

/** One refund; undefined when missing or outside the scope. */
export async function findRefund(db: DbOrTx, scope: PaymentScope, id: string): Promise<StoredRefund | undefined> {
  const [row] = await byId.run(db, { id, ...paymentFilter(scope) });
  return row && toRefund(row);
}

const lockById = statement<{ id: string } & PaymentFilter, Row>(
  'lock a refund',
  `select ${COLUMNS} from ${FROM} where r.id = :id::uuid and ${ATTEMPT_SCOPED} for update of r`,
);

/** Locks a refund for a change (after its payment: lock order payment, attempts, refunds, balance). */
export async function lockRefund(tx: Tx, scope: PaymentScope, id: string): Promise<StoredRefund | undefined> {
  const [row] = await lockById.run(tx, { id, ...paymentFilter(scope) });
  return row && toRefund(row);
}

const byRef = statement<{ refProvider: string; refundRef: string } & PaymentFilter, Row>(
  'a refund by its provider\'s reference',
  `select ${COLUMNS} from ${FROM} where r.provider = :refProvider::text and r.provider_refund_ref = :refundRef::text and ${ATTEMPT_SCOPED}`,
);

/** The refund a provider's notification names by the provider's own id; undefined when missing or outside the scope. */
export async function findRefundByRef(db: DbOrTx, scope: PaymentScope, provider: string, refundRef: string): Promise<StoredRefund | undefined> {
  const [row] = await byRef.run(db, { refProvider: provider, refundRef, ...paymentFilter(scope) });
  return row && toRefund(row);
}

const unmatched = statement<{ refProvider: string; attemptRef: string } & PaymentFilter, Row>(
  'pending refunds of an attempt not yet matched to the provider\'s id',
  `select ${COLUMNS} from ${FROM}
    where r.provider = :refProvider::text and a.provider_ref = :attemptRef::text and r.status = 'pending'
      and r.provider_refund_ref is null and ${ATTEMPT_SCOPED}
    order by r.seq`,
);

/**
 * The pending refunds of an attempt whose provider id is not yet known: a notification may
 * overtake the answer to the request it is about (or the answer was lost).
 */
export async function unmatchedRefunds(db: DbOrTx, scope: PaymentScope, provider: string, attemptRef: string): Promise<StoredRefund[]> {
  return (await unmatched.run(db, { refProvider: provider, attemptRef, ...paymentFilter(scope) })).map(toRefund);
}

/**
 * Of one payment (or any), in one status (or any), and only those pending for longer than so many
 * milliseconds (or all), by the database's clock. The refund's own merchant_id repeats the scope's
 * merchant (a refund is its payment's merchant's): it lets a merchant's list walk
 * refunds_merchant_idx (merchant_id, seq) newest first instead of joining every refund.
 */
const LISTED = `(:ofPayment::uuid is null or r.payment_id = :ofPayment::uuid)
  and (:merchantId::uuid is null or r.merchant_id = :merchantId::uuid)
  and (:refundStatus::text is null or r.status = :refundStatus::text)
  and (:pendingMs::bigint is null or (r.status = 'pending' and r.created_at < now() - :pendingMs::bigint * interval '1 millisecond'))`;
type Listed = { ofPayment: string | null; refundStatus: string | null; pendingMs: number | null } & PaymentFilter;

const pageStatement = statement<Listed & { limit: number; offset: number }, Row & { total: number }>(
  'a page of refunds with the total',
  `select ${COLUMNS}, count(*) over () as total from ${FROM}
    where ${LISTED} and ${ATTEMPT_SCOPED}
    order by r.seq desc limit :limit::int offset :offset::int`,
);
const countStatement = statement<Listed, { n: number }>('count refunds', `select count(*) as n from ${FROM} where ${LISTED} and ${ATTEMPT_SCOPED}`);

/**
 * Refunds newest first (of one payment, or all within the scope; with `pendingLongerThanMs`, only
 * those still pending that long after they were asked for), beside the count of all that match.
 */
export async function listRefunds(
  db: DbOrTx,
  scope: PaymentScope,
  q: { paymentId?: string | null | undefined; status?: RefundStatus | null | undefined; pendingLongerThanMs?: number | null | undefined; limit: number; offset: number },
): Promise<{ refunds: StoredRefund[]; total: number }> {
  const args = { ofPayment: q.paymentId ?? null, refundStatus: q.status ?? null, pendingMs: q.pendingLongerThanMs ?? null, ...paymentFilter(scope) };
  const rows = await pageStatement.run(db, { ...args, limit: q.limit, offset: q.offset });
  // Past the last page the window is empty; count apart then.
  const total = rows.length > 0 ? Number(rows[0]!.total) : q.offset > 0 ? Number((await countStatement.run(db, args))[0]?.n ?? 0) : 0;
  return { refunds: rows.map(toRefund), total };
}

/** A keyset page over the creation sequence: older than `after`, newer than `before`. */
const KEYSET = `(:after::bigint is null or r.seq < :after::bigint) and (:before::bigint is null or r.seq > :before::bigint)`;
/**
 * Within a payment scope, on the refund's own columns (a refund carries its payment's merchant,
 * the payment and the attempt's provider): no join decides what is listed, so a merchant's page
 * is a walk of refunds_merchant_idx (merchant_id, seq) that stops after `limit` rows, and its
 * count an index-only scan of the merchant's part.
 */
const REFUND_SCOPED = `(:merchantId::uuid is null or r.merchant_id = :merchantId::uuid)
  and (:paymentId::uuid is null or r.payment_id = :paymentId::uuid)
  and (:provider::text is null or r.provider = :provider::text)
  and (:refundStatus::text is null or r.status = :refundStatus::text)`;
type Keyset = { refundStatus: string | null; after: number | null; before: number | null; limit: number } & PaymentFilter;
const keysetWithTotal = (order: 'desc' | 'asc') =>
  statement<Keyset, Partial<Row & { seq: number }> & { total: number; id: string | null }>(
    `a keyset page of refunds, ${order === 'desc' ? 'newest' : 'oldest'} first, with the total`,
    `select t.total, page.*
       from (select count(*) as total from refunds r where ${REFUND_SCOPED}) t
       left join lateral (
         select ${COLUMNS}, r.seq
           from (select * from refunds r where ${REFUND_SCOPED} and ${KEYSET} order by r.seq ${order} limit :limit::int) r
           join payment_attempts a on a.id = r.attempt_id
          order by r.seq ${order}
       ) page on true`,
  );
const newestFirstWithTotal = keysetWithTotal('desc');
const oldestFirstWithTotal = keysetWithTotal('asc');

/**
 * A keyset page of refunds (a GraphQL connection: the merchant's every refund), newest first
 * unless `inverted`, each with its position, beside the count of all that match: one statement,
 * one snapshot. A merchant's walks refunds_merchant_idx (merchant_id, seq) backwards.
 */
export async function pageRefunds(
  db: DbOrTx,
  scope: PaymentScope,
  q: { status?: RefundStatus | null | undefined; after: number | null; before: number | null; limit: number; inverted: boolean },
): Promise<{ page: { node: StoredRefund; seq: number }[]; total: number }> {
  const rows = await (q.inverted ? oldestFirstWithTotal : newestFirstWithTotal).run(db, {
    refundStatus: q.status ?? null,
    after: q.after,
    before: q.before,
    limit: q.limit,
    ...paymentFilter(scope),
  });
  const page = rows.filter((r) => r.id != null).map((r) => ({ node: toRefund(r as Row), seq: Number(r.seq) }));
  return { page, total: Number(rows[0]?.total ?? 0) };
}

const ofPayments = statement<{ ids: string[] } & PaymentFilter, Row>(
  'the refunds of payments',
  `select ${COLUMNS} from ${FROM} where r.payment_id = any(:ids::uuid[]) and ${ATTEMPT_SCOPED} order by r.seq desc`,
);

/** Each payment's refunds, newest first, in the order of `paymentIds` (one statement: a DataLoader batch). */
export async function refundsOfPayments(db: DbOrTx, scope: PaymentScope, paymentIds: readonly string[]): Promise<StoredRefund[][]> {
  if (paymentIds.length === 0) return [];
  const rows = (await ofPayments.run(db, { ids: [...paymentIds], ...paymentFilter(scope) })).map(toRefund);
  return paymentIds.map((id) => rows.filter((r) => r.paymentId === id));
}

const refundableStatement = statement<
  { paymentId: string },
  { refundable: number; attempt_id: string | null; provider: string | null; provider_ref: string | null }
>(
  'what is still refundable of a payment, and the attempt that took it',
  `
  select p.amount_cents - coalesce((select sum(r.amount_cents) from refunds r
                                      where r.payment_id = p.id and r.status in ('pending', 'succeeded')), 0) as refundable,
         a.id as attempt_id, a.provider, a.provider_ref
    from payments p
    left join lateral (
      -- The attempt whose money the payment kept: succeeded, and not owed back.
      select a.id, a.provider, a.provider_ref from payment_attempts a
       where a.payment_id = p.id and a.status = 'succeeded' and a.refund_status is null
       order by a.seq desc limit 1
    ) a on true
   where p.id = :paymentId::uuid`,
);

/** Under the payment's lock: its amount less its pending and succeeded refunds, and the attempt that took the money. */
export async function refundable(tx: Tx, paymentId: string) {
  const [row] = await refundableStatement.run(tx, { paymentId });
  return row && { refundableCents: Number(row.refundable), attemptId: row.attempt_id, provider: row.provider, providerRef: row.provider_ref };
}

export interface NewRefund {
  id: string;
  merchantId: string;
  paymentId: string;
  attemptId: string;
  provider: string;
  amountCents: number;
  reason: string | null;
  merchantReference: string | null;
}

const insertStatement = statement<NewRefund, { id: string }>(
  'create a refund and queue its request to the provider',
  `
  with created as (
    insert into refunds (id, merchant_id, payment_id, attempt_id, provider, status, amount_cents, reason, merchant_reference, provider_key)
    values (:id::uuid, :merchantId::uuid, :paymentId::uuid, :attemptId::uuid, :provider::text, 'pending', :amountCents::bigint,
            :reason::text, :merchantReference::text, :id::text)
    returning id, merchant_id
  ),
  job as (
    insert into jobs (queue, key, merchant_id, payload)
    select '${QUEUE.refund}', id::text, merchant_id, jsonb_build_object('refund', id) from created
    on conflict (queue, key) do nothing
  )
  select id from created`,
);

/** Writes a refund, `pending`, with the job that asks its provider (the refund id is the provider's first Idempotency-Key). */
export async function insertRefund(tx: Tx, r: NewRefund): Promise<void> {
  await insertStatement.run(tx, r);
}

const acceptedStatement = statement<{ id: string; ref: string }, { id: string }>(
  'a refund accepted by its provider',
  `update refunds set provider_refund_ref = :ref::text, updated_at = now()
    where id = :id::uuid and provider_refund_ref is null returning id`,
);

/** Records the provider's id for the refund (it accepted the request); false when it was known already. */
export async function recordAccepted(db: DbOrTx, id: string, providerRefundRef: string): Promise<boolean> {
  return (await acceptedStatement.run(db, { id, ref: providerRefundRef })).length > 0;
}

const rekeyStatement = statement<{ id: string; from: string; to: string }, { id: string }>(
  'a refund asked afresh under a new key',
  `update refunds set provider_key = :to::text, submitted_at = null, updated_at = now()
    where id = :id::uuid and provider_key = :from::text and status = 'pending' and provider_refund_ref is null returning id`,
);

const submittingStatement = statement<{ id: string }, { id: string }>(
  'a refund\'s request about to be sent for the first time',
  `update refunds set submitted_at = now(), updated_at = now()
    where id = :id::uuid and status = 'pending' and provider_refund_ref is null and submitted_at is null returning id`,
);

/** Records, before its first request goes out, that the refund is being sent (committed on its own). */
export async function markSubmitting(db: DbOrTx, id: string): Promise<void> {
  await submittingStatement.run(db, { id });
}

const takenStatement = statement<{ paymentId: string; id: string }, { ref: string }>(
  'the provider ids of a payment\'s other refunds',
  `select provider_refund_ref as ref from refunds where payment_id = :paymentId::uuid and id <> :id::uuid and provider_refund_ref is not null`,
);

/** The provider's ids of the payment's refunds other than `id`: none of them can be `id`'s. */
export async function otherRefundRefs(db: DbOrTx, paymentId: string, id: string): Promise<string[]> {
  return (await takenStatement.run(db, { paymentId, id })).map((r) => r.ref);
}

/** The provider proved the request under `from` created nothing: the next request goes under `to`. */
export async function rekey(db: DbOrTx, id: string, from: string, to: string): Promise<boolean> {
  return (await rekeyStatement.run(db, { id, from, to })).length > 0;
}

const finishStatement = statement<{ id: string; to: string; reason: string | null }, { id: string }>(
  'end a pending refund',
  `update refunds set status = :to::text, failure_reason = :reason::text, updated_at = now(), completed_at = now()
    where id = :id::uuid and status = 'pending' returning id`,
);

/** Ends a pending refund (under its lock); false when it had already ended. */
export async function finishRefund(tx: Tx, id: string, to: 'succeeded' | 'failed', reason: string | null): Promise<boolean> {
  return (await finishStatement.run(tx, { id, to, reason: reason === null ? null : reason.slice(0, 500) })).length > 0;
}

// ---- Idempotency-Keys naming a refund (the table and its claim are the payments' own: db/payments.ts).

const usedKeyStatement = statement<{ merchantId: string; key: string }, { request_hash: string; refund_id: string | null }>(
  'an Idempotency-Key in use, with its refund',
  `select request_hash, refund_id from idempotency_keys where merchant_id = :merchantId::uuid and key = :key::text`,
);

export async function usedRefundKey(tx: Tx, merchantId: string, key: string) {
  const [row] = await usedKeyStatement.run(tx, { merchantId, key });
  return row;
}

const bindKeyStatement = statement<{ merchantId: string; key: string; refundId: string }, never>(
  'bind an Idempotency-Key to its refund',
  `update idempotency_keys set refund_id = :refundId::uuid where merchant_id = :merchantId::uuid and key = :key::text`,
);

export async function bindRefundKey(tx: Tx, merchantId: string, key: string, refundId: string): Promise<void> {
  await bindKeyStatement.run(tx, { merchantId, key, refundId });
}
