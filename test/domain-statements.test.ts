import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../rest/openapi/document.ts';
import { ACCOUNTING_CSV_HEADER, accountingCsvLine, accountingRows, closingRow, entryRow, openingRow, randText, sastMinute } from '../src/domain/accounting-statement.ts';
import { type Balance, balanceJson, balanceJsonSchema, balanceQuery, type BalanceBreakdown, creditInput } from '../src/domain/balance.ts';
import type { Payment, PaymentInitiation } from '../src/domain/payment.ts';
import { paymentEventData, paymentInitiationJson, paymentInitiationJsonSchema, paymentJson, paymentJsonSchema } from '../src/domain/payment-json.ts';
import { paymentSearch } from '../src/domain/payment-search.ts';
import type { Payout } from '../src/domain/payout.ts';
import { payoutFromJson, payoutJson, payoutJsonSchema } from '../src/domain/payout-json.ts';
import {
  csvText,
  entriesOf,
  entryTypeOf,
  type JournalMovement,
  MAX_STATEMENT_DAYS,
  sastDayStart,
  STATEMENT_CSV_HEADER,
  STATEMENT_ENTRY_TYPES,
  statementArgs,
  statementCsvLine,
  type StatementEntry,
  statementEntryJson,
  statementEntryJsonSchema,
  statementJsonSchema,
  statementQuery,
  statementWindow,
} from '../src/domain/statement.ts';
import { openApiChecker } from './support/openapi.ts';

/**
 * What a merchant and its bookkeeper read about money, called directly: statements (their range,
 * days cut in SAST, each journal transaction as entries, the CSV), the accounting statement's rows,
 * the balance and its breakdown, the payment search, and the JSON of payments and payouts. Each
 * JSON shape is also checked against the OpenAPI document as published (prd), so what is sent is
 * what the document promises. The server-level tests (statements*, accounting-statement,
 * balance-breakdown, payments-list) show the same rules end to end; these pin them exactly.
 */

