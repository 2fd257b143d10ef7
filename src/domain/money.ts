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

/**
 * Rand as people type it, to cents: `100,50`, `100.50`, `R 100`, `R1 180,16`, `1 180.16`. A comma
 * or a dot before one or two final digits is the decimal mark; spaces (also non-breaking) may
 * group thousands. Null when the text is not an amount in rand (a minus sign, three decimals,
 * letters). The one parser the API's search and the dashboard's amount fields share.
 */
export function parseRand(text: string): number | null {
  const t = text.replace(/[\s\u00a0\u202f]+/g, ' ').trim();
  const m = /^(?:R ?)?(\d{1,3}(?: \d{3})+|\d+)(?:[.,](\d{1,2}))?$/i.exec(t);
  if (!m) return null;
  const cents = Number(m[1]!.replace(/ /g, '')) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}
