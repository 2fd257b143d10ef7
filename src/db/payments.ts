import { type MerchantScope, merchantFilter, type OneMerchantScope, type PaymentScope } from '../domain/actor.ts';
import type { PaymentSearch } from '../domain/payment-search.ts';
import type { PaymentLimits } from '../domain/merchant.ts';
import { type AttemptStatus, netAmountIn, type Payment, type PaymentOutcome, type PaymentStatus } from '../domain/payment.ts';
import type { DbOrTx, Tx } from './index.ts';
import { type KeysetPage, listing } from './listing.ts';
import { PAYMENT_SCOPED, type PaymentFilter, paymentFilter } from './scope.ts';
import { statement } from './statement.ts';
import type { PaymentRow } from './types.ts';

/**
 * Every statement about payments and their vouchers and Idempotency-Keys. Reads and locks take
 * the caller's scope (never optional): a `MerchantScope`, or for one payment a `PaymentScope`,
 * which is also what a customer or a provider reaches.
 */

/** The columns of a payment services hand out (never the customer's contact or the hashes). */
const COLUMNS = `p.id, p.merchant_id, p.merchant_order_id, p.description, p.intent_type, p.amount_cents, p.currency, p.fee_cents,
  p.net_amount_cents, p.status, p.include_qr, p.success_url, p.cancel_url, p.failure_url, p.webhook_url,
  p.failure_reason, p.payment_link_id, p.created_at, p.updated_at, p.completed_at,
  (select coalesce(sum(r.amount_cents), 0) from refunds r where r.payment_id = p.id and r.status = 'succeeded')::bigint as refunded_cents`;

/** The voucher of `p`, still sealed (the service opens it), and whether it was redeemed. */
const VOUCHER = `left join vouchers v on v.payment_id = p.id`;
const VOUCHER_COLUMNS = `v.code_sealed as voucher_sealed, (v.redeemed_at is not null) as voucher_redeemed`;

/** The latest attempt of `p`, as columns `attempt_*` (null before any attempt). */
const LATEST_ATTEMPT = `
  left join lateral (
    select a.status as attempt_status, a.provider as attempt_provider, a.provider_ref as attempt_provider_ref,
           a.created_at as attempt_created_at
      from payment_attempts a where a.payment_id = p.id order by a.seq desc limit 1
  ) latest on true`;

type Row = Pick<
  PaymentRow,
  | 'id' | 'merchant_id' | 'merchant_order_id' | 'description' | 'intent_type' | 'amount_cents' | 'currency' | 'fee_cents' | 'net_amount_cents'
  | 'status' | 'include_qr' | 'success_url' | 'cancel_url' | 'failure_url' | 'webhook_url' | 'failure_reason' | 'created_at' | 'updated_at'
  | 'completed_at' | 'payment_link_id'
> & {
  refunded_cents: number;
  attempt_status: string | null;
  attempt_provider: string | null;
  attempt_provider_ref: string | null;
  attempt_created_at: Date | null;
  voucher_sealed: Buffer | null;
  voucher_redeemed: boolean | null;
};

/** A payment as stored: its voucher code still sealed. Services open it (PaymentService.reveal). */
export type StoredPayment = Omit<Payment, 'voucherCode'> & { voucherSealed: Buffer | null };

export function toPayment(row: Row): StoredPayment {
  const status = row.status as PaymentStatus;
  return {
    id: row.id,
    merchantId: row.merchant_id,
    merchantOrderId: row.merchant_order_id,
    description: row.description,
    intentType: row.intent_type,
    amountCents: row.amount_cents,
    currency: 'ZAR',
    feeCents: row.fee_cents,
    netAmountCents: netAmountIn(status, row.net_amount_cents),
    status,
    failureReason: row.failure_reason,
    includeQr: row.include_qr,
    successUrl: row.success_url,
    cancelUrl: row.cancel_url,
    failureUrl: row.failure_url,
    webhookUrl: row.webhook_url,
    paymentLinkId: row.payment_link_id ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    completedAt: row.completed_at,
    refundedCents: Number(row.refunded_cents ?? 0),
    latestAttempt:
      row.attempt_status === null
        ? null
        : {
            status: row.attempt_status as AttemptStatus,
            provider: row.attempt_provider!,
            providerRef: row.attempt_provider_ref,
            createdAt: row.attempt_created_at!,
          },
    voucherSealed: row.voucher_sealed,
    voucherRedeemed: row.voucher_redeemed === true,
  };
}

const SCOPED = `(:merchantId::uuid is null or p.merchant_id = :merchantId::uuid)`;

