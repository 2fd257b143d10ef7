import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Balance, BalanceBreakdown } from '../domain/balance.ts';
import { type MerchantScope, merchantFilter, type OneMerchantScope } from '../domain/actor.ts';
import { AppError } from '../domain/errors.ts';
import { type LedgerAccount, type Posting, projectionDelta } from '../domain/ledger.ts';
import { RESERVED_STATUSES } from '../domain/payout.ts';
import type { Db, DbOrTx, Tx } from './index.ts';
import { statement } from './statement.ts';
import type { BalanceRow } from './types.ts';

/**
 * The journal and the balance projection it keeps (rules: domain/ledger.ts). Reads take the
 * caller's scope (never optional); a posting names the merchant whose money it moves.
 */

export function toBalance(row: Pick<BalanceRow, 'merchant_id' | 'balance_cents' | 'reserved_cents' | 'gross_cents' | 'fees_cents' | 'withdrawals_cents' | 'refunds_cents' | 'returned_cents'>): Balance {
  return {
    merchantId: row.merchant_id,
    balanceCents: row.balance_cents,
    reservedCents: row.reserved_cents,
    availableCents: row.balance_cents - row.reserved_cents,
    totals: { grossCents: row.gross_cents, feesCents: row.fees_cents, withdrawalsCents: row.withdrawals_cents, refundsCents: row.refunds_cents, returnedCents: row.returned_cents },
    currency: 'ZAR',
  };
}

const BALANCE_COLUMNS = 'merchant_id, balance_cents, reserved_cents, gross_cents, fees_cents, withdrawals_cents, refunds_cents, returned_cents';

/**
 * One posting, in one statement: the balance row moves (only if the available amount covers
 * what the posting takes out of it: the check and the update are one UPDATE, so concurrent
 * postings serialise on the row and never overdraw), and only if it moved are the journal's
 * transaction and legs written.
 */
const postStatement = statement<
  {
    merchantId: string;
    balance: number;
    reserved: number;
    gross: number;
    fees: number;
    withdrawals: number;
    refunds: number;
    returned: number;
    requiredAvailable: number;
    transactionId: string;
    kind: string;
    payoutId: string | null;
    paymentId: string | null;
    refundId: string | null;
    memo: string | null;
    accounts: string[];
    amounts: number[];
  },
  BalanceRow
>(
  'ledger posting',
  `
  with moved as (
    update balances
       set balance_cents     = balance_cents + :balance::bigint,
           reserved_cents    = reserved_cents + :reserved::bigint,
           gross_cents       = gross_cents + :gross::bigint,
           fees_cents        = fees_cents + :fees::bigint,
           withdrawals_cents = withdrawals_cents + :withdrawals::bigint,
           refunds_cents     = refunds_cents + :refunds::bigint,
           returned_cents    = returned_cents + :returned::bigint,
           updated_at        = now()
     where merchant_id = :merchantId::uuid
       and balance_cents - reserved_cents >= :requiredAvailable::bigint
    returning ${BALANCE_COLUMNS}
  ),
  journal as (
    insert into ledger_transactions (id, merchant_id, kind, payout_id, payment_id, refund_id, memo)
    select :transactionId::uuid, merchant_id, :kind::text, :payoutId::uuid, :paymentId::uuid, :refundId::uuid, :memo::text
      from moved
    returning id, merchant_id
  ),
  legs as (
    insert into ledger_entries (transaction_id, merchant_id, account, amount_cents)
    select journal.id, journal.merchant_id, leg.account, leg.amount
      from journal cross join unnest(:accounts::text[], :amounts::bigint[]) as leg(account, amount)
  )
  select ${BALANCE_COLUMNS} from moved`,
);

/**
 * Appends a posting and moves the projection, inside the caller's transaction. Throws
 * INSUFFICIENT_BALANCE when the available amount does not cover it.
 */
