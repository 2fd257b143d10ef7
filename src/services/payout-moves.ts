import { recordAudit } from '../db/audit.ts';
import type { Tx } from '../db/index.ts';
import * as ledger from '../db/ledger.ts';
import { recordEvent } from '../db/outbox.ts';
import * as store from '../db/payouts.ts';
import { type Actor, actorLabel, requireOperator, scope } from '../domain/actor.ts';
import { AppError } from '../domain/errors.ts';
import { payoutReturnLegs, releaseLegs, settleLegs } from '../domain/ledger.ts';
import { type Payout, PAYOUT_EVENT_FOR, type PayoutAction, payoutNotFound, type PayoutStatus, planPayoutMove } from '../domain/payout.ts';
import { payoutJson } from '../domain/payout-json.ts';

/**
 * A payout's moves after creation, inside the caller's transaction: the operator's (approve,
 * reject, start the transfer, complete, fail), a bank file's, and the bank's return of a completed
 * payout. PayoutService calls these one move to a transaction; the batch export and the bank
 * reports call them for many in theirs.
 */

export interface PayoutMoveExtra {
  rejectionReason?: string;
  failureReason?: string;
  externalTransferId?: string;
  onlyFrom?: readonly PayoutStatus[];
  /** More for the audit entry: the batch or the bank report that made the move. */
  audit?: Record<string, unknown>;
}

/**
 * One operator move inside the caller's transaction: lock the payout, check the state machine,
 * update it, move the money and write the event and the audit entry. Every move of a payout,
 * by hand or from a bank file, goes through here, so a completion from a bank report is the same
 * ledger posting, the same `payout.completed` webhook and the same audit line as one typed in.
 * Locks are taken payout first, then balance, in every path, so concurrent moves cannot deadlock.
 */
export async function movePayoutIn(
  tx: Tx,
  actor: Actor,
  id: string,
  action: PayoutAction,
  extra: PayoutMoveExtra,
): Promise<{ payout: Payout; from: PayoutStatus }> {
  requireOperator(actor);
  const current = await store.lockPayout(tx, scope(actor), id);
  if (!current) throw payoutNotFound();
  const move = planPayoutMove(current.status, action, extra.onlyFrom);
  const payout = await store.movePayout(tx, {
    id,
    to: move.to,
    rejectionReason: extra.rejectionReason ?? null,
    failureReason: extra.failureReason ?? null,
    externalTransferId: extra.externalTransferId ?? null,
  });
  const payoutId = payout.id;
  if (move.effect === 'release') {
    await ledger.post(tx, { merchantId: current.merchant_id, kind: 'payout_release', payoutId, legs: releaseLegs(current.gross_amount_cents) });
  } else if (move.effect === 'deduct') {
    await ledger.post(tx, { merchantId: current.merchant_id, kind: 'payout_settle', payoutId, legs: settleLegs(current.amount_cents, current.fee_cents) });
  }
  await recordEvent(tx, { merchantId: payout.merchantId, type: PAYOUT_EVENT_FOR[move.to], payoutId, data: payoutJson(payout) });
  await recordAudit(tx, {
    actor: actorLabel(actor),
    action: `payout.${action}`,
    merchantId: payout.merchantId,
    payoutId,
    detail: { from: current.status, to: move.to, ...(extra.externalTransferId && { external_transfer_id: extra.externalTransferId }), ...extra.audit },
  });
  return { payout, from: current.status };
}

/**
 * A completed payout the bank gave back (CONTRACT §11), inside the caller's transaction: it keeps
 * its status (terminal), gains `returned_at` and `return_reason`, its amount is credited back to
 * the available balance through the journal (its fee stays), and `payout.returned` is written with
 * the audit entry. A payout returned before is left as it is (`returned: false`), so a report read
 * twice, or a statement after a notification, changes nothing.
 */
export async function returnPayoutIn(
  tx: Tx,
  actor: Actor,
  id: string,
  reason: string,
  audit: Record<string, unknown> = {},
): Promise<{ payout: Payout; returned: boolean }> {
  requireOperator(actor);
  const current = await store.lockPayout(tx, scope(actor), id);
  if (!current) throw payoutNotFound();
  if (current.status !== 'completed') {
    throw new AppError('INVALID_STATUS_TRANSITION', `cannot return a payout that is ${current.status} (allowed from: completed)`);
  }
  const payout = await store.markReturned(tx, id, reason);
  if (!payout) return { payout: (await store.findPayouts(tx, scope(actor), [id]))[0]!, returned: false };
  await ledger.post(tx, { merchantId: current.merchant_id, kind: 'payout_return', payoutId: id, memo: reason, legs: payoutReturnLegs(current.amount_cents) });
  await recordEvent(tx, { merchantId: payout.merchantId, type: 'payout.returned', payoutId: id, data: payoutJson(payout) });
  await recordAudit(tx, {
    actor: actorLabel(actor),
    action: 'payout.return',
    merchantId: payout.merchantId,
    payoutId: id,
    detail: { status: 'completed', amount_cents: payout.amountCents, return_reason: reason, ...audit },
  });
  return { payout, returned: true };
}
