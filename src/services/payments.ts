import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { compiledQuery } from '../db/compiled.ts';
import type { DbOrTx, Tx } from '../db/index.ts';
import type { PaymentAttemptRow, PaymentRow } from '../db/types.ts';
import { payloadHash } from '../domain/canonical.ts';
import { AppError } from '../domain/errors.ts';
import { paymentFee } from '../domain/money.ts';
import { type AttemptStatus, type Payment, type PaymentInitiation, type PaymentStatus, paymentNotFound } from '../domain/payment.ts';
import type { Merchant } from '../domain/payout.ts';
import { idempotencyKeySchema, type InitPaymentInput, parseInitPayment } from '../domain/payment-input.ts';
import { deriveKey } from '../domain/signing.ts';
import { parseInput } from '../domain/validation.ts';
import type { ServiceDeps } from './deps.ts';
import { isUuid } from './merchants.ts';
import { PaymentFlow } from './payment-flow.ts';
import { PaymentLinks } from './payment-links.ts';
import type { PaymentProvider } from './providers/provider.ts';
import { SandboxProvider } from './providers/sandbox.ts';

/** Spec: an Idempotency-Key is kept 24 hours; after that the key may be used afresh. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;

/** The columns of a payment that services hand out (not the customer's contact or the hash). */
const PAYMENT_COLUMNS = [
  'id',
  'merchant_id',
  'merchant_order_id',
  'intent_type',
  'amount_cents',
  'currency',
  'fee_cents',
  'net_amount_cents',
  'status',
  'include_qr',
  'success_url',
  'cancel_url',
  'failure_url',
  'webhook_url',
  'created_at',
  'updated_at',
  'completed_at',
] as const;

type PaymentColumns = Pick<PaymentRow, (typeof PAYMENT_COLUMNS)[number]>;

export function toPayment(row: PaymentColumns, attempt?: Pick<PaymentAttemptRow, 'status' | 'provider' | 'provider_ref' | 'created_at'> | null): Payment {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    merchantOrderId: row.merchant_order_id,
    intentType: row.intent_type,
    amountCents: row.amount_cents,
    currency: row.currency,
    feeCents: row.fee_cents,
    netAmountCents: row.net_amount_cents,
    status: row.status as PaymentStatus,
    includeQr: row.include_qr,
    successUrl: row.success_url,
    cancelUrl: row.cancel_url,
    failureUrl: row.failure_url,
    webhookUrl: row.webhook_url,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    completedAt: row.completed_at,
    latestAttempt: attempt
      ? { status: attempt.status as AttemptStatus, provider: attempt.provider, providerRef: attempt.provider_ref, createdAt: attempt.created_at }
      : null,
  };
}

export interface PaymentFilter {
  /** Restricts to one merchant; absent only for the operator. */
  merchantId?: string;
  status?: PaymentStatus;
}

export interface PaymentPageArgs {
  before?: number;
  after?: number;
  limit: number;
  inverted?: boolean;
}

