import { describe, expect, it } from 'vitest';
import { BANK_REPORT_BODY_LIMIT, bankReportJson, bankReportJsonSchema, type BankReportSummary } from '../src/domain/bank-report-json.ts';
import { canonicalJson, payloadHash, requestDigest } from '../src/domain/canonical.ts';
import { comparePositions, decodePosition, encodePosition } from '../src/domain/event-position.ts';
import { webhookBody } from '../src/domain/events.ts';
import { parseBankReport, type ReportLine } from '../src/domain/iso20022/camt.ts';
import { centsOf, decimalAmount, swiftText } from '../src/domain/iso20022/money-text.ts';
import { buildPain001, type CreditTransferBatch, endToEndIdOf, PAIN_001_NAMESPACE, payoutIdOf, ZA_CLEARING } from '../src/domain/iso20022/pain001.ts';
import { RETURN_REASONS, returnReasonText } from '../src/domain/iso20022/return-reasons.ts';
import { JOB_STATUSES, QUEUE } from '../src/domain/jobs.ts';
import { STREAM_LIMITS } from '../src/domain/stream-limits.ts';

/**
 * The bank's files and the event log's bookkeeping, called directly: the pain.001 file a batch of
 * payouts leaves as (its exact bytes), the camt.054 notifications and camt.053 statements read
 * back (one line per transaction, as South African banks book them: a payout, a return, a whole
 * batch, a reversal), amounts and text as the files carry them, return reasons in words, the
 * operator's view of an import, canonical request hashes, event positions, the webhook body and
 * the queue names stored with jobs. Each expectation pins one behaviour exactly, so that mutation
 * testing (`npm run mutate`, docs/testing.md) finds a change to any of them.
 */

const A = '3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11';
const A_E2E = '3f1c9a528a434c1e9a575d2f0e2b7c11';
const B = '4a2d0b63-9b54-4d2f-8b68-6e3f1f3c8d22';
const B_E2E = '4a2d0b639b544d2f8b686e3f1f3c8d22';
const CAMT = 'urn:iso:std:iso:20022:tech:xsd:camt';

/** A camt.054 notification of one account holding `entries` (the `Ntry` elements, as text). */
const notification = (entries: string, version = '02') => `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="${CAMT}.054.001.${version}">
  <BkToCstmrDbtCdtNtfctn>
    <GrpHdr><MsgId>FNB-NTF-20261125-01</MsgId><CreDtTm>2026-11-25T16:05:00+02:00</CreDtTm></GrpHdr>
    <Ntfctn>
      <Id>FNB-NTF-20261125-01-1</Id>
      <Acct><Id><Othr><Id>62000000001</Id></Othr></Id><Ccy>ZAR</Ccy></Acct>${entries}
    </Ntfctn>
  </BkToCstmrDbtCdtNtfctn>
</Document>
`;

/** A camt.053 statement: one `Stmt` per element of `accounts` (each the entries of one account). */
const statement = (accounts: readonly string[], version = '02') => `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="${CAMT}.053.001.${version}">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>FNB-STM-20261125</MsgId><CreDtTm>2026-11-25T23:30:00+02:00</CreDtTm></GrpHdr>${accounts
      .map(
        (entries, i) => `
    <Stmt>
      <Id>FNB-STM-20261125-${i + 1}</Id>
      <Acct><Id><Othr><Id>6200000000${i + 1}</Id></Othr></Id></Acct>
      <Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="ZAR">1000000.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-25</Dt></Dt></Bal>${entries}
    </Stmt>`,
      )
      .join('')}
  </BkToCstmrStmt>
</Document>
`;

/** An entry as banks book one EFT credit of our file: one transaction naming our end-to-end id. */
const paid = (e2e: string, amount: string, ref: string) => `
      <Ntry>
        <NtryRef>${ref}-N</NtryRef>
        <Amt Ccy="ZAR">${amount}</Amt>
        <CdtDbtInd>DBIT</CdtDbtInd>
        <Sts>BOOK</Sts>
        <BookgDt><Dt>2026-11-25</Dt></BookgDt>
        <AcctSvcrRef>${ref}</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls>
          <TxDtls>
            <Refs><AcctSvcrRef>${ref}-TX</AcctSvcrRef><EndToEndId>${e2e}</EndToEndId></Refs>
            <AmtDtls><TxAmt><Amt Ccy="ZAR">${amount}</Amt></TxAmt></AmtDtls>
          </TxDtls>
        </NtryDtls>
        <AddtlNtryInf>EFT CREDIT TRANSFER</AddtlNtryInf>
      </Ntry>`;

/** A report's lines with the fields a test does not name at their empty values. */
const lineOf = (fields: Partial<ReportLine>): ReportLine => ({
  position: 0,
  status: 'BOOK',
  creditDebit: 'DBIT',
  returned: false,
  payoutId: null,
  endToEndId: null,
  amountCents: null,
  currency: null,
  reference: null,
  returnReason: null,
  entry: { amountCents: null, currency: null, endToEndIds: [] },
  batchRefs: [],
  ...fields,
});

/** The one line of a notification holding `entry`. */
const onlyLine = (entry: string, version = '02') => {
  const { lines } = parseBankReport(notification(entry, version));
  expect(lines).toHaveLength(1);
  return lines[0]!;
};

const refusal = (xml: string) => {
  try {
    parseBankReport(xml);
  } catch (e) {
    return { code: (e as { code?: string }).code, message: (e as Error).message };
  }
  return 'accepted';
};
const NOT_A_REPORT = 'content: not an ISO 20022 camt.054 or camt.053 report: ';

