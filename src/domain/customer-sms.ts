import type { ConfirmationFacts } from './customer-email.ts';
import { formatRand } from './money.ts';

/** One SMS: 160 characters of the GSM 03.38 7-bit alphabet (a longer text is sent in several parts, each billed). */
export const SMS_LIMIT = 160;

// GSM 03.38's basic character set, which costs one of the 160; its extension table (^{}[]~|\€)
// costs two and is avoided here. Anything else would turn the whole message into UCS-2 (70
// characters an SMS), so merchant-supplied text is folded into this set.
const GSM_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);

/** True when every character of `text` is in GSM 03.38's basic set (one septet each). */
export function isGsm7(text: string): boolean {
  for (const ch of text) if (!GSM_BASIC.has(ch)) return false;
  return true;
}

/**
 * Merchant text on one line in GSM-7: accents the alphabet lacks are dropped from their letter
 * (é stays, ô becomes o, whether the accent is written into the letter or after it), typographic
 * quotes and dashes become their plain forms, anything else becomes `?`, as the gateway itself
 * would do.
 */
export function gsm7(text: string): string {
  const plain = text
    .normalize('NFC')
    .replace(/\p{M}/gu, '')
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/[‘’‚‛′]/g, "'")
    .replace(/[“”„‟″]/g, '"')
    .replace(/[‐‑‒–—―]/g, '-')
    .replace(/…/g, '...')
    .trim();
  let out = '';
  for (const ch of plain) {
    if (GSM_BASIC.has(ch)) out += ch;
    else {
      const base = ch.normalize('NFD').replace(/\p{M}/gu, '');
      out += [...base].every((c) => GSM_BASIC.has(c)) && base !== '' ? base : '?';
    }
  }
  return out;
}

const clip = (s: string, max: number) => (s.length <= max ? s : s.slice(0, max).trimEnd());

/**
 * Merchant text with nothing a phone would turn into a link: a URL's scheme goes, and the dots of
 * a domain name (a dot between a name and a label that begins with a letter: `evil.example`,
 * `www.evil.co.za`, `pay@evil.com`) and of an IPv4 address become spaces. The customer still
 * reads what the merchant wrote (`evil example/x`); dots that join numbers (`INV.2026.0042`) stay.
 */
export function withoutLinks(text: string): string {
  return text
    .replace(/[a-z][a-z0-9+.-]*:\/\//gi, '')
    .replace(/\b\d{1,3}(?:\.\d{1,3}){3}\b/g, (address) => address.replaceAll('.', ' '))
    .replace(/(?<=[\p{L}\p{N}])\.(?=\p{L})/gu, ' ');
}

/**
 * The customer's confirmation of a captured payment by SMS: who was paid, how much, for which
 * order, and for `purchase` the voucher code (the customer's own, which is what the message is
 * for). Never more than one SMS of GSM-7: merchant name and order are shortened to fit, the code
 * never is. No links: an SMS with a link is what phishing looks like, and the merchant's own
 * words (its name, the order id) are the only text a merchant could put one in.
 */
export function confirmationSms(f: ConfirmationFacts): string {
  const merchant = clip(withoutLinks(gsm7(f.merchantName)), 40);
  const order = clip(withoutLinks(gsm7(f.merchantOrderId)), 30);
  const head = `${merchant}: payment of ${formatRand(f.amountCents)} received, order ${order}.`;
  const tails =
    f.intentType === 'purchase' && f.voucherCode
      ? [` Voucher code: ${f.voucherCode}. Anyone with this code can use it.`, ` Voucher code: ${f.voucherCode}`]
      : f.intentType === 'purchase_and_redeem'
        ? [' Your voucher has been redeemed.', '']
        : [''];
  for (const tail of tails) if (head.length + tail.length <= SMS_LIMIT) return head + tail;
  // Only a long merchant name and order together get here: the code must still fit whole.
  const tail = tails[tails.length - 1]!;
  return `${clip(head, SMS_LIMIT - tail.length)}${tail}`;
}