/** Payments: initiation with its idempotency rules, reads, signed links; transitions in `flow`. */
export class PaymentService {
  readonly providers: Map<string, PaymentProvider>;
  readonly flow: PaymentFlow;
  readonly links: PaymentLinks;
  private selfUrl: string | undefined;
  private warn: (message: string, err?: unknown) => void = () => {};
  private purgeTimer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: ServiceDeps) {
    const secret = deps.config.serviceSecret;
    this.links = new PaymentLinks(deps.config);
    const sandbox = new SandboxProvider({
      key: deriveKey(secret, 'sandbox-provider-callback'),
      delayMs: deps.config.sandboxConfirmDelayMs,
      // In prd the service only answers HTTPS, so the callback goes through the public address.
      callbackBase: () => (deps.config.serviceEnv === 'prd' ? deps.config.publicBaseUrl : this.selfUrl),
      onError: (message, err) => this.warn(message, err),
    });
    this.providers = new Map([[sandbox.name, sandbox]]);
    this.flow = new PaymentFlow(deps, this, sandbox);
  }

  /** Called once the HTTP server listens: where the sandbox provider sends its callbacks, and its log. */
  attach(listenUrl: string, warn?: (message: string, err?: unknown) => void) {
    if (warn) this.warn = warn;
    this.selfUrl = listenUrl.replace('//0.0.0.0', '//127.0.0.1').replace('//[::]', '//[::1]');
    this.purgeTimer ??= setInterval(() => void this.purgeExpiredKeys().catch(() => {}), PURGE_EVERY_MS).unref();
  }

  async stop() {
    clearInterval(this.purgeTimer);
    await Promise.all([...this.providers.values()].map((p) => p.stop()));
  }

  /**
   * `POST /api/v1/payments/init`. Everything happens in one transaction, and the database decides
   * every race: the Idempotency-Key's primary key makes concurrent first uses wait for the
   * winner and then replay its payment; `(merchant_id, merchant_order_id)` does the same for
   * order ids. Same key + same payload (equal JSON) → same data; other payload → 409 CONFLICT.
   * Same order id + same parameters → same data; other parameters → 409 DUPLICATE_ORDER_ID.
   */
  async init(merchantId: string, body: unknown, idempotencyKey?: string, knownRates?: FeeRates): Promise<PaymentInitiation> {
    const input = parseInitPayment(body, this.deps.config.serviceEnv === 'prd');
    const key = idempotencyKey === undefined ? undefined : parseInput(idempotencyKeySchema, idempotencyKey);
    const paramsHash = payloadHash(input);
    if (key === undefined) return this.initiation(await this.insertAlone(merchantId, input, paramsHash, knownRates));
    const requestHash = payloadHash(body);
    const payment = await this.deps.db.transaction().execute(async (tx) => {
      if (key !== undefined && !(await this.claimKey(tx, merchantId, key, requestHash))) {
        return this.replayKey(tx, merchantId, key, requestHash);
      }
      const p = await this.insertOrReplay(tx, merchantId, input, paramsHash);
      if (key !== undefined) {
        await tx.updateTable('idempotency_keys').set({ payment_id: p.id }).where('merchant_id', '=', merchantId).where('key', '=', key).execute();
      }
      return p;
    });
    return this.initiation(payment);
  }

  /**
   * Without an Idempotency-Key the payment is one statement: inserted only if the merchant's
   * rates are still the ones the fee was computed from (`knownRates`, the authenticated
   * merchant's) and its order id is new. When nothing was written, the order id decides (a
   * replay, or DUPLICATE_ORDER_ID); failing that the rates changed, and the fee is computed
   * again from the row.
   */
  private async insertAlone(merchantId: string, input: InitPaymentInput, paramsHash: string, knownRates?: FeeRates): Promise<Payment> {
    let rates = knownRates ?? (await this.ratesOf(this.deps.db, merchantId));
    for (let attempt = 0; ; attempt++) {
      const fee = feeFor(input, rates);
      const [row] = await insertPayment(this.deps.db, { ...paymentValues(merchantId, input, fee, paramsHash), rates });
      if (row) return toPayment(row, null);
      const replayed = await this.replayOrder(this.deps.db, merchantId, input, paramsHash);
      if (replayed) return replayed;
      if (attempt >= 2) throw new Error(`the payment fees of merchant ${merchantId} keep changing`);
      rates = await this.ratesOf(this.deps.db, merchantId);
    }
  }

  private async ratesOf(db: DbOrTx, merchantId: string): Promise<FeeRates> {
    const m = await db
      .selectFrom('merchants')
      .select(['payment_fee_bps', 'payment_fee_fixed_cents'])
      .where('id', '=', merchantId)
      .executeTakeFirst();
    if (!m) throw new AppError('NOT_FOUND', 'merchant not found');
    return { bps: m.payment_fee_bps, fixedCents: m.payment_fee_fixed_cents };
  }

  /**
   * The payment already made for this order id: the same parameters replay it, others are 409
   * DUPLICATE_ORDER_ID. Undefined when the order id is new.
   */
  private async replayOrder(db: DbOrTx, merchantId: string, input: InitPaymentInput, paramsHash: string): Promise<Payment | undefined> {
    const existing = await db
      .selectFrom('payments')
      .select(['id', 'params_hash'])
      .where('merchant_id', '=', merchantId)
      .where('merchant_order_id', '=', input.merchant_order_id)
      .executeTakeFirst();
    if (!existing) return undefined;
    if (existing.params_hash !== paramsHash) {
      throw new AppError('DUPLICATE_ORDER_ID', 'merchant_order_id was already used with different parameters');
    }
    return this.load(db, existing.id);
  }

  /** Takes the key for this request: true when it was new or had expired. */
  private async claimKey(tx: Tx, merchantId: string, key: string, requestHash: string): Promise<boolean> {
    const expires = sql<Date>`now() + ${`${IDEMPOTENCY_TTL_MS} milliseconds`}::interval`;
    const row = await tx
      .insertInto('idempotency_keys')
      .values({ merchant_id: merchantId, key, request_hash: requestHash, expires_at: expires })
      .onConflict((oc) =>
        oc
          .columns(['merchant_id', 'key'])
          .doUpdateSet({ request_hash: requestHash, payment_id: null, created_at: sql`now()`, expires_at: expires })
          .where('idempotency_keys.expires_at', '<=', sql<Date>`now()`),
      )
      .returning('key')
      .executeTakeFirst();
    return row !== undefined;
  }

  private async replayKey(tx: Tx, merchantId: string, key: string, requestHash: string): Promise<Payment> {
    const used = await tx
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'payment_id'])
      .where('merchant_id', '=', merchantId)
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    if (used.request_hash !== requestHash || used.payment_id === null) {
      throw new AppError('CONFLICT', 'Idempotency-Key was already used with a different payload');
    }
    return this.load(tx, used.payment_id);
  }

  private async insertOrReplay(tx: Tx, merchantId: string, input: InitPaymentInput, paramsHash: string): Promise<Payment> {
    const fee = feeFor(input, await this.ratesOf(tx, merchantId));
    const row = await tx
      .insertInto('payments')
      .values(paymentValues(merchantId, input, fee, paramsHash))
      // A concurrent insert of the same order id makes this wait for it, then do nothing.
      .onConflict((oc) => oc.columns(['merchant_id', 'merchant_order_id']).doNothing())
      .returning(PAYMENT_COLUMNS)
      .executeTakeFirst();
    if (row) return toPayment(row, null);
    const replayed = await this.replayOrder(tx, merchantId, input, paramsHash);
    if (!replayed) throw new Error(`payment order ${input.merchant_order_id} conflicted but cannot be found`);
    return replayed;
  }

  /** Forgets Idempotency-Keys past their 24 hours (expired ones are ignored anyway). */
  async purgeExpiredKeys(): Promise<number> {
    const result = await this.deps.db.deleteFrom('idempotency_keys').where('expires_at', '<=', sql<Date>`now()`).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The initiation `data`; a replay gives the same value, so the QR link's expiry is fixed too. */
  initiation(p: Payment): PaymentInitiation {
    const paymentUrl = this.links.paymentUrl(p.id);
    const out: PaymentInitiation = { payment_id: p.id, status: 'created', payment_url: paymentUrl };
    if (p.includeQr) out.qr_code = { content: paymentUrl, image_url: this.links.qrImageUrl(p) };
    return out;
  }

  /** One payment; unknown, malformed or another merchant's id is 404 PAYMENT_NOT_FOUND. */
  async get(id: string, merchantId?: string): Promise<Payment> {
    if (!isUuid(id)) throw paymentNotFound();
    const p = await this.load(this.deps.db, id.toLowerCase());
    if ((merchantId !== undefined && p.merchantId !== merchantId)) throw paymentNotFound();
    return p;
  }

  /** Keyset page (creation sequence), newest first unless `inverted`: for GraphQL connections. */
  async page(filter: PaymentFilter, args: PaymentPageArgs): Promise<{ payment: Payment; seq: number }[]> {
    let q = this.filtered(filter).select([...PAYMENT_COLUMNS, 'seq']);
    if (args.after !== undefined) q = q.where('seq', '<', args.after);
    if (args.before !== undefined) q = q.where('seq', '>', args.before);
    const rows = await q.orderBy('seq', args.inverted ? 'asc' : 'desc').limit(args.limit).execute();
    if (rows.length === 0) return [];
    const attempts = await this.deps.db
      .selectFrom('payment_attempts')
      .select(['payment_id', 'status', 'provider', 'provider_ref', 'created_at'])
      .distinctOn('payment_id')
      .where('payment_id', 'in', rows.map((r) => r.id))
      .orderBy('payment_id')
      .orderBy('seq', 'desc')
      .execute();
    const latest = new Map(attempts.map((a) => [a.payment_id, a]));
    return rows.map((r) => ({ payment: toPayment(r, latest.get(r.id) ?? null), seq: r.seq }));
  }

  async count(filter: PaymentFilter): Promise<number> {
    const row = await this.filtered(filter).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private filtered(filter: PaymentFilter) {
    let q = this.deps.db.selectFrom('payments');
    if (filter.merchantId !== undefined) q = q.where('merchant_id', '=', filter.merchantId);
    if (filter.status !== undefined) q = q.where('status', '=', filter.status);
    return q;
  }

  /** A payment with its latest attempt. */
  async load(db: DbOrTx, id: string): Promise<Payment> {
    const [row] = await paymentWithLatestAttempt(db, { id });
    if (!row) throw paymentNotFound();
    const attempt =
      row.attempt_status === null
        ? null
        : {
            status: row.attempt_status as PaymentAttemptRow['status'],
            provider: row.attempt_provider!,
            provider_ref: row.attempt_provider_ref as string | null,
            created_at: row.attempt_created_at!,
          };
    return toPayment(row, attempt);
  }
}

/** A merchant's payment fee rates, as the fee of a new payment is computed from them. */
export interface FeeRates {
  bps: number;
  fixedCents: number;
}

/** The rates of a merchant as its caller knows it (the authenticated principal's). */
export function feeRatesOf(merchant: Pick<Merchant, 'paymentFeeBps' | 'paymentFeeFixedCents'>): FeeRates {
  return { bps: merchant.paymentFeeBps, fixedCents: merchant.paymentFeeFixedCents };
}

/** The fee of a new payment at `rates`; refused when the amount does not cover it. */
function feeFor(input: InitPaymentInput, rates: FeeRates): number {
  const fee = paymentFee(input.amount, rates.bps, rates.fixedCents);
  if (fee > input.amount) throw new AppError('INVALID_AMOUNT', `amount: must cover the fee of ${fee} cents`);
  return fee;
}

/** The row of a new payment. */
function paymentValues(merchantId: string, input: InitPaymentInput, fee: number, paramsHash: string) {
  return {
    id: randomUUID(),
    merchant_id: merchantId,
    merchant_order_id: input.merchant_order_id,
    intent_type: input.intent_type,
    amount_cents: input.amount,
    currency: input.currency,
    fee_cents: fee,
    net_amount_cents: input.amount - fee,
    status: 'created' as const,
    include_qr: input.include_qr,
    success_url: input.success_url ?? null,
    cancel_url: input.cancel_url ?? null,
    failure_url: input.failure_url ?? null,
    webhook_url: input.webhook_url ?? null,
    customer_email: input.customer_info?.email ?? null,
    customer_phone: input.customer_info?.phone ?? null,
    params_hash: paramsHash,
  };
}

/**
 * A new payment without an Idempotency-Key, compiled once: written only if the merchant's fee
 * rates are still `rates` and the order id is new.
 */
const insertPayment = compiledQuery((db, a: ReturnType<typeof paymentValues> & { rates: FeeRates }) =>
  db
    .insertInto('payments')
    .columns([
      'id', 'merchant_id', 'merchant_order_id', 'intent_type', 'amount_cents', 'currency', 'fee_cents', 'net_amount_cents', 'status',
      'include_qr', 'success_url', 'cancel_url', 'failure_url', 'webhook_url', 'customer_email', 'customer_phone', 'params_hash',
    ])
    .expression(
      db
        .selectFrom('merchants')
        .select([
          sql<string>`${a.id}::uuid`.as('id'),
          'id as merchant_id',
          sql<string>`${a.merchant_order_id}::text`.as('merchant_order_id'),
          sql<string>`${a.intent_type}::text`.as('intent_type'),
          sql<number>`${a.amount_cents}::bigint`.as('amount_cents'),
          sql<string>`${a.currency}::text`.as('currency'),
          sql<number>`${a.fee_cents}::bigint`.as('fee_cents'),
          sql<number>`${a.net_amount_cents}::bigint`.as('net_amount_cents'),
          sql<string>`${a.status}::text`.as('status'),
          sql<boolean>`${a.include_qr}::boolean`.as('include_qr'),
          sql<string | null>`${a.success_url}::text`.as('success_url'),
          sql<string | null>`${a.cancel_url}::text`.as('cancel_url'),
          sql<string | null>`${a.failure_url}::text`.as('failure_url'),
          sql<string | null>`${a.webhook_url}::text`.as('webhook_url'),
          sql<string | null>`${a.customer_email}::text`.as('customer_email'),
          sql<string | null>`${a.customer_phone}::text`.as('customer_phone'),
          sql<string>`${a.params_hash}::text`.as('params_hash'),
        ])
        .where('id', '=', a.merchant_id)
        .where('payment_fee_bps', '=', a.rates.bps)
        .where('payment_fee_fixed_cents', '=', a.rates.fixedCents),
    )
    // A concurrent insert of the same order id makes this wait for it, then do nothing.
    .onConflict((oc) => oc.columns(['merchant_id', 'merchant_order_id']).doNothing())
    .returning(PAYMENT_COLUMNS),
);

/** A payment and its latest attempt (if any) in one statement, compiled once. */
const paymentWithLatestAttempt = compiledQuery((db, a: { id: string }) =>
  db
    .selectFrom('payments as p')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('payment_attempts')
          .select(['status', 'provider', 'provider_ref', 'created_at'])
          .whereRef('payment_id', '=', 'p.id')
          .orderBy('seq', 'desc')
          .limit(1)
          .as('a'),
      (join) => join.onTrue(),
    )
    .select(PAYMENT_COLUMNS.map((c) => `p.${c}` as const))
    .select(['a.status as attempt_status', 'a.provider as attempt_provider', 'a.provider_ref as attempt_provider_ref', 'a.created_at as attempt_created_at'])
    .where('p.id', '=', a.id),
);
