import { randomUUID } from 'node:crypto';
import { type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { compiledQuery } from '../db/compiled.ts';
import type { DbOrTx, Tx } from '../db/index.ts';
import type { Database, PayoutRow } from '../db/types.ts';
import { payloadHash } from '../domain/canonical.ts';
import { AppError } from '../domain/errors.ts';
import type { Payout } from '../domain/payout.ts';
import {
  PAYOUT_EVENT_FOR,
  type PayoutAction,
  type PayoutStatus,
  planPayoutMove,
} from '../domain/payout-state.ts';
import { type CreatePayoutInput, listPayoutsSchema, parseCreatePayout, parseInput, reasonSchema } from '../domain/validation.ts';
import { payoutJson } from '../domain/wire.ts';
import type { ServiceDeps } from './deps.ts';
import * as ledger from './ledger.ts';
import { isUuid } from './merchants.ts';
import { type EventType, type EventValues, eventValues, recordEvent, transactionWithEvents, withRecordedEvent } from './outbox.ts';

/** The columns a payout's public shape is made of (not its bank details or request hash). */
const PAYOUT_COLUMNS = [
  'id',
  'merchant_id',
  'amount_cents',
  'fee_cents',
  'gross_amount_cents',
  'currency',
  'status',
  'payout_method',
  'merchant_reference',
  'description',
  'metadata',
  'external_transfer_id',
  'failure_reason',
  'rejection_reason',
  'created_at',
  'updated_at',
  'completed_at',
] as const;

export function toPayout(row: Pick<PayoutRow, (typeof PAYOUT_COLUMNS)[number]>): Payout {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    amountCents: row.amount_cents,
    feeCents: row.fee_cents,
    grossAmountCents: row.gross_amount_cents,
    currency: row.currency,
    status: row.status as PayoutStatus,
    payoutMethod: row.payout_method as 'eft',
    merchantReference: row.merchant_reference,
    description: row.description,
    metadata: row.metadata,
    externalTransferId: row.external_transfer_id,
    failureReason: row.failure_reason,
    rejectionReason: row.rejection_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    completedAt: row.completed_at,
  };
}

const notFound = () => new AppError('PAYOUT_NOT_FOUND', 'payout not found');

/** A page of payouts with the keyset position (creation sequence) of each. */
export interface PayoutPageItem {
  payout: Payout;
  seq: number;
}

export interface PageArgs {
  /** Only payouts created before this sequence number. */
  before?: number;
  /** Only payouts created after this sequence number. */
  after?: number;
  limit: number;
  /** Oldest first instead of newest first. */
  inverted?: boolean;
}

export interface PayoutFilter {
  /** Restricts to one merchant; absent only for the operator. */
  merchantId?: string;
  status?: PayoutStatus;
}

export type CreatePayoutResult = { payout: Payout; created: boolean };

