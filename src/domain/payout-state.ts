import { AppError } from './errors.ts';

export const PAYOUT_STATUSES = ['pending', 'approved', 'processing', 'completed', 'failed', 'rejected'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** States whose gross amount is still held in `reserved_cents`. */
export const RESERVED_STATUSES: readonly PayoutStatus[] = ['pending', 'approved', 'processing'];

/** What happens to the reserved gross amount when a payout enters a state. */
export type BalanceEffect = 'none' | 'release' | 'deduct';

export type PayoutAction = 'approve' | 'reject' | 'start_transfer' | 'complete' | 'fail';

interface Move {
  from: readonly PayoutStatus[];
  to: PayoutStatus;
  effect: BalanceEffect;
}

/**
 * The payout transitions of the specification, and no others. Cancelling a pending payout
 * (CONTRACT §5) is a rejection with a fixed reason, so it is `reject` from `pending` only.
 */
export const PAYOUT_MOVES: Record<PayoutAction, Move> = {
  approve: { from: ['pending'], to: 'approved', effect: 'none' },
  reject: { from: ['pending', 'approved'], to: 'rejected', effect: 'release' },
  start_transfer: { from: ['approved'], to: 'processing', effect: 'none' },
  complete: { from: ['processing'], to: 'completed', effect: 'deduct' },
  fail: { from: ['processing'], to: 'failed', effect: 'release' },
};

/** The event each target state emits (spec "Payout events"). */
export const PAYOUT_EVENT_FOR: Record<PayoutStatus, string> = {
  pending: 'payout.created',
  approved: 'payout.approved',
  processing: 'payout.processing',
  completed: 'payout.completed',
  failed: 'payout.failed',
  rejected: 'payout.rejected',
};

/** Returns the move for `action` from `current`, or throws INVALID_STATUS_TRANSITION. */
export function planPayoutMove(current: PayoutStatus, action: PayoutAction, allowedFrom?: readonly PayoutStatus[]): Move {
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
