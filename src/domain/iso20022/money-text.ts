/** Amounts and text as ISO 20022 files carry them. */

/** Cents as the decimal amount of a file (`12345` → `123.45`). */
export function decimalAmount(cents: number): string {
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** A file's decimal amount in cents, or null when it is not a plain amount with at most two decimals. */
export function centsOf(amount: string): number | null {
  const m = /^\s*(\d{1,15})(?:\.(\d{1,2}))?\s*$/.exec(amount);
  if (!m) return null;
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

/**
 * Text in the character set banks take in payment files (the SWIFT set: letters, digits, space and
 * `/ - ? : ( ) . , ' +`): accents dropped, letters that do not decompose folded as the set allows
 * (ß → ss, æ → ae, ø → o, and their like), anything else a space, at most `max` characters.
 */
const FOLDS: Record<string, string> = { ß: 'ss', ẞ: 'SS', æ: 'ae', Æ: 'AE', ø: 'o', Ø: 'O', œ: 'oe', Œ: 'OE', đ: 'd', Đ: 'D', ł: 'l', Ł: 'L', þ: 'th', Þ: 'TH', ð: 'd', Ð: 'D', ı: 'i' };

export function swiftText(text: string, max: number, fallback: string): string {
  const clean = text
    .replace(/[ßẞæÆøØœŒđĐłŁþÞðÐı]/g, (c) => FOLDS[c]!)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9/\-?:().,'+ ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max)
    .trim();
  return clean || fallback;
}