describe('iso20022/camt.ts: reading the bank\'s notifications and statements', () => {
  it('reads a booked EFT credit of our file as one line naming its payout', () => {
    const report = parseBankReport(notification(paid(A_E2E, '1234.56', 'FNB-0001')));
    expect(report).toEqual({
      kind: 'camt.054',
      message: 'camt.054.001.02',
      messageId: 'FNB-NTF-20261125-01',
      lines: [
        lineOf({
          payoutId: A,
          endToEndId: A_E2E,
          amountCents: 123_456,
          currency: 'ZAR',
          reference: 'FNB-0001-TX',
          entry: { amountCents: 123_456, currency: 'ZAR', endToEndIds: [A_E2E] },
        }),
      ],
    });
  });

  it('numbers the lines of a statement across its accounts and entries, from 0', () => {
    const report = parseBankReport(statement([paid(A_E2E, '100.00', 'S-1') + paid(B_E2E, '250.50', 'S-2'), '', paid(A_E2E, '7.05', 'S-3')]));
    expect(report.kind).toBe('camt.053');
    expect(report.message).toBe('camt.053.001.02');
    expect(report.messageId).toBe('FNB-STM-20261125');
    expect(report.lines.map((l) => [l.position, l.payoutId, l.amountCents, l.reference])).toEqual([
      [0, A, 10_000, 'S-1-TX'],
      [1, B, 25_050, 'S-2-TX'],
      [2, A, 705, 'S-3-TX'],
    ]);
    expect(parseBankReport(statement([])).lines).toEqual([]);
    expect(parseBankReport(notification('')).lines).toEqual([]);
  });

  it('reads versions 001.02 to 001.08 of both messages, and names the one read', () => {
    for (const version of ['02', '03', '04', '05', '06', '07', '08']) {
      expect(parseBankReport(notification(paid(A_E2E, '1.00', 'R'), version)).message).toBe(`camt.054.001.${version}`);
      expect(parseBankReport(statement([paid(A_E2E, '1.00', 'R')], version)).message).toBe(`camt.053.001.${version}`);
    }
    for (const version of ['01', '09', '12']) {
      expect(refusal(notification('', version))).toEqual({ code: 'VALIDATION_FAILED', message: `${NOT_A_REPORT}unsupported message ${CAMT}.054.001.${version}` });
    }
    const intraday = notification('').replace('camt.054.001.02', 'camt.052.001.02');
    expect(refusal(intraday)).toEqual({ code: 'VALIDATION_FAILED', message: `${NOT_A_REPORT}unsupported message ${CAMT}.052.001.02` });
    const suffixed = notification('').replace('camt.054.001.02', 'camt.054.001.02.1');
    expect(refusal(suffixed)).toMatchObject({ message: `${NOT_A_REPORT}unsupported message ${CAMT}.054.001.02.1` });
    const otherVariant = notification('').replace('camt.054.001.02', 'camt.054.002.02');
    expect(refusal(otherVariant)).toMatchObject({ message: `${NOT_A_REPORT}unsupported message ${CAMT}.054.002.02` });
  });

  it('finds the message however its namespace is declared: a prefix, single quotes, spaces around =', () => {
    const plain = notification(paid(A_E2E, '12.30', 'P-1'));
    const prefixed = plain
      .replace(`xmlns="${CAMT}.054.001.02"`, `xmlns:ns2.x-y = '${CAMT}.054.001.02'`)
      .replace(/<(\/?)([A-Z])/g, '<$1ns2.x-y:$2');
    expect(prefixed).toContain('<ns2.x-y:Document');
    const report = parseBankReport(prefixed);
    expect(report.message).toBe('camt.054.001.02');
    expect(report.lines).toEqual(parseBankReport(plain).lines);
    // The same namespace declared again further in is still one message.
    const redeclared = plain.replace('<BkToCstmrDbtCdtNtfctn>', `<BkToCstmrDbtCdtNtfctn xmlns="${CAMT}.054.001.02">`);
    expect(parseBankReport(redeclared).lines).toHaveLength(1);
  });

  it('refuses what is not a camt.053 or camt.054 report, saying why, as a VALIDATION_FAILED of content', () => {
    // A download cut short before its last line: the XML reader's words, where it stopped.
    const full = notification(paid(A_E2E, '1.00', 'T'));
    const truncated = full.slice(0, full.indexOf('</Document>'));
    expect(refusal(truncated)).toEqual({ code: 'VALIDATION_FAILED', message: `${NOT_A_REPORT}not well-formed XML (Unclosed tag 'Document'.:2:1)` });
    expect(refusal(full.replace('</Ntfctn>', '</Ntfctn></Ntfctn>'))).toEqual({
      code: 'VALIDATION_FAILED',
      message: `${NOT_A_REPORT}not well-formed XML (Expected closing tag 'BkToCstmrDbtCdtNtfctn' (opened in line 3, col 3) instead of closing tag 'Ntfctn'.:24:14)`,
    });
    expect(refusal('<Statement><Ntry/></Statement>')).toEqual({ code: 'VALIDATION_FAILED', message: `${NOT_A_REPORT}no Document element` });
    expect(refusal(`<Document xmlns="${CAMT}.054.001.02"/>`)).toEqual({ code: 'VALIDATION_FAILED', message: `${NOT_A_REPORT}no Document element` });
    expect(refusal(`<Document xmlns="${CAMT}.054.001.02">FNB</Document>`)).toEqual({ code: 'VALIDATION_FAILED', message: `${NOT_A_REPORT}no Document element` });
    expect(refusal('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"><CstmrCdtTrfInitn/></Document>')).toEqual({
      code: 'VALIDATION_FAILED',
      message: `${NOT_A_REPORT}no camt namespace declared`,
    });
    const both = notification('').replace('<BkToCstmrDbtCdtNtfctn>', `<BkToCstmrDbtCdtNtfctn xmlns="${CAMT}.053.001.02">`);
    expect(refusal(both)).toEqual({ code: 'VALIDATION_FAILED', message: `${NOT_A_REPORT}several camt namespaces (${CAMT}.054.001.02, ${CAMT}.053.001.02)` });
    // The body the namespace promises, and the message id every report carries.
    const statementAsNotification = statement([]).replace(`${CAMT}.053.001.02`, `${CAMT}.054.001.02`);
    expect(refusal(statementAsNotification)).toEqual({ code: 'VALIDATION_FAILED', message: `${NOT_A_REPORT}no BkToCstmrDbtCdtNtfctn` });
    const notificationAsStatement = notification('').replace(`${CAMT}.054.001.02`, `${CAMT}.053.001.02`);
    expect(refusal(notificationAsStatement)).toEqual({ code: 'VALIDATION_FAILED', message: `${NOT_A_REPORT}no BkToCstmrStmt` });
    const noMsgId = notification('').replace('<MsgId>FNB-NTF-20261125-01</MsgId>', '<MsgId>   </MsgId>');
    expect(refusal(noMsgId)).toEqual({ code: 'VALIDATION_FAILED', message: `${NOT_A_REPORT}no GrpHdr/MsgId` });
    const noHeader = statement(['']).replace(/<GrpHdr>.*<\/GrpHdr>/, '');
    expect(refusal(noHeader)).toEqual({ code: 'VALIDATION_FAILED', message: `${NOT_A_REPORT}no GrpHdr/MsgId` });
  });

  it('takes a transaction\'s own amount (TxAmt, else InstdAmt, else Amt), else the entry\'s when it is the only one', () => {
    const entry = (tx: string, amount = '500.00') => `
      <Ntry><Amt Ccy="ZAR">${amount}</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts>
        <NtryDtls><TxDtls><Refs><EndToEndId>${A_E2E}</EndToEndId></Refs>${tx}</TxDtls></NtryDtls></Ntry>`;
    const amounts = (l: ReportLine) => [l.amountCents, l.currency];
    expect(amounts(onlyLine(entry('<AmtDtls><InstdAmt><Amt Ccy="USD">30.00</Amt></InstdAmt><TxAmt><Amt Ccy="ZAR">410.00</Amt></TxAmt></AmtDtls>')))).toEqual([41_000, 'ZAR']);
    expect(amounts(onlyLine(entry('<AmtDtls><InstdAmt><Amt Ccy="USD">30.00</Amt></InstdAmt></AmtDtls>')))).toEqual([3_000, 'USD']);
    expect(amounts(onlyLine(entry('<Amt Ccy="ZAR">12.00</Amt>')))).toEqual([1_200, 'ZAR']);
    expect(amounts(onlyLine(entry('<AmtDtls><PrtryAmt><Tp>FEE</Tp></PrtryAmt></AmtDtls>')))).toEqual([50_000, 'ZAR']);
    expect(amounts(onlyLine(entry('')))).toEqual([50_000, 'ZAR']);
    // An amount with three decimals, or none at all, is no amount; one without a currency has none.
    expect(amounts(onlyLine(entry('<AmtDtls><TxAmt><Amt Ccy="ZAR">1.005</Amt></TxAmt></AmtDtls>')))).toEqual([null, 'ZAR']);
    expect(amounts(onlyLine(entry('<AmtDtls><TxAmt><Amt>75.00</Amt></TxAmt></AmtDtls>')))).toEqual([7_500, null]);
    expect(amounts(onlyLine(entry('<AmtDtls><TxAmt><Amt Ccy="">75.00</Amt></TxAmt></AmtDtls>')))).toEqual([7_500, null]);
  });

  it('gives each of several transactions without an amount none, and the entry\'s amount and ids beside them', () => {
    const { lines } = parseBankReport(
      notification(`
      <Ntry><Amt Ccy="ZAR">300.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Prtry>BOOKED</Prtry></Sts><AcctSvcrRef>BULK-2</AcctSvcrRef>
        <NtryDtls><TxDtls><Refs><EndToEndId>${A_E2E}</EndToEndId></Refs></TxDtls></NtryDtls>
        <NtryDtls><TxDtls><Refs><EndToEndId>INV-77</EndToEndId></Refs><CdtDbtInd>CRDT</CdtDbtInd></TxDtls><TxDtls><Refs><EndToEndId>${B_E2E}</EndToEndId></Refs></TxDtls></NtryDtls></Ntry>`),
    );
    const entry = { amountCents: 30_000, currency: 'ZAR', endToEndIds: [A_E2E, 'INV-77', B_E2E] };
    expect(lines).toEqual([
      lineOf({ position: 0, status: 'BOOKED', payoutId: A, endToEndId: A_E2E, reference: 'BULK-2', entry }),
      lineOf({ position: 1, status: 'BOOKED', creditDebit: 'CRDT', endToEndId: 'INV-77', reference: 'BULK-2', entry }),
      lineOf({ position: 2, status: 'BOOKED', payoutId: B, endToEndId: B_E2E, reference: 'BULK-2', entry }),
    ]);
  });

  it('reads an entry without details as one line of its own amount, and transactions naming nothing as a line each', () => {
    expect(onlyLine('<Ntry><NtryRef>N-9</NtryRef><Amt Ccy="ZAR">99.99</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>PDNG</Sts></Ntry>')).toEqual(
      lineOf({ status: 'PDNG', creditDebit: 'CRDT', amountCents: 9_999, currency: 'ZAR', reference: 'N-9', entry: { amountCents: 9_999, currency: 'ZAR', endToEndIds: [] } }),
    );
    const { lines } = parseBankReport(
      notification(`<Ntry><Amt Ccy="ZAR">20.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><NtryDtls>
        <TxDtls><Refs><AcctSvcrRef>IN-1</AcctSvcrRef></Refs><AmtDtls><TxAmt><Amt Ccy="ZAR">5.00</Amt></TxAmt></AmtDtls></TxDtls>
        <TxDtls><Refs><AcctSvcrRef>IN-2</AcctSvcrRef></Refs><AmtDtls><TxAmt><Amt Ccy="ZAR">15.00</Amt></TxAmt></AmtDtls></TxDtls></NtryDtls></Ntry>`),
    );
    const entry = { amountCents: 2_000, currency: 'ZAR', endToEndIds: [] };
    expect(lines).toEqual([
      lineOf({ position: 0, creditDebit: 'CRDT', amountCents: 500, currency: 'ZAR', reference: 'IN-1', entry }),
      lineOf({ position: 1, creditDebit: 'CRDT', amountCents: 1_500, currency: 'ZAR', reference: 'IN-2', entry }),
    ]);
    // An entry without an amount (no schema allows it, the reader still does) has none.
    expect(onlyLine('<Ntry><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts></Ntry>')).toEqual(lineOf({}));
    expect(onlyLine('<Ntry><Amt>8.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts></Ntry>')).toEqual(
      lineOf({ amountCents: 800, entry: { amountCents: 800, currency: null, endToEndIds: [] } }),
    );
    expect(onlyLine('<Ntry><Amt Ccy="ZAR"></Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts></Ntry>')).toEqual(
      lineOf({ currency: 'ZAR', entry: { amountCents: null, currency: 'ZAR', endToEndIds: [] } }),
    );
  });

  it('reads the status as a code (001.02), a code in a choice (Sts/Cd) or a bank\'s own (Sts/Prtry); none is empty', () => {
    const status = (sts: string) => onlyLine(`<Ntry><Amt Ccy="ZAR">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd>${sts}</Ntry>`).status;
    expect(status('<Sts>PDNG</Sts>')).toBe('PDNG');
    expect(status('<Sts><Cd>INFO</Cd></Sts>')).toBe('INFO');
    expect(status('<Sts><Prtry>BOOKED</Prtry></Sts>')).toBe('BOOKED');
    expect(status('<Sts><Cd>BOOK</Cd><Prtry>BOOKED</Prtry></Sts>')).toBe('BOOK');
    expect(status('')).toBe('');
  });

  it('takes a transaction\'s own direction over its entry\'s, and nothing but DBIT or CRDT', () => {
    const direction = (entryCdi: string, txCdi: string) =>
      onlyLine(`<Ntry><Amt Ccy="ZAR">1.00</Amt>${entryCdi}<Sts>BOOK</Sts><NtryDtls><TxDtls><Refs><EndToEndId>${A_E2E}</EndToEndId></Refs>${txCdi}</TxDtls></NtryDtls></Ntry>`).creditDebit;
    expect(direction('<CdtDbtInd>DBIT</CdtDbtInd>', '')).toBe('DBIT');
    expect(direction('<CdtDbtInd>CRDT</CdtDbtInd>', '')).toBe('CRDT');
    expect(direction('<CdtDbtInd>DBIT</CdtDbtInd>', '<CdtDbtInd>CRDT</CdtDbtInd>')).toBe('CRDT');
    expect(direction('<CdtDbtInd>CRDT</CdtDbtInd>', '<CdtDbtInd>DBIT</CdtDbtInd>')).toBe('DBIT');
    expect(direction('<CdtDbtInd>DEBIT</CdtDbtInd>', '')).toBeNull();
    expect(direction('', '')).toBeNull();
  });

  it('takes the bank\'s reference of the transaction, else of the entry, else the entry\'s NtryRef', () => {
    const reference = (entryRefs: string, txRefs: string) =>
      onlyLine(`<Ntry>${entryRefs}<Amt Ccy="ZAR">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><NtryDtls><TxDtls><Refs>${txRefs}<EndToEndId>${A_E2E}</EndToEndId></Refs></TxDtls></NtryDtls></Ntry>`).reference;
    const entryRefs = '<NtryRef>NREF</NtryRef><AcctSvcrRef>EREF</AcctSvcrRef>';
    expect(reference(entryRefs, '<AcctSvcrRef>TREF</AcctSvcrRef>')).toBe('TREF');
    expect(reference(entryRefs, '<AcctSvcrRef></AcctSvcrRef>')).toBe('EREF');
    expect(reference(entryRefs, '')).toBe('EREF');
    expect(reference('<NtryRef>NREF</NtryRef>', '')).toBe('NREF');
    expect(reference('', '')).toBeNull();
    expect(onlyLine('<Ntry><Amt Ccy="ZAR">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><NtryDtls><TxDtls><AmtDtls/></TxDtls></NtryDtls></Ntry>').reference).toBeNull();
  });

  it('names a payout only for an end-to-end id that is one of ours, in either form', () => {
    const ids = (e2e: string) => {
      const l = onlyLine(`<Ntry><Amt Ccy="ZAR">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><NtryDtls><TxDtls><Refs><EndToEndId>${e2e}</EndToEndId></Refs></TxDtls></NtryDtls></Ntry>`);
      return [l.endToEndId, l.payoutId];
    };
    expect(ids(A.toUpperCase())).toEqual([A.toUpperCase(), A]);
    expect(ids('INV-2026-0001')).toEqual(['INV-2026-0001', null]);
    expect(ids('NOTPROVIDED')).toEqual(['NOTPROVIDED', null]);
    // Read as text, never as a number: an id of 32 decimal digits is still an id.
    expect(ids('12345678901234567890123456789012')).toEqual(['12345678901234567890123456789012', '12345678-9012-3456-7890-123456789012']);
    expect(ids('000000000000000000000000000000000')).toEqual(['000000000000000000000000000000000', null]);
    // Text a bank wraps in CDATA keeps its spaces through the XML reader: the id is without them.
    expect(ids(`<![CDATA[ ${A_E2E} ]]>`)).toEqual([A_E2E, A]);
  });

  it('reads a return: its reason code in words, and the bank\'s own first words (entities decoded)', () => {
    const line = onlyLine(`
      <Ntry><NtryRef>RTN-1</NtryRef><Amt Ccy="ZAR">250.50</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><AcctSvcrRef>FNB-RTN-1</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>RRTN</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls><TxDtls>
          <Refs><EndToEndId>${B_E2E}</EndToEndId></Refs>
          <RtrInf><Rsn><Cd>AC04</Cd></Rsn><AddtlInf>AC04</AddtlInf><AddtlInf>ACCOUNT CLOSED &amp; MOVED</AddtlInf><AddtlInf>SEE BRANCH</AddtlInf></RtrInf>
        </TxDtls></NtryDtls>
        <AddtlNtryInf>EFT RETURN</AddtlNtryInf>
      </Ntry>`);
    expect(line).toEqual(
      lineOf({
        creditDebit: 'CRDT',
        returned: true,
        payoutId: B,
        endToEndId: B_E2E,
        amountCents: 25_050,
        currency: 'ZAR',
        reference: 'FNB-RTN-1',
        returnReason: 'AC04 closed account (ACCOUNT CLOSED & MOVED)',
        entry: { amountCents: 25_050, currency: 'ZAR', endToEndIds: [B_E2E] },
      }),
    );
  });

  it('knows a return by its return information, its bank transaction code (entry\'s or transaction\'s) or a reversed credit', () => {
    const returned = (entry: { cdi?: string; rvsl?: string; code?: string }, tx = '') => {
      const l = onlyLine(`<Ntry><Amt Ccy="ZAR">1.00</Amt><CdtDbtInd>${entry.cdi ?? 'CRDT'}</CdtDbtInd>${entry.rvsl ?? ''}<Sts>BOOK</Sts>${entry.code ?? ''}
        <NtryDtls><TxDtls><Refs><EndToEndId>${A_E2E}</EndToEndId></Refs>${tx}</TxDtls></NtryDtls></Ntry>`);
      return [l.returned, l.returnReason];
    };
    const family = (sub: string) => `<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>${sub}</SubFmlyCd></Fmly></Domn></BkTxCd>`;
    expect(returned({})).toEqual([false, null]);
    expect(returned({ code: family('DMCT') })).toEqual([false, null]);
    expect(returned({ code: family('RRTN') })).toEqual([true, 'returned by the bank']);
    expect(returned({ code: family('DMCT') }, family('RRTN'))).toEqual([true, 'returned by the bank']);
    expect(returned({ code: '<BkTxCd><Prtry><Cd>RETURN</Cd></Prtry></BkTxCd>' })).toEqual([false, null]);
    expect(returned({ code: '<BkTxCd><Domn><Cd>PMNT</Cd></Domn></BkTxCd>' }, '<BkTxCd><Prtry><Cd>RTN</Cd></Prtry></BkTxCd>')).toEqual([false, null]);
    expect(returned({ code: family('DMCT') }, '<BkTxCd><Domn><Cd>PMNT</Cd></Domn></BkTxCd>')).toEqual([false, null]);
    // A reversal flag on a credit undoes our debit; on a debit it undoes a credit, no payout's return.
    expect(returned({ rvsl: '<RvslInd>true</RvslInd>' })).toEqual([true, 'returned by the bank']);
    expect(returned({ cdi: 'DBIT', rvsl: '<RvslInd>true</RvslInd>' })).toEqual([false, null]);
    expect(returned({ rvsl: '<RvslInd>false</RvslInd>' })).toEqual([false, null]);
    expect(returned({ cdi: 'DBIT', rvsl: '<RvslInd>true</RvslInd>' }, '<CdtDbtInd>CRDT</CdtDbtInd>')).toEqual([true, 'returned by the bank']);
    // Return information alone, with a code, a bank's own code, or only words.
    expect(returned({}, '<RtrInf><Rsn><Cd>MD07</Cd></Rsn></RtrInf>')).toEqual([true, 'MD07 account holder deceased']);
    expect(returned({}, '<RtrInf><Rsn><Prtry>R07</Prtry></Rsn><AddtlInf>R07</AddtlInf></RtrInf>')).toEqual([true, 'R07 returned by the bank']);
    expect(returned({}, '<RtrInf><Rsn><Cd>AC01</Cd><Prtry>R01</Prtry></Rsn></RtrInf>')).toEqual([true, 'AC01 incorrect account number']);
    expect(returned({}, '<RtrInf><AddtlInf>ACCOUNT FROZEN</AddtlInf></RtrInf>')).toEqual([true, 'returned by the bank (ACCOUNT FROZEN)']);
    expect(returned({}, '<RtrInf><Rsn><Cd>AC06</Cd></Rsn><AddtlInf></AddtlInf><AddtlInf>FROZEN</AddtlInf></RtrInf>')).toEqual([true, 'AC06 blocked account (FROZEN)']);
    expect(returned({}, '<RtrInf><Orgtr><Nm>FNB</Nm></Orgtr></RtrInf>')).toEqual([true, 'returned by the bank']);
  });

  it('reads a whole batch booked as one entry as one line of the entry\'s amount, naming the batch (CONTRACT §11)', () => {
    const batch = (details: string, extra = '') =>
      parseBankReport(
        notification(`
      <Ntry><Amt Ccy="ZAR">425.50</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><AcctSvcrRef>BULK-1</AcctSvcrRef>${extra}
        <NtryDtls>${details}</NtryDtls></Ntry>`),
      ).lines;
    const entry = { amountCents: 42_550, currency: 'ZAR', endToEndIds: [] };
    const msg = 'ZARPAY-20261125-000001';
    expect(batch(`<Btch><MsgId>${msg}</MsgId><PmtInfId>${msg}</PmtInfId><NbOfTxs>3</NbOfTxs></Btch>`)).toEqual([
      lineOf({ amountCents: 42_550, currency: 'ZAR', reference: 'BULK-1', entry, batchRefs: [msg] }),
    ]);
    // Every id the batch and its transaction's references name, each once, the batch's first.
    expect(batch(`<Btch><MsgId>M-1</MsgId><PmtInfId>P-1</PmtInfId></Btch><TxDtls><Refs><MsgId>M-2</MsgId><PmtInfId>P-1</PmtInfId></Refs></TxDtls>`)[0]!.batchRefs).toEqual(['P-1', 'M-1', 'M-2']);
    expect(batch(`<Btch><MsgId>M-1</MsgId></Btch>`)[0]!.batchRefs).toEqual(['M-1']);
    expect(batch(`<TxDtls><Refs><PmtInfId>P-9</PmtInfId></Refs></TxDtls>`)[0]!.batchRefs).toEqual(['P-9']);
    expect(batch(`<TxDtls><Refs><MsgId>M-9</MsgId></Refs></TxDtls>`)[0]!.batchRefs).toEqual(['M-9']);
    // The batch's amount, never its one transaction's; that transaction's reference.
    expect(batch(`<Btch><PmtInfId>P-1</PmtInfId></Btch><TxDtls><Refs><AcctSvcrRef>TX-1</AcctSvcrRef></Refs><AmtDtls><TxAmt><Amt Ccy="USD">1.00</Amt></TxAmt></AmtDtls></TxDtls>`)).toEqual([
      lineOf({ amountCents: 42_550, currency: 'ZAR', reference: 'TX-1', entry, batchRefs: ['P-1'] }),
    ]);
    // Several transactions and none returned: the entry's reference.
    const two = `<Btch><PmtInfId>P-1</PmtInfId></Btch><TxDtls><Refs><AcctSvcrRef>TX-1</AcctSvcrRef></Refs></TxDtls><TxDtls><Refs><AcctSvcrRef>TX-2</AcctSvcrRef></Refs></TxDtls>`;
    expect(batch(two)).toEqual([lineOf({ amountCents: 42_550, currency: 'ZAR', reference: 'BULK-1', entry, batchRefs: ['P-1'] })]);
    expect(batch(`<Btch><PmtInfId>P-1</PmtInfId></Btch>`, '<NtryRef>ignored</NtryRef>')[0]!.reference).toBe('BULK-1');
    // An end-to-end id in any transaction makes the entry transactions, not a batch.
    expect(batch(`<Btch><PmtInfId>P-1</PmtInfId></Btch><TxDtls><Refs><EndToEndId>${A_E2E}</EndToEndId></Refs></TxDtls><TxDtls/>`).map((l) => [l.payoutId, l.batchRefs])).toEqual([
      [A, []],
      [null, []],
    ]);
  });

  it('reads a whole file the bank gives back, and its reversal in a statement, as the batch\'s return', () => {
    const msg = 'ZARPAY-20261125-000001';
    const back = parseBankReport(
      notification(`
      <Ntry>
        <NtryRef>RTN-000001</NtryRef><Amt Ccy="ZAR">425.50</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><AcctSvcrRef>FNB-RTN</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>RRTN</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls>
          <Btch><MsgId>${msg}</MsgId><PmtInfId>${msg}</PmtInfId><TtlAmt Ccy="ZAR">425.50</TtlAmt><CdtDbtInd>CRDT</CdtDbtInd></Btch>
          <TxDtls><Refs><MsgId>${msg}</MsgId><AcctSvcrRef>FNB-RTN-TX1</AcctSvcrRef><PmtInfId>${msg}</PmtInfId></Refs></TxDtls>
          <TxDtls>
            <Refs><MsgId>${msg}</MsgId><AcctSvcrRef>FNB-RTN-TX2</AcctSvcrRef><PmtInfId>${msg}</PmtInfId></Refs>
            <RtrInf><Rsn><Cd>FF01</Cd></Rsn><AddtlInf>FILE REJECTED</AddtlInf></RtrInf>
          </TxDtls>
        </NtryDtls>
      </Ntry>`),
    ).lines;
    const entry = { amountCents: 42_550, currency: 'ZAR', endToEndIds: [] };
    expect(back).toEqual([
      lineOf({ creditDebit: 'CRDT', returned: true, amountCents: 42_550, currency: 'ZAR', reference: 'FNB-RTN-TX2', returnReason: 'FF01 invalid file format (FILE REJECTED)', entry, batchRefs: [msg] }),
    ]);
    const reversal = parseBankReport(
      statement([
        `
      <Ntry><Amt Ccy="ZAR">425.50</Amt><CdtDbtInd>CRDT</CdtDbtInd><RvslInd>true</RvslInd><Sts>BOOK</Sts><AcctSvcrRef>FNB-REV</AcctSvcrRef>
        <NtryDtls><TxDtls><Refs><PmtInfId>${msg}</PmtInfId></Refs></TxDtls></NtryDtls>
        <AddtlNtryInf>REVERSAL BULK PAYMENT</AddtlNtryInf></Ntry>`,
      ]),
    ).lines;
    expect(reversal).toEqual([lineOf({ creditDebit: 'CRDT', returned: true, amountCents: 42_550, currency: 'ZAR', reference: 'FNB-REV', returnReason: 'returned by the bank', entry, batchRefs: [msg] })]);
  });
});

