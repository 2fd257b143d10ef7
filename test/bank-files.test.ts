import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { parseBankReport } from '../src/domain/iso20022/camt.ts';
import { swiftText } from '../src/domain/iso20022/money-text.ts';
import { bankForBranchCode, bankNameMismatch } from '../src/domain/za-banks.ts';
import { easterSunday, executionDate, isBusinessDay } from '../src/domain/za-business-days.ts';
import { unreadableCounts } from '../src/db/sealed-data.ts';
import { createKeyring } from '../src/domain/sealing.ts';
import { DataKeyService } from '../src/services/data-keys.ts';
import { createServices } from '../src/runtime.ts';
import { PayoutBatchService } from '../src/services/payout-batches.ts';
import { bankReportTask } from '../src/tasks/bank-reports.ts';
import { OPERATOR } from '../src/domain/actor.ts';
import { sql } from 'kysely';
import pg from 'pg';
import { borrowed, freshDatabase, startApp, type TestApp, usingPostgres } from './support/app.ts';
import { camt053, camt054, inVersion, schemaErrors } from './support/bank-reports.ts';
import { createMerchant, credit, eftDetails, gql, http, op, payoutBody, type TestMerchant } from './support/client.ts';
import { zarpay } from './support/processes.ts';
import { OPERATOR_TOKEN, type ServiceProcess, spawnService } from './support/process.ts';
import { eventually, type Receiver, startReceiver } from './support/receiver.ts';

/**
 * Bank files for payouts (issue 25): approved payouts leave as one pain.001 file, the bank's
 * camt.054 brings back two bookings, a return and an entry that is not ours, and every move is
 * the operator's own: payouts, balances, webhooks and the ledger come out exactly right, twice.
 */

const DEBTOR = { PAYOUT_DEBTOR_NAME: 'Zarpay Payouts (Pty) Ltd', PAYOUT_DEBTOR_ACCOUNT: '62000000001', PAYOUT_DEBTOR_BRANCH_CODE: '250655' };
const dir = mkdtempSync(join(tmpdir(), 'zarpay-bank-'));
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const e2e = (id: string) => id.replaceAll('-', '');

let t: TestApp;
let env: Record<string, string>;
let receiver: Receiver;
let shop: TestMerchant;

beforeAll(async () => {
  t = await startApp(DEBTOR);
  env = { ZARPAY_URL: t.url, OPERATOR_TOKEN: t.config.operatorToken };
  receiver = await startReceiver();
  shop = await createMerchant(t, { name: 'Bulk Shop', payoutFeeCents: 500, webhookUrl: receiver.url });
  await credit(t, shop.id, 1_000_000);
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const createPayout = async (amount: number, details: Record<string, string> = {}, extra: Record<string, unknown> = {}) => {
  const res = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: { ...payoutBody(amount, extra), payment_details: { ...eftDetails, ...details } } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as string;
};
const approve = (id: string) => op(t, 'mutation($id: UUID!) { approvePayout(id: $id) { payout { status } } }', { id });
const payout = async (id: string) => (await http(t, 'GET', `/api/v1/payouts/${id}`, { key: shop.key })).body.data;
const balance = async () => (await http(t, 'GET', '/api/v1/payouts/balance', { key: shop.key })).body.data;
const webhookTypes = () => receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: { id: string; status: string } });
/** Imports a report over GraphQL and waits for its job to apply it (`bankReport` says `applied`): the fields asked for. */
const imported = async (fields: string, input: Record<string, unknown>) => {
  const started = (await op(t, `mutation($i: ImportBankReportInput!) { importBankReport(input: $i) { reportId status ${fields} } }`, { i: input })).importBankReport;
  let r = started;
  if (r.status !== 'applied') {
    await eventually(async () => (r = (await op(t, `query($id: UUID!) { bankReport(id: $id) { reportId status ${fields} } }`, { id: started.reportId })).bankReport).status === 'applied');
  }
  const { reportId, status, ...asked } = r;
  return { ...asked, ...(/\breportId\b/.test(fields) ? { reportId } : {}), ...(/\bstatus\b/.test(fields) ? { status } : {}) };
};

