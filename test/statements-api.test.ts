import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryTypeOf } from '../src/domain/statement.ts';
import { startApp, type TestApp } from './support/app.ts';
import { createMerchant, credit, expectLedgerOk, gql, http, op, payoutBody, type TestMerchant } from './support/client.ts';
import { openApiChecker } from './support/openapi.ts';
import { newPayment } from './support/payments.ts';

/** Statements (issue 23 item 4; CONTRACT §10): the balance's movements by SAST day, JSON and CSV, streamed. */
let t: TestApp;
let shop: TestMerchant;
let other: TestMerchant;
let checker: ReturnType<typeof openApiChecker>;
const batches: string[] = [];
let ids: { payment: string; payout: string };

/** Today in Africa/Johannesburg (UTC+2 all year), and the days around it. */
const sastDay = (offsetDays = 0) => new Date(Date.now() + 2 * 3600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);

const statement = async (query: string, m: TestMerchant = shop, headers: Record<string, string> = {}) => {
  const res = await http(t, 'GET', `/api/v1/statements${query}`, { key: m.key, headers });
  if (res.headers.get('content-type')?.startsWith('application/json')) checker.check('GET', '/api/v1/statements', res);
  return res;
};

/** Journal postings with chosen times (the ledger is append-only; these keep `ledger verify` whole). */
async function backdatedCredit(merchantId: string, at: string, cents: number, memo = 'backdated credit') {
  const id = randomUUID();
  await sql`insert into ledger_transactions (id, merchant_id, kind, memo, created_at) values (${id}, ${merchantId}, 'credit', ${memo}, ${at}::timestamptz)`.execute(t.database.db);
  await sql`insert into ledger_entries (transaction_id, merchant_id, account, amount_cents, created_at)
            values (${id}, ${merchantId}, 'funding', ${-cents}, ${at}::timestamptz), (${id}, ${merchantId}, 'merchant_available', ${cents}, ${at}::timestamptz)`.execute(t.database.db);
  await sql`update balances set balance_cents = balance_cents + ${cents}, gross_cents = gross_cents + ${cents} where merchant_id = ${merchantId}`.execute(t.database.db);
}

beforeAll(async () => {
  t = await startApp({}, { onQuery: (text) => { if (text.includes('group by t.id')) batches.push(text); } });
  shop = await createMerchant(t, { paymentFeeBps: 100, payoutFeeCents: 500, autoTopup: true });
  other = await createMerchant(t, { autoTopup: true });
  await credit(t, other.id, 77_700);
  await credit(t, shop.id, 100_000);
  const payment = await newPayment(t, shop, { amount: 10_000, merchant_order_id: 'ORD-1001, "kettle"' });
  await op(t, `mutation { settlePayment(id: "${payment.payment_id}", outcome: CAPTURED) { payment { id } } }`);
  const payout = (await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(20_000, { merchant_reference: 'INV-7' }) })).body.data;
  for (const move of ['approvePayout', 'startPayoutTransfer', 'completePayout']) await op(t, `mutation { ${move}(id: "${payout.id}") { payout { id } } }`);
  // A second payout, still pending: its reservation moves no balance, so it is not on the statement.
  await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: payoutBody(5_000) });
  ids = { payment: payment.payment_id, payout: payout.id };
  checker = openApiChecker((await http(t, 'GET', '/api/v1/openapi.json')).body);
});
afterAll(() => t?.close());

