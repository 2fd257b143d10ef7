import { randomUUID } from 'node:crypto';
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import { compiledQuery } from '../db/compiled.ts';
import type { Db, DbOrTx, Tx } from '../db/index.ts';
import type { BalanceRow, Database, LedgerAccount } from '../db/types.ts';
import { AppError } from '../domain/errors.ts';
import { CURRENCY } from '../domain/money.ts';
import type { Balance } from '../domain/payout.ts';

/**
 * The double-entry journal. Each posting appends a transaction whose legs sum to zero and, in the
 * same database transaction, moves the merchant's balance projection by what the legs imply:
 *
 * - `merchant_available` + `merchant_reserved` = balance_cents; `merchant_reserved` = reserved_cents
 * - `funding` (negative) = money that came in: gross_cents is minus its sum
 * - `fees` = fees_cents; `bank_transfers` = withdrawals_cents
 *
 * Nothing else writes to `balances`, so `verify` can recompute every figure from the journal.
 */
export interface Leg {
  account: LedgerAccount;
  amountCents: number;
}

export interface Posting {
  merchantId: string;
  kind: 'credit' | 'payment_capture' | 'payout_reserve' | 'payout_release' | 'payout_settle';
  legs: Leg[];
  payoutId?: string;
  paymentId?: string;
  memo?: string;
}

function projectionDelta(legs: Leg[]) {
  const sum = (account: LedgerAccount) => legs.filter((l) => l.account === account).reduce((s, l) => s + l.amountCents, 0);
  const available = sum('merchant_available');
  const reserved = sum('merchant_reserved');
  return {
    available,
    balance: available + reserved,
    reserved,
    gross: -sum('funding'),
    fees: sum('fees'),
    withdrawals: sum('bank_transfers'),
  };
}

export function toBalance(row: BalanceRow): Balance {
  return {
    merchantId: row.merchant_id,
    balanceCents: row.balance_cents,
    reservedCents: row.reserved_cents,
    availableCents: row.balance_cents - row.reserved_cents,
    totals: { grossCents: row.gross_cents, feesCents: row.fees_cents, withdrawalsCents: row.withdrawals_cents },
    currency: CURRENCY,
  };
}

/** Checks a posting and returns the movement of the balance projection it implies. */
function checkedDelta(posting: Posting) {
  const total = posting.legs.reduce((s, l) => s + l.amountCents, 0);
  if (total !== 0 || posting.legs.some((l) => !Number.isSafeInteger(l.amountCents) || l.amountCents === 0)) {
    throw new Error(`unbalanced ledger posting ${posting.kind}: legs sum to ${total}`);
  }
  return projectionDelta(posting.legs);
}

/**
 * Everything the SQL of a posting is made of, each a plain value: what the balance projection
 * moves by, the available amount the posting needs (absent when it needs none), the journal
 * rows. `postingSql` uses every member only as a value, so a statement compiled once can pass
 * stand-ins for them (see db/compiled.ts).
 */
export interface PostingValues {
  merchantId: string;
  kind: string;
  transactionId: string;
  payoutId: string | null;
  paymentId: string | null;
  memo: string | null;
  delta: { balance: number; reserved: number; gross: number; fees: number; withdrawals: number };
  requiredAvailable?: number;
  legs: Leg[];
}

/** Checks a posting (legs sum to zero, whole cents) and gives the values of its SQL. */
export function postingValues(posting: Posting): PostingValues {
  const d = checkedDelta(posting);
  return {
    merchantId: posting.merchantId,
    kind: posting.kind,
    transactionId: randomUUID(),
    payoutId: posting.payoutId ?? null,
    paymentId: posting.paymentId ?? null,
    memo: posting.memo ?? null,
    delta: { balance: d.balance, reserved: d.reserved, gross: d.gross, fees: d.fees, withdrawals: d.withdrawals },
    ...(d.available < 0 && { requiredAvailable: -d.available }),
    legs: posting.legs,
  };
}

