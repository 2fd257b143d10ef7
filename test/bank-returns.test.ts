import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBankReport } from '../src/domain/iso20022/camt.ts';
import { startApp, type TestApp } from './support/app.ts';
import { camt054, schemaErrors } from './support/bank-reports.ts';
import { createMerchant, credit, eftDetails, expectLedgerOk, http, op, payoutBody, type TestMerchant } from './support/client.ts';
import { eventually, type Receiver, startReceiver } from './support/receiver.ts';

/**
 * A bank that gives a whole credit-transfer file back (CONTRACT §11, issue 34): one return entry
 * naming the exported batch (its `Btch` MsgId/PmtInfId, or its references) returns every payout of
 * the batch that completed and fails every one still processing, each once, each with its own
 * `payout.returned` or `payout.failed`, the ledger crediting each amount; a wrong total moves none
 * and says by how much; the same report twice, or the day's statement repeating it, moves nothing.
 */

const DEBTOR = { PAYOUT_DEBTOR_NAME: 'Zarpay Payouts (Pty) Ltd', PAYOUT_DEBTOR_ACCOUNT: '62000000001', PAYOUT_DEBTOR_BRANCH_CODE: '250655' };
const e2e = (id: string) => id.replaceAll('-', '');

let t: TestApp;
let receiver: Receiver;
let shop: TestMerchant;

