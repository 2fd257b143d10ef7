import { z } from 'zod';
import { formatRand } from './money.ts';
import { optional } from './validation.ts';

/**
 * A merchant's statement (CONTRACT §10): the movements of its `balance_cents` over whole days in
 * Africa/Johannesburg, oldest first, between an opening and a closing balance, so that
 * opening + Σ amount = closing. Each movement is one journal transaction of the ledger (a payout's
 * completion is two: the payout and its fee); transactions that only move money between the
 * available and reserved parts of the balance (a payout's or a refund's reservation) move nothing
 * and are not listed.
 */

export const STATEMENT_ENTRY_TYPES = ['payment', 'credit', 'payout', 'payout_fee', 'refund', 'payout_return'] as const;
export type StatementEntryType = (typeof STATEMENT_ENTRY_TYPES)[number];

export interface StatementEntry {
  entryId: string;
  postedAt: Date;
  type: StatementEntryType;
  /** The payment, payout or refund id; null for a credit. */
  reference: string | null;
  /** Signed: credits positive, debits negative. */
  amountCents: number;
  balanceAfterCents: number;
  description: string;
  /**
   * For the books (CONTRACT §11, the accounting statement): on a payment, its amount and its fee
   * (negative), so that gross + fee = amount; on every other entry gross = amount and fee = 0.
   */
  grossCents: number;
  feeCents: number;
  /** The payment's `merchant_order_id` or the payout's `merchant_reference`. */
  orderReference: string | null;
  /** A payout's `external_transfer_id`: the bank's reference for the transfer. */
  bankReference: string | null;
}

/** At most this many days, both ends counted (a leap year). */
export const MAX_STATEMENT_DAYS = 366;
const DAY_MS = 86_400_000;

/**
 * South African Standard Time is UTC+2 all year (no daylight saving since 1944): a SAST day
 * starts at 22:00 UTC the day before. Written out rather than looked up, so the embedded database
 * and the server agree without a time-zone table.
 */
const SAST_OFFSET = '+02:00';

/** The instant a SAST day (YYYY-MM-DD) starts. */
export const sastDayStart = (day: string): Date => new Date(`${day}T00:00:00${SAST_OFFSET}`);

/** The SAST day after `day`. */
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) === d, 'must be a real date')
  .meta({ description: 'A day in Africa/Johannesburg (SAST), YYYY-MM-DD', example: '2026-11-01', maxLength: 10 });

/** A range of at most 366 days, `from` not after `to`. */
function checkRange(q: { from: string; to: string }, ctx: z.RefinementCtx) {
  if (q.from > q.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
  else if ((Date.parse(`${q.to}T00:00:00Z`) - Date.parse(`${q.from}T00:00:00Z`)) / DAY_MS + 1 > MAX_STATEMENT_DAYS) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: `must be at most ${MAX_STATEMENT_DAYS} days after from, both counted` });
  }
}

/** What a statement is asked for: its first and last SAST day, both included, at most 366 days. */
export const statementQuery = z
  .strictObject({
    from: day,
    to: day,
    /**
     * `csv`: the entries as CSV (as `Accept: text/csv` asks); `accounting`: the statement for
     * bookkeepers (as `Accept: text/csv; profile=accounting` asks, CONTRACT §11). REST only.
     */
    format: optional(z.enum(['json', 'csv', 'accounting'], { error: 'must be json, csv or accounting' })),
  })
  .superRefine(checkRange);

/** GraphQL `statement(from, to, merchantId)`: the same range, and the merchant the operator names. */
export const statementArgs = z.strictObject({ from: day, to: day, merchantId: z.string().nullish() }).superRefine(checkRange);
export type StatementQuery = z.output<typeof statementQuery>;

/** The instants a statement covers: [from's start, the start of the day after `to`). */
export function statementWindow(q: Pick<StatementQuery, 'from' | 'to'>): { start: Date; end: Date } {
  return { start: sastDayStart(q.from), end: sastDayStart(nextDay(q.to)) };
}

/**
 * What a journal transaction's kind means on a statement. The kinds are the ledger's
 * (domain/ledger.ts `PostingKind`); matched by what they are about, so a kind added later
 * (`refund_settle`) maps without another change here.
 */
export function entryTypeOf(kind: string): StatementEntryType {
  if (kind === 'payout_return') return 'payout_return';
  if (kind.includes('refund')) return 'refund';
  if (kind.startsWith('payout')) return 'payout';
  if (kind.startsWith('payment')) return 'payment';
  return 'credit';
}

/** One journal transaction as the statement reads it (db/merchant-statement.ts). */
export interface JournalMovement {
  transactionId: string;
  postedAt: Date;
  kind: string;
  paymentId: string | null;
  payoutId: string | null;
  refundId: string | null;
  memo: string | null;
  /** The change of balance_cents (the merchant's available and reserved accounts together). */
  movementCents: number;
  /** What went to the fees account in the same transaction (a payment's or a payout's fee). */
  feesCents: number;
  /** The journal legs that stand for the entries: the first merchant leg, and the fee's leg. */
  entryLegId: string;
  feeLegId: string | null;
  merchantOrderId: string | null;
  merchantReference: string | null;
  /** The payout's `external_transfer_id`, when the movement is about a payout. */
  externalTransferId: string | null;
}

/**
 * The statement entries of one journal transaction, their running balance continuing from
 * `balanceBefore`. A payout's completion is split in two (the payout, then its fee), as a bank
 * statement shows them; a payment's fee stays netted in its entry (the fee never reached the balance).
 */