export async function post(tx: Tx, posting: Posting): Promise<Balance> {
  const d = projectionDelta(posting);
  const [row] = await postStatement.run(tx, {
    merchantId: posting.merchantId,
    balance: d.balance,
    reserved: d.reserved,
    gross: d.gross,
    fees: d.fees,
    withdrawals: d.withdrawals,
    refunds: d.refunds,
    returned: d.returned,
    requiredAvailable: d.requiredAvailable,
    transactionId: randomUUID(),
    kind: posting.kind,
    payoutId: posting.payoutId ?? null,
    paymentId: posting.paymentId ?? null,
    refundId: posting.refundId ?? null,
    memo: posting.memo ?? null,
    accounts: posting.legs.map((l) => l.account),
    amounts: posting.legs.map((l) => l.amountCents),
  });
  // The posting's own merchant, read to say why it was refused: part of this write, not a read for anyone.
  if (!row) throw refusal((await balanceStatement.run(tx, { merchantId: posting.merchantId }))[0], d.requiredAvailable);
  return toBalance(row);
}

/** The INSUFFICIENT_BALANCE error for a posting that needed `requiredCents` (CONTRACT §5: both amounts in the message). */
export async function insufficient(db: DbOrTx, scope: OneMerchantScope, requiredCents: number): Promise<AppError> {
  return refusal((await balanceStatement.run(db, { merchantId: scope.merchantId }))[0], requiredCents);
}

function refusal(row: BalanceRow | undefined, requiredCents: number): AppError {
  if (!row) return new AppError('NOT_FOUND', 'merchant not found');
  return new AppError('INSUFFICIENT_BALANCE', `available balance is ${toBalance(row).availableCents} cents; ${requiredCents} cents are required`);
}

const balanceStatement = statement<{ merchantId: string }, BalanceRow>(
  'a merchant\'s balance',
  `select ${BALANCE_COLUMNS} from balances where merchant_id = :merchantId::uuid`,
);

/** The scope's merchant's balance; undefined when there is none. */
export async function balanceOf(db: DbOrTx, scope: OneMerchantScope): Promise<Balance | undefined> {
  const [row] = await balanceStatement.run(db, { merchantId: scope.merchantId });
  return row && toBalance(row);
}

const balancesByMerchant = statement<{ merchantIds: string[]; merchantId: string | null }, BalanceRow>(
  'balances by merchant',
  `select ${BALANCE_COLUMNS} from balances
    where merchant_id = any(:merchantIds::uuid[]) and (:merchantId::uuid is null or merchant_id = :merchantId::uuid)`,
);

/** Merchants' balances in the order of `merchantIds`, null where there is none or it is outside the scope (one statement). */
export async function balancesOf(db: DbOrTx, scope: MerchantScope, merchantIds: readonly string[]): Promise<(Balance | null)[]> {
  const rows = merchantIds.length ? await balancesByMerchant.run(db, { merchantIds: [...merchantIds], merchantId: merchantFilter(scope) }) : [];
  const byId = new Map(rows.map((r) => [r.merchant_id, toBalance(r)]));
  return merchantIds.map((id) => byId.get(id) ?? null);
}

/**
 * The balance's makings from the journal, one aggregate over the merchant's transactions (index
 * ledger_transactions_merchant_time_idx): money in by payments and by credits, fees by payments and
 * by payouts, payouts, refunds, and whatever else moved the balance (the bank's returns).
 */
const breakdownStatement = statement<{ merchantId: string }, Record<string, number | string | null>>(
  'a merchant\'s balance broken down from the journal',
  `select
     coalesce(sum(-e.amount_cents) filter (where t.kind = 'payment_capture' and e.account = 'funding'), 0)::bigint as payments,
     coalesce(sum(e.amount_cents) filter (where t.kind = 'payment_capture' and e.account = 'fees'), 0)::bigint as payment_fees,
     coalesce(sum(-e.amount_cents) filter (where t.kind = 'credit' and e.account = 'funding'), 0)::bigint as credits,
     coalesce(sum(e.amount_cents) filter (where t.kind = 'payout_settle' and e.account = 'bank_transfers'), 0)::bigint as payouts,
     coalesce(sum(e.amount_cents) filter (where t.kind = 'payout_settle' and e.account = 'fees'), 0)::bigint as payout_fees,
     coalesce(sum(e.amount_cents) filter (where t.kind = 'refund_settle' and e.account = 'refunds'), 0)::bigint as refunds,
     coalesce(sum(e.amount_cents) filter (where t.kind not in ('payment_capture', 'credit', 'payout_reserve', 'payout_release', 'payout_settle', 'refund_reserve', 'refund_release', 'refund_settle')
                                             and e.account in ('merchant_available', 'merchant_reserved')), 0)::bigint as returns
     from ledger_transactions t join ledger_entries e on e.transaction_id = t.id
    where t.merchant_id = :merchantId::uuid`,
);

