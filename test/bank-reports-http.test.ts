import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from './support/app.ts';
import { camt053 } from './support/bank-reports.ts';
import { createMerchant, credit, eftDetails, expectLedgerOk, gql, http, op, payoutBody, type TestMerchant } from './support/client.ts';
import { eventually } from './support/receiver.ts';

/**
 * A bank's whole-day report, several MB, over HTTP (issue 34): `POST /api/v1/operator/bank-reports`
 * takes the XML as the bank wrote it (gzipped or not) up to 32 MiB, for the operator alone, while
 * `/graphql` and the merchants' routes keep their 64 KiB.
 */

const DEBTOR = { PAYOUT_DEBTOR_NAME: 'Zarpay Payouts (Pty) Ltd', PAYOUT_DEBTOR_ACCOUNT: '62000000001', PAYOUT_DEBTOR_BRANCH_CODE: '250655' };
const ROUTE = '/api/v1/operator/bank-reports';
const e2e = (id: string) => id.replaceAll('-', '');

let t: TestApp;
let shop: TestMerchant;

beforeAll(async () => {
  t = await startApp(DEBTOR);
  shop = await createMerchant(t, { name: 'Busy Shop', payoutFeeCents: 500 });
  await credit(t, shop.id, 1_000_000);
});
afterAll(() => t?.close());

