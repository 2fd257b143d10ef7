import { formatRand } from './money.ts';

/** The customer's confirmation of a captured payment (spec: `customer_info` "used for confirmation e-mail"). */
export interface ConfirmationFacts {
  paymentId: string;
  merchantName: string;
  amountCents: number;
  merchantOrderId: string;
  intentType: 'purchase' | 'purchase_and_redeem';
  description: string | null;
  /** Shown for `purchase` only: a `purchase_and_redeem` voucher was redeemed at capture. */
  voucherCode: string | null;
  paidAt: Date;
}

export interface RenderedEmail {
  subject: string;
  text: string;
}

/** Header values come from merchants: no line breaks may reach a header. */
const oneLine = (s: string) => s.replace(/[\r\n\t]+/g, ' ').trim();

/** Plain text, so it reads the same in every client and carries nothing a client could run. */
export function confirmationEmail(f: ConfirmationFacts): RenderedEmail {
  const amount = formatRand(f.amountCents);
  const merchant = oneLine(f.merchantName);
  const lines = [
    `Thank you for your payment to ${merchant}.`,
    '',
    `Amount paid: ${amount}`,
    `Order: ${oneLine(f.merchantOrderId)}`,
    ...(f.description ? [`For: ${oneLine(f.description)}`] : []),
    `Paid at: ${f.paidAt.toISOString().replace('T', ' ').slice(0, 16)} UTC`,
    `Payment reference: ${f.paymentId}`,
  ];
  if (f.intentType === 'purchase' && f.voucherCode) {
    lines.push('', `Your voucher code: ${f.voucherCode}`, 'Keep this code: you need it to use your voucher. Anyone who has it can use it.');
  } else if (f.intentType === 'purchase_and_redeem') {
    lines.push('', `Your voucher has been redeemed with ${merchant}.`);
  }
  lines.push('', `If you did not make this payment, contact ${merchant} and quote the payment reference.`);
  return { subject: oneLine(`Your payment of ${amount} to ${merchant}`).slice(0, 200), text: lines.join('\n') + '\n' };
}

/** What a payment request says (CONTRACT §11): who asks, how much, for what, and where to pay. */
export interface PaymentRequestFacts {
  merchantName: string;
  amountCents: number;
  description: string | null;
  merchantOrderId: string;
  paymentUrl: string;
}

/** The request in plain text: the payment page's address is the one link in it. */
export function paymentRequestEmail(f: PaymentRequestFacts): RenderedEmail {
  const amount = formatRand(f.amountCents);
  const merchant = oneLine(f.merchantName);
  const lines = [
    `${merchant} asks you to pay ${amount}${f.description ? ` for ${oneLine(f.description)}` : ''}.`,
    '',
    `Pay here: ${f.paymentUrl}`,
    '',
    `Order: ${oneLine(f.merchantOrderId)}`,
    `If you were not expecting this request, do not pay it: contact ${merchant}.`,
  ];
  return { subject: oneLine(`${merchant} asks you to pay ${amount}`).slice(0, 200), text: lines.join('\n') + '\n' };
}