/**
 * A posting (from `postingValues`) as the opening of one SQL statement: CTEs `posted_balance`
 * (the merchant's balance row after the posting; empty when the available amount does not cover
 * it, or `onlyIf` is false), `posted_transaction` and `posted_entries`, each written only if the
 * balance moved. A caller adds what must happen with the money in the same statement (a payout,
 * an event) and finishes it; `post` finishes it as it is. One statement is one round trip, and
 * atomic.
 *
 * A posting that takes money out of `merchant_available` is conditional on the available amount
 * covering it: the check and the update are one UPDATE, so concurrent reservations serialise on
 * the balance row and the sum reserved can never exceed the balance.
 */
export function postingSql(db: DbOrTx | Kysely<Database>, v: PostingValues, onlyIf?: Expression<SqlBool>) {
  return db
    .with('posted_balance', (qc) => {
      let update = qc
        .updateTable('balances')
        .set({
          balance_cents: sql`balance_cents + ${v.delta.balance}`,
          reserved_cents: sql`reserved_cents + ${v.delta.reserved}`,
          gross_cents: sql`gross_cents + ${v.delta.gross}`,
          fees_cents: sql`fees_cents + ${v.delta.fees}`,
          withdrawals_cents: sql`withdrawals_cents + ${v.delta.withdrawals}`,
          updated_at: sql`now()`,
        })
        .where('merchant_id', '=', v.merchantId);
      if (v.requiredAvailable !== undefined) update = update.where(sql<boolean>`balance_cents - reserved_cents >= ${v.requiredAvailable}`);
      if (onlyIf) update = update.where(onlyIf);
      return update.returningAll();
    })
    .with('posted_transaction', (qc) =>
      qc
        .insertInto('ledger_transactions')
        .columns(['id', 'merchant_id', 'kind', 'payout_id', 'payment_id', 'memo'])
        .expression(
          qc
            .selectFrom('posted_balance')
            .select([
              sql<string>`${v.transactionId}::uuid`.as('id'),
              'merchant_id',
              sql<string>`${v.kind}::text`.as('kind'),
              sql<string | null>`${v.payoutId}::uuid`.as('payout_id'),
              sql<string | null>`${v.paymentId}::uuid`.as('payment_id'),
              sql<string | null>`${v.memo}::text`.as('memo'),
            ]),
        )
        .returning(['id', 'merchant_id']),
    )
    .with('posted_entries', (qc) =>
      qc
        .insertInto('ledger_entries')
        .columns(['transaction_id', 'merchant_id', 'account', 'amount_cents'])
        .expression(
          v.legs
            .map((l) =>
              qc
                .selectFrom('posted_transaction')
                .select(['id', 'merchant_id', sql<LedgerAccount>`${l.account}::text`.as('account'), sql<number>`${l.amountCents}::bigint`.as('amount_cents')]),
            )
            .reduce((all, leg) => all.unionAll(leg)),
        ),
    );
}

/**
 * Appends a posting and updates the projection in one statement (see `postingSql`).
 * Throws INSUFFICIENT_BALANCE when the available amount does not cover it.
 */
export async function post(tx: Tx, posting: Posting): Promise<Balance> {
  const values = postingValues(posting);
  const row = await postingSql(tx, values).selectFrom('posted_balance').selectAll().executeTakeFirst();
  if (!row) throw await insufficient(tx, posting.merchantId, values.requiredAvailable ?? 0);
  return toBalance(row);
}

/** The INSUFFICIENT_BALANCE error for a posting that needed `requiredCents` (CONTRACT §5: both amounts in the message). */
export async function insufficient(db: DbOrTx, merchantId: string, requiredCents: number): Promise<AppError> {
  const current = await db
    .selectFrom('balances')
    .select(sql<number>`balance_cents - reserved_cents`.as('available'))
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  if (!current) throw new Error(`no balance row for merchant ${merchantId}`);
  return new AppError('INSUFFICIENT_BALANCE', `available balance is ${current.available} cents; ${requiredCents} cents are required`);
}

const balanceOf = compiledQuery((db, a: { merchantId: string }) => db.selectFrom('balances').selectAll().where('merchant_id', '=', a.merchantId));

