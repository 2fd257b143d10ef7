/** Money is an integer number of cents end to end; these helpers keep it that way. */

/** `R 123.45`, as the hosted page shows an amount. */
export function formatRand(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const rands = Math.floor(abs / 100);
  return `${sign}R ${rands}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * The payment fee of CONTRACT §4: round(amount × bps / 10000) + fixed, in integer arithmetic.
 * The initiation statement computes the same expression in SQL from the merchant's row as it
 * commits (db/payments.ts, `PAYMENT_FEE_SQL`); a test holds the two to each other.
 */
export function paymentFee(amountCents: number, feeBps: number, fixedCents: number): number {
  // Round half up without floats: (a*b + 5000) / 10000, floored.
  const proportional = Math.floor((amountCents * feeBps + 5000) / 10000);
  return proportional + fixedCents;
}