export async function breakdownOf(db: DbOrTx, scope: OneMerchantScope): Promise<BalanceBreakdown> {
  const [r] = await breakdownStatement.run(db, { merchantId: scope.merchantId });
  const n = (k: string) => Number(r?.[k] ?? 0);
  return {
    paymentsCents: n('payments'),
    paymentFeesCents: n('payment_fees'),
    creditsCents: n('credits'),
    payoutsCents: n('payouts'),
    payoutFeesCents: n('payout_fees'),
    refundsCents: n('refunds'),
    returnsCents: n('returns'),
  };
}

/** Opens a merchant's balance at zero (in the transaction that creates the merchant). */
export async function openBalance(tx: Tx, merchantId: string): Promise<void> {
  await tx.insertInto('balances').values({ merchant_id: merchantId }).execute();
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
 * Recomputes the scope's balances from the journal and the payouts (CONTRACT §5): each
 * transaction sums to zero; the projection equals the journal; balance = gross − fees −
 * withdrawals − refunds + returned; returned = the amounts of returned payouts (CONTRACT §11); reserved = gross amounts of pending, approved and processing payouts plus
 * the amounts of pending refunds (CONTRACT §10); available ≥ 0.
 */
export async function verifyLedger(db: Db, scope: MerchantScope): Promise<VerifyReport> {
  const merchantId = merchantFilter(scope);
  const within = sql<boolean>`(${merchantId}::uuid is null or merchant_id = ${merchantId}::uuid)`;
  return db.transaction().setIsolationLevel('repeatable read').execute(async (tx) => {
    const problems: VerifyProblem[] = [];
    const unbalanced = await tx
      .selectFrom('ledger_entries')
      .select(['transaction_id', sql<number>`sum(amount_cents)`.as('total')])
      .where(within)
      .groupBy('transaction_id')
      .having(sql`sum(amount_cents)`, '<>', 0)
      .execute();
    for (const u of unbalanced) {
      problems.push({ transaction_id: u.transaction_id, check: 'transaction sums to zero', expected: 0, actual: Number(u.total) });
    }
    const transactions = await tx.selectFrom('ledger_transactions').select(sql<number>`count(*)`.as('n')).where(within).executeTakeFirstOrThrow();

    const journal = (account: LedgerAccount) =>
      sql<number>`(select coalesce(sum(e.amount_cents), 0) from ledger_entries e where e.merchant_id = b.merchant_id and e.account = ${account})`;
    const rows = await tx
      .selectFrom('balances as b')
      .select([
        'b.merchant_id',
        'b.balance_cents',
        'b.reserved_cents',
        'b.gross_cents',
        'b.fees_cents',
        'b.withdrawals_cents',
        'b.refunds_cents',
        'b.returned_cents',
        journal('merchant_available').as('j_available'),
        journal('merchant_reserved').as('j_reserved'),
        journal('funding').as('j_funding'),
        journal('fees').as('j_fees'),
        journal('bank_transfers').as('j_transfers'),
        journal('refunds').as('j_refunds'),
        journal('bank_returns').as('j_returns'),
        sql<number>`(select coalesce(sum(p.amount_cents), 0) from payouts p
                      where p.merchant_id = b.merchant_id and p.returned_at is not null)`.as('p_returned'),
        sql<number>`(select coalesce(sum(r.amount_cents), 0) from refunds r
                      where r.merchant_id = b.merchant_id and r.status = 'pending')`.as('r_reserved'),
        sql<number>`(select coalesce(sum(p.gross_amount_cents), 0) from payouts p
                      where p.merchant_id = b.merchant_id and p.status = any(${[...RESERVED_STATUSES]}::text[]))`.as('p_reserved'),
      ])
      .where(within)
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
      check('refunds_cents equals the journal', n(r.j_refunds), r.refunds_cents);
      check('returned_cents equals the journal', -n(r.j_returns), r.returned_cents);
      check('returned_cents = amounts of returned payouts', n(r.p_returned), r.returned_cents);
      check('balance_cents = gross - fees - withdrawals - refunds + returned', r.gross_cents - r.fees_cents - r.withdrawals_cents - r.refunds_cents + r.returned_cents, r.balance_cents);
      check('reserved_cents = gross of pending, approved, processing payouts + pending refunds', n(r.p_reserved) + n(r.r_reserved), r.reserved_cents);
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
