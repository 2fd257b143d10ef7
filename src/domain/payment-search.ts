import { parseRand } from './money.ts';

/**
 * What an owner types to find a payment (CONTRACT §11 `payments-search`): an order reference,
 * an amount in rand, or the customer's e-mail address. One text is read every way it can be at
 * once (`100` is both an order reference and R 100.00), and a payment matching any of them is
 * found. Each reading is an equality or a prefix the database answers from an index.
 */
export interface PaymentSearch {
  /** The order reference as typed: its payments, and those whose reference starts with it. */
  orderPrefix: string;
  /** The text as an amount in cents, when it is one. */
  amountCents: number | null;
  /** The text as an e-mail address, lower case, when it looks like one. */
  email: string | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export function paymentSearch(text: string): PaymentSearch {
  const q = text.trim();
  return {
    orderPrefix: q,
    amountCents: parseRand(q),
    email: EMAIL.test(q) ? q.toLowerCase() : null,
  };
}
