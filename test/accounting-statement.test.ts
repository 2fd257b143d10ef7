import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randText, sastMinute } from '../src/domain/accounting-statement.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, gql, http, op, payoutBody, type TestMerchant } from './support/client.ts';
import { newPayment } from './support/payments.ts';
import { zarpay } from './support/processes.ts';

/** The statement for bookkeepers (issue 34 slice 1; CONTRACT §11 "Statements for bookkeepers"). */
let t: TestApp;
let shop: TestMerchant;
let ids: { payment: string; formula: string; payout: string };
const HEADER = 'date,type,description,reference,order_reference,bank_reference,gross,fee,net,balance';
const sastDay = (offsetDays = 0) => new Date(Date.now() + 2 * 3600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** RFC 4180 lines into cells (quoted cells may hold commas and doubled quotes; no line breaks here). */
function parseCsv(text: string): string[][] {
  expect(text.endsWith('\r\n')).toBe(true);
  return text
    .slice(0, -2)
    .split('\r\n')
    .map((line) => {
      const cells: string[] = [];
      let i = 0;
      while (i <= line.length) {
        if (line[i] === '"') {
          let v = '';
          i += 1;
          for (;;) {
            const q = line.indexOf('"', i);
            v += line.slice(i, q);
            if (line[q + 1] === '"') {
              v += '"';
              i = q + 2;
            } else {
              i = q + 2;
              break;
            }
          }
          cells.push(v);
        } else {
          const c = line.indexOf(',', i);
          const end = c < 0 ? line.length : c;
          cells.push(line.slice(i, end));
          i = end + 1;
        }
      }
      return cells;
    });
}

/** Rand text back to cents, refusing anything but `-?\d+\.\d\d`. */
const cents = (s: string) => {
  expect(s).toMatch(/^-?\d+\.\d{2}$/);
  return Math.round(Number(s) * 100);
};

const accounting = async (query: string, headers: Record<string, string> = {}, m: TestMerchant = shop) =>
  http(t, 'GET', `/api/v1/statements${query}`, { key: m.key, headers });

beforeAll(async () => {
  t = await startApp();
  shop = await createMerchant(t, { paymentFeeBps: 100, payoutFeeCents: 500, autoTopup: true });
  // Yesterday's credit: in the opening balance of a statement of today.
  const at = new Date(Date.parse(`${sastDay(-1)}T01:00:00+02:00`)).toISOString();
  const id = randomUUID();
  await sql`insert into ledger_transactions (id, merchant_id, kind, memo, created_at) values (${id}, ${shop.id}, 'credit', 'float', ${at}::timestamptz)`.execute(t.database.db);
  await sql`insert into ledger_entries (transaction_id, merchant_id, account, amount_cents, created_at)
            values (${id}, ${shop.id}, 'funding', -50000, ${at}::timestamptz), (${id}, ${shop.id}, 'merchant_available', 50000, ${at}::timestamptz)`.execute(t.database.db);
  await sql`update balances set balance_cents = balance_cents + 50000, gross_cents = gross_cents + 50000 where merchant_id = ${shop.id}`.execute(t.database.db);
  await credit(t, shop.id, 100_000);
  const payment = await newPayment(t, shop, { amount: 12_345, merchant_order_id: 'ORD-1001, "kettle"' });
  const formula = await newPayment(t, shop, { amount: 10_000, merchant_order_id: '=HYPERLINK("http://x")' });
  for (const p of [payment, formula]) await op(t, `mutation { settlePayment(id: "${p.payment_id}", outcome: CAPTURED) { payment { id } } }`);
  const payout = (await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(20_000, { merchant_reference: '-INV-7' }) })).body.data;
  for (const move of ['approvePayout', 'startPayoutTransfer']) await op(t, `mutation { ${move}(id: "${payout.id}") { payout { id } } }`);
  await op(t, `mutation { completePayout(id: "${payout.id}", externalTransferId: "ABSA-77") { payout { id } } }`);
  ids = { payment: payment.payment_id, formula: formula.payment_id, payout: payout.id };
});
afterAll(() => t?.close());