describe('payout bank files (issue 25)', { timeout: 120_000 }, () => {
  it('refuses a branch code no bank uses, naming the field, and shows a bank name that names another bank', async () => {
    const unknown = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: { ...payoutBody(1_000), payment_details: { ...eftDetails, branch_code: '123456' } } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('INVALID_PAYMENT_DETAILS');
    expect(unknown.body.error.message).toMatch(/payment details, branch code: is not a known South African universal branch code/);

    const gql = await http(t, 'POST', '/graphql', {
      key: shop.key,
      body: {
        query: 'mutation($i: CreatePayoutInput!) { createPayout(input: $i) { payout { id } } }',
        variables: { i: { amountCents: 1000, currency: 'ZAR', payoutMethod: 'EFT', paymentDetails: { accountNumber: '62012345678', branchCode: '999999', accountHolder: 'X', bankName: 'FNB' } } },
      },
    });
    expect(gql.body.errors[0].extensions.code).toBe('INVALID_PAYMENT_DETAILS');
    expect(gql.body.errors[0].message).toMatch(/branch code/);

    // FNB's universal code with "Standard Bank" written beside it: accepted, and flagged to the operator.
    const id = await createPayout(2_000, { bank_name: 'Standard Bank of SA' });
    const shown = await zarpay(['payout', 'show', id], env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.json.bank_account).toMatchObject({ bank_name: 'Standard Bank of SA', branch_code: '250655', bank: 'First National Bank', bank_name_mismatch: true });
    const listed = await zarpay(['payout', 'list', '--merchant', shop.id, '--status', 'pending'], env);
    expect(listed.json.payouts.find((p: { id: string }) => p.id === id).bank_account.bank_name_mismatch).toBe(true);
    const table = await zarpay(['payout', 'list', '--merchant', shop.id, '--status', 'pending', '--format', 'table'], env);
    expect(table.stdout).toContain('Standard Bank of SA ****5678 (MISMATCH: code is First National Bank)');
    const fine = await createPayout(2_000, { bank_name: 'First National Bank' });
    const both = await op(t, 'query($a: UUID!, $b: UUID!) { a: payout(id: $a) { bankAccount { bank bankNameMismatch } } b: payout(id: $b) { bankAccount { bank bankNameMismatch } } }', { a: id, b: fine });
    expect(both).toEqual({ a: { bankAccount: { bank: 'First National Bank', bankNameMismatch: true } }, b: { bankAccount: { bank: 'First National Bank', bankNameMismatch: false } } });
    // Neither is approved: they stay out of the batches below; cancel them so the balance is plain.
    for (const p of [id, fine]) await op(t, 'mutation($id: UUID!) { cancelPayout(id: $id) { payout { status } } }', { id: p });
  });

  it('refuses to export without the debtor account settings', async () => {
    const service = new PayoutBatchService({ db: t.database.db, config: { ...t.config, payoutDebtor: null } });
    await expect(service.export(OPERATOR)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/PAYOUT_DEBTOR_ACCOUNT/) });
  });

  it('exports the approved payouts, imports the bank\'s camt.054 twice, and everything adds up', async () => {
    const paid = [await createPayout(10_000, {}, { merchant_reference: 'INV-1' }), await createPayout(25_050, { branch_code: '632005', bank_name: 'ABSA' }), await createPayout(7_500, { branch_code: '470010', bank_name: 'Capitec' })];
    const waiting = await createPayout(3_000);
    for (const id of paid) await approve(id);

    // Export: one file, every approved payout in it, each now processing.
    const out = join(dir, 'batch-1.xml');
    const exported = await zarpay(['payout', 'batch', 'export', '--out', out], env);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.json).toMatchObject({ batch_id: expect.any(String), file: out, payouts: 3, total_cents: 42_550 });
    const xml = readFileSync(out, 'utf8');
    expect(await schemaErrors(xml, 'pain.001.001.03')).toEqual([]);
    expect(exported.json.file_sha256).toBe(sha256(xml));
    for (const id of paid) expect(xml).toContain(`<EndToEndId>${e2e(id)}</EndToEndId>`);
    expect(xml).not.toContain(e2e(waiting));
    expect(xml).toContain('<CtrlSum>425.50</CtrlSum>');
    expect(xml).toContain('<Cd>ZANCC</Cd>');
    expect(xml).toMatch(/<MmbId>632005<\/MmbId>\s*<\/ClrSysMmbId>\s*<Nm>Absa Bank<\/Nm>/);
    expect(xml).toMatch(/<InstdAmt Ccy="ZAR">250.50<\/InstdAmt>/);
    for (const id of paid) expect((await payout(id)).status).toBe('processing');
    expect((await payout(waiting)).status).toBe('pending');

    // Nothing approved is left: a second export has nothing to write, and no payout is in two batches.
    const again = await zarpay(['payout', 'batch', 'export', '--out', join(dir, 'batch-2.xml')], env);
    expect(again.json).toMatchObject({ code: 'NOT_FOUND' });

    // Listed, and its file written again byte for byte.
    const listed = await zarpay(['payout', 'batch', 'list'], env);
    expect(listed.json.total).toBe(1);
    expect(listed.json.batches[0]).toMatchObject({ id: exported.json.batch_id, payout_count: 3, total_cents: 42_550, file_sha256: sha256(xml) });
    const rewritten = await zarpay(['payout', 'batch', 'file', exported.json.batch_id, '--out', join(dir, 'batch-1-again.xml')], env);
    expect(rewritten.code, rewritten.stderr).toBe(0);
    expect(readFileSync(join(dir, 'batch-1-again.xml'), 'utf8')).toBe(xml);

    // The bank: two booked, one returned (closed account), one entry that is not ours.
    const report = camt054('FNB-NTF-20261125-0001', [
      { endToEndId: e2e(paid[0]!), amount: '100.00', bankRef: 'FNB20261125000000123' },
      { endToEndId: e2e(paid[1]!), amount: '250.50', bankRef: 'FNB20261125000000124' },
      { endToEndId: e2e(paid[2]!), amount: '75.00', bankRef: 'FNB20261125000000125', returned: { code: 'AC04', info: 'ACCOUNT CLOSED' } },
      { endToEndId: 'SALARY-NOV-2026-0042', amount: '1234.00', bankRef: 'FNB20261125000000126' },
    ]);
    expect(await schemaErrors(report, 'camt.054.001.02')).toEqual([]);
    const file = join(dir, 'camt054-1.xml');
    writeFileSync(file, report);

    const first = await zarpay(['payout', 'batch', 'import', file], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json).toMatchObject({ completed: 2, failed: 1, unmatched: 1, unchanged: 0, already_imported: false, kind: 'camt.054' });
    expect(first.json.entries.find((e: { outcome: string }) => e.outcome === 'unmatched')).toMatchObject({ reference: 'FNB20261125000000126', detail: expect.stringMatching(/SALARY-NOV-2026-0042/) });

    const second = await zarpay(['payout', 'batch', 'import', file], env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.json).toMatchObject({ completed: 0, failed: 0, unmatched: 0, already_imported: true, report_id: first.json.report_id });

    // Payouts: completed with the bank's reference, failed with the reason in words.
    expect(await payout(paid[0]!)).toMatchObject({ status: 'completed', external_transfer_id: 'FNB20261125000000123' });
    expect(await payout(paid[1]!)).toMatchObject({ status: 'completed', external_transfer_id: 'FNB20261125000000124' });
    expect(await payout(paid[2]!)).toMatchObject({ status: 'failed', failure_reason: 'AC04 closed account (ACCOUNT CLOSED)' });

    // Balance: the two completed payouts left with their fees; the failed one's reserve came back;
    // the pending one is still reserved. 1 000 000 − (10 000 + 500) − (25 050 + 500) = 963 950.
    expect(await balance()).toMatchObject({ balance_cents: 963_950, reserved_cents: 3_500, available_cents: 960_450 });

    // Webhooks, exactly: created ×4, approved ×3, processing ×3, completed ×2, failed ×1.
    const ours = () => webhookTypes().filter((e) => [...paid, waiting].includes(e.data.id));
    await eventually(async () => ours().length >= 13);
    const ofBatch = ours();
    const count = (type: string) => ofBatch.filter((e) => e.type === type).length;
    expect({ created: count('payout.created'), approved: count('payout.approved'), processing: count('payout.processing'), completed: count('payout.completed'), failed: count('payout.failed') }).toEqual({
      created: 4,
      approved: 3,
      processing: 3,
      completed: 2,
      failed: 1,
    });
    expect(ofBatch.find((e) => e.type === 'payout.completed' && e.data.id === paid[0])!.data).toMatchObject({ external_transfer_id: 'FNB20261125000000123' });

    // The audit log says the import did it.
    const audit = await zarpay(['audit', '--payout', paid[2]!], env);
    expect(audit.json[0]).toMatchObject({ action: 'payout.fail', detail: { from: 'processing', to: 'failed', bank_report_id: first.json.report_id } });

    const verify = await zarpay(['ledger', 'verify'], env);
    expect(verify.code, verify.stderr).toBe(0);
    expect(verify.json).toMatchObject({ ok: true, problems: [] });

    // The day's statement repeats the bookings: nothing changes, nothing is double-counted.
    const statement = camt053('FNB-STM-20261125', [
      { endToEndId: e2e(paid[0]!), amount: '100.00', bankRef: 'FNB20261125000000123' },
      { endToEndId: e2e(paid[2]!), amount: '75.00', bankRef: 'FNB20261125000000125', returned: { code: 'AC04' } },
    ]);
    expect(await schemaErrors(statement, 'camt.053.001.02')).toEqual([]);
    const viaGraphQL = await imported('kind completed failed unchanged unmatched alreadyImported', { contentBase64: Buffer.from(statement).toString('base64') });
    expect(viaGraphQL).toEqual({ kind: 'camt.053', completed: 0, failed: 0, unchanged: 2, unmatched: 0, alreadyImported: false });
    expect(await balance()).toMatchObject({ balance_cents: 963_950, reserved_cents: 3_500 });
  });

  it('completes nothing whose amount or currency differs from the payout, and says so', async () => {
    const id = await createPayout(5_000);
    await approve(id);
    const { exportPayoutBatch } = await op(t, 'mutation { exportPayoutBatch { batch { id payoutCount totalCents } file } }');
    expect(exportPayoutBatch.batch).toMatchObject({ payoutCount: 1, totalCents: 5_000 });
    const listed = await op(t, '{ payoutBatches(first: 10) { totalCount batches { id payouts { id status } } } }');
    expect(listed.payoutBatches.batches[0]).toEqual({ id: exportPayoutBatch.batch.id, payouts: [{ id, status: 'PROCESSING' }] });

    const report = camt054('FNB-NTF-MISMATCH', [
      { endToEndId: e2e(id), amount: '500.00', bankRef: 'FNB-X-1' },
      { endToEndId: e2e(id), amount: '50.00', currency: 'USD', bankRef: 'FNB-X-2' },
      { endToEndId: e2e(id), amount: '50.00', bankRef: 'FNB-X-3', status: 'PDNG' },
    ]);
    expect(await schemaErrors(report, 'camt.054.001.02')).toEqual([]);
    const r = await imported('completed unmatched entries { outcome detail }', { content: report });
    expect(r.completed).toBe(0);
    expect(r.unmatched).toBe(3);
    expect(r.entries.map((e: { detail: string }) => e.detail)).toEqual([
      expect.stringMatching(/amount ZAR 500\.00 differs from the payout's ZAR 50\.00/),
      expect.stringMatching(/amount USD 50\.00 differs/),
      expect.stringMatching(/not booked \(status PDNG\)/),
    ]);
    expect((await payout(id)).status).toBe('processing');

    const bad = await gql(t, 'mutation($i: ImportBankReportInput!) { importBankReport(input: $i) { completed } }', { i: { content: '<Document/>' } }, { operator: true });
    expect(bad.body.errors?.[0]).toMatchObject({ extensions: { code: 'VALIDATION_FAILED' }, message: expect.stringMatching(/not an ISO 20022 camt\.054 or camt\.053 report/) });
  });

  it('gives back a completed payout the bank returned: still completed, its amount in the balance, its fee kept, once (CONTRACT §11)', async () => {
    const id = await createPayout(6_000, {}, { merchant_reference: 'RET-1' });
    await approve(id);
    await op(t, 'mutation { exportPayoutBatch { batch { id } } }');
    const importReport = async (xml: string) =>
      (await imported('completed failed returned unchanged unmatched alreadyImported entries { outcome detail }', { content: xml }));
    expect((await importReport(camt054('FNB-NTF-RET-0', [{ endToEndId: e2e(id), amount: '60.00', bankRef: 'FNB-RET-BOOK' }]))).completed).toBe(1);
    const before = await balance();
    expect(await payout(id)).toMatchObject({ status: 'completed', returned_at: null, return_reason: null });

    // Days later the recipient's bank sends the money back: a credit with the return's reason.
    const back = camt054('FNB-NTF-RET-1', [{ endToEndId: e2e(id), amount: '60.00', bankRef: 'FNB-RET-BACK', returned: { code: 'AC04', info: 'ACCOUNT CLOSED' } }]);
    expect(await schemaErrors(back, 'camt.054.001.02')).toEqual([]);
    expect(await importReport(back)).toMatchObject({ completed: 0, failed: 0, returned: 1, unchanged: 0, unmatched: 0, entries: [{ outcome: 'returned', detail: 'AC04 closed account (ACCOUNT CLOSED)' }] });
    const returned = await payout(id);
    expect(returned).toMatchObject({ status: 'completed', external_transfer_id: 'FNB-RET-BOOK', return_reason: 'AC04 closed account (ACCOUNT CLOSED)' });
    expect(Date.parse(returned.returned_at)).toBeGreaterThan(Date.now() - 600_000);
    const after = await balance();
    // The amount is back (the R 5.00 fee stays), withdrawals keep what left, returned says what came back.
    expect(after.balance_cents - before.balance_cents).toBe(6_000);
    expect(after.available_cents - before.available_cents).toBe(6_000);
    expect(after.totals).toMatchObject({ withdrawals_cents: before.totals.withdrawals_cents, fees_cents: before.totals.fees_cents, returned_cents: before.totals.returned_cents + 6_000 });
    const g = await gql(t, 'query($id: UUID!) { payout(id: $id) { status returnedAt returnReason } balance { totals { returnedCents } } }', { id }, { key: shop.key });
    expect(g.body.data).toEqual({ payout: { status: 'COMPLETED', returnedAt: returned.returned_at, returnReason: returned.return_reason }, balance: { totals: { returnedCents: after.totals.returned_cents } } });

    // The same return again, in the day's statement, and the same file again: nothing moves.
    const statement = camt053('FNB-STM-RET', [{ endToEndId: e2e(id), amount: '60.00', bankRef: 'FNB-RET-BACK', returned: { code: 'AC04' } }]);
    expect(await importReport(statement)).toMatchObject({ returned: 0, unchanged: 1, entries: [{ outcome: 'unchanged', detail: 'already returned' }] });
    expect(await importReport(back)).toMatchObject({ returned: 0, alreadyImported: true });
    expect(await balance()).toEqual(after);

    // The event, as other payout events are delivered.
    await eventually(async () => webhookTypes().some((e) => e.type === 'payout.returned' && e.data.id === id));
    expect(webhookTypes().filter((e) => e.type === 'payout.returned' && e.data.id === id)).toHaveLength(1);
    expect(webhookTypes().find((e) => e.type === 'payout.returned')!.data).toMatchObject({ id, status: 'completed', return_reason: 'AC04 closed account (ACCOUNT CLOSED)' });

    // The statement: a payout_return entry of the amount, in JSON and in both CSVs.
    const day = new Date(Date.now() + 2 * 3600_000).toISOString().slice(0, 10);
    const s = (await http(t, 'GET', `/api/v1/statements?from=${day}&to=${day}`, { key: shop.key })).body.data;
    expect(s.entries.filter((e: { type: string }) => e.type === 'payout_return')).toEqual([expect.objectContaining({ reference: id, amount_cents: 6_000 })]);
    expect(s.closing_balance_cents).toBe(after.balance_cents);
    const csv = (await http(t, 'GET', `/api/v1/statements?from=${day}&to=${day}&format=csv`, { key: shop.key })).body as string;
    expect(csv).toMatch(new RegExp(`,payout_return,${id},6000,`));
    const books = (await http(t, 'GET', `/api/v1/statements?from=${day}&to=${day}&format=accounting`, { key: shop.key })).body as string;
    expect(books).toMatch(new RegExp(`,payout_return,[^,]*,${id},RET-1,FNB-RET-BOOK,60\\.00,0\\.00,60\\.00,`));

    const verify = await zarpay(['ledger', 'verify'], env);
    expect(verify.json).toMatchObject({ ok: true, problems: [] });
    // ledger verify sees a return the balances do not carry.
    await sql`update balances set returned_cents = returned_cents - 1, balance_cents = balance_cents - 1 where merchant_id = ${shop.id}`.execute(t.database.db);
    try {
      const broken = await zarpay(['ledger', 'verify'], env);
      expect(broken.json.problems.map((p: { check: string }) => p.check)).toEqual(expect.arrayContaining(['returned_cents equals the journal', 'returned_cents = amounts of returned payouts']));
    } finally {
      await sql`update balances set returned_cents = returned_cents + 1, balance_cents = balance_cents + 1 where merchant_id = ${shop.id}`.execute(t.database.db);
    }
  });

  it('completes a whole batch booked as one entry, and batched transactions without amounts by their sum (CONTRACT §11)', async () => {
    const ids = [await createPayout(1_100), await createPayout(2_200), await createPayout(3_300)];
    for (const id of ids) await approve(id);
    const { exportPayoutBatch } = await op(t, 'mutation { exportPayoutBatch { batch { messageId totalCents } } }');
    const msgId = exportPayoutBatch.batch.messageId as string;
    expect(exportPayoutBatch.batch.totalCents).toBe(6_600);
    const bulk = (amount: string, ref: string) => `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.02"><BkToCstmrDbtCdtNtfctn><GrpHdr><MsgId>${ref}</MsgId><CreDtTm>2026-11-25T16:05:00+02:00</CreDtTm></GrpHdr>
<Ntfctn><Id>${ref}-1</Id><CreDtTm>2026-11-25T16:05:00+02:00</CreDtTm><Acct><Id><Othr><Id>62000000001</Id></Othr></Id></Acct>
<Ntry><Amt Ccy="ZAR">${amount}</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-11-25</Dt></BookgDt><AcctSvcrRef>${ref}-BOOK</AcctSvcrRef>
<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd>
<NtryDtls><Btch><MsgId>${msgId}</MsgId><PmtInfId>${msgId}</PmtInfId><NbOfTxs>3</NbOfTxs></Btch></NtryDtls></Ntry></Ntfctn></BkToCstmrDbtCdtNtfctn></Document>`;
    const importReport = async (xml: string) =>
      (await imported('completed unchanged unmatched entries { outcome detail }', { content: xml }));
    // A wrong total: nothing moves, and the difference is stated.
    const wrong = bulk('65.00', 'FNB-BULK-WRONG');
    expect(await schemaErrors(wrong, 'camt.054.001.02')).toEqual([]);
    expect(await importReport(wrong)).toMatchObject({ completed: 0, unmatched: 1, entries: [{ outcome: 'unmatched', detail: `batch ${msgId}: amount ZAR 65.00 differs from the batch's total ZAR 66.00 by ZAR 1.00` }] });
    for (const id of ids) expect((await payout(id)).status).toBe('processing');
    const right = bulk('66.00', 'FNB-BULK-RIGHT');
    expect(await schemaErrors(right, 'camt.054.001.02')).toEqual([]);
    const before = await balance();
    expect(await importReport(right)).toMatchObject({ completed: 1, entries: [{ outcome: 'completed', detail: `batch ${msgId}: 3 of 3 payouts completed` }] });
    for (const id of ids) expect(await payout(id)).toMatchObject({ status: 'completed', external_transfer_id: 'FNB-BULK-RIGHT-BOOK' });
    expect(before.balance_cents - (await balance()).balance_cents).toBe(6_600 + 3 * 500);

    // One entry, two transactions naming their payouts but no amounts: matched when the entry is their sum.
    const pair = [await createPayout(4_000), await createPayout(5_000)];
    for (const id of pair) await approve(id);
    await op(t, 'mutation { exportPayoutBatch { batch { id } } }');
    const shared = (amount: string, ref: string) =>
      camt054(ref, [{ endToEndId: e2e(pair[0]!), amount, bankRef: `${ref}-B` }])
        .replace(/<TxDtls>[\s\S]*<\/TxDtls>/, pair.map((id) => `<TxDtls><Refs><EndToEndId>${e2e(id)}</EndToEndId></Refs></TxDtls>`).join(''));
    expect(await schemaErrors(shared('90.00', 'FNB-SHARED-1'), 'camt.054.001.02')).toEqual([]);
    const off = await importReport(shared('95.00', 'FNB-SHARED-0'));
    expect(off).toMatchObject({ completed: 0, unmatched: 2 });
    expect(off.entries[0].detail).toMatch(/entry's amount ZAR 95\.00 differs from the sum of its payouts ZAR 90\.00 by 5\.00/);
    expect(await importReport(shared('90.00', 'FNB-SHARED-1'))).toMatchObject({ completed: 2, unmatched: 0 });
    for (const id of pair) expect((await payout(id)).status).toBe('completed');
    expect((await zarpay(['ledger', 'verify'], env)).json).toMatchObject({ ok: true });
  });

  it('imports a day\'s statement far larger than a request body, through the CLI', async () => {
    const entries = Array.from({ length: 400 }, (_, i) => ({ endToEndId: `SUPPLIER-RUN-${i}`, amount: `${i + 1}.00`, bankRef: `FNB-BIG-${i}` }));
    const statement = camt053('FNB-STM-BIG', entries);
    expect(Buffer.byteLength(statement)).toBeGreaterThan(5 * 64 * 1024);
    const file = join(dir, 'camt053-big.xml');
    writeFileSync(file, statement);
    const imported = await zarpay(['payout', 'batch', 'import', file], env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.json).toMatchObject({ completed: 0, failed: 0, unmatched: 400, kind: 'camt.053' });
  });

  it('refuses a report that breaks its version\'s schema, naming the line, and changes nothing', async () => {
    const id = await createPayout(4_400);
    await approve(id);
    await op(t, 'mutation { exportPayoutBatch { batch { id } } }');
    const good = camt054('FNB-NTF-SCHEMA', [{ endToEndId: e2e(id), amount: '44.00', bankRef: 'FNB-SCHEMA-1' }]);
    // Booked as the reader expects, but with an element the schema does not allow where it stands.
    const broken = good.replace('<Sts>BOOK</Sts>', '<Sts>BOOK</Sts>\n        <Note>paid</Note>');
    const line = broken.split('\n').findIndex((l) => l.includes('<Note>')) + 1;
    const file = join(dir, 'camt054-schema.xml');
    writeFileSync(file, broken);
    const before = await balance();
    const reports = async () => Number((await sql<{ n: string }>`select count(*) as n from bank_reports`.execute(t.database.db)).rows[0]!.n);
    const count = await reports();

    const cli = await zarpay(['payout', 'batch', 'import', file], env);
    expect(cli.code).not.toBe(0);
    expect(cli.json).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining(`not valid against the camt.054.001.02 schema, nothing was applied: line ${line}: Element 'Note': This element is not expected.`) });
    const viaGraphQL = await gql(t, 'mutation($i: ImportBankReportInput!) { importBankReport(input: $i) { completed } }', { i: { content: broken } }, { operator: true });
    expect(viaGraphQL.body.errors?.[0]).toMatchObject({ extensions: { code: 'VALIDATION_FAILED' }, message: expect.stringContaining(`line ${line}:`) });
    // A version whose schema is not shipped is refused, naming the ones that are.
    const v06 = good.replace('camt.054.001.02', 'camt.054.001.06');
    const unknown = await gql(t, 'mutation($i: ImportBankReportInput!) { importBankReport(input: $i) { completed } }', { i: { content: v06 } }, { operator: true });
    expect(unknown.body.errors?.[0]).toMatchObject({ extensions: { code: 'VALIDATION_FAILED' }, message: expect.stringMatching(/camt\.054\.001\.06 cannot be checked against its schema.*camt\.054\.001\.02, camt\.054\.001\.04, camt\.054\.001\.08/) });

    expect((await payout(id)).status).toBe('processing');
    expect(await balance()).toEqual(before);
    expect(await reports()).toBe(count);
    // The same bookings, valid: completed.
    expect(await schemaErrors(good, 'camt.054.001.02')).toEqual([]);
    expect((await imported('completed', { content: good })).completed).toBe(1);
  });

  it('checks each version against its own schema: every shipped version completes, an .08 report in .02\'s shape is refused', async () => {
    const versions = [
      ['camt.053', '03'],
      ['camt.053', '04'],
      ['camt.053', '08'],
      ['camt.054', '04'],
      ['camt.054', '08'],
    ] as const;
    for (const [kind, version] of versions) {
      const id = await createPayout(1_200);
      await approve(id);
      await op(t, 'mutation { exportPayoutBatch { batch { id } } }');
      const entry = { endToEndId: e2e(id), amount: '12.00', bankRef: `FNB-V${version}-${kind}` };
      const xml = inVersion((kind === 'camt.053' ? camt053 : camt054)(`FNB-${kind}-${version}`, [entry]), version);
      if (version === '08') {
        // Valid as .02 writes an entry's status, not as .08 does: refused, nothing moves.
        const old = xml.replace('<Sts><Cd>BOOK</Cd></Sts>', '<Sts>BOOK</Sts>');
        const line = old.split('\n').findIndex((l) => l.includes('<Sts>BOOK</Sts>')) + 1;
        const refused = await gql(t, 'mutation($i: ImportBankReportInput!) { importBankReport(input: $i) { completed } }', { i: { content: old } }, { operator: true });
        expect(refused.body.errors?.[0]).toMatchObject({ extensions: { code: 'VALIDATION_FAILED' }, message: expect.stringContaining(`${kind}.001.08 schema, nothing was applied: line ${line}: Element 'Sts'`) });
        expect((await payout(id)).status).toBe('processing');
      }
      expect(await imported('kind completed', { content: xml }), `${kind}.001.${version}`).toEqual({ kind, completed: 1 });
      expect((await payout(id)).status).toBe('completed');
    }
  });

  it('records a return by hand as a report does: once, audited, and a report of it afterwards changes nothing (CONTRACT §11)', async () => {
    const id = await createPayout(7_700, {}, { merchant_reference: 'HAND-1' });
    await approve(id);
    await op(t, 'mutation { exportPayoutBatch { batch { id } } }');
    // Not completed yet: nothing to give back.
    const early = await zarpay(['payout', 'return', id, '--reason', 'AC04 closed account'], env);
    expect(early.code).not.toBe(0);
    expect(early.json).toMatchObject({ code: 'INVALID_STATUS_TRANSITION', message: expect.stringMatching(/cannot return a payout that is processing/) });
    expect((await imported('completed', { content: camt054('FNB-NTF-HAND-0', [{ endToEndId: e2e(id), amount: '77.00', bankRef: 'FNB-HAND-BOOK' }]) })).completed).toBe(1);
    const before = await balance();

    const returned = await zarpay(['payout', 'return', id, '--reason', 'AC04 closed account (letter from the bank)'], env);
    expect(returned.code, returned.stderr).toBe(0);
    expect(returned.json).toMatchObject({ id, status: 'completed', external_transfer_id: 'FNB-HAND-BOOK', return_reason: 'AC04 closed account (letter from the bank)', returned_at: expect.any(String) });
    const after = await balance();
    expect(after.balance_cents - before.balance_cents).toBe(7_700);
    expect(after.totals.returned_cents - before.totals.returned_cents).toBe(7_700);

    // Twice: refused, nothing moves; the bank's report of the same return afterwards: unchanged.
    const twice = await zarpay(['payout', 'return', id, '--reason', 'again'], env);
    expect(twice.json).toMatchObject({ code: 'INVALID_STATUS_TRANSITION', message: expect.stringMatching(/returned already/) });
    const report = camt054('FNB-NTF-HAND-1', [{ endToEndId: e2e(id), amount: '77.00', bankRef: 'FNB-HAND-BACK', returned: { code: 'AC04' } }]);
    expect(await imported('returned unchanged entries { detail }', { content: report })).toMatchObject({ returned: 0, unchanged: 1, entries: [{ detail: 'already returned' }] });
    expect(await balance()).toEqual(after);
    const merchantTries = await gql(t, 'mutation($id: UUID!) { returnPayout(id: $id, reason: "x") { payout { id } } }', { id }, { key: shop.key });
    expect(merchantTries.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    const audit = await zarpay(['audit', '--payout', id], env);
    expect(audit.json.filter((e: { action: string }) => e.action === 'payout.return')).toEqual([
      expect.objectContaining({ detail: expect.objectContaining({ by_hand: true, return_reason: 'AC04 closed account (letter from the bank)', amount_cents: 7_700 }) }),
    ]);
    await eventually(async () => webhookTypes().some((e) => e.type === 'payout.returned' && e.data.id === id));
    expect(webhookTypes().filter((e) => e.type === 'payout.returned' && e.data.id === id)).toHaveLength(1);
    expect((await zarpay(['ledger', 'verify'], env)).json).toMatchObject({ ok: true, problems: [] });
  });

  it('is the operator\'s alone', async () => {
    const res = await http(t, 'POST', '/graphql', { key: shop.key, body: { query: '{ payoutBatches { totalCount } }' } });
    expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const imp = await http(t, 'POST', '/graphql', { key: shop.key, body: { query: 'mutation { importBankReport(input: { content: "<x/>" }) { completed } }' } });
    expect(imp.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('payout batch files and the data key', () => {
  // Last on this app: after it, the bank details are sealed under a key the running app lacks.
  it('seals the batches\' files again under a new data key, and they still read the same', async () => {
    const k2 = { ...t.config, dataKeys: [{ kid: 'k2', key: Buffer.alloc(32, 7) }] };
    const before = await new PayoutBatchService({ db: t.database.db, config: t.config }).list(OPERATOR, { limit: 100, offset: 0 });
    expect(before.total).toBeGreaterThan(0);
    const files = new Map<string, string>();
    for (const b of before.batches) files.set(b.id, (await t.app.services.payoutBatches.file(OPERATOR, b.id)).file);
    const keys = new DataKeyService({ db: t.database.db, config: k2 });
    // force: the test's running app lacks k2 (and stops using these files after this test).
    const rotated = await keys.rotate(OPERATOR, { force: true });
    expect(rotated.payoutBatchFiles).toBe(before.total);
    expect((await keys.inventory(OPERATOR)).payoutBatchFiles).toEqual({ k2: before.total });
    const underK2 = new PayoutBatchService({ db: t.database.db, config: k2 });
    for (const [id, file] of files) expect((await underK2.file(OPERATOR, id)).file).toBe(file);
  });

  it('lists a batch file that will not open and reseals the rest; refuses to export a payout whose details will not open', async () => {
    const [k2, k3, wrong] = [{ kid: 'k2', key: Buffer.alloc(32, 7) }, { kid: 'k3', key: Buffer.alloc(32, 9) }, { kid: 'k2', key: Buffer.alloc(32, 8) }];
    const right = { ...t.config, dataKeys: [k3, k2] };
    const { batches } = await new PayoutBatchService({ db: t.database.db, config: right }).list(OPERATOR, { limit: 100, offset: 0 });
    const lost = batches[0]!.id;
    // What other material under k2 sealed (a slip before keys proved themselves).
    const slip = createKeyring(t.config.serviceSecret, [wrong]);
    await sql`update payout_batches set file_sealed = ${slip.seal('payout-batch-file', lost, '<Document/>')} where id = ${lost}::uuid`.execute(t.database.db);

    const keys = new DataKeyService({ db: t.database.db, config: right });
    const dry = await keys.scan(OPERATOR);
    expect(dry.unreadable.payoutBatchFiles).toEqual([lost]);
    expect(dry.toReseal.payoutBatchFiles).toBe(batches.length - 1);
    const rotated = await keys.rotate(OPERATOR, { force: true });
    expect(rotated).toMatchObject({ kid: 'k3', payoutBatchFiles: batches.length - 1, unreadable: { payoutBatchFiles: [lost] } });
    expect((await keys.inventory(OPERATOR)).payoutBatchFiles.k2).toBe(1);
    const files = new PayoutBatchService({ db: t.database.db, config: right });
    await expect(files.file(OPERATOR, lost)).rejects.toMatchObject({ code: 'INTERNAL_ERROR', message: expect.stringMatching(/\bk2\b/) });
    for (const b of batches.slice(1)) expect((await files.file(OPERATOR, b.id)).file).toContain('pain.001.001.03');

    // A payout whose bank details will not open cannot be paid: nothing is exported, it is named and counted.
    const good = createServices(right, borrowed(t.database));
    const actor = await good.keys.authenticate(shop.key);
    const details = { accountNumber: '12312312301', branchCode: '250655', accountHolder: 'Holder', bankName: 'FNB' };
    const fine = await good.payouts.create(actor, { amountCents: 1_000, currency: 'ZAR', payoutMethod: 'eft', paymentDetails: details });
    const bad = await createServices({ ...t.config, dataKeys: [wrong] }, borrowed(t.database)).payouts.create(actor, {
      amountCents: 1_100,
      currency: 'ZAR',
      payoutMethod: 'eft',
      paymentDetails: details,
    });
    for (const p of [fine, bad]) await good.payouts.approve(OPERATOR, p.payout.id);
    await expect(files.export(OPERATOR)).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining(bad.payout.id) });
    expect((await good.payouts.get(OPERATOR, fine.payout.id)).status).toBe('approved');
    expect((await unreadableCounts(t.database.db))['payout-details']).toBe(1);
    await good.payouts.reject(OPERATOR, bad.payout.id, 'bank details lost');
    const exported = await files.export(OPERATOR);
    expect(exported.batch.payoutIds).toEqual([fine.payout.id]);
  });
});

/**
 * kill -9 in the middle of an import: the job applies a report in steps, each whole or not at
 * all, and the next process finishes it. A row lock held by the test stops the job at the step
 * with the held payout, so the process dies there every time, not whenever it happens to.
 */
describe.skipIf(!usingPostgres)('a bank report import across kill -9 (needs PostgreSQL: set DATABASE_URL)', { timeout: 240_000 }, () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  const running: ServiceProcess[] = [];
  const service = async () => {
    const s = await spawnService({ DATABASE_URL: db.url!, ...DEBTOR });
    running.push(s);
    return s;
  };
  const call = async (s: ServiceProcess, path: string, body: unknown, key?: string) => {
    const res = await fetch(s.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : { authorization: `Bearer ${OPERATOR_TOKEN}` }) },
      body: JSON.stringify(body),
    });
    return res.json() as Promise<any>;
  };
  const operator = async (s: ServiceProcess, query: string, variables: Record<string, unknown> = {}) => {
    const body = await call(s, '/graphql', { query, variables });
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
  const statuses = async (ids: string[]) =>
    (await sql<{ id: string; status: string }>`select id, status from payouts where id = any(${ids}::uuid[])`.execute(db.handle.db)).rows.reduce(
      (m, r) => ({ ...m, [r.id]: r.status }),
      {} as Record<string, string>,
    );

  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(async () => {
    for (const s of running) await s.stop();
    await db?.handle.close();
    await db?.drop();
  });

  it('a job applies a big report in steps; killed in the middle, the next process finishes it, every payout completed once', async () => {
    const first = await service();
    const created = await operator(first, 'mutation { createMerchant(input: { name: "Crash Payouts", payoutFeeCents: 100 }) { merchant { id } fullKey } }');
    const merchantId = created.createMerchant.merchant.id as string;
    const key = created.createMerchant.fullKey as string;
    await operator(first, 'mutation($m: UUID!) { creditBalance(merchantId: $m, amountCents: 10000000) { balance { balanceCents } } }', { m: merchantId });
    const PAYOUTS = 100;
    const ids: string[] = [];
    for (let i = 1; i <= PAYOUTS; i++) {
      const res = await call(first, '/api/v1/payouts', payoutBody(1_000 + i), key);
      ids.push(res.data.id);
      await operator(first, 'mutation($id: UUID!) { approvePayout(id: $id) { payout { id } } }', { id: res.data.id });
    }
    const exported = await operator(first, 'mutation { exportPayoutBatch { batch { payouts { id } } } }');
    const order = (exported.exportPayoutBatch.batch.payouts as { id: string }[]).map((p) => p.id);
    const amounts = new Map(ids.map((id, i) => [id, 1_000 + i + 1]));
    // A day's statement: each payout's booking among eleven entries that are not ours (a salary run).
    const entries = order.flatMap((id, i) => [
      { endToEndId: e2e(id), amount: (amounts.get(id)! / 100).toFixed(2), bankRef: `FNB-CRASH-${i}` },
      ...Array.from({ length: 11 }, (_, j) => ({ endToEndId: `SALARY-${i}-${j}`, amount: `${j + 1}.00`, bankRef: `FNB-SAL-${i}-${j}` })),
    ]);
    const report = camt053('FNB-STM-CRASH', entries);
    expect(await schemaErrors(report, 'camt.053.001.02')).toEqual([]);
    const file = join(dir, 'camt053-crash.xml');
    writeFileSync(file, report);
    const entryCount = async () => Number((await sql<{ n: string }>`select count(*) as n from bank_report_entries`.execute(db.handle.db)).rows[0]!.n);

    // Hold the payout half-way down the file: the job's steps before it commit, the step with it waits there.
    const held = PAYOUTS / 2;
    const heldStep = Math.floor((held * 12) / 50) * 50;
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    await holder.query('begin');
    await holder.query('select id from payouts where id = $1 for update', [order[held]]);
    const cli = zarpay(['payout', 'batch', 'import', file], { ZARPAY_URL: first.url, OPERATOR_TOKEN });
    await eventually(async () => (await entryCount()) === heldStep, 60_000);
    const [waiting] = (await sql<{ next_position: number; finished_at: Date | null; sealed: boolean }>`select next_position, finished_at, content_sealed is not null as sealed from bank_reports`.execute(db.handle.db)).rows;
    expect(waiting).toEqual({ next_position: heldStep, finished_at: null, sealed: true });
    await first.kill9();
    // The CLI was waiting for the job; its service is gone.
    expect((await cli).code).not.toBe(0);
    await holder.query('rollback');
    await holder.end();

    // Each step is whole or not at all: the payouts before the held step completed, the rest still processing.
    const after = await statuses(order);
    const before = order.filter((_, i) => i * 12 < heldStep);
    expect(before.length).toBeGreaterThan(0);
    expect(order.map((id) => after[id])).toEqual(order.map((id) => (before.includes(id) ? 'completed' : 'processing')));
    expect(await entryCount()).toBe(heldStep);
    const [job] = (await sql<{ status: string }>`select status from jobs where queue = 'payout.bank_report'`.execute(db.handle.db)).rows;
    expect(job).toEqual({ status: 'queued' });

    // The next process takes the job over once the dead one's claim runs out, and finishes it.
    const second = await service();
    const env2 = { ZARPAY_URL: second.url, OPERATOR_TOKEN };
    await eventually(async () => (await sql<{ finished_at: Date | null }>`select finished_at from bank_reports`.execute(db.handle.db)).rows[0]!.finished_at !== null, 90_000);
    expect(Object.values(await statuses(order))).toEqual(Array(PAYOUTS).fill('completed'));
    const completedEvents = await sql<{ payout_id: string; n: string }>`select payout_id, count(*) as n from events where type = 'payout.completed' group by payout_id`.execute(db.handle.db);
    expect(completedEvents.rows.map((r) => r.payout_id).sort()).toEqual([...ids].sort());
    expect(completedEvents.rows.every((r) => Number(r.n) === 1)).toBe(true);
    const settled = await sql<{ n: string }>`select count(*) as n from ledger_transactions where kind = 'payout_settle'`.execute(db.handle.db);
    expect(Number(settled.rows[0]!.n)).toBe(PAYOUTS);
    expect(await entryCount()).toBe(entries.length);
    const [finished] = (await sql<{ sealed: boolean }>`select content_sealed is not null as sealed from bank_reports`.execute(db.handle.db)).rows;
    expect(finished).toEqual({ sealed: false });
    const verify = await zarpay(['ledger', 'verify'], env2);
    expect(verify.code, verify.stderr).toBe(0);
    expect(verify.json).toMatchObject({ ok: true, problems: [] });
    // 10 000 000 − Σ (amount + 100 fee).
    const spent = [...amounts.values()].reduce((sum, a) => sum + a + 100, 0);
    const balance = await fetch(`${second.url}/api/v1/payouts/balance`, { headers: { 'x-api-key': key } }).then((r) => r.json() as Promise<any>);
    expect(balance.data).toMatchObject({ balance_cents: 10_000_000 - spent, reserved_cents: 0 });

    // The same file again: applied already, nothing changes.
    const again = await zarpay(['payout', 'batch', 'import', file], env2);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json).toMatchObject({ completed: 0, already_imported: true });
    const audited = await sql<{ actor: string }>`select actor from audit_log where action = 'bank_report.import'`.execute(db.handle.db);
    expect(audited.rows).toEqual([{ actor: expect.stringMatching(/^operator/) }]);
  });
});