/** Every refusal of a schema as `path: message`, in order. */
const problems = (schema: { safeParse: (v: unknown) => { error?: { issues: { path: PropertyKey[]; message: string }[] } } }, input: unknown) =>
  (schema.safeParse(input).error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

/** The document as a client reads it (JSON, by path). */
const DOCUMENT: any = openApiDocument('https://zarpay.example', 'prd');
const { published } = openApiChecker(DOCUMENT);

const PAYMENT_ID = '3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11';
const PAYOUT_ID = '7b0e4c1a-2f7d-4d8e-9a57-5d2f0e2b7c11';
const REFUND_ID = '0b6f3c4e-1d2a-4b5c-8d9e-0f1a2b3c4d5e';
const MERCHANT_ID = '5d2f0e2b-7c11-4e1c-9a57-3f1c9a528a43';
const AT = new Date('2026-11-22T10:15:30.000Z');

describe('statement.ts: the range asked for, the entries of each journal transaction, and their CSV', () => {
  it('starts a SAST day at 22:00 UTC the day before, and covers from the start of `from` to the start of the day after `to`', () => {
    expect(sastDayStart('2026-03-01').toISOString()).toBe('2026-02-28T22:00:00.000Z');
    expect(statementWindow({ from: '2026-02-01', to: '2026-02-28' })).toEqual({ start: new Date('2026-01-31T22:00:00Z'), end: new Date('2026-02-28T22:00:00Z') });
    // One day; across a leap day; across a year.
    expect(statementWindow({ from: '2026-11-22', to: '2026-11-22' })).toEqual({ start: new Date('2026-11-21T22:00:00Z'), end: new Date('2026-11-22T22:00:00Z') });
    expect(statementWindow({ from: '2028-02-28', to: '2028-02-28' }).end).toEqual(new Date('2028-02-28T22:00:00Z'));
    expect(statementWindow({ from: '2028-02-29', to: '2028-02-29' }).end).toEqual(new Date('2028-02-29T22:00:00Z'));
    expect(statementWindow({ from: '2026-12-31', to: '2026-12-31' })).toEqual({ start: new Date('2026-12-30T22:00:00Z'), end: new Date('2026-12-31T22:00:00Z') });
  });

  it('takes two real days, from not after to, at most 366 days both counted, and a format', () => {
    expect(statementQuery.parse({ from: '2026-11-01', to: '2026-11-30' })).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(statementQuery.parse({ from: '2026-11-22', to: '2026-11-22', format: null })).toEqual({ from: '2026-11-22', to: '2026-11-22' });
    for (const format of ['json', 'csv', 'accounting']) expect(statementQuery.parse({ from: '2026-11-01', to: '2026-11-02', format }).format).toBe(format);
    expect(MAX_STATEMENT_DAYS).toBe(366);
    // 366 days, both counted (a leap year), and 365 across no leap day: allowed; one more is not.
    expect(problems(statementQuery, { from: '2028-01-01', to: '2028-12-31' })).toEqual([]);
    expect(problems(statementQuery, { from: '2027-01-01', to: '2028-01-01' })).toEqual([]);
    expect(problems(statementQuery, { from: '2027-12-31', to: '2028-12-31' })).toEqual(['to: must be at most 366 days after from, both counted']);
    expect(problems(statementQuery, { from: '2026-03-02', to: '2026-03-01' })).toEqual(['to: must not be before from']);
    // Far apart and the wrong way round: only the order is wrong.
    expect(problems(statementQuery, { from: '2030-01-01', to: '2026-01-01' })).toEqual(['to: must not be before from']);
    expect(problems(statementQuery, { from: '2026-01-01', to: '2026-01-02', format: 'xml' })).toEqual(['format: must be json, csv or accounting']);
    expect(problems(statementQuery, { from: '2026-01-01', to: '2026-01-02', merchant_id: 'x' })).toHaveLength(1);
  });

  it('refuses a day not written YYYY-MM-DD, and one that is no real date, saying which', () => {
    for (const bad of ['2026-1-01', '2026-01-1', '26-01-01', 'x2026-01-01', '2026-01-01x', '2026-01-01T00:00', '20260-01-01', '2026/01/01', 'yesterday', '']) {
      expect(problems(statementQuery, { from: bad, to: '2026-01-02' })[0], bad).toBe('from: must be a date, YYYY-MM-DD');
    }
    for (const bad of ['2026-02-29', '2026-02-30', '2026-13-01', '2026-00-10', '2026-04-31']) {
      expect(problems(statementQuery, { from: bad, to: '2027-01-02' }), bad).toEqual(['from: must be a real date']);
    }
    expect(problems(statementQuery, { from: '2028-02-29', to: '2028-03-01' })).toEqual([]);
  });

  it('GraphQL\'s arguments: the same range, with the merchant an operator names', () => {
    expect(statementArgs.parse({ from: '2026-11-01', to: '2026-11-30', merchantId: MERCHANT_ID })).toEqual({ from: '2026-11-01', to: '2026-11-30', merchantId: MERCHANT_ID });
    expect(statementArgs.parse({ from: '2026-11-01', to: '2026-11-01', merchantId: null })).toEqual({ from: '2026-11-01', to: '2026-11-01', merchantId: null });
    expect(problems(statementArgs, { from: '2026-02-02', to: '2026-02-01' })).toEqual(['to: must not be before from']);
    expect(problems(statementArgs, { from: '2027-12-31', to: '2028-12-31' })).toEqual(['to: must be at most 366 days after from, both counted']);
    expect(problems(statementArgs, { from: '2026-02-30', to: '2026-03-01' })).toEqual(['from: must be a real date']);
  });

  it('the document tells a client the query: two days of ten characters, and a format', () => {
    const day = {
      schema: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'A day in Africa/Johannesburg (SAST), YYYY-MM-DD', example: '2026-11-01', maxLength: 10 },
      required: true, description: 'A day in Africa/Johannesburg (SAST), YYYY-MM-DD',
    };
    expect(DOCUMENT.paths['/api/v1/statements'].get.parameters).toEqual([
      { in: 'query', name: 'from', ...day },
      { in: 'query', name: 'to', ...day },
      { in: 'query', name: 'format', schema: { anyOf: [{ type: 'string', enum: ['json', 'csv', 'accounting'] }, { type: 'null' }] } },
    ]);
  });

  it('reads each journal kind as what it is about, refunds whatever their posting is called', () => {
    expect(['credit', 'payment_capture', 'payout_settle', 'payout_return', 'refund_settle', 'refund_reserve', 'payment_refund', 'refund', 'operator_adjustment'].map(entryTypeOf)).toEqual([
      'credit', 'payment', 'payout', 'payout_return', 'refund', 'refund', 'refund', 'refund', 'credit',
    ]);
    expect(STATEMENT_ENTRY_TYPES).toEqual(['payment', 'credit', 'payout', 'payout_fee', 'refund', 'payout_return']);
  });

  const movement = (m: Partial<JournalMovement>): JournalMovement => ({
    transactionId: 't1', postedAt: AT, kind: 'credit', paymentId: null, payoutId: null, refundId: null, memo: null, movementCents: 0, feesCents: 0,
    entryLegId: '1042', feeLegId: null, merchantOrderId: null, merchantReference: null, externalTransferId: null, ...m,
  });

  it('a credit: its memo, or "Credit"; no reference', () => {
    expect(entriesOf(movement({ memo: 'float', movementCents: 100_000 }), 0)).toEqual([{
      entryId: '1042', postedAt: AT, type: 'credit', reference: null, amountCents: 100_000, balanceAfterCents: 100_000, description: 'float',
      grossCents: 100_000, feeCents: 0, orderReference: null, bankReference: null,
    }]);
    expect(entriesOf(movement({ movementCents: 2_345 }), 500)[0]).toMatchObject({ description: 'Credit', balanceAfterCents: 2_845 });
    // A kind the statement does not know is a credit, and a credit names nothing (CONTRACT §10), even one tied to a payment.
    expect(entriesOf(movement({ kind: 'operator_adjustment', paymentId: PAYMENT_ID, movementCents: 100 }), 0)[0]).toMatchObject({ type: 'credit', reference: null, description: 'Credit' });
  });

  it('a payment: what reached the balance, netted of its fee, and the fee apart for the books', () => {
    const captured = movement({ kind: 'payment_capture', paymentId: PAYMENT_ID, merchantOrderId: 'ORD-1001, "kettle"', movementCents: 9_900, feesCents: 100, feeLegId: '1044' });
    expect(entriesOf(captured, 100_000)).toEqual([{
      entryId: '1042', postedAt: AT, type: 'payment', reference: PAYMENT_ID, amountCents: 9_900, balanceAfterCents: 109_900,
      description: 'Payment for order ORD-1001, "kettle": R 100.00 less fee R 1.00', grossCents: 10_000, feeCents: -100, orderReference: 'ORD-1001, "kettle"', bankReference: null,
    }]);
    // A fee of one cent is a fee; none is none.
    expect(entriesOf({ ...captured, movementCents: 12_344, feesCents: 1 }, 0)[0]).toMatchObject({ description: 'Payment for order ORD-1001, "kettle": R 123.45 less fee R 0.01', grossCents: 12_345, feeCents: -1 });
    const feeless = entriesOf({ ...captured, movementCents: 12_345, feesCents: 0, feeLegId: null }, 0)[0]!;
    expect(feeless).toMatchObject({ description: 'Payment for order ORD-1001, "kettle"', grossCents: 12_345 });
    expect(Object.is(feeless.feeCents, 0)).toBe(true); // zero, not -0: no fee is no fee, in arithmetic too
    expect(entriesOf({ ...captured, merchantOrderId: null, movementCents: 5_500, feesCents: 0 }, 0)[0]!.description).toBe('Payment');
  });

  it('a completed payout: the payout, then its fee, as a bank statement shows them', () => {
    const settled = movement({ kind: 'payout_settle', payoutId: PAYOUT_ID, merchantReference: '-INV-7', externalTransferId: 'ABSA-77', movementCents: -20_500, feesCents: 500, feeLegId: '1045' });
    const both = { postedAt: AT, reference: PAYOUT_ID, feeCents: 0, orderReference: '-INV-7', bankReference: 'ABSA-77' };
    expect(entriesOf(settled, 109_900)).toEqual([
      { ...both, entryId: '1042', type: 'payout', amountCents: -20_000, grossCents: -20_000, balanceAfterCents: 89_900, description: 'Payout -INV-7' },
      { ...both, entryId: '1045', type: 'payout_fee', amountCents: -500, grossCents: -500, balanceAfterCents: 89_400, description: 'Payout fee -INV-7' },
    ]);
    expect(entriesOf({ ...settled, merchantReference: null }, 0).map((e) => e.description)).toEqual(['Payout', 'Payout fee']);
    // Without a fee (or without its leg) the payout is one entry.
    for (const m of [{ ...settled, movementCents: -20_000, feesCents: 0 }, { ...settled, feeLegId: null, movementCents: -20_000 }]) {
      expect(entriesOf(m, 20_000)).toEqual([{ ...both, entryId: '1042', type: 'payout', amountCents: -20_000, grossCents: -20_000, balanceAfterCents: 0, description: 'Payout -INV-7' }]);
    }
    expect(entriesOf({ ...settled, feesCents: 0, merchantReference: null, externalTransferId: null }, 0)[0]).toMatchObject({ description: 'Payout', bankReference: null, orderReference: null });
  });

  it('a refund: the refund\'s id (else the payment\'s), its memo or "Refund for order …"', () => {
    const refunded = movement({ kind: 'refund_settle', paymentId: PAYMENT_ID, refundId: REFUND_ID, merchantOrderId: 'ORD-1001', movementCents: -10_050 });
    expect(entriesOf(refunded, 30_000)).toEqual([{
      entryId: '1042', postedAt: AT, type: 'refund', reference: REFUND_ID, amountCents: -10_050, balanceAfterCents: 19_950, description: 'Refund for order ORD-1001',
      grossCents: -10_050, feeCents: 0, orderReference: 'ORD-1001', bankReference: null,
    }]);
    expect(entriesOf({ ...refunded, refundId: null }, 0)[0]!.reference).toBe(PAYMENT_ID);
    expect(entriesOf({ ...refunded, memo: 'customer returned the kettle' }, 0)[0]!.description).toBe('customer returned the kettle');
    expect(entriesOf({ ...refunded, merchantOrderId: null }, 0)[0]!.description).toBe('Refund');
  });

  it('a payout the bank gave back: credited again, with the bank\'s reason', () => {
    const returned = movement({ kind: 'payout_return', payoutId: PAYOUT_ID, merchantReference: 'INV-7', externalTransferId: 'ABSA-77', memo: 'AC04 closed account', movementCents: 20_000 });
    expect(entriesOf(returned, 0)).toEqual([{
      entryId: '1042', postedAt: AT, type: 'payout_return', reference: PAYOUT_ID, amountCents: 20_000, balanceAfterCents: 20_000,
      description: 'Payout returned by the bank INV-7: AC04 closed account', grossCents: 20_000, feeCents: 0, orderReference: 'INV-7', bankReference: 'ABSA-77',
    }]);
    expect(entriesOf({ ...returned, merchantReference: null, memo: null }, 0)[0]!.description).toBe('Payout returned by the bank');
  });

  it('writes CSV cells that a spreadsheet neither splits nor runs', () => {
    expect(csvText(null)).toBe('');
    expect(csvText('')).toBe('');
    expect(csvText('Payout INV-7')).toBe('Payout INV-7');
    expect(csvText('a, b')).toBe('"a, b"');
    expect(csvText('say "hi" and "bye"')).toBe('"say ""hi"" and ""bye"""');
    expect(csvText('two\nlines')).toBe('"two\nlines"');
    expect(csvText('two\rlines')).toBe('"two\rlines"');
    for (const lead of ['=', '+', '-', '@']) expect(csvText(`${lead}1+1`), lead).toBe(`'${lead}1+1`);
    expect(csvText('\tx')).toBe("'\tx");
    expect(csvText('\rx')).toBe(`"'\rx"`);
    expect(csvText('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    // Only a leading sign is a formula.
    expect(csvText('1+1=2')).toBe('1+1=2');
    expect(csvText('a@b')).toBe('a@b');
  });

  const payment: StatementEntry = {
    entryId: '1042', postedAt: AT, type: 'payment', reference: PAYMENT_ID, amountCents: 9_900, balanceAfterCents: 109_900,
    description: 'Payment for order ORD-1001, "kettle": R 100.00 less fee R 1.00', grossCents: 10_000, feeCents: -100, orderReference: 'ORD-1001, "kettle"', bankReference: null,
  };
  const credit: StatementEntry = { ...payment, entryId: '1041', type: 'credit', reference: null, amountCents: -500, balanceAfterCents: 0, description: 'float', grossCents: -500, feeCents: 0, orderReference: null };

  it('writes an entry as the contract\'s CSV line', () => {
    expect(STATEMENT_CSV_HEADER).toBe('posted_at,type,reference,amount_cents,balance_after_cents,description');
    expect(statementCsvLine(payment)).toBe(`2026-11-22T10:15:30.000Z,payment,${PAYMENT_ID},9900,109900,"Payment for order ORD-1001, ""kettle"": R 100.00 less fee R 1.00"\r\n`);
    expect(statementCsvLine(credit)).toBe('2026-11-22T10:15:30.000Z,credit,,-500,0,float\r\n');
  });

  it('sends an entry as the document\'s StatementEntry, and a statement as its Statement', () => {
    expect(statementEntryJson(payment)).toEqual({
      entry_id: '1042', posted_at: '2026-11-22T10:15:30.000Z', type: 'payment', reference: PAYMENT_ID, amount_cents: 9_900, balance_after_cents: 109_900,
      description: 'Payment for order ORD-1001, "kettle": R 100.00 less fee R 1.00',
    });
    const entries = [statementEntryJson(credit), statementEntryJson(payment)];
    const statement = { from: '2026-11-01', to: '2026-11-30', opening_balance_cents: 500, entries, closing_balance_cents: 9_900, total: 2 };
    for (const e of entries) {
      expect(published('StatementEntry', e)).toBe(true);
      expect(statementEntryJsonSchema.safeParse(e).success).toBe(true);
    }
    for (const type of STATEMENT_ENTRY_TYPES) expect(published('StatementEntry', { ...entries[1], type }), type).toBe(true);
    expect(published('Statement', statement)).toBe(true);
    expect(statementJsonSchema.safeParse(statement).success).toBe(true);
    expect(published('Statement', { ...statement, entries: [], total: 0 })).toBe(true);
    for (const wrong of [{ entry_id: '1'.repeat(41) }, { type: 'fee' }, { reference: 'ORD-1' }, { amount_cents: 1.5 }, { description: 'd'.repeat(301) }, { posted_at: '2026-11-22' }, { other: 1 }]) {
      expect(published('StatementEntry', { ...entries[1], ...wrong }), JSON.stringify(wrong)).toBe(false);
      expect(statementEntryJsonSchema.safeParse({ ...entries[1], ...wrong }).success, JSON.stringify(wrong)).toBe(false);
    }
    for (const wrong of [{ total: -1 }, { opening_balance_cents: 0.5 }, { other: 1 }]) {
      expect(published('Statement', { ...statement, ...wrong }), JSON.stringify(wrong)).toBe(false);
      expect(statementJsonSchema.safeParse({ ...statement, ...wrong }).success, JSON.stringify(wrong)).toBe(false);
    }
  });
});

describe('accounting-statement.ts: the bookkeeper\'s rows, opening to closing', () => {
  it('writes cents as rand with a dot, two decimals and no separator, exactly', () => {
    expect([0, 1, 5, 99, 100, 101, 123_456, -1, -5, -99, -100, -25_000, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER].map(randText)).toEqual([
      '0.00', '0.01', '0.05', '0.99', '1.00', '1.01', '1234.56', '-0.01', '-0.05', '-0.99', '-1.00', '-250.00', '90071992547409.91', '-90071992547409.91',
    ]);
  });

  it('writes an instant as the minute in Africa/Johannesburg', () => {
    expect(sastMinute(new Date('2026-02-28T22:00:00Z'))).toBe('2026-03-01 00:00');
    expect(sastMinute(new Date('2026-02-28T21:59:59.999Z'))).toBe('2026-02-28 23:59');
    expect(sastMinute(AT)).toBe('2026-11-22 12:15');
  });

  const payment: StatementEntry = {
    entryId: '1042', postedAt: AT, type: 'payment', reference: PAYMENT_ID, amountCents: 12_222, balanceAfterCents: 62_222,
    description: 'Payment for order ORD-1001, "kettle": R 123.45 less fee R 1.23', grossCents: 12_345, feeCents: -123, orderReference: 'ORD-1001, "kettle"', bankReference: null,
  };
  const payout: StatementEntry = {
    entryId: '1043', postedAt: new Date('2026-11-22T21:59:00Z'), type: 'payout', reference: PAYOUT_ID, amountCents: -20_000, balanceAfterCents: 42_222,
    description: 'Payout -INV-7', grossCents: -20_000, feeCents: 0, orderReference: '-INV-7', bankReference: 'ABSA-77',
  };

  it('gives the opening row, one row per entry with gross + fee = net, and the closing row', () => {
    expect(ACCOUNTING_CSV_HEADER).toBe('date,type,description,reference,order_reference,bank_reference,gross,fee,net,balance');
    const none = { reference: null, orderReference: null, bankReference: null, gross: null, fee: null, net: null };
    expect(openingRow('2026-11-22', 50_000)).toEqual({ date: '2026-11-22 00:00', type: 'opening', description: 'Opening balance', ...none, balance: '500.00' });
    expect(closingRow('2026-11-22', 42_222)).toEqual({ date: '2026-11-22 23:59', type: 'closing', description: 'Closing balance', ...none, balance: '422.22' });
    expect(entryRow(payment)).toEqual({
      date: '2026-11-22 12:15', type: 'payment', description: 'Payment for order ORD-1001, "kettle": R 123.45 less fee R 1.23', reference: PAYMENT_ID,
      orderReference: 'ORD-1001, "kettle"', bankReference: null, gross: '123.45', fee: '-1.23', net: '122.22', balance: '622.22',
    });
    const rows = accountingRows({ from: '2026-11-22', to: '2026-11-23', openingBalanceCents: 50_000, closingBalanceCents: 42_222, entries: [payment, payout] });
    expect(rows.map((r) => [r.date, r.type, r.gross, r.fee, r.net, r.balance])).toEqual([
      ['2026-11-22 00:00', 'opening', null, null, null, '500.00'],
      ['2026-11-22 12:15', 'payment', '123.45', '-1.23', '122.22', '622.22'],
      ['2026-11-22 23:59', 'payout', '-200.00', '0.00', '-200.00', '422.22'],
      ['2026-11-23 23:59', 'closing', null, null, null, '422.22'],
    ]);
    expect(accountingRows({ from: '2020-01-01', to: '2020-01-31', openingBalanceCents: 0, closingBalanceCents: 0, entries: [] })).toEqual([openingRow('2020-01-01', 0), closingRow('2020-01-31', 0)]);
  });

  it('writes each row as a CSV line: empty cells where there is nothing, text quoted and never run', () => {
    expect(accountingCsvLine(openingRow('2026-11-22', 50_000))).toBe('2026-11-22 00:00,opening,Opening balance,,,,,,,500.00\r\n');
    expect(accountingCsvLine(entryRow(payment))).toBe(
      `2026-11-22 12:15,payment,"Payment for order ORD-1001, ""kettle"": R 123.45 less fee R 1.23",${PAYMENT_ID},"ORD-1001, ""kettle""",,123.45,-1.23,122.22,622.22\r\n`,
    );
    expect(accountingCsvLine(entryRow(payout))).toBe(`2026-11-22 23:59,payout,Payout -INV-7,${PAYOUT_ID},'-INV-7,ABSA-77,-200.00,0.00,-200.00,422.22\r\n`);
    expect(accountingCsvLine(entryRow({ ...payout, bankReference: '=1+1', description: '@x' }))).toBe(`2026-11-22 23:59,payout,'@x,${PAYOUT_ID},'-INV-7,'=1+1,-200.00,0.00,-200.00,422.22\r\n`);
  });
});

describe('balance.ts: the balance, what made it, and an operator\'s credit', () => {
  const balance: Balance = {
    merchantId: MERCHANT_ID, balanceCents: 36_094, reservedCents: 1_500, availableCents: 34_594, currency: 'ZAR',
    totals: { grossCents: 32_395, feesCents: 1_251, withdrawalsCents: 5_000, refundsCents: 10_050, returnedCents: 20_000 },
  };
  const breakdown: BalanceBreakdown = { paymentsCents: 30_050, paymentFeesCents: 751, creditsCents: 2_345, payoutsCents: 5_000, payoutFeesCents: 500, refundsCents: 10_050, returnsCents: 20_000 };
  const plain = {
    merchant_id: MERCHANT_ID, balance_cents: 36_094, reserved_cents: 1_500,
    totals: { gross_cents: 32_395, fees_cents: 1_251, withdrawals_cents: 5_000, refunds_cents: 10_050, returned_cents: 20_000 },
    available_cents: 34_594, currency: 'ZAR',
  };

  it('sends the balance alone, or with its breakdown when one is asked for, as the document publishes it', () => {
    expect(balanceJson(balance)).toEqual(plain);
    expect(balanceJson(balance)).not.toHaveProperty('breakdown');
    const full = balanceJson(balance, breakdown);
    expect(full).toEqual({
      ...plain,
      breakdown: { payments_cents: 30_050, payment_fees_cents: 751, credits_cents: 2_345, payouts_cents: 5_000, payout_fees_cents: 500, refunds_cents: 10_050, returns_cents: 20_000 },
    });
    for (const json of [plain, full]) {
      expect(published('Balance', json)).toBe(true);
      expect(balanceJsonSchema.safeParse(json).success).toBe(true);
    }
    for (const wrong of [{ currency: 'USD' }, { balance_cents: -1 }, { merchant_id: 'm' }, { other: 1 }, { totals: { ...plain.totals, other: 1 } }, { breakdown: { ...full.breakdown, other: 1 } }]) {
      expect(published('Balance', { ...full, ...wrong }), JSON.stringify(wrong)).toBe(false);
      expect(balanceJsonSchema.safeParse({ ...full, ...wrong }).success, JSON.stringify(wrong)).toBe(false);
    }
  });

  it('adds the breakdown only for include=breakdown', () => {
    expect(balanceQuery.parse({})).toEqual({});
    expect(balanceQuery.parse({ include: 'breakdown' })).toEqual({ include: 'breakdown' });
    expect(balanceQuery.parse({ include: null }).include).toBeUndefined();
    expect(problems(balanceQuery, { include: 'everything' })).toEqual(['include: must be breakdown']);
    expect(problems(balanceQuery, { include: '' })).toEqual(['include: must be breakdown']);
    expect(problems(balanceQuery, { other: '1' })).toHaveLength(1);
    expect(DOCUMENT.paths['/api/v1/payouts/balance'].get.parameters).toEqual([{
      in: 'query', name: 'include',
      schema: { anyOf: [{ type: 'string', const: 'breakdown', description: 'breakdown: add what made the balance, apart (a sum over the journal)', example: 'breakdown' }, { type: 'null' }] },
    }]);
  });

  it('credits whole cents from 1 to R 100 000 000 000, with a memo of at most 500 characters', () => {
    expect(creditInput.parse({ amountCents: 1 })).toEqual({ amountCents: 1 });
    expect(creditInput.parse({ amountCents: 1e13, memo: 'm'.repeat(500) })).toEqual({ amountCents: 1e13, memo: 'm'.repeat(500) });
    expect(creditInput.parse({ amountCents: 100, memo: null })).toEqual({ amountCents: 100 });
    expect(problems(creditInput, { amountCents: 0 })).toEqual(['amountCents: must be greater than 0']);
    expect(problems(creditInput, { amountCents: -5 })).toEqual(['amountCents: must be greater than 0']);
    expect(problems(creditInput, { amountCents: 1.5 })).toEqual(['amountCents: must be a whole number']);
    expect(problems(creditInput, { amountCents: 1e13 + 1 })).toEqual(['amountCents: must be at most 10000000000000']);
    expect(problems(creditInput, { amountCents: 100, memo: 'm'.repeat(501) })).toEqual(['memo: must be at most 500 characters']);
    expect(problems(creditInput, { amountCents: 100, other: 1 })).toHaveLength(1);
  });
});

describe('payment-search.ts: one text read as an order reference, an amount and an e-mail address at once', () => {
  it('reads an order reference as typed, less the spaces around it', () => {
    expect(paymentSearch('  INV-2026-004 ')).toEqual({ orderPrefix: 'INV-2026-004', amountCents: null, email: null });
  });

  it('reads rand as people type it as cents too', () => {
    expect(paymentSearch(' 100,50 ')).toEqual({ orderPrefix: '100,50', amountCents: 10_050, email: null });
    expect(paymentSearch('R 100')).toEqual({ orderPrefix: 'R 100', amountCents: 10_000, email: null });
    expect(paymentSearch('200')).toEqual({ orderPrefix: '200', amountCents: 20_000, email: null });
  });

  it('reads something@something as an e-mail address, in lower case', () => {
    expect(paymentSearch(' Thandi@Example.CO.ZA ')).toEqual({ orderPrefix: 'Thandi@Example.CO.ZA', amountCents: null, email: 'thandi@example.co.za' });
    expect(paymentSearch('thandi@example').email).toBe('thandi@example');
    expect(paymentSearch('a@b').email).toBe('a@b');
    for (const not of ['example.co.za', '@example.co.za', 'thandi@', 'thandi@@example', 'a@b@c', 'two words@example.co.za', 'thandi@example.co.za x', 'thandi@exa mple']) {
      expect(paymentSearch(not).email, not).toBeNull();
    }
  });
});

describe('payment-json.ts: a payment as REST, webhooks and events send it', () => {
  const base: Payment = {
    id: PAYMENT_ID, merchantId: MERCHANT_ID, merchantOrderId: 'ORD-1001', description: 'Two tickets, Saturday 20:00', intentType: 'purchase', amountCents: 12_345, currency: 'ZAR',
    feeCents: 309, netAmountCents: 12_036, status: 'created', failureReason: null, includeQr: false, successUrl: null, cancelUrl: null, failureUrl: null, webhookUrl: null,
    paymentLinkId: null, createdAt: AT, updatedAt: AT, completedAt: null, refundedCents: 0, latestAttempt: null, voucherCode: null, voucherRedeemed: false,
  };
  const created = {
    payment_id: PAYMENT_ID, merchant_order_id: 'ORD-1001', description: 'Two tickets, Saturday 20:00', status: 'created', failure_reason: null, amount: 12_345, currency: 'ZAR',
    fee_cents: 309, net_amount_cents: 12_036, voucher_code: null, voucher_redeemed: false, refunded_cents: 0, payment_link_id: null, created_at: '2026-11-22T10:15:30.000Z',
  };
  const captured: Payment = {
    ...base, status: 'captured', completedAt: AT, refundedCents: 2_500, voucherCode: '4821-0937-5512-6604', voucherRedeemed: true, paymentLinkId: REFUND_ID,
    latestAttempt: { status: 'succeeded', provider: 'sandbox', providerRef: 'sbx_fca14468fc9de4c463ac4359', createdAt: new Date('2026-11-22T10:16:00Z') },
  };

  it('sends a new payment without latest_attempt, and a captured one with its attempt, voucher and refunds', () => {
    expect(paymentJson(base)).toEqual(created);
    expect(paymentJson(base)).not.toHaveProperty('latest_attempt');
    expect(paymentJson(captured)).toEqual({
      ...created, status: 'captured', voucher_code: '4821-0937-5512-6604', voucher_redeemed: true, refunded_cents: 2_500, payment_link_id: REFUND_ID,
      latest_attempt: { status: 'succeeded', provider: 'sandbox', provider_ref: 'sbx_fca14468fc9de4c463ac4359', created_at: '2026-11-22T10:16:00.000Z' },
    });
  });

  it('says why a payment failed only when zarpay decided it: expired, or its link was paid already', () => {
    const failed = { ...base, status: 'failed' as const, netAmountCents: null, completedAt: AT };
    expect(paymentJson({ ...failed, failureReason: 'expired' })).toMatchObject({ status: 'failed', failure_reason: 'expired', net_amount_cents: null });
    expect(paymentJson({ ...failed, failureReason: 'link_paid_already' }).failure_reason).toBe('link_paid_already');
    expect(paymentJson({ ...failed, failureReason: 'declined by the issuer' }).failure_reason).toBeNull();
    expect(paymentJson(failed).failure_reason).toBeNull();
  });

  it('leaves the voucher code out of an event\'s data, and nothing else', () => {
    const data = paymentEventData(captured);
    expect(data).not.toHaveProperty('voucher_code');
    const { voucher_code: _code, ...rest } = paymentJson(captured);
    expect(data).toEqual(rest);
    expect(Object.keys(data)).toEqual([
      'payment_id', 'merchant_order_id', 'description', 'status', 'failure_reason', 'amount', 'currency', 'fee_cents', 'net_amount_cents', 'latest_attempt', 'voucher_redeemed', 'refunded_cents', 'payment_link_id', 'created_at',
    ]);
  });

  it('answers an initiation with the page to pay on, and the QR code only when asked for', () => {
    const links = { paymentUrl: `https://zarpay.example/pay/${PAYMENT_ID}`, qrCode: null };
    const initiation: PaymentInitiation = { payment: base, links, created: true, warnings: [] };
    expect(paymentInitiationJson(initiation)).toEqual({ payment_id: PAYMENT_ID, status: 'created', payment_url: `https://zarpay.example/pay/${PAYMENT_ID}` });
    const qrCode = { content: links.paymentUrl, imageUrl: `https://zarpay.example/qr/${PAYMENT_ID}.png?exp=1&sig=abc` };
    const withQr = paymentInitiationJson({ ...initiation, links: { ...links, qrCode } });
    expect(withQr).toEqual({
      payment_id: PAYMENT_ID, status: 'created', payment_url: links.paymentUrl, qr_code: { content: links.paymentUrl, image_url: `https://zarpay.example/qr/${PAYMENT_ID}.png?exp=1&sig=abc` },
    });
    for (const json of [paymentInitiationJson(initiation), withQr]) {
      expect(published('PaymentInitiation', json)).toBe(true);
      expect(paymentInitiationJsonSchema.safeParse(json).success).toBe(true);
    }
    for (const wrong of [{ status: 'initiated' }, { payment_url: 'pay here' }, { qr_code: { content: links.paymentUrl } }, { other: 1 }]) {
      expect(published('PaymentInitiation', { ...withQr, ...wrong }), JSON.stringify(wrong)).toBe(false);
      expect(paymentInitiationJsonSchema.safeParse({ ...withQr, ...wrong }).success, JSON.stringify(wrong)).toBe(false);
    }
  });

  it('sends what the document publishes as a Payment, in every state, and nothing else', () => {
    const masked = { ...captured, voucherCode: '****-****-****-6604', merchantOrderId: 'o'.repeat(255), description: 'd'.repeat(200) };
    const states = [base, captured, masked, { ...base, status: 'failed', failureReason: 'expired', netAmountCents: null, description: null }] as Payment[];
    for (const p of states) {
      expect(published('Payment', paymentJson(p)), p.status).toBe(true);
      expect(paymentJsonSchema.safeParse(paymentJson(p)).success, p.status).toBe(true);
    }
    const sent = paymentJson(captured);
    for (const wrong of [
      { status: 'refunded' }, { failure_reason: 'declined' }, { currency: 'USD' }, { amount: -1 }, { merchant_order_id: 'o'.repeat(256) }, { description: 'd'.repeat(201) },
      { voucher_code: '4821-0937-5512' }, { voucher_code: '4821-0937-5512-****' }, { latest_attempt: { ...sent.latest_attempt, status: 'done' } }, { payment_link_id: 'link' }, { other: 1 },
    ]) {
      expect(published('Payment', { ...sent, ...wrong }), JSON.stringify(wrong)).toBe(false);
      expect(paymentJsonSchema.safeParse({ ...sent, ...wrong }).success, JSON.stringify(wrong)).toBe(false);
    }
  });

  it('the document tells a client what the net amount is, and the voucher code\'s exact shape', () => {
    const { net_amount_cents: net, voucher_code: voucher } = DOCUMENT.components.schemas.Payment.properties;
    expect(net.anyOf[0].description).toBe('amount - fee_cents: credited to the balance on capture with auto top-up; null once failed or cancelled');
    expect(voucher.anyOf[0]).toEqual({ type: 'string', maxLength: 19, pattern: '^(\\d{4}|\\*{4})-(\\d{4}|\\*{4})-(\\d{4}|\\*{4})-\\d{4}$' });
  });
});

describe('payout-json.ts: a payout as sent, with the members of its state, and read back from an event', () => {
  const pending: Payout = {
    id: PAYOUT_ID, merchantId: MERCHANT_ID, amountCents: 25_000, feeCents: 500, grossAmountCents: 25_500, currency: 'ZAR', status: 'pending', payoutMethod: 'eft',
    merchantReference: null, description: null, metadata: null, externalTransferId: null, failureReason: null, rejectionReason: null,
    createdAt: AT, updatedAt: AT, completedAt: null, returnedAt: null, returnReason: null,
  };
  const pendingJson = {
    id: PAYOUT_ID, merchant_id: MERCHANT_ID, amount_cents: 25_000, fee_cents: 500, gross_amount_cents: 25_500, currency: 'ZAR', status: 'pending', payout_method: 'eft',
    created_at: '2026-11-22T10:15:30.000Z', updated_at: '2026-11-22T10:15:30.000Z', returned_at: null, return_reason: null,
  };
  const later = new Date('2026-11-23T08:00:00Z');
  const completed: Payout = {
    ...pending, status: 'completed', merchantReference: 'INV-1001', description: 'Supplier invoice 1001', metadata: { invoice: 1001 }, externalTransferId: 'FNB-778812',
    updatedAt: later, completedAt: later,
  };

  it('sends a new payout with only what it has', () => {
    expect(payoutJson(pending)).toEqual(pendingJson);
  });

  it('a completed payout: the bank\'s transfer id and when it completed; then when the bank gave it back, and why', () => {
    const json = {
      ...pendingJson, status: 'completed', merchant_reference: 'INV-1001', description: 'Supplier invoice 1001', metadata: { invoice: 1001 }, external_transfer_id: 'FNB-778812',
      updated_at: '2026-11-23T08:00:00.000Z', completed_at: '2026-11-23T08:00:00.000Z',
    };
    expect(payoutJson(completed)).toEqual(json);
    const back = new Date('2026-11-25T09:00:00Z');
    expect(payoutJson({ ...completed, returnedAt: back, returnReason: 'AC04 closed account' })).toEqual({ ...json, returned_at: '2026-11-25T09:00:00.000Z', return_reason: 'AC04 closed account' });
    // Completed but not yet stamped: neither member.
    const bare = payoutJson({ ...completed, externalTransferId: null, completedAt: null });
    expect(bare).not.toHaveProperty('external_transfer_id');
    expect(bare).not.toHaveProperty('completed_at');
  });

  it('a failed or rejected payout: its reason, and none of another state\'s members', () => {
    const failed = payoutJson({ ...pending, status: 'failed', failureReason: 'Account closed', rejectionReason: 'x', externalTransferId: 'FNB-1', completedAt: later });
    expect(failed).toEqual({ ...pendingJson, status: 'failed', failure_reason: 'Account closed' });
    const rejected = payoutJson({ ...pending, status: 'rejected', rejectionReason: 'Unknown recipient', failureReason: 'x', externalTransferId: 'FNB-1', completedAt: later });
    expect(rejected).toEqual({ ...pendingJson, status: 'rejected', rejection_reason: 'Unknown recipient' });
    expect(payoutJson({ ...pending, status: 'completed', failureReason: 'x', rejectionReason: 'y' })).toEqual({ ...pendingJson, status: 'completed' });
    expect(payoutJson({ ...pending, status: 'failed' })).toEqual({ ...pendingJson, status: 'failed' });
    expect(payoutJson({ ...pending, status: 'rejected' })).toEqual({ ...pendingJson, status: 'rejected' });
  });

  it('reads an event\'s payout back as it was', () => {
    expect(payoutFromJson(pendingJson as never)).toEqual(pending);
    const returned: Payout = { ...completed, returnedAt: new Date('2026-11-25T09:00:00Z'), returnReason: 'AC04 closed account' };
    expect(payoutFromJson(payoutJson(returned))).toEqual(returned);
    for (const p of [{ ...pending, status: 'failed', failureReason: 'Account closed' }, { ...pending, status: 'rejected', rejectionReason: 'Unknown recipient' }] as Payout[]) {
      expect(payoutFromJson(payoutJson(p))).toEqual(p);
    }
  });

  it('sends what the document publishes as a Payout, in every state, and nothing else', () => {
    const long = { ...completed, merchantReference: 'r'.repeat(100), description: 'd'.repeat(500), returnedAt: later, returnReason: 'AC04 closed account' };
    for (const p of [pending, completed, long, { ...pending, status: 'failed', failureReason: 'f'.repeat(500) }, { ...pending, status: 'rejected', rejectionReason: 'r'.repeat(500) },
      { ...pending, status: 'failed', failureReason: 'Account closed' }, { ...pending, status: 'rejected', rejectionReason: 'Unknown recipient' }] as Payout[]) {
      expect(published('Payout', payoutJson(p)), p.status).toBe(true);
      expect(payoutJsonSchema.safeParse(payoutJson(p)).success, p.status).toBe(true);
    }
    const sent = payoutJson(completed);
    for (const wrong of [
      { currency: 'USD' }, { status: 'paid' }, { payout_method: 'rtc' }, { amount_cents: -1 }, { merchant_reference: 'r'.repeat(101) }, { description: 'd'.repeat(501) },
      { external_transfer_id: 'x'.repeat(501) }, { return_reason: 'x'.repeat(501) }, { completed_at: '2026-11-23' }, { id: 'p1' }, { other: 1 },
    ]) {
      expect(published('Payout', { ...sent, ...wrong }), JSON.stringify(wrong)).toBe(false);
      expect(payoutJsonSchema.safeParse({ ...sent, ...wrong }).success, JSON.stringify(wrong)).toBe(false);
    }
  });
});