describe('iso20022/pain001.ts: the credit transfer file a batch of payouts leaves as', () => {
  const batch: CreditTransferBatch = {
    messageId: 'ZARPAY-20261125-000001',
    createdAt: new Date('2026-11-25T10:15:30.123Z'),
    executionDate: '2026-11-25',
    debtor: { name: 'Zarpay Payouts (Pty) Ltd', accountNumber: '62000000001', branchCode: '250655', bankName: 'First National Bank' },
    transfers: [
      { payoutId: A.toUpperCase(), amountCents: 10_000, creditor: { name: 'Thandi Nkosi', accountNumber: '62012345678', branchCode: '250655', bankName: 'FNB' }, reference: 'INV-1' },
      {
        payoutId: B,
        amountCents: 25_050,
        creditor: { name: 'Søren Müller & Co', accountNumber: '4051234567', branchCode: '632005', bankName: 'Absa Bank' },
        reference: 'Order #42 – thank you for your business, see you',
      },
    ],
  };

  it('writes the file, byte for byte: header, one payment block from the debtor, one transfer per payout', () => {
    expect(buildPain001(batch)).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03">
  <CstmrCdtTrfInitn>
    <GrpHdr>
      <MsgId>ZARPAY-20261125-000001</MsgId>
      <CreDtTm>2026-11-25T10:15:30Z</CreDtTm>
      <NbOfTxs>2</NbOfTxs>
      <CtrlSum>350.50</CtrlSum>
      <InitgPty>
        <Nm>Zarpay Payouts (Pty) Ltd</Nm>
      </InitgPty>
    </GrpHdr>
    <PmtInf>
      <PmtInfId>ZARPAY-20261125-000001</PmtInfId>
      <PmtMtd>TRF</PmtMtd>
      <BtchBookg>false</BtchBookg>
      <NbOfTxs>2</NbOfTxs>
      <CtrlSum>350.50</CtrlSum>
      <ReqdExctnDt>2026-11-25</ReqdExctnDt>
      <Dbtr>
        <Nm>Zarpay Payouts (Pty) Ltd</Nm>
      </Dbtr>
      <DbtrAcct>
        <Id>
          <Othr>
            <Id>62000000001</Id>
          </Othr>
        </Id>
        <Ccy>ZAR</Ccy>
      </DbtrAcct>
      <DbtrAgt>
        <FinInstnId>
          <ClrSysMmbId>
            <ClrSysId>
              <Cd>ZANCC</Cd>
            </ClrSysId>
            <MmbId>250655</MmbId>
          </ClrSysMmbId>
          <Nm>First National Bank</Nm>
        </FinInstnId>
      </DbtrAgt>
      <ChrgBr>DEBT</ChrgBr>
      <CdtTrfTxInf>
        <PmtId>
          <EndToEndId>3f1c9a528a434c1e9a575d2f0e2b7c11</EndToEndId>
        </PmtId>
        <Amt>
          <InstdAmt Ccy="ZAR">100.00</InstdAmt>
        </Amt>
        <CdtrAgt>
          <FinInstnId>
            <ClrSysMmbId>
              <ClrSysId>
                <Cd>ZANCC</Cd>
              </ClrSysId>
              <MmbId>250655</MmbId>
            </ClrSysMmbId>
            <Nm>FNB</Nm>
          </FinInstnId>
        </CdtrAgt>
        <Cdtr>
          <Nm>Thandi Nkosi</Nm>
        </Cdtr>
        <CdtrAcct>
          <Id>
            <Othr>
              <Id>62012345678</Id>
            </Othr>
          </Id>
        </CdtrAcct>
        <RmtInf>
          <Ustrd>INV-1</Ustrd>
        </RmtInf>
      </CdtTrfTxInf>
      <CdtTrfTxInf>
        <PmtId>
          <EndToEndId>4a2d0b639b544d2f8b686e3f1f3c8d22</EndToEndId>
        </PmtId>
        <Amt>
          <InstdAmt Ccy="ZAR">250.50</InstdAmt>
        </Amt>
        <CdtrAgt>
          <FinInstnId>
            <ClrSysMmbId>
              <ClrSysId>
                <Cd>ZANCC</Cd>
              </ClrSysId>
              <MmbId>632005</MmbId>
            </ClrSysMmbId>
            <Nm>Absa Bank</Nm>
          </FinInstnId>
        </CdtrAgt>
        <Cdtr>
          <Nm>Soren Muller Co</Nm>
        </Cdtr>
        <CdtrAcct>
          <Id>
            <Othr>
              <Id>4051234567</Id>
            </Othr>
          </Id>
        </CdtrAcct>
        <RmtInf>
          <Ustrd>Order 42 thank you for your busines</Ustrd>
        </RmtInf>
      </CdtTrfTxInf>
    </PmtInf>
  </CstmrCdtTrfInitn>
</Document>
`);
  });

  it('writes a name or reference with nothing the bank takes as the field\'s word for it, and an empty field as an empty element', () => {
    const xml = buildPain001({
      ...batch,
      createdAt: new Date('2026-11-25T10:15:30.000Z'),
      debtor: { ...batch.debtor, name: '***', bankName: '' },
      transfers: [{ payoutId: A, amountCents: 5, creditor: { name: '中文', accountNumber: '', branchCode: '470010', bankName: '—' }, reference: '' }],
    });
    expect(xml).toContain('<CreDtTm>2026-11-25T10:15:30Z</CreDtTm>');
    expect(xml).toContain('<CtrlSum>0.05</CtrlSum>');
    expect(xml).toContain('<InstdAmt Ccy="ZAR">0.05</InstdAmt>');
    expect(xml.match(/<Nm>[^<]*<\/Nm>/g)).toEqual(['<Nm>Debtor</Nm>', '<Nm>Debtor</Nm>', '<Nm>Bank</Nm>', '<Nm>Bank</Nm>', '<Nm>Account holder</Nm>']);
    expect(xml).toContain('<Ustrd>Payout</Ustrd>');
    // A field with nothing in it (an account number the service never lets through) is an empty element.
    expect(xml).toContain('<Othr>\n              <Id/>\n            </Othr>');
  });

  it('refuses a file without a transfer', () => {
    expect(() => buildPain001({ ...batch, transfers: [] })).toThrow(new Error('a credit transfer file needs at least one transfer'));
  });

  it('names the file\'s message and the clearing it uses', () => {
    expect(PAIN_001_NAMESPACE).toBe('urn:iso:std:iso:20022:tech:xsd:pain.001.001.03');
    expect(ZA_CLEARING).toBe('ZANCC');
  });

  it('writes a payout id as a 32-digit end-to-end id and reads it back from either form', () => {
    expect(endToEndIdOf(A)).toBe(A_E2E);
    expect(endToEndIdOf(A.toUpperCase())).toBe(A_E2E);
    expect(payoutIdOf(A_E2E)).toBe(A);
    expect(payoutIdOf(A)).toBe(A);
    expect(payoutIdOf(` ${A_E2E.toUpperCase()} `)).toBe(A);
    expect(payoutIdOf('0123456789abcdef0123456789ABCDEF')).toBe('01234567-89ab-cdef-0123-456789abcdef');
    // 31 or 33 digits, a letter past f, anything around it: no payout.
    expect(payoutIdOf(A_E2E.slice(1))).toBeNull();
    expect(payoutIdOf(`${A_E2E}0`)).toBeNull();
    expect(payoutIdOf(`${A_E2E.slice(1)}g`)).toBeNull();
    expect(payoutIdOf(`x${A_E2E}`)).toBeNull();
    expect(payoutIdOf(`${A_E2E}x`)).toBeNull();
    expect(payoutIdOf('')).toBeNull();
  });
});

describe('iso20022/money-text.ts: amounts and text as bank files carry them', () => {
  it('writes cents as a decimal amount with two decimals', () => {
    expect(decimalAmount(12_345)).toBe('123.45');
    expect(decimalAmount(100)).toBe('1.00');
    expect(decimalAmount(5)).toBe('0.05');
    expect(decimalAmount(50)).toBe('0.50');
    expect(decimalAmount(0)).toBe('0.00');
    expect(decimalAmount(9_007_199_254_740_991)).toBe('90071992547409.91');
  });

  it('reads a plain decimal amount with at most two decimals as cents, and nothing else', () => {
    expect(centsOf('123.45')).toBe(12_345);
    expect(centsOf('123.4')).toBe(12_340);
    expect(centsOf('123.05')).toBe(12_305);
    expect(centsOf('123')).toBe(12_300);
    expect(centsOf('0')).toBe(0);
    expect(centsOf('  7.5 ')).toBe(750);
    expect(centsOf('\n1.00\t')).toBe(100);
    // Fifteen digits before the point at most (leading zeros count), and cents that stay exact.
    expect(centsOf('000000000000001')).toBe(100);
    expect(centsOf('0000000000000001')).toBeNull();
    expect(centsOf('90071992547409.91')).toBe(9_007_199_254_740_991);
    expect(centsOf('90071992547409.92')).toBeNull();
    expect(centsOf('100000000000000')).toBeNull();
    for (const bad of ['', ' ', '1.', '.5', '1.234', '-1.00', '+1.00', '1,00', '1 000.00', 'R1.00', '1.00ZAR', '1e3', '1.0.0']) expect(centsOf(bad), bad).toBeNull();
  });

  it('keeps the SWIFT character set as it is', () => {
    expect(swiftText("AZaz 09 /-?:().,'+", 140, 'x')).toBe("AZaz 09 /-?:().,'+");
  });

  it('folds letters that do not decompose, drops accents, and makes anything else a space', () => {
    expect(swiftText('ß ẞ æ Æ ø Ø œ Œ đ Đ ł Ł þ Þ ð Ð ı', 140, 'x')).toBe('ss SS ae AE o O oe OE d D l L th TH d D i');
    expect(swiftText('Grüße àé ñ Å Çx\u036f', 140, 'x')).toBe('Grusse ae n A Cx');
    expect(swiftText('a&b@c_d#e!f"g;h*i=j', 140, 'x')).toBe('a b c d e f g h i j');
    expect(swiftText('one   two\t\nthree', 140, 'x')).toBe('one two three');
  });

  it('trims, cuts at the limit, trims again, and falls back when nothing is left', () => {
    expect(swiftText('   abcdef', 3, 'x')).toBe('abc');
    expect(swiftText('ab cd', 3, 'x')).toBe('ab');
    expect(swiftText('abc ', 140, 'x')).toBe('abc');
    expect(swiftText('abcdef', 6, 'x')).toBe('abcdef');
    expect(swiftText('', 35, 'Payout')).toBe('Payout');
    expect(swiftText(' & * ', 35, 'Payout')).toBe('Payout');
  });
});

describe('iso20022/return-reasons.ts: a return\'s reason as a payout\'s failure_reason', () => {
  it('says every return reason South African banks send in words', () => {
    const expected: Record<string, string> = {
      AC01: 'AC01 incorrect account number',
      AC02: 'AC02 invalid debtor account number',
      AC03: 'AC03 invalid creditor account number',
      AC04: 'AC04 closed account',
      AC05: 'AC05 closed debtor account',
      AC06: 'AC06 blocked account',
      AC07: 'AC07 closed creditor account',
      AC13: 'AC13 invalid debtor account type',
      AC14: 'AC14 invalid creditor account type',
      AG01: 'AG01 transaction forbidden on this type of account',
      AG02: 'AG02 invalid bank operation code',
      AM01: 'AM01 zero amount',
      AM02: 'AM02 amount not allowed',
      AM04: 'AM04 insufficient funds',
      AM05: 'AM05 duplicate payment',
      AM09: 'AM09 wrong amount',
      AM10: 'AM10 invalid control sum',
      BE01: 'BE01 account holder name does not match the account',
      BE04: 'BE04 missing creditor address',
      BE05: 'BE05 unrecognised initiating party',
      BE06: 'BE06 unknown end customer',
      CNOR: 'CNOR creditor bank is not registered',
      CURR: 'CURR incorrect currency',
      CUST: 'CUST requested by the customer',
      DNOR: 'DNOR debtor bank is not registered',
      DS28: 'DS28 return for technical reasons',
      ED05: 'ED05 settlement failed',
      FF01: 'FF01 invalid file format',
      FOCR: 'FOCR returned after a cancellation request',
      MD06: 'MD06 refund requested by the end customer',
      MD07: 'MD07 account holder deceased',
      MS02: 'MS02 refused by the account holder (no reason given)',
      MS03: 'MS03 refused by the bank (no reason given)',
      NARR: 'NARR see the bank\'s narrative',
      NOAS: 'NOAS no answer from the account holder',
      NOOR: 'NOOR original transaction never received',
      RC01: 'RC01 incorrect branch code',
      RF01: 'RF01 transaction reference not unique',
      RR01: 'RR01 missing debtor account or identification (regulatory)',
      RR02: 'RR02 missing debtor name or address (regulatory)',
      RR03: 'RR03 missing creditor name or address (regulatory)',
      RR04: 'RR04 regulatory reason',
      SL01: 'SL01 specific service offered by the creditor bank',
      TM01: 'TM01 received after the cut-off time',
      UPAY: 'UPAY payment not justified',
    };
    expect(Object.keys(RETURN_REASONS)).toEqual(Object.keys(expected));
    for (const [code, text] of Object.entries(expected)) expect(returnReasonText(code), code).toBe(text);
  });

  it('says a code it does not know, or none, was returned by the bank', () => {
    expect(returnReasonText('ZZ99')).toBe('ZZ99 returned by the bank');
    // A code that names a property every object has is as unknown as any other.
    expect(returnReasonText('toString')).toBe('toString returned by the bank');
    expect(returnReasonText('constructor')).toBe('constructor returned by the bank');
    expect(returnReasonText(null)).toBe('returned by the bank');
    expect(returnReasonText('')).toBe('returned by the bank');
  });

  it('adds the bank\'s own words, trimmed, joined, empty ones left out', () => {
    expect(returnReasonText('AC04', ['  account closed 2026-10-01 '])).toBe('AC04 closed account (account closed 2026-10-01)');
    expect(returnReasonText('AC04', ['closed', 'moved'])).toBe('AC04 closed account (closed; moved)');
    expect(returnReasonText('AC04', ['', '   '])).toBe('AC04 closed account');
    expect(returnReasonText(null, ['ACCOUNT FROZEN'])).toBe('returned by the bank (ACCOUNT FROZEN)');
    expect(returnReasonText('AC04', [])).toBe('AC04 closed account');
  });

  it('keeps a reason of 500 characters whole and cuts a longer one to 500 with an ellipsis', () => {
    // 'AC04 closed account (' is 21 characters and ')' one more: words of 478 make 500.
    const fits = returnReasonText('AC04', ['w'.repeat(478)]);
    expect(fits).toBe(`AC04 closed account (${'w'.repeat(478)})`);
    expect(fits).toHaveLength(500);
    const cut = returnReasonText('AC04', ['w'.repeat(479)]);
    expect(cut).toBe(`AC04 closed account (${'w'.repeat(478)}…`);
    expect(cut).toHaveLength(500);
  });
});

describe('bank-report-json.ts: an import of a bank report as the operator sees it', () => {
  const summary: BankReportSummary = {
    reportId: '6c1e9a52-8a43-4c1e-9a57-5d2f0e2b7c11',
    kind: 'camt.053',
    messageId: 'FNB-STM-20261125',
    status: 'failed',
    error: 'the database went away',
    entryCount: 40,
    appliedCount: 25,
    alreadyImported: false,
    completed: 20,
    failed: 1,
    returned: 2,
    unchanged: 1,
    unmatched: 1,
  };

  it('says every count under its published name', () => {
    const json = bankReportJson(summary);
    expect(json).toEqual({
      report_id: '6c1e9a52-8a43-4c1e-9a57-5d2f0e2b7c11',
      kind: 'camt.053',
      message_id: 'FNB-STM-20261125',
      status: 'failed',
      error: 'the database went away',
      entry_count: 40,
      applied_count: 25,
      already_imported: false,
      completed: 20,
      failed: 1,
      returned: 2,
      unchanged: 1,
      unmatched: 1,
    });
    expect(bankReportJsonSchema.parse(json)).toEqual(json);
    expect(bankReportJson({ ...summary, status: 'applied', error: null, appliedCount: 40, alreadyImported: true })).toMatchObject({ status: 'applied', error: null, applied_count: 40, already_imported: true });
  });

  it('keeps an error of 2000 characters and cuts a longer one to 2000 with an ellipsis, as the schema allows', () => {
    expect(bankReportJson({ ...summary, error: 'e'.repeat(2000) }).error).toBe('e'.repeat(2000));
    const cut = bankReportJson({ ...summary, error: 'e'.repeat(2001) });
    expect(cut.error).toBe(`${'e'.repeat(1999)}…`);
    expect(bankReportJsonSchema.safeParse(cut).success).toBe(true);
    expect(bankReportJsonSchema.safeParse({ ...cut, error: 'e'.repeat(2001) }).success).toBe(false);
  });

  it('publishes nothing else, and only the kinds, statuses and counts it knows', () => {
    const json = bankReportJson(summary);
    expect(bankReportJsonSchema.safeParse({ ...json, entries: [] }).success).toBe(false);
    expect(bankReportJsonSchema.safeParse({ ...json, kind: 'camt.052' }).success).toBe(false);
    expect(bankReportJsonSchema.safeParse({ ...json, status: 'queued' }).success).toBe(false);
    expect(bankReportJsonSchema.safeParse({ ...json, message_id: 'M'.repeat(36) }).success).toBe(false);
    expect(bankReportJsonSchema.safeParse({ ...json, message_id: 'M'.repeat(35) }).success).toBe(true);
    expect(bankReportJsonSchema.safeParse({ ...json, completed: -1 }).success).toBe(false);
    expect(bankReportJsonSchema.safeParse({ ...json, completed: 1.5 }).success).toBe(false);
    expect(bankReportJsonSchema.safeParse({ ...json, report_id: 'FNB-STM-20261125' }).success).toBe(false);
  });

  it('takes a report of up to 32 MiB', () => {
    expect(BANK_REPORT_BODY_LIMIT).toBe(33_554_432);
  });
});

describe('canonical.ts: what makes two requests the same', () => {
  it('writes JSON with the keys of every object sorted by code unit, arrays kept in order', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }, 3], c: null } })).toBe('{"a":{"c":null,"d":[{"y":2,"z":1},3]},"b":1}');
    expect(canonicalJson({ b: 1, a: 2, B: 3, _: 4, Z: 5 })).toBe('{"B":3,"Z":5,"_":4,"a":2,"b":1}');
    expect(canonicalJson({ a: 1, b: 2, c: 3 })).toBe('{"a":1,"b":2,"c":3}');
    expect(canonicalJson({ e: 5, d: 4, c: 3, b: 2, a: 1 })).toBe('{"a":1,"b":2,"c":3,"d":4,"e":5}');
    expect(canonicalJson({ ab: 1, a: 2, aa: 3 })).toBe('{"a":2,"aa":3,"ab":1}');
    expect(canonicalJson([3, 1, 2])).toBe('[3,1,2]');
    expect(canonicalJson('text')).toBe('"text"');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson({ skipped: undefined, kept: 0 })).toBe('{"kept":0}');
  });

  it('hashes equal values equally, whatever their key order', () => {
    const hash = 'd3626ac30a87e6f7a6428233b3c68299976865fa5508e4267c5415c76af7a772';
    expect(payloadHash({ a: 2, b: 1 })).toBe(hash);
    expect(payloadHash({ b: 1, a: 2 })).toBe(hash);
  });

  it('stores a request as its hash keyed with the service\'s digest key for requests', () => {
    const asked: [string, string][] = [];
    const keyring = {
      digest(purpose: 'request', plaintext: string) {
        asked.push([purpose, plaintext]);
        return Buffer.from([0x0a, 0xbc, 0xde]);
      },
    };
    expect(requestDigest(keyring, { b: 1, a: 2 })).toBe('0abcde');
    expect(asked).toEqual([['request', 'd3626ac30a87e6f7a6428233b3c68299976865fa5508e4267c5415c76af7a772']]);
  });
});

describe('event-position.ts: where a client resumes a stream', () => {
  it('hands out a position as opaque base64url text and reads it back', () => {
    expect(encodePosition({ xact: '12345', seq: 7 })).toBe('ZXZlbnQ6MTIzNDU6Nw');
    expect(decodePosition('ZXZlbnQ6MTIzNDU6Nw')).toEqual({ xact: '12345', seq: 7 });
    const largest = { xact: '18446744073709551615', seq: 9_007_199_254_740_991 };
    expect(encodePosition(largest)).toBe('ZXZlbnQ6MTg0NDY3NDQwNzM3MDk1NTE2MTU6OTAwNzE5OTI1NDc0MDk5MQ');
    expect(decodePosition(encodePosition(largest))).toEqual(largest);
    expect(decodePosition(encodePosition({ xact: '0', seq: 0 }))).toEqual({ xact: '0', seq: 0 });
    expect(decodePosition(encodePosition({ xact: '9', seq: 10 }))).toEqual({ xact: '9', seq: 10 });
  });

  it('refuses text it did not hand out', () => {
    const text = (plain: string) => Buffer.from(plain).toString('base64url');
    for (const plain of [
      'event:1:2:3',
      'event:1',
      'event::2',
      'event:1:',
      'event:01:2',
      'event:1:02',
      'event:-1:2',
      'event:1:-2',
      'event:1.5:2',
      'event:1:2x',
      'x-event:1:2',
      'Event:1:2',
      'evnt:1:2',
      '1:2',
      'event:18446744073709551616:1',
      'event:100000000000000000000:1',
      'event:1:9007199254740992',
      'event:1:99999999999999999999',
      'event:1:100000000000000000000',
    ]) {
      expect(decodePosition(text(plain)), plain).toBeUndefined();
    }
    expect(decodePosition('')).toBeUndefined();
  });

  it('reads nothing past 64 characters', () => {
    const position = encodePosition({ xact: '12345', seq: 7 });
    expect(decodePosition(position.padEnd(64, '='))).toEqual({ xact: '12345', seq: 7 });
    expect(decodePosition(position.padEnd(65, '='))).toBeUndefined();
  });

  it('orders positions by transaction, then by sequence', () => {
    expect(comparePositions({ xact: '99', seq: 5 }, { xact: '100', seq: 1 })).toBeLessThan(0);
    expect(comparePositions({ xact: '100', seq: 1 }, { xact: '99', seq: 5 })).toBeGreaterThan(0);
    expect(comparePositions({ xact: '123', seq: 9 }, { xact: '124', seq: 1 })).toBeLessThan(0);
    expect(comparePositions({ xact: '124', seq: 1 }, { xact: '123', seq: 9 })).toBeGreaterThan(0);
    expect(comparePositions({ xact: '123', seq: 3 }, { xact: '123', seq: 7 })).toBeLessThan(0);
    expect(comparePositions({ xact: '123', seq: 7 }, { xact: '123', seq: 3 })).toBeGreaterThan(0);
    expect(comparePositions({ xact: '123', seq: 5 }, { xact: '123', seq: 5 })).toBe(0);
  });
});

describe('events.ts: what a webhook carries', () => {
  it('writes the webhook body of CONTRACT §6', () => {
    const body = webhookBody({ id: 'evt_1', type: 'payout.completed', createdAt: new Date('2026-11-25T14:05:00.000Z'), data: { id: A, status: 'completed' } });
    expect(body).toBe(`{"id":"evt_1","type":"payout.completed","created_at":"2026-11-25T14:05:00.000Z","api_version":"v1","data":{"id":"${A}","status":"completed"}}`);
  });
});

describe('jobs.ts: the names stored with jobs', () => {
  it('names each queue as its queued jobs are stored (a renamed queue would strand them)', () => {
    expect(QUEUE).toEqual({
      webhook: 'webhook.deliver',
      customerEmail: 'customer.email',
      customerSms: 'customer.sms',
      reconcile: 'payment.reconcile',
      expire: 'payment.expire',
      refundOwed: 'payment.refund_owed',
      refund: 'refund.request',
      sandboxConfirm: 'sandbox.confirm',
      purge: 'maintenance.purge',
      personEmail: 'person.email',
      bankReport: 'payout.bank_report',
      paymentRequestEmail: 'payment.request_email',
      rateLimitSweep: 'maintenance.rate_limit_sweep',
    });
    expect(JOB_STATUSES).toEqual(['queued', 'running', 'failed']);
  });
});

describe('stream-limits.ts: the bounds of live event streams', () => {
  it('bounds live streams as docs/limits.md says', () => {
    expect(STREAM_LIMITS).toEqual({
      reservationsPerPrincipal: 5,
      reservationTtlMs: 10_000,
      connectionsPerPrincipal: 20,
      operationsPerPrincipal: 20,
      unsentPerConnection: 32,
      stalledConnectionMs: 60_000,
      closeGraceMs: 5_000,
      queuedEventsPerStream: 1_000,
    });
  });
});