const byId = statement<{ id: string } & PaymentFilter, Row>(
  'a payment by id, with its latest attempt',
  `select ${COLUMNS}, ${VOUCHER_COLUMNS}, latest.* from payments p ${VOUCHER} ${LATEST_ATTEMPT} where p.id = :id::uuid and ${PAYMENT_SCOPED}`,
);

/** One payment with its latest attempt, undefined when missing or outside the scope. */
export async function findPayment(db: DbOrTx, scope: PaymentScope, id: string): Promise<StoredPayment | undefined> {
  const [row] = await byId.run(db, { id, ...paymentFilter(scope) });
  return row && toPayment(row);
}

const byIds = statement<{ ids: string[]; merchantId: string | null }, Row>(
  'payments by id, with their latest attempts',
  `select ${COLUMNS}, ${VOUCHER_COLUMNS}, latest.* from payments p ${VOUCHER} ${LATEST_ATTEMPT} where p.id = any(:ids::uuid[]) and ${SCOPED}`,
);

/** Payments by id in the order of `ids`, null where missing or outside the scope (one statement). */
export async function findPayments(db: DbOrTx, scope: MerchantScope, ids: readonly string[]): Promise<(StoredPayment | null)[]> {
  if (ids.length === 0) return [];
  // A batch of one (GraphQL's `payment(id)`) is REST's read by `= id`: `= any(array)` has one
  // generic plan for every batch size, guessed at ten rows, and PostgreSQL chose a scan of every
  // payment for it; `= id` is an index lookup whatever plan is cached.
  const rows = ids.length === 1 ? await byId.run(db, { id: ids[0]!, ...paymentFilter(scope) }) : await byIds.run(db, { ids: [...ids], merchantId: merchantFilter(scope) });
  const found = new Map(rows.map((r) => [r.id, toPayment(r)]));
  return ids.map((id) => found.get(id) ?? null);
}

const FILTERS = `(:orderId::text is null or p.merchant_order_id = :orderId::text)
      and (:createdFrom::timestamptz is null or p.created_at >= :createdFrom::timestamptz)
      and (:createdBefore::timestamptz is null or p.created_at < :createdBefore::timestamptz)`;
const FILTER_PARAMETERS = ['orderId', 'createdFrom', 'createdBefore'];

const listings = listing<Row>({
  what: 'payments',
  table: 'payments p',
  joins: `${VOUCHER} ${LATEST_ATTEMPT}`,
  columns: `${COLUMNS}, ${VOUCHER_COLUMNS}, latest.*`,
  filters: { where: FILTERS, parameters: FILTER_PARAMETERS },
});

/**
 * The same listings narrowed by a search within one merchant (domain/payment-search.ts):
 * statements of their own whose three readings each name the merchant and an indexed condition
 * (payments_merchant_order_prefix_idx, payments_merchant_amount_idx, payments_merchant_email_idx),
 * so that even the generic plan of a prepared statement is a BitmapOr of three index scans, never
 * a walk through every payment (docs/payment-search.md shows the plans). The order reference's
 * prefix is a byte-order range [text, text + U+10FFFF): no LIKE pattern, so nothing in the text is
 * a wildcard. A missing reading is null and matches nothing.
 */
const searchings = listing<Row>({
  what: 'payments found by a search',
  table: 'payments p',
  joins: `${VOUCHER} ${LATEST_ATTEMPT}`,
  columns: `${COLUMNS}, ${VOUCHER_COLUMNS}, latest.*`,
  filters: {
    where: `${FILTERS}
      and ((p.merchant_id = :merchantId::uuid and p.merchant_order_id ~>=~ :orderFrom::text and p.merchant_order_id ~<~ :orderTo::text)
        or (p.merchant_id = :merchantId::uuid and p.amount_cents = :amountCents::bigint)
        or (p.merchant_id = :merchantId::uuid and lower(p.customer_email) = :email::text))`,
    parameters: [...FILTER_PARAMETERS, 'orderFrom', 'orderTo', 'amountCents', 'email'],
  },
});

/** A payments listing's filters beyond status: one order id, a creation window [createdFrom, createdBefore), a search. */
export interface PaymentListFilter {
  merchantOrderId?: string | undefined;
  createdFrom?: Date | undefined;
  createdBefore?: Date | undefined;
  search?: PaymentSearch | undefined;
}

/** Offset listing, newest first, beside the count of all that match: one statement. */
export async function listPayments(
  db: DbOrTx,
  scope: MerchantScope,
  q: { status?: PaymentStatus | undefined; limit: number; offset: number } & PaymentListFilter,
): Promise<{ payments: StoredPayment[]; total: number }> {
  const { rows, total } = await listingOf(q).page(db, scope, q, extraOf(q));
  return { payments: rows.map(toPayment), total };
}

