/**
 * The double-entry journal's rules (CONTRACT §5). Each posting is a transaction whose legs sum to
 * zero; it moves the merchant's balance projection by what its legs imply:
 *
 * - `merchant_available` + `merchant_reserved` = balance_cents; `merchant_reserved` = reserved_cents
 * - `funding` (negative) = money that came in: gross_cents is minus its sum
 * - `fees` = fees_cents; `bank_transfers` = withdrawals_cents; `refunds` = refunds_cents (money
 *   that went back to customers: a refund reserves like a payout, and leaves here on success)
 *
 * - `bank_returns` (negative) = completed payouts' amounts the bank gave back: returned_cents is minus its sum
 *
 * Nothing else writes to the balances, so `ledger verify` can recompute every figure from the journal.
 */

export const LEDGER_ACCOUNTS = ['merchant_available', 'merchant_reserved', 'funding', 'fees', 'bank_transfers', 'refunds', 'bank_returns'] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];

export type PostingKind =
  | 'credit'
  | 'payment_capture'
  | 'payout_reserve'
  | 'payout_release'
  | 'payout_settle'
  | 'refund_reserve'
  | 'refund_release'
  | 'refund_settle'
  | 'payout_return';

export interface Leg {
  account: LedgerAccount;
  amountCents: number;
}

export interface Posting {
  merchantId: string;
  kind: PostingKind;
  legs: Leg[];
  payoutId?: string;
  paymentId?: string;
  refundId?: string;
  memo?: string;
}

/** How a posting moves the balance projection, and what it takes out of the available amount. */
export interface ProjectionDelta {
  balance: number;
  reserved: number;
  gross: number;
  fees: number;
  withdrawals: number;
  refunds: number;
  returned: number;
  /** The available amount the posting needs (0 when it takes nothing out of it). */
  requiredAvailable: number;
}

/** Checks a posting (legs sum to zero, whole non-zero cents) and returns its projection delta. */
export function projectionDelta(posting: Posting): ProjectionDelta {
  const total = posting.legs.reduce((s, l) => s + l.amountCents, 0);
  if (total !== 0 || posting.legs.some((l) => !Number.isSafeInteger(l.amountCents) || l.amountCents === 0)) {
    throw new Error(`unbalanced ledger posting ${posting.kind}: legs sum to ${total}`);
  }
  const sum = (account: LedgerAccount) => posting.legs.filter((l) => l.account === account).reduce((s, l) => s + l.amountCents, 0);
  const available = sum('merchant_available');
  const reserved = sum('merchant_reserved');
  return {
    balance: available + reserved,
    reserved,
    gross: -sum('funding'),
    fees: sum('fees'),
    withdrawals: sum('bank_transfers'),
    refunds: sum('refunds'),
    returned: -sum('bank_returns'),
    requiredAvailable: available < 0 ? -available : 0,
  };
}

/** The legs that give a rejected or failed payout's reservation back. */
export const releaseLegs = (gross: number): Leg[] => [
  { account: 'merchant_reserved', amountCents: -gross },
  { account: 'merchant_available', amountCents: gross },
];

/** The legs of a completed payout: the reservation leaves as the transfer and the fee. */
export function settleLegs(amount: number, fee: number): Leg[] {
  const legs: Leg[] = [
    { account: 'merchant_reserved', amountCents: -(amount + fee) },
    { account: 'bank_transfers', amountCents: amount },
  ];
  if (fee > 0) legs.push({ account: 'fees', amountCents: fee });
  return legs;
}

/**
 * A completed payout the bank gave back (CONTRACT §11): its amount returns to the available
 * balance; its fee stays a fee, and withdrawals_cents keeps what left (returned_cents says what came back).
 */
export const payoutReturnLegs = (amount: number): Leg[] => [
  { account: 'bank_returns', amountCents: -amount },
  { account: 'merchant_available', amountCents: amount },
];

/** The legs of a captured payment credited by auto top-up: the net to the balance, the fee to fees. */
export function captureLegs(amount: number, fee: number): Leg[] {
  const legs: Leg[] = [
    { account: 'funding', amountCents: -amount },
    { account: 'merchant_available', amountCents: amount - fee },
    { account: 'fees', amountCents: fee },
  ];
  // A leg of nothing is left out: no fee, or a fee that takes the whole amount.
  return legs.filter((l) => l.amountCents !== 0);
}

/** An operator credit: money from outside into the available balance. */
export const creditLegs = (amount: number): Leg[] => [
  { account: 'funding', amountCents: -amount },
  { account: 'merchant_available', amountCents: amount },
];

/** A refund's reservation: its amount moves from available to reserved, as a payout's does (CONTRACT §10). */
export const refundReserveLegs = (amount: number): Leg[] => [
  { account: 'merchant_available', amountCents: -amount },
  { account: 'merchant_reserved', amountCents: amount },
];

/** A refund that succeeded: the reservation leaves to the customer. The payment's fee stays a fee. */
export const refundSettleLegs = (amount: number): Leg[] => [
  { account: 'merchant_reserved', amountCents: -amount },
  { account: 'refunds', amountCents: amount },
];