/** A POST of raw bytes to the route, as the operator (`operator`), a merchant (`key`) or nobody. */
async function send(body: Buffer | string, opts: { operator?: boolean; key?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/xml', ...opts.headers };
  if (opts.operator) headers.authorization = `Bearer ${t.config.operatorToken}`;
  if (opts.key) headers['x-api-key'] = opts.key;
  const res = await fetch(t.url + ROUTE, { method: 'POST', headers, body: typeof body === 'string' ? body : new Uint8Array(body) });
  return { status: res.status, body: (await res.json()) as any };
}

/** A day's statement: `n` entries, those of `paid` booking our payouts, the rest the account's other debits. */
function dayStatement(n: number, paid: { id: string; amount: string }[]): string {
  const entries = Array.from({ length: n }, (_, i) =>
    i < paid.length
      ? { endToEndId: e2e(paid[i]!.id), amount: paid[i]!.amount, bankRef: `FNB-DAY-P${i}` }
      : { endToEndId: `SUPPLIER-RUN-${i}`, amount: `${(i % 900) + 1}.00`, bankRef: `FNB-DAY-${i}` },
  );
  return camt053('FNB-STM-DAY-1000', entries);
}

describe('a bank report over HTTP (issue 34)', { timeout: 300_000 }, () => {
  it('imports a 1,000-entry camt.053 of 860 KB, and its job applies every entry; the same file gzipped is the same report', async () => {
    const ids: string[] = [];
    for (const amount of [1_200, 3_400]) {
      const res = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: { ...payoutBody(amount), payment_details: eftDetails } });
      ids.push(res.body.data.id);
    }
    for (const id of ids) await op(t, 'mutation($id: UUID!) { approvePayout(id: $id) { payout { id } } }', { id });
    await op(t, 'mutation { exportPayoutBatch { batch { id } } }');

    // 1,000 entries: about 860 KB of XML, thirteen times what /graphql takes (a real day's file is
    // bigger still; the job's pace, 50 entries a step, is the same whatever the size).
    const xml = dayStatement(1_000, [
      { id: ids[0]!, amount: '12.00' },
      { id: ids[1]!, amount: '34.00' },
    ]);
    expect(Buffer.byteLength(xml)).toBeGreaterThan(12 * 64 * 1024);

    const res = await send(xml, { operator: true });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.data).toMatchObject({ kind: 'camt.053', message_id: 'FNB-STM-DAY-1000', status: 'applying', entry_count: 1_000, already_imported: false });
    const reportId = res.body.data.report_id as string;

    // The job applies it in steps: wait for it (a condition, not a time).
    const done = await eventually(async () => {
      const r = (await op(t, 'query($id: UUID!) { bankReport(id: $id) { status appliedCount completed unmatched } }', { id: reportId })).bankReport;
      return r.status === 'applied' && r;
    }, 240_000);
    expect(done).toEqual({ status: 'applied', appliedCount: 1_000, completed: 2, unmatched: 998 });
    for (const id of ids) expect((await http(t, 'GET', `/api/v1/payouts/${id}`, { key: shop.key })).body.data.status).toBe('completed');

    // The same report gzipped, as a bank's file is often kept: applied already, nothing changes.
    const again = await send(gzipSync(xml), { operator: true, headers: { 'content-encoding': 'gzip' } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data).toMatchObject({ report_id: reportId, status: 'applied', already_imported: true, completed: 0 });
    await expectLedgerOk(t);
  });

  it('is the operator\'s: a merchant\'s key and an anonymous caller are refused before anything is read, and nothing is stored', async () => {
    const xml = dayStatement(3, []);
    const reportsStored = async () => (await sql<{ n: number }>`select count(*)::int as n from bank_reports`.execute(t.database.db)).rows[0]!.n;
    const before = await reportsStored();
    const merchant = await send(xml, { key: shop.key });
    expect(merchant.status).toBe(403);
    expect(merchant.body.error.code).toBe('FORBIDDEN');
    const nobody = await send(xml);
    expect(nobody.status).toBe(401);
    expect(nobody.body.error.code).toBe('UNAUTHORIZED');
    const wrong = await send(xml, { headers: { authorization: 'Bearer not-the-token' } });
    expect(wrong.status).toBe(401);
    expect(await reportsStored()).toBe(before);
  });

  it('refuses bodies it cannot read in the envelope, and more than 32 MiB once unzipped', async () => {
    const json = await send(JSON.stringify({ content: '<x/>' }), { operator: true, headers: { 'content-type': 'application/json' } });
    expect(json.status).toBe(400);
    expect(json.body.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('application/xml') });
    const notGzip = await send('<Document/>', { operator: true, headers: { 'content-encoding': 'gzip' } });
    expect(notGzip.status).toBe(400);
    expect(notGzip.body.error.message).toMatch(/not valid gzip/);
    const notCamt = await send('<Document/>', { operator: true });
    expect(notCamt.status).toBe(400);
    expect(notCamt.body.error.code).toBe('VALIDATION_FAILED');
    // 40 MiB of zeros gzip to 40 KiB: refused once unzipping passes 32 MiB.
    const bomb = await send(gzipSync(Buffer.alloc(40 * 1024 * 1024)), { operator: true, headers: { 'content-encoding': 'gzip' } });
    expect(bomb.status).toBe(413);
    expect(bomb.body.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('32 MiB') });
  });

  it('lifts the limit for nobody else: /graphql and the merchants\' routes still refuse bodies over 64 KiB', async () => {
    const big = 'x'.repeat(70 * 1024);
    const graphqlAsOperator = await gql(t, `query { __typename } # ${big}`, {}, { operator: true });
    expect(graphqlAsOperator.status).toBe(413);
    const importOverGraphql = await gql(t, 'mutation($i: ImportBankReportInput!) { importBankReport(input: $i) { reportId } }', { i: { content: big } }, { operator: true });
    expect(importOverGraphql.status).toBe(413);
    const payout = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: { ...payoutBody(1_000), description: big } });
    expect(payout.status).toBe(413);
    expect(payout.body.error).toMatchObject({ code: 'INVALID_INPUT', message: 'request body is larger than 64 KiB' });
    // An XML body on a merchant's route is no way in either.
    const xmlToMerchantRoute = await fetch(`${t.url}/api/v1/payouts`, { method: 'POST', headers: { 'content-type': 'application/xml', 'x-api-key': shop.key }, body: big });
    expect(xmlToMerchantRoute.status).toBeGreaterThanOrEqual(400);
    expect(xmlToMerchantRoute.status).toBeLessThan(500);
  });
});