const listingOf = (f: PaymentListFilter = {}) => (f.search ? searchings : listings);

const extraOf = (f: PaymentListFilter = {}) => ({
  orderId: f.merchantOrderId,
  createdFrom: f.createdFrom,
  createdBefore: f.createdBefore,
  ...(f.search && { orderFrom: f.search.orderPrefix, orderTo: `${f.search.orderPrefix}\u{10FFFF}`, amountCents: f.search.amountCents, email: f.search.email }),
});

export async function pagePayments(db: DbOrTx, scope: MerchantScope, status: PaymentStatus | undefined, page: KeysetPage, filter?: PaymentListFilter) {
  return (await listingOf(filter).keyset(db, scope, status, page, extraOf(filter))).map((r) => ({ node: toPayment(r), seq: r.seq }));
}

export const countPayments = (db: DbOrTx, scope: MerchantScope, status: PaymentStatus | undefined, filter?: PaymentListFilter) =>
  listingOf(filter).count(db, scope, status, extraOf(filter));

/**
 * The payment fee of CONTRACT §4 (domain/money.ts `paymentFee`), in SQL over the merchant's row
 * `m` as the statement reads it: round half up of amount × bps / 10000, plus the fixed fee.
 */
export const PAYMENT_FEE_SQL = `((:amountCents::bigint * m.payment_fee_bps + 5000) / 10000 + m.payment_fee_fixed_cents)`;

export interface NewPayment {
  id: string;
  merchantId: string;
  merchantOrderId: string;
  intentType: string;
  amountCents: number;
  includeQr: boolean;
  successUrl: string | null;
  cancelUrl: string | null;
  failureUrl: string | null;
  webhookUrl: string | null;
  customerEmail: string | null;
  customerPhone: string | null;
  description: string | null;
  paramsHash: string;
  /** The payment link it is made through; null otherwise. */
  paymentLinkId?: string | null;
}

const insertStatement = statement<NewPayment, Partial<Row> & { fee: number; min_cents: number; max_cents: number }>(
  'initiate a payment',
  `
  with merchant as (
    select m.id, ${PAYMENT_FEE_SQL} as fee, m.payment_min_cents as min_cents, m.payment_max_cents as max_cents
      from merchants m where m.id = :merchantId::uuid
  ),
  inserted as (
    -- The fee is the merchant's rates as this statement reads them, fixed from now on. An amount
    -- outside the merchant's payment limits, or one that does not cover the fee, is refused
    -- (nothing is written); a concurrent insert of the same order id makes this one wait for it,
    -- then write nothing.
    insert into payments (id, merchant_id, merchant_order_id, intent_type, amount_cents, currency, fee_cents,
                          net_amount_cents, status, include_qr, success_url, cancel_url, failure_url, webhook_url,
                          customer_email, customer_phone, description, params_hash, payment_link_id)
    select :id::uuid, m.id, :merchantOrderId::text, :intentType::text, :amountCents::bigint, 'ZAR', m.fee,
           :amountCents::bigint - m.fee, 'created', :includeQr::boolean, :successUrl::text, :cancelUrl::text,
           :failureUrl::text, :webhookUrl::text, :customerEmail::text, :customerPhone::text, :description::text,
           :paramsHash::text, :paymentLinkId::uuid
      from merchant m
     where m.fee <= :amountCents::bigint and :amountCents::bigint between m.min_cents and m.max_cents
    on conflict (merchant_id, merchant_order_id) do nothing
    returning *
  )
  select ${COLUMNS}, null as attempt_status, null as attempt_provider, null as attempt_provider_ref,
         null as attempt_created_at, null::bytea as voucher_sealed, false as voucher_redeemed, m.fee, m.min_cents, m.max_cents
    from merchant m left join inserted p on true`,
);

const byOrderId = statement<{ merchantId: string; merchantOrderId: string }, Row & { params_hash: string }>(
  'a merchant\'s payment by merchant_order_id',
  `select ${COLUMNS}, ${VOUCHER_COLUMNS}, latest.*, p.params_hash from payments p ${VOUCHER} ${LATEST_ATTEMPT}
    where p.merchant_id = :merchantId::uuid and p.merchant_order_id = :merchantOrderId::text`,
);

