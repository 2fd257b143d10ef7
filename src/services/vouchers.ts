import { randomInt } from 'node:crypto';
import type { StoredPayment } from '../db/payments.ts';
import type { Payment } from '../domain/payment.ts';
import type { Keyring } from '../domain/sealing.ts';

/** 16 random digits in groups of four: easy to read out or type in at a till. */
export function newVoucherCode(): string {
  const digits = Array.from({ length: 16 }, () => randomInt(10)).join('');
  return digits.match(/.{4}/g)!.join('-');
}

/** A stored payment with its voucher code opened (the code is sealed at rest). */
export function revealed(keyring: Keyring, { voucherSealed, ...payment }: StoredPayment): Payment {
  return { ...payment, voucherCode: voucherSealed ? keyring.open('voucher-code', payment.id, voucherSealed) : null };
}
