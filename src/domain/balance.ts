import { z } from 'zod';
import { optional } from './validation.ts';

/** A merchant's payout balance (spec "Balance"). */
export interface Balance {
  merchantId: string;
  balanceCents: number;
  reservedCents: number;
  availableCents: number;
  totals: { grossCents: number; feesCents: number; withdrawalsCents: number; refundsCents: number; returnedCents: number };
  currency: string;
}

/**
 * What made the balance, apart, as a bookkeeper checks it (issue 33): money in from payments and
 * from operator credits (top-ups) counted separately, payment fees apart from payout fees, and
 * payouts the bank gave back. Always `payments − paymentFees + credits − payouts − payoutFees −
 * refunds + returns = balanceCents`.
 */
export interface BalanceBreakdown {
  /** Captured payments credited to the balance (auto top-up), at their full amount. */
  paymentsCents: number;
  /** The fees of those payments. */
  paymentFeesCents: number;
  /** Operator credits: money put in from outside (a top-up), not a sale. */
  creditsCents: number;
  /** What completed payouts sent to the bank. */
  payoutsCents: number;
  /** The fees of completed payouts. */
  payoutFeesCents: number;
  /** What succeeded refunds gave back to customers. */
  refundsCents: number;
  /** Payouts the bank gave back, credited again (and any other movement of the balance). */
  returnsCents: number;
}

/** `GET /api/v1/payouts/balance`'s query: `include=breakdown` adds what made the balance. */
export const balanceQuery = z.strictObject({
  include: optional(z.literal('breakdown', { error: 'must be breakdown' }).meta({ description: 'breakdown: add what made the balance, apart (a sum over the journal)', example: 'breakdown' })),
});

/** An operator credit: money arriving from outside into the available balance. */
export const creditInput = z.strictObject({
  amountCents: z.number().int('must be a whole number').positive('must be greater than 0').max(1e13, 'must be at most 10000000000000'),
  memo: optional(z.string().max(500, 'must be at most 500 characters')),
});
export type CreditInput = z.output<typeof creditInput>;

const cents = (description: string, example: number) =>
  z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).meta({ format: 'int64', description, example });

/** The public JSON shape of a balance (spec "Balance"). */
export const balanceJsonSchema = z
  .object({
    merchant_id: z.uuid(),
    balance_cents: cents('Total balance for payouts', 100000),
    reserved_cents: cents('Reserved for pending, approved and processing payouts and pending refunds', 25500),
    totals: z
      .object({
        gross_cents: cents('All credits', 100000),
        fees_cents: cents('Payment fees and fees of completed payouts', 500),
        withdrawals_cents: cents('amount_cents of completed payouts', 25000),
        refunds_cents: cents('amount_cents of succeeded refunds', 0),
        returned_cents: cents('amount_cents of completed payouts the bank gave back (their fees stay): balance_cents = gross - fees - withdrawals - refunds + returned', 0),
      })
      .strict(),
    available_cents: cents('balance_cents - reserved_cents', 74500),
    currency: z.literal('ZAR'),
    breakdown: z
      .optional(
      z.object({
        payments_cents: cents('Captured payments credited to the balance (auto top-up), at their full amount', 98000),
        payment_fees_cents: cents('The fees of those payments', 2500),
        credits_cents: cents('Operator credits: money put in from outside (a top-up), not a sale', 2000),
        payouts_cents: cents('What completed payouts sent to the bank (their amount_cents)', 25000),
        payout_fees_cents: cents('The fees of completed payouts', 500),
        refunds_cents: cents('What succeeded refunds gave back to customers', 0),
        returns_cents: cents('Payouts the bank gave back, credited to the balance again', 0),
      })
      .strict()
      .meta({
        description:
          'With `include=breakdown` only: what made balance_cents, apart, for a bookkeeper to check: payments_cents − payment_fees_cents + credits_cents − payouts_cents − payout_fees_cents − refunds_cents + returns_cents = balance_cents. Summed from the ledger\'s journal, in the same snapshot as the balance.',
      }),
      ),
  })
  .strict()
  .meta({ id: 'Balance' });

/** A balance's JSON; with its breakdown when one is given (`include=breakdown`). */
export function balanceJson(b: Balance, d?: BalanceBreakdown): z.input<typeof balanceJsonSchema> {
  return {
    merchant_id: b.merchantId,
    balance_cents: b.balanceCents,
    reserved_cents: b.reservedCents,
    totals: {
      gross_cents: b.totals.grossCents,
      fees_cents: b.totals.feesCents,
      withdrawals_cents: b.totals.withdrawalsCents,
      refunds_cents: b.totals.refundsCents,
      returned_cents: b.totals.returnedCents,
    },
    available_cents: b.availableCents,
    currency: 'ZAR',
    ...(d && { breakdown: {
      payments_cents: d.paymentsCents,
      payment_fees_cents: d.paymentFeesCents,
      credits_cents: d.creditsCents,
      payouts_cents: d.payoutsCents,
      payout_fees_cents: d.payoutFeesCents,
      refunds_cents: d.refundsCents,
      returns_cents: d.returnsCents,
    } }),
  };
}