describe('bank file rules', () => {
  it('a report\'s job goes on after an error, counting its own failures, and gives up after the last delay', async () => {
    const errors: string[] = [];
    let failing = 0;
    let steps = 0;
    const task = bankReportTask(
      {
        applyStep: async () => {
          if (failing > 0) {
            failing--;
            throw new Error('connection reset');
          }
          return ++steps >= 3;
        },
      },
      (m) => errors.push(m),
    );
    const job = (payload: Record<string, unknown>) =>
      ({ id: 1, key: 'r', merchantId: null, payload: { report: 'r', ...payload }, attempt: 40, createdAt: new Date(), signal: new AbortController().signal, itemFailed: () => {} }) as any;
    // Many runs into a long report (attempt 40), one error: tried again, not failed for good.
    failing = 1;
    expect(await task.run(job({}))).toEqual({ kind: 'later', inMs: 1_000, payload: { report: 'r', failures: 1 } });
    expect(errors).toEqual([expect.stringMatching(/applying report r failed \(1 in a row\), tried again in 1 s/)]);
    // It works again: the report is applied and the job done.
    expect(await task.run(job({ failures: 1 }))).toBeUndefined();
    expect(steps).toBe(3);
    // Failing again and again: given up after the last delay, with the error.
    failing = 1;
    await expect(task.run(job({ failures: 4 }))).rejects.toMatchObject({ name: 'GiveUp', message: expect.stringMatching(/failed 5 times in a row: connection reset/) });
  });

  it('wants the debtor settings together, with a known branch code', () => {
    expect(() => loadConfig({ SERVICE_ENV: 'tst', DATA_DIR: dir, PAYOUT_DEBTOR_NAME: 'X' })).toThrow(/PAYOUT_DEBTOR_ACCOUNT, PAYOUT_DEBTOR_BRANCH_CODE/);
    expect(() => loadConfig({ SERVICE_ENV: 'tst', DATA_DIR: dir, ...DEBTOR, PAYOUT_DEBTOR_BRANCH_CODE: '123456' })).toThrow(/PAYOUT_DEBTOR_BRANCH_CODE must be a South African universal branch code/);
    expect(loadConfig({ SERVICE_ENV: 'tst', DATA_DIR: dir, ...DEBTOR }).payoutDebtor).toEqual({
      name: 'Zarpay Payouts (Pty) Ltd',
      accountNumber: '62000000001',
      branchCode: '250655',
      bankName: 'First National Bank',
    });
    expect(loadConfig({ SERVICE_ENV: 'tst', DATA_DIR: dir }).payoutDebtor).toBeNull();
  });

  it('asks for the next South African business day after the cut-off, a weekend or a public holiday', () => {
    const at = (sast: string) => new Date(`${sast}+02:00`);
    const cutoff = 14 * 60;
    // Before the cut-off on a business day: that day; after it: the next business day.
    expect(executionDate(at('2026-11-25T13:59:00'), cutoff)).toBe('2026-11-25');
    expect(executionDate(at('2026-11-25T14:00:00'), cutoff)).toBe('2026-11-26');
    // A Friday after the cut-off: the Monday.
    expect(executionDate(at('2026-11-27T16:30:00'), cutoff)).toBe('2026-11-30');
    expect(executionDate(at('2026-11-28T09:00:00'), cutoff)).toBe('2026-11-30');
    // The day before Freedom Day (Sunday 26 April 2026 → 27 April is the holiday, a Monday) and 2027's (Monday 26 April).
    expect(executionDate(at('2026-04-24T15:00:00'), cutoff)).toBe('2026-04-28');
    expect(executionDate(at('2027-04-26T15:00:00'), cutoff)).toBe('2027-04-28');
    // A Sunday holiday's Monday: Human Rights Day 2027 (21 March) is a Sunday, so Monday 22 March is off too.
    expect(isBusinessDay('2027-03-22')).toBe(false);
    expect(executionDate(at('2027-03-19T14:30:00'), cutoff)).toBe('2027-03-23');
    // Easter, Good Friday and Family Day computed, not listed.
    expect(['2026', '2027', '2030'].map((y) => easterSunday(Number(y)))).toEqual(['2026-04-05', '2027-03-28', '2030-04-21']);
    expect(isBusinessDay('2026-04-03')).toBe(false);
    expect(isBusinessDay('2026-04-06')).toBe(false);
    expect(executionDate(at('2026-04-02T14:01:00'), cutoff)).toBe('2026-04-07');
    // Christmas on a Friday, Day of Goodwill on the Saturday: the Monday is a business day (no Sunday holiday).
    expect(executionDate(at('2026-12-24T15:00:00'), cutoff)).toBe('2026-12-28');
    // A later cut-off keeps the same day.
    expect(executionDate(at('2026-11-25T15:00:00'), 16 * 60)).toBe('2026-11-25');
    expect(swiftText('Straße Ærø Søren Nørgård Müller', 140, 'x')).toBe('Strasse AEro Soren Norgard Muller');
    expect(bankForBranchCode('589000')?.name).toBe('Finbond Mutual Bank');
    expect(bankForBranchCode('757026')?.name).toBe('Ithala');
  });

  it('knows which bank a free-text name names', () => {
    expect(bankNameMismatch('First National Bank', 'fnb')).toBe(false);
    expect(bankNameMismatch('FNB Business', 'fnb')).toBe(false);
    expect(bankNameMismatch('Standard Bank', 'fnb')).toBe(true);
    expect(bankNameMismatch('Standard Chartered', 'standard_chartered')).toBe(false);
    expect(bankNameMismatch('Capitec Business', 'capitec_business')).toBe(false);
    expect(bankNameMismatch('Capitec', 'capitec_business')).toBe(true);
    expect(bankNameMismatch('Cheque account', 'absa')).toBe(false);
    expect(bankForBranchCode('051001')?.name).toBe('Standard Bank');
    expect(bankForBranchCode('123456')).toBeUndefined();
  });

  it('reads a report whose elements carry a namespace prefix, and a return\'s reason in words', () => {
    const id = '3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11';
    const plain = camt054('P-1', [{ endToEndId: e2e(id), amount: '12.30', bankRef: 'REF-1', returned: { code: 'MD07' } }]);
    const prefixed = plain
      .replace('xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.02"', 'xmlns:ns2="urn:iso:std:iso:20022:tech:xsd:camt.054.001.02"')
      .replace(/<(\/?)([A-Za-z])/g, '<$1ns2:$2');
    for (const xml of [plain, prefixed]) {
      const report = parseBankReport(xml);
      expect(report).toMatchObject({ kind: 'camt.054', messageId: 'P-1' });
      expect(report.lines).toEqual([
        expect.objectContaining({ payoutId: id, amountCents: 1230, currency: 'ZAR', returned: true, reference: 'REF-1', returnReason: 'MD07 account holder deceased', status: 'BOOK' }),
      ]);
    }
    expect(() => parseBankReport('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"/>')).toThrow(/not an ISO 20022 camt\.054 or camt\.053 report/);
    expect(() => parseBankReport('not xml <')).toThrow(/not an ISO 20022/);
  });

  it('reads reports as banks book them: a batch as one entry, transactions without amounts, Sts/Prtry, a transaction\'s own direction, a reversed debit (CONTRACT §11)', () => {
    const a = '3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11';
    const b = '4a2d0b63-9b54-4d2f-8b68-6e3f1f3c8d22';
    const doc = (entries: string) => `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn><GrpHdr><MsgId>N-8</MsgId><CreDtTm>2026-11-25T16:05:00+02:00</CreDtTm></GrpHdr>
<Ntfctn><Id>N-8-1</Id><Acct><Id><Othr><Id>62000000001</Id></Othr></Id></Acct>${entries}</Ntfctn></BkToCstmrDbtCdtNtfctn></Document>`;
    const report = parseBankReport(
      doc(`
<Ntry><Amt Ccy="ZAR">425.50</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><AcctSvcrRef>BULK-1</AcctSvcrRef>
  <NtryDtls><Btch><MsgId>ZARPAY-20261125-000001</MsgId><PmtInfId>ZARPAY-20261125-000001</PmtInfId><NbOfTxs>3</NbOfTxs></Btch></NtryDtls></Ntry>
<Ntry><Amt Ccy="ZAR">300.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Prtry>BOOKED</Prtry></Sts><AcctSvcrRef>BULK-2</AcctSvcrRef>
  <NtryDtls><TxDtls><Refs><EndToEndId>${e2e(a)}</EndToEndId></Refs></TxDtls><TxDtls><Refs><EndToEndId>${e2e(b)}</EndToEndId></Refs><CdtDbtInd>CRDT</CdtDbtInd></TxDtls></NtryDtls></Ntry>
<Ntry><Amt Ccy="ZAR">12.30</Amt><CdtDbtInd>DBIT</CdtDbtInd><RvslInd>true</RvslInd><Sts><Cd>BOOK</Cd></Sts>
  <NtryDtls><TxDtls><Refs><EndToEndId>${e2e(a)}</EndToEndId></Refs></TxDtls></NtryDtls></Ntry>
<Ntry><Amt Ccy="ZAR">12.30</Amt><CdtDbtInd>CRDT</CdtDbtInd><RvslInd>true</RvslInd><Sts><Cd>BOOK</Cd></Sts>
  <NtryDtls><TxDtls><Refs><EndToEndId>${e2e(a)}</EndToEndId></Refs></TxDtls></NtryDtls></Ntry>`),
    );
    expect(report.lines).toHaveLength(5);
    const [batch, first, second, reversedDebit, reversedCredit] = report.lines;
    expect(batch).toMatchObject({ position: 0, batchRefs: ['ZARPAY-20261125-000001'], amountCents: 42_550, currency: 'ZAR', creditDebit: 'DBIT', status: 'BOOK', payoutId: null, reference: 'BULK-1' });
    // Two transactions, no amounts of their own: the entry's amount and both ids travel with each.
    expect(first).toMatchObject({ payoutId: a, amountCents: null, status: 'BOOKED', creditDebit: 'DBIT', batchRefs: [], entry: { amountCents: 30_000, currency: 'ZAR', endToEndIds: [e2e(a), e2e(b)] } });
    expect(second).toMatchObject({ payoutId: b, amountCents: null, creditDebit: 'CRDT' });
    // A reversal flag on a debit undoes a credit: no return of a payout. On a credit it is one.
    expect(reversedDebit).toMatchObject({ returned: false, creditDebit: 'DBIT' });
    expect(reversedCredit).toMatchObject({ returned: true, creditDebit: 'CRDT' });
  });
});