/**
 * Inserts a new payment, or finds the one this order id already made: `created` (new), `existing`
 * (the order id's payment, with the hash of its parameters), `outsideLimits` with the merchant's
 * payment limits the amount is outside of (CONTRACT §11: the one place they are checked, against
 * the merchant's row as this statement reads it), or `feeNotCovered` with the fee the amount did
 * not cover. Undefined when the merchant does not exist.
 */
export async function insertPayment(
  db: DbOrTx,
  values: NewPayment,
): Promise<
  | { created: StoredPayment }
  | { existing: StoredPayment; paramsHash: string }
  | { outsideLimits: PaymentLimits }
  | { feeNotCovered: number }
  | undefined
> {
  const [row] = await insertStatement.run(db, { ...values, paymentLinkId: values.paymentLinkId ?? null });
  if (!row) return undefined;
  if (row.id != null) return { created: toPayment(row as Row) };
  const limits = { minCents: Number(row.min_cents), maxCents: Number(row.max_cents) };
  if (values.amountCents < limits.minCents || values.amountCents > limits.maxCents) return { outsideLimits: limits };
  if (row.fee > values.amountCents) return { feeNotCovered: row.fee };
  // Not written because the order id is taken: read it afresh (a new snapshot sees a concurrent
  // insert that committed while this one waited).
  const [existing] = await byOrderId.run(db, { merchantId: values.merchantId, merchantOrderId: values.merchantOrderId });
  if (!existing) throw new Error(`payment order ${values.merchantOrderId} conflicted but cannot be found`);
  return { existing: toPayment(existing), paramsHash: existing.params_hash };
}

const claimKeyStatement = statement<{ merchantId: string; key: string; requestHash: string; ttlMs: number }, { claimed: boolean }>(
  'claim an Idempotency-Key',
  `
  insert into idempotency_keys (merchant_id, key, request_hash, expires_at)
  values (:merchantId::uuid, :key::text, :requestHash::text, now() + :ttlMs::bigint * interval '1 millisecond')
  on conflict (merchant_id, key) do update
     set request_hash = excluded.request_hash, payment_id = null, refund_id = null, created_at = now(), expires_at = excluded.expires_at
   where idempotency_keys.expires_at <= now()
  returning true as claimed`,
);

/**
 * Takes the key for this request: true when it was new or had expired. A concurrent first use of
 * the same key waits here for the other transaction, then sees the key as used.
 */
export async function claimIdempotencyKey(tx: Tx, merchantId: string, key: string, requestHash: string, ttlMs: number): Promise<boolean> {
  const [row] = await claimKeyStatement.run(tx, { merchantId, key, requestHash, ttlMs });
  return row?.claimed === true;
}

const usedKeyStatement = statement<{ merchantId: string; key: string }, { request_hash: string; payment_id: string | null }>(
  'an Idempotency-Key in use',
  `select request_hash, payment_id from idempotency_keys where merchant_id = :merchantId::uuid and key = :key::text`,
);

/** The merchant's Idempotency-Key as used: the hash of its request, and its payment once bound. */
export async function usedIdempotencyKey(tx: Tx, scope: OneMerchantScope, key: string) {
  const [row] = await usedKeyStatement.run(tx, { merchantId: scope.merchantId, key });
  return row;
}

const bindKeyStatement = statement<{ merchantId: string; key: string; paymentId: string }, never>(
  'bind an Idempotency-Key to its payment',
  `update idempotency_keys set payment_id = :paymentId::uuid where merchant_id = :merchantId::uuid and key = :key::text`,
);

export async function bindIdempotencyKey(tx: Tx, merchantId: string, key: string, paymentId: string): Promise<void> {
  await bindKeyStatement.run(tx, { merchantId, key, paymentId });
}

/** Forgets Idempotency-Keys past their time (expired ones are ignored anyway). */
export async function purgeExpiredKeys(db: DbOrTx): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', new Date()).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---- The payment state machine's writes (services/payment-flow.ts decides when; attempts in attempts.ts).

const moveStatement = statement<{ id: string; from: string[]; to: string }, { id: string }>(
  'move an open payment',
  `update payments set status = :to::text, updated_at = now() where id = :id::uuid and status = any(:from::text[]) returning id`,
);

/** Moves a payment between open states; false when it was not in `from`. */
export async function movePayment(tx: DbOrTx, id: string, from: readonly PaymentStatus[], to: PaymentStatus): Promise<boolean> {
  return (await moveStatement.run(tx, { id, from: [...from], to })).length > 0;
}

const finishStatement = statement<
  { id: string; from: string[]; to: string; failureReason: string | null },
  {
    merchant_id: string;
    intent_type: string;
    amount_cents: number;
    fee_cents: number;
    webhook_url: string | null;
    customer_email: string | null;
    customer_phone: string | null;
    auto_topup: boolean;
  }