export function entriesOf(m: JournalMovement, balanceBefore: number): StatementEntry[] {
  const type = entryTypeOf(m.kind);
  const isPayout = type === 'payout' || type === 'payout_return';
  const base = {
    postedAt: m.postedAt,
    feeCents: 0,
    orderReference: isPayout ? m.merchantReference : m.merchantOrderId,
    bankReference: isPayout ? m.externalTransferId : null,
  };
  if (type === 'payout' && m.feesCents !== 0 && m.feeLegId !== null) {
    const payout = m.movementCents + m.feesCents;
    const ref = m.merchantReference ? ` ${m.merchantReference}` : '';
    return [
      { ...base, entryId: m.entryLegId, type: 'payout', reference: m.payoutId, amountCents: payout, grossCents: payout, balanceAfterCents: balanceBefore + payout, description: `Payout${ref}` },
      {
        ...base,
        entryId: m.feeLegId,
        type: 'payout_fee',
        reference: m.payoutId,
        amountCents: -m.feesCents,
        grossCents: -m.feesCents,
        balanceAfterCents: balanceBefore + m.movementCents,
        description: `Payout fee${ref}`,
      },
    ];
  }
  const reference = type === 'credit' ? null : type === 'refund' ? (m.refundId ?? m.paymentId) : isPayout ? m.payoutId : m.paymentId;
  // A payment's fee never reached the balance: for the books its gross is the amount paid, less the fee.
  const fee = type === 'payment' && m.feesCents !== 0 ? -m.feesCents : 0;
  return [
    {
      ...base,
      entryId: m.entryLegId,
      type,
      reference,
      amountCents: m.movementCents,
      grossCents: m.movementCents - fee,
      feeCents: fee,
      balanceAfterCents: balanceBefore + m.movementCents,
      description: describe(type, m),
    },
  ];
}

function describe(type: StatementEntryType, m: JournalMovement): string {
  const order = m.merchantOrderId ? ` for order ${m.merchantOrderId}` : '';
  switch (type) {
    case 'payment':
      return m.feesCents > 0
        ? `Payment${order}: ${formatRand(m.movementCents + m.feesCents)} less fee ${formatRand(m.feesCents)}`
        : `Payment${order}`;
    case 'refund':
      return m.memo ?? `Refund${order}`;
    case 'payout':
      return `Payout${m.merchantReference ? ` ${m.merchantReference}` : ''}`;
    case 'payout_return':
      return `Payout returned by the bank${m.merchantReference ? ` ${m.merchantReference}` : ''}${m.memo ? `: ${m.memo}` : ''}`;
    default:
      return m.memo ?? 'Credit';
  }
}

/** CSV's header row (CONTRACT §10, exactly). */
export const STATEMENT_CSV_HEADER = 'posted_at,type,reference,amount_cents,balance_after_cents,description';

/**
 * A text cell of CSV (RFC 4180): quoted when it holds a comma, quote or line break. A cell a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading `'`
 * (OWASP's CSV injection advice): a merchant's order id is the merchant's text, opened by its accountant.
 */
export function csvText(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One entry as a CSV line (with its line break). */
export function statementCsvLine(e: StatementEntry): string {
  return `${e.postedAt.toISOString()},${e.type},${csvText(e.reference)},${e.amountCents},${e.balanceAfterCents},${csvText(e.description)}\r\n`;
}

const cents = (description: string, example: number) =>
  z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER).meta({ format: 'int64', description, example });

export const statementEntryJsonSchema = z
  .object({
    entry_id: z.string().max(40).meta({ description: 'The journal leg this entry stands for (stable)', example: '1042' }),
    posted_at: z.iso.datetime().meta({ example: '2026-11-22T10:15:30.000Z' }),
    type: z.enum(STATEMENT_ENTRY_TYPES),
    reference: z.uuid().nullable().meta({ description: 'The payment, payout or refund id; null for a credit' }),
    amount_cents: cents('Signed: credits positive, debits negative', 12036),
    balance_after_cents: cents('balance_cents after this entry', 112036),
    description: z.string().max(300).meta({ example: 'Payment for order ORD-1001: R 123.45 less fee R 3.09' }),
  })
  .strict()
  .meta({ id: 'StatementEntry' });

export function statementEntryJson(e: StatementEntry): z.input<typeof statementEntryJsonSchema> {
  return {
    entry_id: e.entryId,
    posted_at: e.postedAt.toISOString(),
    type: e.type,
    reference: e.reference,
    amount_cents: e.amountCents,
    balance_after_cents: e.balanceAfterCents,
    description: e.description,
  };
}

export const statementJsonSchema = z
  .object({
    from: z.string().meta({ example: '2026-11-01', format: 'date', maxLength: 10 }),
    to: z.string().meta({ example: '2026-11-30', format: 'date', maxLength: 10 }),
    opening_balance_cents: cents('balance_cents at the start of from (SAST)', 100000),
    entries: z.array(statementEntryJsonSchema).max(100_000_000).meta({ description: 'Oldest first; streamed, never held whole by the server' }),
    closing_balance_cents: cents('balance_cents at the end of to (SAST): opening_balance_cents + the sum of amount_cents', 112036),
    total: z.number().int().min(0).meta({ description: 'How many entries' }),
  })
  .strict()
  .meta({ id: 'Statement' });