/** Payout use cases: creation with its reservation, reads, and the operator's moves. */
export class PayoutService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * Creates a pending payout and reserves its gross amount, in one statement with its
   * `payout.created` event. With a `merchant_reference` already used: the same parameters return
   * the existing payout (`created: false`), other parameters are 409 CONFLICT.
   *
   * `knownFeeCents` is the merchant's payout fee as the caller knows it (the authenticated
   * principal's). The statement only goes through if the merchant's row still says so; if not,
   * the fee is read afresh and the statement runs again. Without it, it is read first.
   */
  async create(merchantId: string, body: unknown, knownFeeCents?: number): Promise<CreatePayoutResult> {
    const input = parseCreatePayout(body);
    const requestHash = payloadHash(input);
    if (input.merchant_reference !== undefined) {
      const existing = await this.findByReference(this.deps.db, merchantId, input.merchant_reference);
      if (existing) return this.replay(existing, requestHash);
    }
    let fee = knownFeeCents ?? (await this.currentFee(merchantId));
    for (let attempt = 0; ; attempt++) {
      try {
        const outcome = await this.insertAndReserve(merchantId, input, requestHash, fee);
        if (outcome.payout) {
          this.deps.eventsCommitted?.();
          return { payout: outcome.payout, created: true };
        }
        if (outcome.feeNow === fee || attempt >= 2) throw await ledger.insufficient(this.deps.db, merchantId, input.amount_cents + fee);
        fee = outcome.feeNow;
      } catch (e) {
        // Two requests with one new reference raced: the loser's insert hit the unique constraint
        // after the winner committed, and its reservation rolled back with it.
        if (input.merchant_reference !== undefined && isUniqueViolation(e)) {
          const existing = await this.findByReference(this.deps.db, merchantId, input.merchant_reference);
          if (existing) return this.replay(existing, requestHash);
        }
        throw e;
      }
    }
  }

  private async currentFee(merchantId: string): Promise<number> {
    const row = await this.deps.db.selectFrom('merchants').select('payout_fee_cents').where('id', '=', merchantId).executeTakeFirstOrThrow();
    return row.payout_fee_cents;
  }

  /**
   * The reservation (a ledger posting), the payout and its event, as one statement: one round
   * trip and one commit. Nothing is written unless the merchant's fee is still `fee` and the
   * available amount covers the gross amount; then `feeNow` tells which of the two failed.
   */
  private async insertAndReserve(merchantId: string, input: CreatePayoutInput, requestHash: string, fee: number) {
    const gross = input.amount_cents + fee;
    if (!Number.isSafeInteger(gross)) throw new AppError('VALIDATION_FAILED', 'amount_cents: too large');
    const id = randomUUID();
    // The payout's times come from here, so that the event can carry the payout as stored.
    const now = new Date();
    const payout: Payout = {
      id,
      merchantId,
      amountCents: input.amount_cents,
      feeCents: fee,
      grossAmountCents: gross,
      currency: input.currency,
      status: 'pending',
      payoutMethod: input.payout_method,
      merchantReference: input.merchant_reference ?? null,
      description: input.description ?? null,
      metadata: (input.metadata as Record<string, unknown> | undefined) ?? null,
      externalTransferId: null,
      failureReason: null,
      rejectionReason: null,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
    };
    const [row] = await createPayoutStatement(this.deps.db, {
      fee,
      // Reserve: the conditional update on the balance row serialises concurrent creations for
      // one merchant and refuses any that the available amount does not cover.
      posting: ledger.postingValues({
        merchantId,
        kind: 'payout_reserve',
        payoutId: id,
        legs: [
          { account: 'merchant_available', amountCents: -gross },
          { account: 'merchant_reserved', amountCents: gross },
        ],
      }),
      payout: {
        id,
        amount_cents: input.amount_cents,
        fee_cents: fee,
        gross_amount_cents: gross,
        currency: input.currency,
        payout_method: input.payout_method,
        payment_details: JSON.stringify(input.payment_details),
        merchant_reference: input.merchant_reference ?? null,
        description: input.description ?? null,
        metadata: input.metadata === undefined ? null : JSON.stringify(input.metadata),
        request_hash: requestHash,
        created_at: now,
      },
      event: eventValues({ merchantId, type: 'payout.created', payoutId: id, data: payoutJson(payout) }),
    });
    if (!row) throw new Error('payout creation returned no row');
    if (row.fee_now === null) throw new AppError('NOT_FOUND', 'merchant not found');
    return row.id ? { payout } : { payout: undefined, feeNow: row.fee_now };
  }

  private replay(existing: Pick<PayoutRow, (typeof PAYOUT_COLUMNS)[number] | 'request_hash'>, requestHash: string): CreatePayoutResult {
    if (existing.request_hash !== requestHash) {
      throw new AppError('CONFLICT', 'merchant_reference was already used with different parameters');
    }
    return { payout: toPayout(existing), created: false };
  }

  private findByReference(db: DbOrTx, merchantId: string, reference: string) {
    return db
      .selectFrom('payouts')
      .select([...PAYOUT_COLUMNS, 'request_hash'])
      .where('merchant_id', '=', merchantId)
      .where('merchant_reference', '=', reference)
      .executeTakeFirst();
  }

  /** One payout; another merchant's or an unknown id is 404 PAYOUT_NOT_FOUND. */
  async get(id: string, merchantId?: string): Promise<Payout> {
    if (!isUuid(id)) throw notFound();
    const [row] = await payoutById(this.deps.db, { id, merchantId });
    if (!row) throw notFound();
    return toPayout(row);
  }

  /** Payouts by id in key order, `null` where missing or not the merchant's (DataLoader batch). */
  async getMany(ids: readonly string[], merchantId?: string): Promise<(Payout | null)[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return ids.map(() => null);
    const rows = await payoutsByIds(this.deps.db, { ids: valid, merchantId });
    const byId = new Map(rows.map((r) => [r.id, toPayout(r)]));
    return ids.map((id) => byId.get(id) ?? null);
  }

  /** REST listing: newest first, `limit`/`offset`, `total` counting every match. */
  async list(filter: PayoutFilter, query: unknown): Promise<{ payouts: Payout[]; total: number }> {
    const { limit, offset, status } = parseInput(listPayoutsSchema, query ?? {});
    // The page and its total in one statement: one round trip per listing.
    const rows = await pageWithTotal(this.deps.db, { ...filter, ...(status && { status }), limit, offset });
    return {
      payouts: rows.filter((r) => r.id !== null).map((r) => toPayout(r as Pick<PayoutRow, (typeof PAYOUT_COLUMNS)[number]>)),
      total: Number(rows[0]?.total ?? 0),
    };
  }

  /** Keyset page for GraphQL connections, newest first unless `inverted`. */
  async page(filter: PayoutFilter, args: PageArgs): Promise<PayoutPageItem[]> {
    let q = this.filtered(filter).select([...PAYOUT_COLUMNS, 'seq']);
    // In newest-first order, "after" a cursor means an older payout, i.e. a smaller sequence.
    if (args.after !== undefined) q = q.where('seq', '<', args.after);
    if (args.before !== undefined) q = q.where('seq', '>', args.before);
    const rows = await q.orderBy('seq', args.inverted ? 'asc' : 'desc').limit(args.limit).execute();
    return rows.map((r) => ({ payout: toPayout(r), seq: r.seq }));
  }

  async count(filter: PayoutFilter): Promise<number> {
    const row = await this.filtered(filter).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private filtered(filter: PayoutFilter) {
    let q = this.deps.db.selectFrom('payouts');
    if (filter.merchantId !== undefined) q = q.where('merchant_id', '=', filter.merchantId);
    if (filter.status !== undefined) q = q.where('status', '=', filter.status);
    return q;
  }

  approve(id: string) {
    return this.move(id, 'approve', {});
  }

  reject(id: string, reason: unknown) {
    const rejection = parseInput(reasonSchema, reason);
    return this.move(id, 'reject', { rejectionReason: rejection });
  }

  /** CONTRACT §5: the account manager cancels a pending payout; it becomes `rejected`. */
  cancel(id: string) {
    return this.move(id, 'reject', { rejectionReason: 'cancelled by account manager', onlyFrom: ['pending'] });
  }

  startTransfer(id: string) {
    return this.move(id, 'start_transfer', {});
  }

  complete(id: string, externalTransferId?: string | null) {
    const transferId =
      externalTransferId === undefined || externalTransferId === null || externalTransferId === ''
        ? `EFT-${randomUUID().slice(0, 8).toUpperCase()}`
        : parseInput(reasonSchema, externalTransferId);
    return this.move(id, 'complete', { externalTransferId: transferId });
  }

  fail(id: string, reason: unknown) {
    return this.move(id, 'fail', { failureReason: parseInput(reasonSchema, reason) });
  }

  /**
   * One operator move: lock the payout, check the state machine, update it, move the money and
   * write the event, all in one transaction. Locks are taken payout first, then balance, in
   * every path, so concurrent moves cannot deadlock.
   */
  private async move(
    id: string,
    action: PayoutAction,
    extra: {
      rejectionReason?: string;
      failureReason?: string;
      externalTransferId?: string;
      onlyFrom?: readonly PayoutStatus[];
    },
  ): Promise<Payout> {
    if (!isUuid(id)) throw notFound();
    return transactionWithEvents(this.deps, async (tx) => {
      const current = await tx
        .selectFrom('payouts')
        .select(['status', 'merchant_id', 'amount_cents', 'fee_cents', 'gross_amount_cents'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!current) throw notFound();
      const move = planPayoutMove(current.status as PayoutStatus, action, extra.onlyFrom);
      const row = await tx
        .updateTable('payouts')
        .set({
          status: move.to,
          updated_at: sql`now()`,
          ...(extra.rejectionReason !== undefined && { rejection_reason: extra.rejectionReason }),
          ...(extra.failureReason !== undefined && { failure_reason: extra.failureReason }),
          ...(move.to === 'completed' && { external_transfer_id: extra.externalTransferId ?? null, completed_at: sql`now()` }),
        })
        .where('id', '=', id)
        .returning(PAYOUT_COLUMNS)
        .executeTakeFirstOrThrow();
      const gross = current.gross_amount_cents;
      if (move.effect === 'release') {
        await ledger.post(tx, {
          merchantId: current.merchant_id,
          kind: 'payout_release',
          payoutId: id,
          legs: [
            { account: 'merchant_reserved', amountCents: -gross },
            { account: 'merchant_available', amountCents: gross },
          ],
        });
      } else if (move.effect === 'deduct') {
        const legs: ledger.Leg[] = [
          { account: 'merchant_reserved', amountCents: -gross },
          { account: 'bank_transfers', amountCents: current.amount_cents },
        ];
        if (current.fee_cents > 0) legs.push({ account: 'fees', amountCents: current.fee_cents });
        await ledger.post(tx, { merchantId: current.merchant_id, kind: 'payout_settle', payoutId: id, legs });
      }
      const payout = toPayout(row);
      await this.emit(tx, payout, PAYOUT_EVENT_FOR[move.to] as EventType);
      return payout;
    });
  }

  private emit(tx: Tx, payout: Payout, type: EventType) {
    return recordEvent(tx, { merchantId: payout.merchantId, type, payoutId: payout.id, data: payoutJson(payout) });
  }
}

/** What the creation statement is made of; each member only a value, so it compiles once. */
interface CreationValues {
  fee: number;
  posting: ledger.PostingValues;
  payout: {
    id: string;
    amount_cents: number;
    fee_cents: number;
    gross_amount_cents: number;
    currency: string;
    payout_method: string;
    payment_details: string;
    merchant_reference: string | null;
    description: string | null;
    metadata: string | null;
    request_hash: string;
    created_at: Date;
  };
  event: EventValues;
}

/**
 * A payout's creation as one statement, compiled once: the reservation (a ledger posting,
 * written only if the merchant's fee is still `fee`), the payout, its event and its delivery,
 * then whether the payout was written and the merchant's fee as the statement saw it.
 */
const createPayoutStatement = compiledQuery((db, a: CreationValues) => {
  const p = a.payout;
  const feeUnchanged = sql<SqlBool>`exists (select 1 from merchants where id = ${a.posting.merchantId} and payout_fee_cents = ${a.fee})`;
  const reserved = ledger.postingSql(db, a.posting, feeUnchanged).with('created_payout', (qc) =>
    qc
      .insertInto('payouts')
      .columns([
        'id', 'merchant_id', 'amount_cents', 'fee_cents', 'gross_amount_cents', 'currency', 'status', 'payout_method',
        'payment_details', 'merchant_reference', 'description', 'metadata', 'request_hash', 'created_at', 'updated_at',
      ])
      .expression(
        qc.selectFrom('posted_balance').select([
          sql<string>`${p.id}::uuid`.as('id'),
          'merchant_id',
          sql<number>`${p.amount_cents}::bigint`.as('amount_cents'),
          sql<number>`${p.fee_cents}::bigint`.as('fee_cents'),
          sql<number>`${p.gross_amount_cents}::bigint`.as('gross_amount_cents'),
          sql<string>`${p.currency}::text`.as('currency'),
          sql<string>`'pending'`.as('status'),
          sql<string>`${p.payout_method}::text`.as('payout_method'),
          sql<string>`${p.payment_details}::jsonb`.as('payment_details'),
          sql<string | null>`${p.merchant_reference}::text`.as('merchant_reference'),
          sql<string | null>`${p.description}::text`.as('description'),
          sql<string | null>`${p.metadata}::jsonb`.as('metadata'),
          sql<string>`${p.request_hash}::text`.as('request_hash'),
          sql<Date>`${p.created_at}::timestamptz`.as('created_at'),
          sql<Date>`${p.created_at}::timestamptz`.as('updated_at'),
        ]),
      )
      .returning('id'),
  );
  return withRecordedEvent(reserved, a.event, 'created_payout').selectNoFrom((eb) => [
    eb.selectFrom('created_payout').select('id').as('id'),
    eb.selectFrom('merchants').select('payout_fee_cents').where('id', '=', a.posting.merchantId).as('fee_now'),
  ]);
});

/** One payout, the merchant's only when one is named; compiled once (see db/compiled.ts). */
const payoutById = compiledQuery((db, a: { id: string; merchantId?: string }) => {
  const q = db.selectFrom('payouts').select(PAYOUT_COLUMNS).where('id', '=', a.id);
  return a.merchantId === undefined ? q : q.where('merchant_id', '=', a.merchantId);
});

/** A batch of payouts by id (DataLoader), the merchant's only when one is named. */
const payoutsByIds = compiledQuery((db, a: { ids: string[]; merchantId?: string }) => {
  const q = db.selectFrom('payouts').select(PAYOUT_COLUMNS).where(sql<boolean>`id = any(${a.ids}::uuid[])`);
  return a.merchantId === undefined ? q : q.where('merchant_id', '=', a.merchantId);
});

/**
 * A page of payouts, newest first, beside the count of all that match the filter: always at
 * least one row (the total), with the payout's columns null when the page is empty.
 */
const pageWithTotal = compiledQuery((db, a: PayoutFilter & { limit: number; offset: number }) => {
  const matching = (q: SelectQueryBuilder<Database, 'payouts', object>) => {
    const mine = a.merchantId === undefined ? q : q.where('merchant_id', '=', a.merchantId);
    return a.status === undefined ? mine : mine.where('status', '=', a.status);
  };
  return db
    .selectFrom((eb) => matching(eb.selectFrom('payouts')).select((e) => e.fn.countAll<number>().as('total')).as('t'))
    .leftJoinLateral(
      (eb) => matching(eb.selectFrom('payouts')).select(PAYOUT_COLUMNS).orderBy('seq', 'desc').limit(a.limit).offset(a.offset).as('p'),
      (join) => join.onTrue(),
    )
    .select(['t.total', ...PAYOUT_COLUMNS.map((c) => `p.${c}` as const)]);
});

function isUniqueViolation(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === '23505';
}
