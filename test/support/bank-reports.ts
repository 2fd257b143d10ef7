import { type SchemaMessage, schemaErrors as shippedSchemaErrors } from '../../src/outside/bank/schemas.ts';

/**
 * The bank's side in tests: camt.054 notifications and camt.053 statements shaped like the ones
 * South African banks send for a host-to-host or business-portal bulk payment (account by
 * domestic number, servicer by its SWIFT BIC, ZAR, one entry per credit with the bank's own
 * references, domestic credit transfers as PMNT/ICDT/DMCT, returns as PMNT/ICDT/RRTN credits
 * carrying the ISO return reason), and the schema check of every file either way.
 */

/** Validates `xml` against one of the shipped ISO 20022 schemas (src/outside/bank/schemas); the errors when it is not valid. */
export async function schemaErrors(xml: string, message: SchemaMessage): Promise<string[]> {
  return (await shippedSchemaErrors(xml, message)).map((e) => `line ${e.line}: ${e.message}`);
}

export interface Entry {
  /** The end-to-end id as the bank echoes it (our file's EndToEndId). */
  endToEndId: string;
  amount: string;
  currency?: string;
  /** The bank's reference of the booking (AcctSvcrRef); NtryRef is derived from it. */
  bankRef: string;
  /** A return: the ISO reason code and the bank's words. */
  returned?: { code: string; info?: string };
  status?: 'BOOK' | 'PDNG';
}

const ACCOUNT = '62000000001';

function entryXml(e: Entry, day: string): string {
  const ccy = e.currency ?? 'ZAR';
  const returned = e.returned !== undefined;
  return `
      <Ntry>
        <NtryRef>${e.bankRef.slice(-16)}</NtryRef>
        <Amt Ccy="${ccy}">${e.amount}</Amt>
        <CdtDbtInd>${returned ? 'CRDT' : 'DBIT'}</CdtDbtInd>
        <Sts>${e.status ?? 'BOOK'}</Sts>
        <BookgDt><Dt>${day}</Dt></BookgDt>
        <ValDt><Dt>${day}</Dt></ValDt>
        <AcctSvcrRef>${e.bankRef}</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>${returned ? 'RRTN' : 'DMCT'}</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls>
          <TxDtls>
            <Refs><AcctSvcrRef>${e.bankRef}</AcctSvcrRef><EndToEndId>${e.endToEndId}</EndToEndId></Refs>
            <AmtDtls><TxAmt><Amt Ccy="${ccy}">${e.amount}</Amt></TxAmt></AmtDtls>
            <RltdAgts><CdtrAgt><FinInstnId><ClrSysMmbId><ClrSysId><Cd>ZANCC</Cd></ClrSysId><MmbId>250655</MmbId></ClrSysMmbId></FinInstnId></CdtrAgt></RltdAgts>${
              returned
                ? `
            <RtrInf><Rsn><Cd>${e.returned!.code}</Cd></Rsn>${e.returned!.info ? `<AddtlInf>${e.returned!.info}</AddtlInf>` : ''}</RtrInf>`
                : ''
            }
          </TxDtls>
        </NtryDtls>
        <AddtlNtryInf>${returned ? 'EFT RETURN' : 'EFT CREDIT TRANSFER'}</AddtlNtryInf>
      </Ntry>`;
}

const accountXml = `<Acct><Id><Othr><Id>${ACCOUNT}</Id></Othr></Id><Ccy>ZAR</Ccy><Svcr><FinInstnId><BIC>FIRNZAJJ</BIC></FinInstnId></Svcr></Acct>`;

/** A debit/credit notification, as a bank sends it during the day for a file's bookings. */
export function camt054(messageId: string, entries: readonly Entry[], day = '2026-11-25'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.02" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <BkToCstmrDbtCdtNtfctn>
    <GrpHdr><MsgId>${messageId}</MsgId><CreDtTm>${day}T16:05:00+02:00</CreDtTm></GrpHdr>
    <Ntfctn>
      <Id>${messageId}-1</Id>
      <CreDtTm>${day}T16:05:00+02:00</CreDtTm>
      ${accountXml}${entries.map((e) => entryXml(e, day)).join('')}
    </Ntfctn>
  </BkToCstmrDbtCdtNtfctn>
</Document>
`;
}

/** The end-of-day statement with the same entries, opening and closing balances around them. */
export function camt053(messageId: string, entries: readonly Entry[], day = '2026-11-25'): string {
  const bal = (type: string) =>
    `<Bal><Tp><CdOrPrtry><Cd>${type}</Cd></CdOrPrtry></Tp><Amt Ccy="ZAR">1000000.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>${day}</Dt></Dt></Bal>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>${messageId}</MsgId><CreDtTm>${day}T23:30:00+02:00</CreDtTm></GrpHdr>
    <Stmt>
      <Id>${messageId}-1</Id>
      <ElctrncSeqNb>1</ElctrncSeqNb>
      <CreDtTm>${day}T23:30:00+02:00</CreDtTm>
      ${accountXml}
      ${bal('OPBD')}
      ${bal('CLBD')}${entries.map((e) => entryXml(e, day)).join('')}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;
}

/**
 * The same report in a later version of its message (camt.053.001.03, .04, .08; camt.054.001.04,
 * .08), as a bank on that version writes it: the servicer's BIC as `BICFI` (from .03), a
 * transaction's own amount and direction before its amount details (.03 and .04 require them),
 * an entry's status as a code in a choice (`Sts/Cd`, .08).
 */
export function inVersion(xml: string, version: '03' | '04' | '08'): string {
  let out = xml.replace(/(camt\.05[34])\.001\.02/, `$1.001.${version}`).replaceAll('<BIC>', '<BICFI>').replaceAll('</BIC>', '</BICFI>');
  if (version === '08') out = out.replaceAll(/<Sts>(\w+)<\/Sts>/g, '<Sts><Cd>$1</Cd></Sts>');
  if (version === '03' || version === '04') {
    out = out
      .split('<Ntry>')
      .map((entry, i) => {
        if (i === 0) return entry;
        const direction = /<CdtDbtInd>(\w+)<\/CdtDbtInd>/.exec(entry)?.[1] ?? 'DBIT';
        return entry.replaceAll(
          /<\/Refs>\s*<AmtDtls><TxAmt>(<Amt Ccy="\w+">[\d.]+<\/Amt>)<\/TxAmt><\/AmtDtls>/g,
          `</Refs>$1<CdtDbtInd>${direction}</CdtDbtInd><AmtDtls><TxAmt>$1</TxAmt></AmtDtls>`,
        );
      })
      .join('<Ntry>');
  }
  return out;
}