describe('GET /api/v1/statements', () => {
  it('lists the movements of the balance oldest first, from the opening to the closing balance the ledger has', async () => {
    const res = await statement(`?from=${sastDay(-1)}&to=${sastDay(1)}`);
    expect(res.status).toBe(200);
    const s = res.body.data;
    expect(s).toMatchObject({ from: sastDay(-1), to: sastDay(1), opening_balance_cents: 0, total: 4 });
    expect(s.entries.map((e: any) => [e.type, e.reference, e.amount_cents, e.balance_after_cents])).toEqual([
      ['credit', null, 100_000, 100_000],
      ['payment', ids.payment, 9_900, 109_900],
      ['payout', ids.payout, -20_000, 89_900],
      ['payout_fee', ids.payout, -500, 89_400],
    ]);
    expect(s.entries[1].description).toBe('Payment for order ORD-1001, "kettle": R 100.00 less fee R 1.00');
    expect(s.entries[2].description).toBe('Payout INV-7');
    expect(new Set(s.entries.map((e: any) => e.entry_id)).size).toBe(4);
    for (const e of s.entries) expect(Date.parse(e.posted_at)).toBeGreaterThan(Date.now() - 600_000);
    const balance = (await http(t, 'GET', '/api/v1/payouts/balance', { key: shop.key })).body.data;
    expect(s.closing_balance_cents).toBe(balance.balance_cents);
    expect(s.opening_balance_cents + s.entries.reduce((sum: number, e: any) => sum + e.amount_cents, 0)).toBe(s.closing_balance_cents);
    await expectLedgerOk(t);
  });

  it('gives the same entries as CSV, by Accept: text/csv or ?format=csv, with the contract\'s header row', async () => {
    const json = (await statement(`?from=${sastDay()}&to=${sastDay()}`)).body.data;
    for (const res of [await statement(`?from=${sastDay()}&to=${sastDay()}`, shop, { accept: 'text/csv' }), await statement(`?from=${sastDay()}&to=${sastDay()}&format=csv`)]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
      const lines = (res.body as string).split('\r\n');
      expect(lines[0]).toBe('posted_at,type,reference,amount_cents,balance_after_cents,description');
      expect(lines.at(-1)).toBe('');
      expect(lines.slice(1, -1)).toEqual([
        `${json.entries[0].posted_at},credit,,100000,100000,operator credit`,
        `${json.entries[1].posted_at},payment,${ids.payment},9900,109900,"Payment for order ORD-1001, ""kettle"": R 100.00 less fee R 1.00"`,
        `${json.entries[2].posted_at},payout,${ids.payout},-20000,89900,Payout INV-7`,
        `${json.entries[3].posted_at},payout_fee,${ids.payout},-500,89400,Payout fee INV-7`,
      ]);
    }
  });

  it('cuts days at midnight in Africa/Johannesburg; what came before is in the opening balance', async () => {
    const m = await createMerchant(t);
    await backdatedCredit(m.id, '2026-01-31T21:59:59.999Z', 1_000); // 23:59:59.999 SAST on the 31st
    await backdatedCredit(m.id, '2026-01-31T22:00:00Z', 2_000); // 00:00 SAST on 1 February
    await backdatedCredit(m.id, '2026-02-28T21:59:59Z', 4_000); // last second of February, SAST
    await backdatedCredit(m.id, '2026-02-28T22:00:00Z', 8_000, '=HYPERLINK("x")'); // 1 March, SAST
    const feb = (await statement('?from=2026-02-01&to=2026-02-28', m)).body.data;
    expect(feb).toMatchObject({ opening_balance_cents: 1_000, closing_balance_cents: 7_000, total: 2 });
    expect(feb.entries.map((e: any) => e.posted_at)).toEqual(['2026-01-31T22:00:00.000Z', '2026-02-28T21:59:59.000Z']);
    expect((await statement('?from=2026-01-31&to=2026-01-31', m)).body.data).toMatchObject({ opening_balance_cents: 0, closing_balance_cents: 1_000, total: 1 });
    expect((await statement('?from=2026-03-01&to=2026-03-01', m)).body.data).toMatchObject({ opening_balance_cents: 7_000, closing_balance_cents: 15_000 });
    // A spreadsheet must not run a memo as a formula.
    expect((await statement('?from=2026-03-01&to=2026-03-01&format=csv', m)).body).toContain(`,"'=HYPERLINK(""x"")"\r\n`);
    expect((await statement('?from=2025-12-01&to=2025-12-31', m)).body.data).toEqual({
      from: '2025-12-01', to: '2025-12-31', opening_balance_cents: 0, entries: [], closing_balance_cents: 0, total: 0,
    });
    await expectLedgerOk(t);
  });

  it('reads a long statement from the journal in batches, and streams it', async () => {
    const m = await createMerchant(t);
    const n = 1_234;
    // One credit a minute through a December day (SAST), in one statement.
    await sql`
      with tx as (
        insert into ledger_transactions (id, merchant_id, kind, memo, created_at)
        select gen_random_uuid(), ${m.id}::uuid, 'credit', 'credit ' || i, '2026-12-01T00:00:00+02:00'::timestamptz + i * interval '1 minute'
          from generate_series(1, ${n}::int) i
        returning id, created_at
      )
      insert into ledger_entries (transaction_id, merchant_id, account, amount_cents, created_at)
      select tx.id, ${m.id}::uuid, leg.account, leg.amount, tx.created_at
        from tx cross join (values ('funding', -100), ('merchant_available', 100)) as leg(account, amount)`.execute(t.database.db);
    await sql`update balances set balance_cents = ${n * 100}, gross_cents = ${n * 100} where merchant_id = ${m.id}`.execute(t.database.db);
    batches.length = 0;
    const res = await statement('?from=2026-12-01&to=2026-12-02', m);
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    const s = res.body.data;
    expect(s.total).toBe(n);
    expect(s.entries).toHaveLength(n);
    expect(s.entries.at(-1).balance_after_cents).toBe(n * 100);
    expect(s.closing_balance_cents).toBe(n * 100);
    expect(s.entries.map((e: any) => e.posted_at)).toEqual([...s.entries.map((e: any) => e.posted_at)].sort());
    expect(new Set(s.entries.map((e: any) => e.entry_id)).size).toBe(n);
    // Never the whole range at once: one bounded batch after another.
    expect(batches.length).toBeGreaterThanOrEqual(3);
    for (const b of batches) expect(b).toMatch(/limit \$\d+/);
    const csv = (await statement('?from=2026-12-01&to=2026-12-02&format=csv', m)).body as string;
    expect(csv.split('\r\n')).toHaveLength(n + 2);
    await expectLedgerOk(t);
  });

  it('shows a merchant only its own movements', async () => {
    const mine = (await statement(`?from=${sastDay()}&to=${sastDay()}`, other)).body.data;
    expect(mine.entries.map((e: any) => e.amount_cents)).toEqual([77_700]);
  });

  it('refuses bad dates, from after to, and more than 366 days with VALIDATION_FAILED', async () => {
    for (const q of [
      '',
      '?from=2026-01-01',
      '?from=2026-02-30&to=2026-03-01',
      '?from=2026-1-1&to=2026-01-02',
      '?from=yesterday&to=2026-01-02',
      '?from=2026-03-02&to=2026-03-01',
      '?from=2025-01-01&to=2026-01-02',
      '?from=2026-01-01&to=2026-01-02&format=xml',
      '?from=2026-01-01&to=2026-01-02&merchant_id=x',
    ]) {
      const res = await statement(q);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code, q).toBe('VALIDATION_FAILED');
    }
    // 366 days, both counted (a leap year): allowed.
    expect((await statement('?from=2028-01-01&to=2028-12-31')).status).toBe(200);
    expect((await http(t, 'GET', '/api/v1/statements?from=2026-01-01&to=2026-01-02')).status).toBe(401);
  });

  it('counts against the balance budget', async () => {
    const limited = await startApp({ RATE_LIMITS: 'balance=2' });
    try {
      const m = await createMerchant(limited);
      const q = `/api/v1/statements?from=${sastDay()}&to=${sastDay()}`;
      expect((await http(limited, 'GET', q, { key: m.key })).headers.get('ratelimit-limit')).toBe('2');
      await http(limited, 'GET', '/api/v1/payouts/balance', { key: m.key });
      const third = await http(limited, 'GET', q, { key: m.key });
      expect(third.status).toBe(429);
      expect(third.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    } finally {
      await limited.close();
    }
  });
});