describe('GET /api/v1/statements?format=accounting', () => {
  it('writes opening, one row per entry and closing, with gross + fee = net on every row and Σ net = closing − opening', async () => {
    const json = (await accounting(`?from=${sastDay()}&to=${sastDay()}`)).body.data;
    const res = await accounting(`?from=${sastDay()}&to=${sastDay()}&format=accounting`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = parseCsv(res.body as string);
    expect(rows[0]!.join(',')).toBe(HEADER);
    const body = rows.slice(1);
    expect(body.every((r) => r.length === 10)).toBe(true);
    expect(body[0]).toEqual([`${sastDay()} 00:00`, 'opening', 'Opening balance', '', '', '', '', '', '', '500.00']);
    expect(body.at(-1)).toEqual([`${sastDay()} 23:59`, 'closing', 'Closing balance', '', '', '', '', '', '', randText(json.closing_balance_cents)]);
    const entries = body.slice(1, -1);
    expect(entries.map((r) => r[1])).toEqual(['credit', 'payment', 'payment', 'payout', 'payout_fee']);
    // The JSON statement's entries, one for one.
    expect(entries.map((r) => cents(r[8]!))).toEqual(json.entries.map((e: any) => e.amount_cents));
    expect(entries.map((r) => cents(r[9]!))).toEqual(json.entries.map((e: any) => e.balance_after_cents));
    expect(entries.map((r) => r[0])).toEqual(json.entries.map((e: any) => sastMinute(new Date(e.posted_at))));
    for (const r of entries) {
      expect(r[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      expect(cents(r[6]!) + cents(r[7]!)).toBe(cents(r[8]!));
    }
    const opening = cents(body[0]![9]!);
    const closing = cents(body.at(-1)![9]!);
    expect(entries.reduce((s, r) => s + cents(r[8]!), 0)).toBe(closing - opening);
    // A payment: gross what the customer paid, fee zarpay's (negative), net what reached the balance.
    const [, payment, formula, payout, fee] = entries;
    expect(payment!.slice(3, 9)).toEqual([ids.payment, 'ORD-1001, "kettle"', '', '123.45', '-1.23', '122.22']);
    // A cell a spreadsheet would run: a leading '.
    expect(formula![4]).toBe(`'=HYPERLINK("http://x")`);
    expect(payout!.slice(3, 9)).toEqual([ids.payout, `'-INV-7`, 'ABSA-77', '-200.00', '0.00', '-200.00']);
    expect(fee!.slice(3, 9)).toEqual([ids.payout, `'-INV-7`, 'ABSA-77', '-5.00', '0.00', '-5.00']);
    expect(entries[0]!.slice(6, 9)).toEqual(['1000.00', '0.00', '1000.00']);
  });

  it('answers Accept: text/csv; profile=accounting the same, and leaves the plain CSV as it was', async () => {
    const q = `?from=${sastDay(-1)}&to=${sastDay()}`;
    const byFormat = (await accounting(`${q}&format=accounting`)).body as string;
    const byAccept = await accounting(q, { accept: 'text/csv; profile=accounting' });
    expect(byAccept.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(byAccept.body).toBe(byFormat);
    expect((await accounting(q, { accept: 'text/csv;profile="accounting", application/json;q=0.5' })).body).toBe(byFormat);
    // Two days: yesterday's credit is a row, and the opening balance is 0.
    const rows = parseCsv(byFormat).slice(1);
    expect(rows[0]![9]).toBe('0.00');
    expect(rows[1]!.slice(1, 3)).toEqual(['credit', 'float']);
    const plain = await accounting(q, { accept: 'text/csv' });
    expect((plain.body as string).split('\r\n')[0]).toBe('posted_at,type,reference,amount_cents,balance_after_cents,description');
    const json = await accounting(q, { accept: 'application/json, text/csv; profile=accounting' });
    expect(json.body.data.entries).toHaveLength(6);
  });

  it('writes an empty range as its opening and closing rows alone', async () => {
    const rows = parseCsv((await accounting('?from=2020-01-01&to=2020-01-31&format=accounting')).body as string);
    expect(rows.slice(1)).toEqual([
      ['2020-01-01 00:00', 'opening', 'Opening balance', '', '', '', '', '', '', '0.00'],
      ['2020-01-31 23:59', 'closing', 'Closing balance', '', '', '', '', '', '', '0.00'],
    ]);
    const bad = await accounting('?from=2020-01-01&to=2020-01-31&format=quickbooks');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('gives the same rows in GraphQL, and the CLI prints the same file', { timeout: 60_000 }, async () => {
    const q = `?from=${sastDay(-1)}&to=${sastDay()}&format=accounting`;
    const rest = (await accounting(q)).body as string;
    const g = await gql(
      t,
      `query($from: String!, $to: String!) { statement(from: $from, to: $to) { accountingRows { date type description reference orderReference bankReference gross fee net balance } } }`,
      { from: sastDay(-1), to: sastDay() },
      { key: shop.key },
    );
    expect(g.body.errors).toBeUndefined();
    const rows = g.body.data.statement.accountingRows;
    expect(rows.map((r: any) => [r.date, r.type, r.net ?? '', r.balance])).toEqual(parseCsv(rest).slice(1).map((r) => [r[0], r[1], r[8], r[9]]));
    expect(rows[4]).toMatchObject({ type: 'payment', orderReference: '=HYPERLINK("http://x")', gross: '100.00', fee: '-1.00', net: '99.00' });
    const cli = await zarpay(['statement', shop.id, '--from', sastDay(-1), '--to', sastDay(), '--accounting'], { ZARPAY_URL: t.url, OPERATOR_TOKEN: t.config.operatorToken });
    expect(cli.code).toBe(0);
    expect(cli.stdout).toBe(rest);
  });
});

describe('rand text', () => {
  it('writes cents as rand with a dot and no separator, exactly', () => {
    expect([0, 5, -5, 123456, -25000, 100, Number.MAX_SAFE_INTEGER].map(randText)).toEqual(['0.00', '0.05', '-0.05', '1234.56', '-250.00', '1.00', '90071992547409.91']);
    expect(sastMinute(new Date('2026-02-28T22:00:00Z'))).toBe('2026-03-01 00:00');
  });
});