>(
  'finish a payment',
  `
  update payments p
     set status = :to::text, updated_at = now(), completed_at = now(), failure_reason = :failureReason::text
    from merchants m
   where p.id = :id::uuid and p.status = any(:from::text[]) and m.id = p.merchant_id
  returning p.merchant_id, p.intent_type, p.amount_cents, p.fee_cents, p.webhook_url, p.customer_email, p.customer_phone, m.auto_topup`,
);

/** The one way into a terminal state; undefined when the payment was not in `from` any more. */
export async function finishPayment(tx: Tx, id: string, from: readonly PaymentStatus[], to: PaymentOutcome, failureReason: string | null = null) {
  const [row] = await finishStatement.run(tx, { id, from: [...from], to, failureReason });
  return row;
}

const pastTheirTime = statement<{ merchantId: string | null; afterMs: number; limit: number; except: string[] }, { id: string }>(
  'open payments past their time',
  `select p.id from payments p
    where p.status in ('created', 'initiated', 'awaiting_webhook')
      and p.created_at < now() - :afterMs::bigint * interval '1 millisecond'
      and (:merchantId::uuid is null or p.merchant_id = :merchantId::uuid)
      and p.id <> all (:except::uuid[])
    order by p.created_at
    limit :limit::int`,
);

/**
 * Payments within the scope still open `afterMs` after their creation, oldest first, at most
 * `limit`, leaving out `except` (the partial index `payments_open_created_idx` holds only open payments).
 */
export async function openPaymentsOlderThan(db: DbOrTx, scope: MerchantScope, afterMs: number, limit: number, except: readonly string[] = []): Promise<string[]> {
  return (await pastTheirTime.run(db, { merchantId: merchantFilter(scope), afterMs, limit, except: [...except] })).map((r) => r.id);
}

const lockStatement = statement<{ id: string } & PaymentFilter, { id: string; status: string; merchant_id: string; amount_cents: number; payment_link_id: string | null }>(
  'lock a payment',
  `select p.id, p.status, p.merchant_id, p.amount_cents, p.payment_link_id from payments p where p.id = :id::uuid and ${PAYMENT_SCOPED} for update of p`,
);

/** Locks a payment for a change (inside the change's transaction); undefined when missing or outside the scope. */
export async function lockPayment(tx: Tx, scope: PaymentScope, id: string) {
  const [row] = await lockStatement.run(tx, { id, ...paymentFilter(scope) });
  return row && { id: row.id, status: row.status as PaymentStatus, merchantId: row.merchant_id, amountCents: row.amount_cents, paymentLinkId: row.payment_link_id };
}

const extrasStatement = statement<{ id: string } & PaymentFilter, { name: string; redirect_domains: string[]; support_contact: string | null; payment_methods: string[] | null }>(
  'the hosted page\'s merchant details of a payment',
  `select m.name, m.redirect_domains, coalesce(m.support_email, m.support_phone, m.support_contact) as support_contact, m.payment_methods
     from payments p join merchants m on m.id = p.merchant_id
    where p.id = :id::uuid and ${PAYMENT_SCOPED}`,
);

/**
 * What the hosted page shows beside a payment: its merchant's name, support contact (the e-mail or
 * phone the merchant set itself, else the operator's contact) and redirect allow-list; undefined when the payment is missing or outside the scope.
 */
export async function pageExtras(db: DbOrTx, scope: PaymentScope, paymentId: string) {
  const [row] = await extrasStatement.run(db, { id: paymentId, ...paymentFilter(scope) });
  return row && { merchantName: row.name, redirectDomains: row.redirect_domains, supportContact: row.support_contact, paymentMethods: row.payment_methods };
}

const customersStatement = statement<{ ids: string[]; merchantId: string | null }, { id: string; customer_email: string | null; customer_phone: string | null }>(
  "payments' customer details as given at initiation",
  `select p.id, p.customer_email, p.customer_phone from payments p where p.id = any(:ids::uuid[]) and ${SCOPED}`,
);

/** The customer details given at initiation (e-mail, phone), by payment id; missing or outside the scope: absent. */
export async function findCustomers(db: DbOrTx, scope: MerchantScope, ids: readonly string[]): Promise<Map<string, { email: string | null; phone: string | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await customersStatement.run(db, { ids: [...ids], merchantId: merchantFilter(scope) });
  return new Map(rows.map((r) => [r.id, { email: r.customer_email, phone: r.customer_phone }]));
}
