import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * A customer's phone number in E.164 (`+27825550123`), or null when `raw` is not one. The
 * number must be written in international form (a leading `+` and the country code: a local
 * `082…` is ambiguous once a payment crosses a border) and be a valid number by
 * libphonenumber's full metadata (Google's, kept up to date with every numbering plan).
 * Spaces, dashes, dots and brackets are allowed and dropped; an extension is refused, since
 * an SMS cannot reach one.
 */
export function toE164(raw: string): string | null {
  const text = raw.trim();
  if (!text.startsWith('+')) return null;
  const parsed = parsePhoneNumberFromString(text);
  if (!parsed || parsed.ext || !parsed.isValid()) return null;
  return parsed.number;
}

export const E164_EXAMPLE = '+27825550123';
