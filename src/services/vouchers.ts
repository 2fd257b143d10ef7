import { randomInt } from 'node:crypto';
import type { DbOrTx } from '../db/index.ts';
import type { StoredPayment } from '../db/payments.ts';
import { noteUnreadable } from '../db/sealed-data.ts';
import type { Payment } from '../domain/payment.ts';
import { type Keyring, kidOrUnknown, openOrNull } from '../domain/sealing.ts';

/** 16 random digits in groups of four: easy to read out or type in at a till. */
export function newVoucherCode(): string {
  const digits = Array.from({ length: 16 }, () => randomInt(10)).join('');
  return digits.match(/.{4}/g)!.join('-');
}

/** A voucher code as a viewer reads it: the last four digits, the rest `****` (null stays null). */
export function maskVoucherCode(code: string | null): string | null {
  return code === null ? null : `****-****-****-${code.slice(-4)}`;
}

/**
 * A stored payment with its voucher code opened (the code is sealed at rest). A code that will
 * not open under any data key reads as null, and is noted (`zarpay stats`, /metrics), never a
 * failed read or list: the code is not made up, and the payment's other facts stand.
 */
export function revealed(keyring: Keyring, { voucherSealed, ...payment }: StoredPayment, db?: DbOrTx): Payment {
  if (!voucherSealed) return { ...payment, voucherCode: null };
  const code = openOrNull(keyring, 'voucher-code', payment.id, voucherSealed);
  if (code === null && db) {
    // Not awaited: the read that found it goes on (and may be inside a transaction of its own).
    noteUnreadable(db, [{ purpose: 'voucher-code', id: payment.id, kid: kidOrUnknown(keyring, voucherSealed) }]).catch(() => {});
  }
  return { ...payment, voucherCode: code };
}