describe('GraphQL statement and the CLI\'s twin', () => {
  const QUERY = `query($from: String!, $to: String!, $m: UUID) { statement(from: $from, to: $to, merchantId: $m) {
    from to merchantId openingBalanceCents closingBalanceCents total entries { entryId postedAt type reference amountCents balanceAfterCents description } } }`;

  it('answers what REST does, for the merchant and for the operator naming it', async () => {
    const rest = (await statement(`?from=${sastDay(-1)}&to=${sastDay(1)}`)).body.data;
    const mine = await gql(t, QUERY, { from: sastDay(-1), to: sastDay(1) }, { key: shop.key });
    expect(mine.body.errors).toBeUndefined();
    const g = mine.body.data.statement;
    expect(g).toMatchObject({ merchantId: shop.id, openingBalanceCents: rest.opening_balance_cents, closingBalanceCents: rest.closing_balance_cents, total: rest.total });
    expect(g.entries.map((e: any) => [e.entryId, e.type.toLowerCase(), e.reference, e.amountCents, e.balanceAfterCents, e.description])).toEqual(
      rest.entries.map((e: any) => [e.entry_id, e.type, e.reference, e.amount_cents, e.balance_after_cents, e.description]),
    );
    const operator = await op(t, QUERY, { from: sastDay(-1), to: sastDay(1), m: shop.id });
    expect(operator.statement).toEqual(g);
  });

  it('refuses another merchant\'s id, bad ranges, and an operator naming no merchant', async () => {
    expect((await gql(t, QUERY, { from: sastDay(), to: sastDay(), m: other.id }, { key: shop.key })).body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await gql(t, QUERY, { from: '2026-02-02', to: '2026-02-01' }, { key: shop.key })).body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect((await gql(t, QUERY, { from: '2026-02-30', to: '2026-03-01' }, { key: shop.key })).body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect((await gql(t, QUERY, { from: sastDay(), to: sastDay() }, { operator: true })).body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect((await gql(t, QUERY, { from: sastDay(), to: sastDay(), m: randomUUID() }, { operator: true })).body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('entry types', () => {
  it('follow the journal\'s kinds, refunds included whatever their posting is called', () => {
    expect(['credit', 'payment_capture', 'payout_settle', 'refund_settle', 'payment_refund', 'refund'].map(entryTypeOf)).toEqual([
      'credit', 'payment', 'payout', 'refund', 'refund', 'refund',
    ]);
  });
});