export async function getBalance(db: Db | Tx, merchantId: string): Promise<Balance> {
  const [row] = await balanceOf(db, { merchantId });
  if (!row) throw new AppError('NOT_FOUND', 'merchant not found');
  return toBalance(row);
}

export interface VerifyProblem {
  merchant_id?: string;
  transaction_id?: string;
  check: string;
  expected: number;
  actual: number;
}

export interface VerifyReport {
  ok: boolean;
  merchants_checked: number;
  transactions_checked: number;
  problems: VerifyProblem[];
}

/**
 * Recomputes every balance from the journal and the payouts (CONTRACT §5): each transaction sums
 * to zero; the projection equals the journal; balance = gross − fees − withdrawals; reserved =
 * gross amounts of pending, approved and processing payouts; available ≥ 0.
 */
export async function verifyLedger(db: Db): Promise<VerifyReport> {
  return db.transaction().setIsolationLevel('repeatable read').execute(async (tx) => {
    const problems: VerifyProblem[] = [];
    const unbalanced = await tx
      .selectFrom('ledger_entries')
      .select(['transaction_id', sql<number>`sum(amount_cents)`.as('total')])
      .groupBy('transaction_id')
      .having(sql`sum(amount_cents)`, '<>', 0)
      .execute();
    for (const u of unbalanced) {
      problems.push({ transaction_id: u.transaction_id, check: 'transaction sums to zero', expected: 0, actual: Number(u.total) });
    }
    const transactions = await tx.selectFrom('ledger_transactions').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();

    const rows = await tx
      .selectFrom('balances as b')
      .select([
        'b.merchant_id',
        'b.balance_cents',
        'b.reserved_cents',
        'b.gross_cents',
        'b.fees_cents',
        'b.withdrawals_cents',
        (eb) => sumOf(eb, 'merchant_available').as('j_available'),
        (eb) => sumOf(eb, 'merchant_reserved').as('j_reserved'),
        (eb) => sumOf(eb, 'funding').as('j_funding'),
        (eb) => sumOf(eb, 'fees').as('j_fees'),
        (eb) => sumOf(eb, 'bank_transfers').as('j_transfers'),
        (eb) =>
          eb
            .selectFrom('payouts as p')
            .select(sql<number>`coalesce(sum(p.gross_amount_cents), 0)`.as('s'))
            .whereRef('p.merchant_id', '=', 'b.merchant_id')
            .where('p.status', 'in', ['pending', 'approved', 'processing'])
            .as('p_reserved'),
      ])
      .execute();

    for (const r of rows) {
      const m = r.merchant_id;
      const n = (v: unknown) => Number(v ?? 0);
      const check = (name: string, expected: number, actual: number) => {
        if (expected !== actual) problems.push({ merchant_id: m, check: name, expected, actual });
      };
      check('balance_cents equals the journal', n(r.j_available) + n(r.j_reserved), r.balance_cents);
      check('reserved_cents equals the journal', n(r.j_reserved), r.reserved_cents);
      check('gross_cents equals the journal', -n(r.j_funding), r.gross_cents);
      check('fees_cents equals the journal', n(r.j_fees), r.fees_cents);
      check('withdrawals_cents equals the journal', n(r.j_transfers), r.withdrawals_cents);
      check('balance_cents = gross - fees - withdrawals', r.gross_cents - r.fees_cents - r.withdrawals_cents, r.balance_cents);
      check('reserved_cents = gross of pending, approved, processing payouts', n(r.p_reserved), r.reserved_cents);
      if (r.balance_cents - r.reserved_cents < 0) {
        problems.push({ merchant_id: m, check: 'available_cents >= 0', expected: 0, actual: r.balance_cents - r.reserved_cents });
      }
    }
    return {
      ok: problems.length === 0,
      merchants_checked: rows.length,
      transactions_checked: Number(transactions.n),
      problems,
    };
  });
}

function sumOf(eb: any, account: LedgerAccount) {
  return eb
    .selectFrom('ledger_entries as e')
    .select(sql<number>`coalesce(sum(e.amount_cents), 0)`.as('s'))
    .whereRef('e.merchant_id', '=', 'b.merchant_id')
    .where('e.account', '=', account);
}
