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
  /**
   * The entry this line belongs to (CONTRACT §11, reports as banks book them): its amount, and the
   * end-to-end ids of all its transactions, so a transaction without an amount of its own can be
   * matched when the entry's amount is the sum of its payouts'.
   */
  entry: { amountCents: number | null; currency: string | null; endToEndIds: string[] };
  /**
   * A whole exported batch booked as one entry, paid (a debit) or given back (a return): the
   * `PmtInfId` and `MsgId` the entry's batch details (`NtryDtls/Btch`) or references name; empty
   * for any other line.
   */
  batchRefs: string[];
}

export interface BankReport {
  kind: ReportKind;
  /** The message and its version, as its namespace names it (`camt.054.001.02`): the schema it is checked against. */
  message: string;
  messageId: string;
  lines: ReportLine[];
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
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
      const details = list(entry.NtryDtls);
      const transactions = details.flatMap((d) => list(d.TxDtls));
      const one = transactions.length <= 1;
      const amt = text(entry.Amt);
      const group = {
        amountCents: amt === null ? null : centsOf(amt),
        currency: typeof entry.Amt === 'object' && entry.Amt !== null ? text((entry.Amt as Node)['@_Ccy']) : null,
        endToEndIds: transactions.map((tx) => text(tx.Refs?.EndToEndId)).filter((s): s is string => s !== null),
      };
      // A batch booked as one: the batch's ids, when no transaction names an end-to-end id.
      const batchRefs =
        group.endToEndIds.length === 0
          ? [
              ...new Set(
                [
                  ...details.flatMap((d) => list(d.Btch).flatMap((b) => [text(b.PmtInfId), text(b.MsgId)])),
                  ...transactions.flatMap((tx) => [text(tx.Refs?.PmtInfId), text(tx.Refs?.MsgId)]),
                ].filter((s): s is string => s !== null),
              ),
            ]
          : [];
      if (batchRefs.length > 0) {
        // One line for the whole batch, of the entry's amount. A file the bank gives back whole
        // says why in its transaction's return information (RtrInf), which the line reads.
        const returnTx = transactions.find((tx) => tx.RtrInf) ?? (transactions.length === 1 ? transactions[0]! : {});
        const batchLine = line(lines.length, entry, returnTx, true);
        lines.push({ ...batchLine, amountCents: group.amountCents, currency: group.currency, entry: group, batchRefs });
        continue;
      }
      for (const tx of transactions.length > 0 ? transactions : [{}]) {
        lines.push({ ...line(lines.length, entry, tx, one), entry: group, batchRefs });
      }
    }
  }
  return { kind, message: ns.slice(ns.lastIndexOf(':') + 1), messageId, lines };
}

function line(position: number, entry: Node, tx: Node, only: boolean): Omit<ReportLine, 'entry' | 'batchRefs'> {
  // camt.05x.001.02 has Sts as a code; later versions wrap it (Sts/Cd, or a bank's own Sts/Prtry).
  const status = text(entry.Sts?.Cd) ?? text(entry.Sts?.Prtry) ?? text(entry.Sts) ?? '';
  // From .03 on a transaction may carry its own direction; it overrides the entry's.
  const cdi = text(tx.CdtDbtInd) ?? text(entry.CdtDbtInd);
  const txAmount = tx.AmtDtls?.TxAmt?.Amt ?? tx.AmtDtls?.InstdAmt?.Amt ?? tx.Amt;
  // An entry's amount is a transaction's only when the entry holds that one transaction.
  const amountNode = txAmount ?? (only ? entry.Amt : undefined);
  const amount = text(amountNode);
  const subFamily = text(tx.BkTxCd?.Domn?.Fmly?.SubFmlyCd) ?? text(entry.BkTxCd?.Domn?.Fmly?.SubFmlyCd);
  const rtr = tx.RtrInf as Node | undefined;
  // A reversal flag on a credit undoes a debit (our transfer came back); on a debit it undoes a
  // credit, which is no return of a payout.
  const returned = Boolean(rtr) || (text(entry.RvslInd) === 'true' && cdi === 'CRDT') || subFamily === 'RRTN';
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
