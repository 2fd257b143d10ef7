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
  })
  .strict()
  .meta({ id: 'Balance' });

export function balanceJson(b: Balance): z.input<typeof balanceJsonSchema> {
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
  };
}
