import { csvText, type StatementEntry } from './statement.ts';

/**
 * The statement for bookkeepers (CONTRACT §11): the JSON statement's entries as a bank-statement
 * CSV that Xero, Sage Business Cloud Accounting and QuickBooks import (docs/statements.md says
 * which columns each maps). An `opening` row first and a `closing` row last carry the balances;
 * every row between is one entry, with `gross` + `fee` = `net`, and Σ `net` = closing − opening.
 * Dates are minutes in Africa/Johannesburg; amounts rand with two decimals and a dot.
 */

export const ACCOUNTING_CSV_HEADER = 'date,type,description,reference,order_reference,bank_reference,gross,fee,net,balance';

export type AccountingRowType = 'opening' | 'closing' | StatementEntry['type'];

/** One row, every cell as the CSV writes it (before quoting); amounts null on the opening and closing rows. */
export interface AccountingRow {
  date: string;
  type: AccountingRowType;
  description: string;
  reference: string | null;
  orderReference: string | null;
  bankReference: string | null;
  gross: string | null;
  fee: string | null;
  net: string | null;
  balance: string;
}

/** Cents as rand: `1234.56`, `-250.00`; no thousands separator. Exact for any safe integer. */
export function randText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** An instant as `YYYY-MM-DD HH:MM` in Africa/Johannesburg (UTC+2 all year, no daylight saving). */
export function sastMinute(at: Date): string {
  return new Date(at.getTime() + 2 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
}

export function openingRow(from: string, openingCents: number): AccountingRow {
  return { date: `${from} 00:00`, type: 'opening', description: 'Opening balance', reference: null, orderReference: null, bankReference: null, gross: null, fee: null, net: null, balance: randText(openingCents) };
}

export function closingRow(to: string, closingCents: number): AccountingRow {
  return { date: `${to} 23:59`, type: 'closing', description: 'Closing balance', reference: null, orderReference: null, bankReference: null, gross: null, fee: null, net: null, balance: randText(closingCents) };
}

export function entryRow(e: StatementEntry): AccountingRow {
  return {
    date: sastMinute(e.postedAt),
    type: e.type,
    description: e.description,
    reference: e.reference,
    orderReference: e.orderReference,
    bankReference: e.bankReference,
    gross: randText(e.grossCents),
    fee: randText(e.feeCents),
    net: randText(e.amountCents),
    balance: randText(e.balanceAfterCents),
  };
}

/** The whole statement's rows, opening to closing. */
export function accountingRows(s: { from: string; to: string; openingBalanceCents: number; closingBalanceCents: number; entries: StatementEntry[] }): AccountingRow[] {
  return [openingRow(s.from, s.openingBalanceCents), ...s.entries.map(entryRow), closingRow(s.to, s.closingBalanceCents)];
}

/** One row as a CSV line (with its line break): text cells quoted when needed and never run as a formula. */
export function accountingCsvLine(r: AccountingRow): string {
  return (
    [r.date, r.type, csvText(r.description), csvText(r.reference), csvText(r.orderReference), csvText(r.bankReference), r.gross ?? '', r.fee ?? '', r.net ?? '', r.balance].join(',') + '\r\n'
  );
}
