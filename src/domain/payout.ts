import { AppError } from './errors.ts';

/** Payouts as services return them, their states and the moves between them (spec "Payout transitions"). */

export const PAYOUT_STATUSES = ['pending', 'approved', 'processing', 'completed', 'failed', 'rejected'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** States whose gross amount is still held in `reserved_cents`. */
export const RESERVED_STATUSES = ['pending', 'approved', 'processing'] as const satisfies readonly PayoutStatus[];

export interface Payout {
  id: string;
  merchantId: string;
  amountCents: number;
  feeCents: number;
  grossAmountCents: number;
  currency: 'ZAR';
  status: PayoutStatus;
  payoutMethod: 'eft';
  merchantReference: string | null;
  description: string | null;
  metadata: Record<string, unknown> | null;
  externalTransferId: string | null;
  failureReason: string | null;
  rejectionReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
  /** A completed payout the bank gave back (CONTRACT §11): when, and why; null otherwise. */
  returnedAt: Date | null;
  returnReason: string | null;
}

/** What happens to the reserved gross amount when a payout enters a state. */
export type BalanceEffect = 'none' | 'release' | 'deduct';

export type PayoutAction = 'approve' | 'reject' | 'start_transfer' | 'complete' | 'fail';

export interface PayoutMove {
  from: readonly PayoutStatus[];
  to: PayoutStatus;
  effect: BalanceEffect;
}

/**
 * The payout transitions of the specification, and no others. Cancelling a pending payout
 * (CONTRACT §5) is a rejection with a fixed reason, so it is `reject` from `pending` only.
 */
export const PAYOUT_MOVES: Record<PayoutAction, PayoutMove> = {
  approve: { from: ['pending'], to: 'approved', effect: 'none' },
  reject: { from: ['pending', 'approved'], to: 'rejected', effect: 'release' },
  start_transfer: { from: ['approved'], to: 'processing', effect: 'none' },
  complete: { from: ['processing'], to: 'completed', effect: 'deduct' },
  fail: { from: ['processing'], to: 'failed', effect: 'release' },
};

/** The rejection reason of a payout cancelled by the account manager (CONTRACT §5). */
export const CANCELLED_REASON = 'cancelled by account manager';

/** The event each target state emits (spec "Payout events"). */
export const PAYOUT_EVENT_FOR = {
  pending: 'payout.created',
  approved: 'payout.approved',
  processing: 'payout.processing',
  completed: 'payout.completed',
  failed: 'payout.failed',
  rejected: 'payout.rejected',
} as const satisfies Record<PayoutStatus, string>;

/** Returns the move for `action` from `current`, or throws INVALID_STATUS_TRANSITION. */
export function planPayoutMove(current: PayoutStatus, action: PayoutAction, allowedFrom?: readonly PayoutStatus[]): PayoutMove {
  const move = PAYOUT_MOVES[action];
  const from = allowedFrom ?? move.from;
  if (!from.includes(current)) {
    throw new AppError(
      'INVALID_STATUS_TRANSITION',
      `cannot ${action.replace('_', ' ')} a payout that is ${current} (allowed from: ${from.join(', ')})`,
    );
  }
  return move;
}

export const payoutNotFound = () => new AppError('PAYOUT_NOT_FOUND', 'payout not found');

/**
 * The bank account of a payout as an operator's payout view shows it (CONTRACT §9): enough to
 * recognise it and make the transfer, the account number masked to `****` and its last four
 * digits. The full number is shown only by one audited operator command.
 */
export interface MaskedBankAccount {
  bankName: string;
  branchCode: string;
  accountHolder: string;
  accountNumberMasked: string;
  /** The bank the branch code belongs to (domain/za-banks.ts), as recorded at creation (older payouts: by their code); null when not listed. */
  bank: string | null;
  /** `bankName` names a bank other than `bank`: the money goes to `bank`. */
  bankNameMismatch: boolean;
  /**
   * The sealed details would not open under any data key this service holds (other key
   * material under their kid, or damage): every sealed field above then reads `unreadable`;
   * `bank` is still the one recorded at creation (it is not sealed), null for older payouts.
   */
  unreadable: boolean;
}

/** What the payout view shows for bank details that will not open. */
export const UNREADABLE_BANK_ACCOUNT: MaskedBankAccount = Object.freeze({
  bankName: 'unreadable',
  branchCode: 'unreadable',
  accountHolder: 'unreadable',
  accountNumberMasked: 'unreadable',
  bank: null,
  bankNameMismatch: false,
  unreadable: true,
});

/** The full bank account, as the audited operator command reveals it. */
export interface BankAccount {
  bankName: string;
  branchCode: string;
  accountHolder: string;
  accountNumber: string;
}
