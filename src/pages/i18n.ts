/**
 * The hosted page's words in English, Afrikaans and isiZulu (CONTRACT §9: `?lang=en|af|zu`, else
 * `Accept-Language`). Every string the shopper reads is here; `{name}` placeholders are filled
 * in (and escaped) by the templates.
 */

export const LANGUAGES = ['en', 'af', 'zu'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language named in itself, for the switcher. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', af: 'Afrikaans', zu: 'isiZulu' };

const en = {
  title: 'Pay {merchant}',
  order: 'Order {order}',
  pay: 'Pay {amount}',
  cancel: 'Cancel',
  decline: 'Simulate a decline',
  sandbox: 'Sandbox: no real money moves.',
  method: 'Payment method: {method}',
  processing: 'Processing your payment…',
  keepOpen: 'This page updates by itself. Please keep it open.',
  captured: 'Payment successful',
  voucherIntro: 'Your voucher code:',
  voucherKeep: 'Keep this code: you need it to use your voucher.',
  redeemed: 'Your voucher has been redeemed with {merchant}. You can close this page.',
  declined: 'Payment declined',
  expired: 'This payment has expired',
  expiredNote: 'It was not finished in time. If money left your account for it, it will be refunded.',
  linkPaid: 'This link was paid already',
  linkPaidNote: 'Someone paid this one-time link just before you. Your payment is being refunded to you.',
  cancelled: 'Payment cancelled',
  notCharged: 'You have not been charged.',
  tryAgain: 'Try again',
  back: 'Back to {merchant}',
  closeAndReturn: 'You can close this page and return to {merchant}.',
  support: 'Questions about this payment? Contact {merchant}:',
  language: 'Language',
  notFoundTitle: 'Payment not found',
  notFound: 'This payment does not exist.',
  sorry: 'Sorry',
  unexpected: 'Something went wrong. Please try again.',
  tooMany: 'Too many requests from your connection. Please wait {seconds} seconds, then reload this page.',
  staleForm: 'This form is not valid any more. Go back and reload the payment page.',
  methodSandbox: 'test card (sandbox)',
  methodCard: 'card',
  methodCardVia: 'card via {provider}',
  toCheckout: 'Taking you to the secure payment page…',
  continueToCheckout: 'Continue to payment',
  backToCheckout: 'Return to the payment page',
  paidWaiting: 'If you have paid, this page shows it as soon as the payment provider confirms.',
  chooseMethod: 'How would you like to pay?',
  methodInstantEft: 'instant EFT from your bank (Ozow)',
  linkClosedTitle: 'This link is closed',
  linkClosed: '{merchant} no longer takes payments through this link.',
  linkNotFound: 'This payment link does not exist.',
  amountLabel: 'Amount (rand)',
  amountRange: 'Enter an amount from {min} to {max}.',
  amountOutside: 'The amount must be from {min} to {max}.',
  payLink: 'Pay',
};
export type MessageKey = keyof typeof en;

const af: Record<MessageKey, string> = {
  title: 'Betaal {merchant}',
  order: 'Bestelling {order}',
  pay: 'Betaal {amount}',
  cancel: 'Kanselleer',
  decline: "Simuleer 'n weiering",
  sandbox: 'Toetsomgewing: geen regte geld skuif nie.',
  method: 'Betaalmetode: {method}',
  processing: 'Jou betaling word verwerk…',
  keepOpen: 'Hierdie bladsy werk self by. Hou dit asseblief oop.',
  captured: 'Betaling suksesvol',
  voucherIntro: 'Jou koeponkode:',
  voucherKeep: 'Hou hierdie kode: jy het dit nodig om jou koepon te gebruik.',
  redeemed: 'Jou koepon is by {merchant} ingewissel. Jy kan hierdie bladsy toemaak.',
  declined: 'Betaling geweier',
  expired: 'Hierdie betaling het verval',
  expiredNote: 'Dit is nie betyds voltooi nie. As geld daarvoor van jou rekening afgegaan het, word dit terugbetaal.',
  linkPaid: 'Hierdie skakel is reeds betaal',
  linkPaidNote: "Iemand het hierdie eenmalige skakel net voor jou betaal. Jou betaling word aan jou terugbetaal.",
  cancelled: 'Betaling gekanselleer',
  notCharged: 'Jy is nie gedebiteer nie.',
  tryAgain: 'Probeer weer',
  back: 'Terug na {merchant}',
  closeAndReturn: 'Jy kan hierdie bladsy toemaak en na {merchant} terugkeer.',
  support: 'Vrae oor hierdie betaling? Kontak {merchant}:',
  language: 'Taal',
  notFoundTitle: 'Betaling nie gevind nie',
  notFound: 'Hierdie betaling bestaan nie.',
  sorry: 'Jammer',
  unexpected: 'Iets het skeefgeloop. Probeer asseblief weer.',
  tooMany: 'Te veel versoeke van jou verbinding. Wag asseblief {seconds} sekondes en laai dan hierdie bladsy weer.',
  staleForm: 'Hierdie vorm is nie meer geldig nie. Gaan terug en laai die betaalbladsy weer.',
  methodSandbox: 'toetskaart (toetsomgewing)',
  methodCard: 'kaart',
  methodCardVia: 'kaart via {provider}',
  toCheckout: 'Ons neem jou na die veilige betaalbladsy…',
  continueToCheckout: 'Gaan voort na betaling',
  backToCheckout: 'Terug na die betaalbladsy',
  paidWaiting: 'As jy betaal het, wys hierdie bladsy dit sodra die betaalverskaffer dit bevestig.',
  chooseMethod: 'Hoe wil jy betaal?',
  methodInstantEft: 'kits-EFT van jou bank (Ozow)',
  linkClosedTitle: 'Hierdie skakel is gesluit',
  linkClosed: '{merchant} neem nie meer betalings deur hierdie skakel nie.',
  linkNotFound: 'Hierdie betaalskakel bestaan nie.',
  amountLabel: 'Bedrag (rand)',
  amountRange: 'Tik \'n bedrag van {min} tot {max}.',
  amountOutside: 'Die bedrag moet van {min} tot {max} wees.',
  payLink: 'Betaal',
};

const zu: Record<MessageKey, string> = {
  title: 'Khokha ku-{merchant}',
  order: 'I-oda {order}',
  pay: 'Khokha {amount}',
  cancel: 'Khansela',
  decline: 'Lingisa ukwenqatshwa',
  sandbox: 'Indawo yokuhlola: ayikho imali yangempela edluliswayo.',
  method: 'Indlela yokukhokha: {method}',
  processing: 'Inkokhelo yakho iyacutshungulwa…',
  keepOpen: 'Leli khasi lizibuyekeza ngokwalo. Sicela ulishiye livuliwe.',
  captured: 'Inkokhelo iphumelele',
  voucherIntro: 'Ikhodi yakho ye-voucher:',
  voucherKeep: 'Gcina le khodi: uyayidinga ukuze usebenzise i-voucher yakho.',
  redeemed: 'I-voucher yakho isisetshenziswe ku-{merchant}. Ungalivala leli khasi.',
  declined: 'Inkokhelo yenqatshiwe',
  expired: 'Le nkokhelo iphelelwe yisikhathi',
  expiredNote: 'Ayiqedwanga ngesikhathi. Uma imali iphumile ku-akhawunti yakho ngenxa yayo, izobuyiselwa.',
  linkPaid: 'Lesi sixhumanisi sesikhokhelwe',
  linkPaidNote: 'Omunye ukhokhele lesi sixhumanisi sokukhokha kanye ngaphambi kwakho. Imali yakho iyabuyiselwa kuwe.',
  cancelled: 'Inkokhelo ikhanseliwe',
  notCharged: 'Awukhokhiswanga lutho.',
  tryAgain: 'Zama futhi',
  back: 'Buyela ku-{merchant}',
  closeAndReturn: 'Ungalivala leli khasi ubuyele ku-{merchant}.',
  support: 'Unemibuzo ngale nkokhelo? Xhumana no-{merchant}:',
  language: 'Ulimi',
  notFoundTitle: 'Inkokhelo ayitholakalanga',
  notFound: 'Le nkokhelo ayikho.',
  sorry: 'Uxolo',
  unexpected: 'Kukhona okungahambanga kahle. Sicela uzame futhi.',
  tooMany: 'Izicelo eziningi kakhulu ezivela oxhumanweni lwakho. Sicela ulinde imizuzwana engu-{seconds}, bese ulayisha kabusha leli khasi.',
  staleForm: 'Leli fomu alisasebenzi. Buyela emuva bese ulayisha kabusha ikhasi lokukhokha.',
  methodSandbox: 'ikhadi lokuhlola (indawo yokuhlola)',
  methodCard: 'ikhadi',
  methodCardVia: 'ikhadi nge-{provider}',
  toCheckout: 'Sikuyisa ekhasini lokukhokha elivikelekile…',
  continueToCheckout: 'Qhubeka nokukhokha',
  backToCheckout: 'Buyela ekhasini lokukhokha',
  paidWaiting: 'Uma usukhokhile, leli khasi lizokubonisa lokho ngokushesha lapho umhlinzeki wenkokhelo eqinisekisa.',
  chooseMethod: 'Ungathanda ukukhokha kanjani?',
  methodInstantEft: 'i-EFT esheshayo evela ebhange lakho (Ozow)',
  linkClosedTitle: 'Lesi sixhumanisi sivaliwe',
  linkClosed: 'U-{merchant} akasazamukeli izinkokhelo ngalesi sixhumanisi.',
  linkNotFound: 'Lesi sixhumanisi senkokhelo asikho.',
  amountLabel: 'Inani (ngama-rand)',
  amountRange: 'Faka inani kusukela ku-{min} kuya ku-{max}.',
  amountOutside: 'Inani kufanele libe kusukela ku-{min} kuya ku-{max}.',
  payLink: 'Khokha',
};

const MESSAGES: Record<Language, Record<MessageKey, string>> = { en, af, zu };

/** A translator for one language: `t('pay', { amount })`. Values are plain text (the templates escape). */
export type Translate = (key: MessageKey, values?: Record<string, string>) => string;

export function translator(lang: Language): Translate {
  const messages = MESSAGES[lang];
  return (key, values = {}) => messages[key].replace(/\{(\w+)\}/g, (_m, name: string) => values[name] ?? `{${name}}`);
}

const isLanguage = (value: unknown): value is Language => typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/**
 * The page's language: `?lang=` when it names one of ours, else the first of ours the browser
 * accepts (by q-value, `af-ZA` counting as `af`), else English.
 */
export function chooseLanguage(query: unknown, acceptLanguage: string | undefined): { lang: Language; explicit: boolean } {
  if (isLanguage(query)) return { lang: query, explicit: true };
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { base: tag.trim().toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q), i };
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  const found = ranked.find((r) => isLanguage(r.base));
  return { lang: found ? (found.base as Language) : 'en', explicit: false };
}

/** How a payment's provider is named to the shopper. */
export function methodName(provider: string, t: Translate): string {
  if (provider === 'sandbox') return t('methodSandbox');
  if (provider === 'ozow') return t('methodInstantEft');
  const named: Record<string, string> = { yoco: 'Yoco' };
  return named[provider] ? t('methodCardVia', { provider: named[provider] }) : t('methodCard');
}
