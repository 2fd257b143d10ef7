import { XMLParser } from 'fast-xml-parser';
import { AppError } from '../errors.ts';
import { centsOf } from './money-text.ts';
import { payoutIdOf } from './pain001.ts';
import { returnReasonText } from './return-reasons.ts';

/**
 * The bank's side: an ISO 20022 `camt.054` debit/credit notification or `camt.053` statement,
 * read into one line per transaction. Both carry entries (`Ntry`) of the same shape; an entry
 * booked as one may hold several transactions (`NtryDtls/TxDtls`), each with the `EndToEndId`
 * our file gave it. Versions 001.02 to 001.08 are read (the ones South African banks send).
 */

export type ReportKind = 'camt.054' | 'camt.053';

export interface ReportLine {
  /** Its place in the file, from 0: stable for the same bytes, so an import can resume by it. */
  position: number;
  /** `BOOK` (booked), `PDNG` (pending) or `INFO`. */
  status: string;
  creditDebit: 'DBIT' | 'CRDT' | null;
  /** The money came back: a return (`RtrInf`), a reversal, or a return's bank transaction code. */
  returned: boolean;
  /** The payout it names, when its end-to-end id is one of ours. */
  payoutId: string | null;
  endToEndId: string | null;
  amountCents: number | null;
  currency: string | null;
  /** The bank's reference for the booking: the transaction's, else the entry's `AcctSvcrRef`, else its `NtryRef`. */
  reference: string | null;
  /** A return's reason, in words (`AC04 closed account`). */
  returnReason: string | null;
}

export interface BankReport {
  kind: ReportKind;
  messageId: string;
  lines: ReportLine[];
}

const LISTS = new Set(['Ntfctn', 'Stmt', 'Ntry', 'NtryDtls', 'TxDtls', 'AddtlInf', 'AddtlRtrInf']);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  isArray: (name) => LISTS.has(name),
});

type Node = Record<string, any>;
const text = (v: unknown): string | null => {
  if (v === undefined || v === null) return null;
  if (typeof v === 'object') return text((v as Node)['#text']);
  const s = String(v).trim();
  return s === '' ? null : s;
};
const list = (v: unknown): Node[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

const refused = (why: string) => new AppError('VALIDATION_FAILED', `content: not an ISO 20022 camt.054 or camt.053 report: ${why}`);

/** Reads a report; VALIDATION_FAILED (naming `content`) when it is not XML or not a camt.053/054. */
export function parseBankReport(xml: string): BankReport {
  let doc: Node;
  try {
    doc = parser.parse(xml, true) as Node;
  } catch (e) {
    throw refused(`not well-formed XML (${(e as Error).message.split('\n')[0]})`);
  }
  const root = doc.Document as Node | undefined;
  if (!root || typeof root !== 'object') throw refused('no Document element');
  // The parser drops namespace prefixes (a bank may write <ns2:Document>), and their declarations
  // with them: the message is the camt namespace the document declares.
  const declared = [...new Set([...xml.matchAll(/xmlns(?::[\w.-]+)?\s*=\s*["'](urn:iso:std:iso:20022:tech:xsd:camt\.[^"']+)["']/g)].map((m) => m[1]!))];
  if (declared.length !== 1) throw refused(declared.length === 0 ? 'no camt namespace declared' : `several camt namespaces (${declared.join(', ')})`);
  const ns = declared[0]!;
  const version = /^urn:iso:std:iso:20022:tech:xsd:camt\.(05[34])\.001\.0([2-8])$/.exec(ns);
  if (!version) throw refused(`unsupported message ${ns}`);
  const kind = `camt.${version[1]}` as ReportKind;
  const body = (kind === 'camt.054' ? root.BkToCstmrDbtCdtNtfctn : root.BkToCstmrStmt) as Node | undefined;
  if (!body) throw refused(`no ${kind === 'camt.054' ? 'BkToCstmrDbtCdtNtfctn' : 'BkToCstmrStmt'}`);
  const messageId = text(body.GrpHdr?.MsgId);
  if (!messageId) throw refused('no GrpHdr/MsgId');
  const accounts = list(kind === 'camt.054' ? body.Ntfctn : body.Stmt);
  const lines: ReportLine[] = [];
  for (const acct of accounts) {
    for (const entry of list(acct.Ntry)) {
      const transactions = list(entry.NtryDtls).flatMap((d) => list(d.TxDtls));
      const one = transactions.length <= 1;
      for (const tx of transactions.length > 0 ? transactions : [{}]) lines.push(line(lines.length, entry, tx, one));
    }
  }
  return { kind, messageId, lines };
}

function line(position: number, entry: Node, tx: Node, only: boolean): ReportLine {
  // camt.05x.001.02 has Sts as a code; later versions wrap it (Sts/Cd).
  const status = text(entry.Sts?.Cd ?? entry.Sts) ?? '';
  const cdi = text(entry.CdtDbtInd);
  const txAmount = tx.AmtDtls?.TxAmt?.Amt ?? tx.AmtDtls?.InstdAmt?.Amt ?? tx.Amt;
  // An entry's amount is a transaction's only when the entry holds that one transaction.
  const amountNode = txAmount ?? (only ? entry.Amt : undefined);
  const amount = text(amountNode);
  const subFamily = text(tx.BkTxCd?.Domn?.Fmly?.SubFmlyCd) ?? text(entry.BkTxCd?.Domn?.Fmly?.SubFmlyCd);
  const rtr = tx.RtrInf as Node | undefined;
  const returned = Boolean(rtr) || text(entry.RvslInd) === 'true' || subFamily === 'RRTN';
  const endToEndId = text(tx.Refs?.EndToEndId);
  const reasonCode = text(rtr?.Rsn?.Cd) ?? text(rtr?.Rsn?.Prtry);
  // The return's own words only: an entry's AddtlNtryInf is the bank's label ("EFT RETURN").
  const reasonWords = list(rtr?.AddtlInf).map(text).filter((s): s is string => s !== null && s !== reasonCode);
  return {
    position,
    status,
    creditDebit: cdi === 'DBIT' || cdi === 'CRDT' ? cdi : null,
    returned,
    endToEndId,
    payoutId: endToEndId ? payoutIdOf(endToEndId) : null,
    amountCents: amount === null ? null : centsOf(amount),
    currency: typeof amountNode === 'object' && amountNode !== null ? (text((amountNode as Node)['@_Ccy']) ?? null) : null,
    reference: text(tx.Refs?.AcctSvcrRef) ?? text(entry.AcctSvcrRef) ?? text(entry.NtryRef),
    returnReason: returned ? returnReasonText(reasonCode, reasonWords.slice(0, 1)) : null,
  };
}