beforeAll(async () => {
  t = await startApp(DEBTOR);
  receiver = await startReceiver();
  shop = await createMerchant(t, { name: 'Returned Shop', payoutFeeCents: 500, webhookUrl: receiver.url });
  await credit(t, shop.id, 1_000_000);
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const createPayout = async (amount: number) => {
  const res = await http(t, 'POST', '/api/v1/payouts', { key: shop.key, body: { ...payoutBody(amount), payment_details: eftDetails } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as string;
};
const payout = async (id: string) => (await http(t, 'GET', `/api/v1/payouts/${id}`, { key: shop.key })).body.data;
const balance = async () => (await http(t, 'GET', '/api/v1/payouts/balance', { key: shop.key })).body.data;
const events = () => receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: { id: string; status: string; return_reason: string | null; failure_reason: string | null } });

/** How many events of `type` the outbox holds for each of these payouts (those with any). */
async function eventCounts(type: string, ids: string[]): Promise<Record<string, number>> {
  const rows = await t.database.db.selectFrom('events').select('payout_id').where('type', '=', type).where('payout_id', 'in', ids).execute();
  const counts: Record<string, number> = {};
  for (const r of rows) counts[r.payout_id!] = (counts[r.payout_id!] ?? 0) + 1;
  return counts;
}

/** Payouts approved and exported as one pain.001 file: their ids and the file's MsgId (its PmtInfId too). */
async function exportedBatch(amounts: number[]): Promise<{ ids: string[]; msgId: string; totalCents: number }> {
  const ids: string[] = [];
  for (const amount of amounts) ids.push(await createPayout(amount));
  for (const id of ids) await op(t, 'mutation($id: UUID!) { approvePayout(id: $id) { payout { status } } }', { id });
  const { batch } = (await op(t, 'mutation { exportPayoutBatch { batch { messageId totalCents } } }')).exportPayoutBatch;
  return { ids, msgId: batch.messageId, totalCents: batch.totalCents };
}

const FIELDS = 'completed failed returned unchanged unmatched alreadyImported entries { outcome detail payoutId }';

/** Imports a report over GraphQL and waits (a condition, not a sleep) for its job to apply it. */
async function imported(xml: string) {
  const started = (await op(t, `mutation($i: ImportBankReportInput!) { importBankReport(input: $i) { reportId status ${FIELDS} } }`, { i: { content: xml } })).importBankReport;
  if (started.status === 'applied') return started;
  return eventually(async () => {
    const r = (await op(t, `query($id: UUID!) { bankReport(id: $id) { status ${FIELDS} } }`, { id: started.reportId })).bankReport;
    return r.status === 'applied' && r;
  }, 30_000);
}

const NOTIFIED = '2026-11-26';
const account = '<Acct><Id><Othr><Id>62000000001</Id></Othr></Id><Ccy>ZAR</Ccy><Svcr><FinInstnId><BIC>FIRNZAJJ</BIC></FinInstnId></Svcr></Acct>';

/**
 * The bank's camt.054 credit notification of a whole file given back, as a South African bank
 * books it: one credit (PMNT/ICDT/RRTN) of the file's total, the file named in the batch details,
 * and the return's reason in the entry's one transaction, which names the file by its references.
 */
function wholeFileReturn054(reportId: string, msgId: string, amount: string, reason = { code: 'FF01', info: 'FILE REJECTED' }): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.02">
  <BkToCstmrDbtCdtNtfctn>
    <GrpHdr><MsgId>${reportId}</MsgId><CreDtTm>${NOTIFIED}T09:15:00+02:00</CreDtTm></GrpHdr>
    <Ntfctn>
      <Id>${reportId}-1</Id>
      <CreDtTm>${NOTIFIED}T09:15:00+02:00</CreDtTm>
      ${account}
      <Ntry>
        <NtryRef>${reportId.slice(-16)}</NtryRef>
        <Amt Ccy="ZAR">${amount}</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Sts>BOOK</Sts>
        <BookgDt><Dt>${NOTIFIED}</Dt></BookgDt>
        <ValDt><Dt>${NOTIFIED}</Dt></ValDt>
        <AcctSvcrRef>${reportId}-RTN</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>RRTN</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls>
          <Btch><MsgId>${msgId}</MsgId><PmtInfId>${msgId}</PmtInfId><TtlAmt Ccy="ZAR">${amount}</TtlAmt><CdtDbtInd>CRDT</CdtDbtInd></Btch>
          <TxDtls>
            <Refs><MsgId>${msgId}</MsgId><AcctSvcrRef>${reportId}-RTN</AcctSvcrRef><PmtInfId>${msgId}</PmtInfId></Refs>
            <AmtDtls><TxAmt><Amt Ccy="ZAR">${amount}</Amt></TxAmt></AmtDtls>
            <RtrInf><Rsn><Cd>${reason.code}</Cd></Rsn><AddtlInf>${reason.info}</AddtlInf></RtrInf>
          </TxDtls>
        </NtryDtls>
        <AddtlNtryInf>BULK PAYMENT RETURNED</AddtlNtryInf>
      </Ntry>
    </Ntfctn>
  </BkToCstmrDbtCdtNtfctn>
</Document>
`;
}

/**
 * The end-of-day camt.053 statement's entry for the same thing, as a bank that books it as a
 * reversal writes it: a credit flagged `RvslInd`, with no batch details, the file named only by
 * its transaction's references (its PmtInfId) and no return information of its own.
 */
function wholeFileReversal053(reportId: string, pmtInfId: string, amount: string): string {
  const bal = (type: string) =>
    `<Bal><Tp><CdOrPrtry><Cd>${type}</Cd></CdOrPrtry></Tp><Amt Ccy="ZAR">1000000.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>${NOTIFIED}</Dt></Dt></Bal>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>${reportId}</MsgId><CreDtTm>${NOTIFIED}T23:30:00+02:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>${reportId}-1</Id>
      <ElctrncSeqNb>1</ElctrncSeqNb>
      <CreDtTm>${NOTIFIED}T23:30:00+02:00</CreDtTm>
      ${account}
      ${bal('OPBD')}
      ${bal('CLBD')}
      <Ntry>
        <Amt Ccy="ZAR">${amount}</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <RvslInd>true</RvslInd>
        <Sts>BOOK</Sts>
        <BookgDt><Dt>${NOTIFIED}</Dt></BookgDt>
        <ValDt><Dt>${NOTIFIED}</Dt></ValDt>
        <AcctSvcrRef>${reportId}-REV</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls>
          <TxDtls>
            <Refs><AcctSvcrRef>${reportId}-REV</AcctSvcrRef><PmtInfId>${pmtInfId}</PmtInfId></Refs>
          </TxDtls>
        </NtryDtls>
        <AddtlNtryInf>REVERSAL BULK PAYMENT</AddtlNtryInf>
      </Ntry>
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;
}

/** The batch's debit booked as one entry (the bank paid the file): every payout of it completes. */
function wholeFileDebit054(reportId: string, msgId: string, amount: string): string {
  return wholeFileReturn054(reportId, msgId, amount)
    .replace('<CdtDbtInd>CRDT</CdtDbtInd>\n', '<CdtDbtInd>DBIT</CdtDbtInd>\n')
    .replace('<SubFmlyCd>RRTN</SubFmlyCd>', '<SubFmlyCd>DMCT</SubFmlyCd>')
    .replace(/<CdtDbtInd>CRDT<\/CdtDbtInd><\/Btch>/, '<CdtDbtInd>DBIT</CdtDbtInd></Btch>')
    .replace(/<RtrInf>.*<\/RtrInf>/, '')
    .replace('BULK PAYMENT RETURNED', 'BULK PAYMENT');
}

describe('a whole batch the bank gives back (CONTRACT §11, issue 34)', { timeout: 120_000 }, () => {
  it('returns every completed payout of the batch once, each with its event and its amount back; a wrong total moves nothing; twice is once', async () => {
    const { ids, msgId, totalCents } = await exportedBatch([1_100, 2_200, 3_300]);
    expect(totalCents).toBe(6_600);
    const paid = wholeFileDebit054(`FNB-PAID-${msgId.slice(-6)}`, msgId, '66.00');
    expect(await schemaErrors(paid, 'camt.054.001.02')).toEqual([]);
    expect(await imported(paid)).toMatchObject({ completed: 1, unmatched: 0 });
    for (const id of ids) expect((await payout(id)).status).toBe('completed');
    const before = await balance();

    // A return of another amount than the file's: nothing moves, and the difference is stated.
    const wrong = wholeFileReturn054(`FNB-RTN-WRONG-${msgId.slice(-6)}`, msgId, '65.50');
    expect(await schemaErrors(wrong, 'camt.054.001.02')).toEqual([]);
    expect(await imported(wrong)).toMatchObject({
      returned: 0,
      failed: 0,
      unmatched: 1,
      entries: [{ outcome: 'unmatched', detail: `batch ${msgId}: returned amount ZAR 65.50 differs from the batch's total ZAR 66.00 by ZAR 0.50` }],
    });
    for (const id of ids) expect(await payout(id)).toMatchObject({ status: 'completed', returned_at: null, return_reason: null });
    expect(await balance()).toEqual(before);

    // The whole file given back: every payout keeps `completed`, gains its return, and its amount (not its fee) comes back.
    const back = wholeFileReturn054(`FNB-RTN-${msgId.slice(-6)}`, msgId, '66.00');
    expect(await schemaErrors(back, 'camt.054.001.02')).toEqual([]);
    const reason = 'FF01 invalid file format (FILE REJECTED)';
    expect(await imported(back)).toMatchObject({
      returned: 1,
      failed: 0,
      unmatched: 0,
      alreadyImported: false,
      entries: [{ outcome: 'returned', detail: `batch ${msgId} given back by the bank (${reason}): 3 returned, of 3 payouts` }],
    });
    for (const id of ids) {
      const p = await payout(id);
      expect(p).toMatchObject({ status: 'completed', return_reason: reason });
      expect(Date.parse(p.returned_at)).toBeGreaterThan(Date.now() - 600_000);
    }
    const after = await balance();
    expect(after.balance_cents - before.balance_cents).toBe(6_600);
    expect(after.available_cents - before.available_cents).toBe(6_600);
    expect(after.totals).toMatchObject({ returned_cents: before.totals.returned_cents + 6_600, withdrawals_cents: before.totals.withdrawals_cents, fees_cents: before.totals.fees_cents });
    const credits = await t.database.db.selectFrom('ledger_transactions').select(['payout_id']).where('kind', '=', 'payout_return').where('payout_id', 'in', ids).execute();
    expect(credits.map((c) => c.payout_id).sort()).toEqual([...ids].sort());

    // Each payout its own event, once.
    await eventually(async () => ids.every((id) => events().some((e) => e.type === 'payout.returned' && e.data.id === id)));

    // The same file again, and the day's statement booking the same return as a reversal: nothing moves.
    expect(await imported(back)).toMatchObject({ alreadyImported: true, returned: 0 });
    const statement = wholeFileReversal053(`FNB-STM-${msgId.slice(-6)}`, msgId, '66.00');
    expect(await schemaErrors(statement, 'camt.053.001.02')).toEqual([]);
    expect(await imported(statement)).toMatchObject({ returned: 0, failed: 0, unchanged: 1, entries: [{ outcome: 'unchanged' }] });
    expect(await balance()).toEqual(after);
    await expectLedgerOk(t);
    expect(await eventCounts('payout.returned', ids)).toEqual(Object.fromEntries(ids.map((id) => [id, 1])));
  });

  it('a file given back before it was all paid: processing payouts fail, a completed one is returned, in the day\'s camt.053', async () => {
    const { ids, msgId } = await exportedBatch([4_000, 5_000, 6_000]);
    const [early, ...pending] = ids as [string, string, string];
    // The bank had booked one transfer on its own before it gave the file back.
    const one = camt054(`FNB-ONE-${msgId.slice(-6)}`, [{ endToEndId: e2e(early), amount: '40.00', bankRef: `FNB-ONE-${msgId.slice(-6)}` }]);
    expect(await imported(one)).toMatchObject({ completed: 1 });
    const before = await balance();

    const statement = wholeFileReversal053(`FNB-STM-REV-${msgId.slice(-6)}`, msgId, '150.00');
    expect(await schemaErrors(statement, 'camt.053.001.02')).toEqual([]);
    expect(await imported(statement)).toMatchObject({
      returned: 1,
      failed: 0,
      unmatched: 0,
      entries: [{ outcome: 'returned', detail: `batch ${msgId} given back by the bank (returned by the bank): 1 returned, 2 failed, of 3 payouts` }],
    });
    expect(await payout(early)).toMatchObject({ status: 'completed', return_reason: 'returned by the bank' });
    for (const id of pending) expect(await payout(id)).toMatchObject({ status: 'failed', failure_reason: 'returned by the bank', returned_at: null });
    const after = await balance();
    // The completed one's amount comes back (its fee stays); the failed ones' reservations (amount and fee) are released.
    expect(after.balance_cents - before.balance_cents).toBe(4_000);
    expect(after.reserved_cents - before.reserved_cents).toBe(-(5_000 + 500 + 6_000 + 500));
    expect(after.available_cents - before.available_cents).toBe(4_000 + 5_500 + 6_500);

    // The same return in a camt.054 afterwards, and the statement again: nothing moves.
    expect(await imported(wholeFileReturn054(`FNB-RTN-LATE-${msgId.slice(-6)}`, msgId, '150.00'))).toMatchObject({ returned: 0, failed: 0, unchanged: 1 });
    expect(await imported(statement)).toMatchObject({ alreadyImported: true });
    expect(await balance()).toEqual(after);
    await expectLedgerOk(t);
    expect(await eventCounts('payout.returned', ids)).toEqual({ [early]: 1 });
    expect(await eventCounts('payout.failed', ids)).toEqual(Object.fromEntries(pending.map((id) => [id, 1])));
    await eventually(async () => pending.every((id) => events().some((e) => e.type === 'payout.failed' && e.data.id === id)) && events().some((e) => e.type === 'payout.returned' && e.data.id === early));
  });
});

describe('reading a whole file given back', () => {
  it('is one line of the entry\'s amount, naming the batch, with the return\'s reason from its transaction', () => {
    const msgId = 'ZARPAY-20261125-000007';
    const [notified] = parseBankReport(wholeFileReturn054('FNB-RTN-7', msgId, '1234.56')).lines;
    expect(notified).toMatchObject({
      batchRefs: [msgId],
      amountCents: 123_456,
      currency: 'ZAR',
      creditDebit: 'CRDT',
      returned: true,
      returnReason: 'FF01 invalid file format (FILE REJECTED)',
      reference: 'FNB-RTN-7-RTN',
      payoutId: null,
    });
    // Named only by its transaction's PmtInfId, flagged as a reversal, no reason given.
    const [reversed] = parseBankReport(wholeFileReversal053('FNB-STM-7', msgId, '1234.56')).lines;
    expect(reversed).toMatchObject({ batchRefs: [msgId], amountCents: 123_456, returned: true, returnReason: 'returned by the bank', reference: 'FNB-STM-7-REV' });
    // The batch's debit is no return.
    expect(parseBankReport(wholeFileDebit054('FNB-PAID-7', msgId, '1234.56')).lines[0]).toMatchObject({ batchRefs: [msgId], creditDebit: 'DBIT', returned: false, returnReason: null });
  });
});
