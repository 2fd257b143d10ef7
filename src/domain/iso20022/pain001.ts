import { XMLBuilder } from 'fast-xml-parser';
import { decimalAmount, swiftText } from './money-text.ts';

/**
 * An ISO 20022 `pain.001.001.03` customer credit transfer initiation: the file a South African
 * bank takes for a bulk of EFT credits (host-to-host and through its business portal). Pure: the
 * same batch always gives the same bytes.
 *
 * Accounts are domestic account numbers (`Othr/Id`), banks are named by their branch code as a
 * member of the South African national clearing (`ClrSysId/Cd` `ZANCC`), one payment information
 * block pays every payout from the debtor's account, and each transfer is booked on its own
 * (`BtchBookg` false), so the bank's reports come back with one entry per payout.
 */

export const PAIN_001_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.03';
/** The South African national clearing code (ISO 20022 external clearing system identification). */
export const ZA_CLEARING = 'ZANCC';

export interface BankParty {
  name: string;
  accountNumber: string;
  branchCode: string;
  bankName: string;
}

export interface CreditTransfer {
  /** The payout id: the end-to-end id, back in the bank's reports (`endToEndIdOf`). */
  payoutId: string;
  amountCents: number;
  creditor: BankParty;
  /** What the recipient's statement shows. */
  reference: string;
}

export interface CreditTransferBatch {
  /** Unique per file (`MsgId`, at most 35 characters). */
  messageId: string;
  createdAt: Date;
  /** The day the bank is asked to pay, `YYYY-MM-DD` in Johannesburg. */
  executionDate: string;
  debtor: BankParty;
  transfers: readonly CreditTransfer[];
}

/**
 * A payout id as an `EndToEndId`: the UUID's 32 hex digits, since the field holds at most 35
 * characters and a UUID with its hyphens is 36.
 */
export const endToEndIdOf = (payoutId: string) => payoutId.replaceAll('-', '').toLowerCase();

/** A payout id back from an `EndToEndId` (either form); null when it cannot be one. */
export function payoutIdOf(endToEndId: string): string | null {
  const hex = endToEndId.trim().toLowerCase().replaceAll('-', '');
  if (!/^[0-9a-f]{32}$/.test(hex)) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const agent = (party: BankParty) => ({
  FinInstnId: {
    ClrSysMmbId: { ClrSysId: { Cd: ZA_CLEARING }, MmbId: party.branchCode },
    Nm: swiftText(party.bankName, 140, 'Bank'),
  },
});
const account = (party: BankParty) => ({ Id: { Othr: { Id: party.accountNumber } } });

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true, indentBy: '  ', suppressEmptyNode: true });

/** The file's text, UTF-8, with its XML declaration. */
export function buildPain001(batch: CreditTransferBatch): string {
  if (batch.transfers.length === 0) throw new Error('a credit transfer file needs at least one transfer');
  const total = decimalAmount(batch.transfers.reduce((sum, t) => sum + t.amountCents, 0));
  const count = String(batch.transfers.length);
  const debtorName = swiftText(batch.debtor.name, 140, 'Debtor');
  const document = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    Document: {
      '@_xmlns': PAIN_001_NAMESPACE,
      CstmrCdtTrfInitn: {
        GrpHdr: {
          MsgId: batch.messageId,
          CreDtTm: batch.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
          NbOfTxs: count,
          CtrlSum: total,
          InitgPty: { Nm: debtorName },
        },
        PmtInf: {
          PmtInfId: batch.messageId,
          PmtMtd: 'TRF',
          BtchBookg: 'false',
          NbOfTxs: count,
          CtrlSum: total,
          ReqdExctnDt: batch.executionDate,
          Dbtr: { Nm: debtorName },
          DbtrAcct: { ...account(batch.debtor), Ccy: 'ZAR' },
          DbtrAgt: agent(batch.debtor),
          ChrgBr: 'DEBT',
          CdtTrfTxInf: batch.transfers.map((t) => ({
            PmtId: { EndToEndId: endToEndIdOf(t.payoutId) },
            Amt: { InstdAmt: { '@_Ccy': 'ZAR', '#text': decimalAmount(t.amountCents) } },
            CdtrAgt: agent(t.creditor),
            Cdtr: { Nm: swiftText(t.creditor.name, 140, 'Account holder') },
            CdtrAcct: account(t.creditor),
            RmtInf: { Ustrd: swiftText(t.reference, 35, 'Payout') },
          })),
        },
      },
    },
  };
  return builder.build(document) as string;
}
