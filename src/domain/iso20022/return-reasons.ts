/**
 * ISO 20022 return reason codes (ExternalReturnReason1Code, the external code sets published
 * with the ISO 20022 message definitions), in words for a payout's `failure_reason`. These are
 * the codes South African banks put in `RtrInf/Rsn/Cd` when a credit comes back.
 */
export const RETURN_REASONS: Readonly<Record<string, string>> = {
  AC01: 'incorrect account number',
  AC02: 'invalid debtor account number',
  AC03: 'invalid creditor account number',
  AC04: 'closed account',
  AC05: 'closed debtor account',
  AC06: 'blocked account',
  AC07: 'closed creditor account',
  AC13: 'invalid debtor account type',
  AC14: 'invalid creditor account type',
  AG01: 'transaction forbidden on this type of account',
  AG02: 'invalid bank operation code',
  AM01: 'zero amount',
  AM02: 'amount not allowed',
  AM04: 'insufficient funds',
  AM05: 'duplicate payment',
  AM09: 'wrong amount',
  AM10: 'invalid control sum',
  BE01: 'account holder name does not match the account',
  BE04: 'missing creditor address',
  BE05: 'unrecognised initiating party',
  BE06: 'unknown end customer',
  CNOR: 'creditor bank is not registered',
  CURR: 'incorrect currency',
  CUST: 'requested by the customer',
  DNOR: 'debtor bank is not registered',
  DS28: 'return for technical reasons',
  ED05: 'settlement failed',
  FF01: 'invalid file format',
  FOCR: 'returned after a cancellation request',
  MD06: 'refund requested by the end customer',
  MD07: 'account holder deceased',
  MS02: 'refused by the account holder (no reason given)',
  MS03: 'refused by the bank (no reason given)',
  NARR: 'see the bank\'s narrative',
  NOAS: 'no answer from the account holder',
  NOOR: 'original transaction never received',
  RC01: 'incorrect branch code',
  RF01: 'transaction reference not unique',
  RR01: 'missing debtor account or identification (regulatory)',
  RR02: 'missing debtor name or address (regulatory)',
  RR03: 'missing creditor name or address (regulatory)',
  RR04: 'regulatory reason',
  SL01: 'specific service offered by the creditor bank',
  TM01: 'received after the cut-off time',
  UPAY: 'payment not justified',
};

/**
 * A payout's failure reason from a return: the code, its words, and the bank's own words when it
 * gave any, e.g. `AC04 closed account (account closed 2026-10-01)`; at most 500 characters.
 */
export function returnReasonText(code: string | null, additional: readonly string[] = []): string {
  const words = code && Object.hasOwn(RETURN_REASONS, code) ? RETURN_REASONS[code]! : 'returned by the bank';
  const extra = additional.map((s) => s.trim()).filter(Boolean).join('; ');
  const text = `${code ? `${code} ` : ''}${words}${extra ? ` (${extra})` : ''}`;
  return text.length > 500 ? `${text.slice(0, 499)}…` : text;
}
