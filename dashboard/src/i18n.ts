import { useEffect, useState } from 'preact/hooks';

/**
 * The dashboard's words in English, Afrikaans and isiZulu (CONTRACT §11: the `language` control),
 * in the hosted payment page's tone: the shell (menu, sign-in and -out), the invite, forgotten
 * password and second-factor screens. The language is the person's own (stored with them, read
 * at sign-in), and kept in this browser too, so the sign-in page already speaks it.
 */

export const LANGUAGES = ['en', 'af', 'zu'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Each language named in itself, for the switcher. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', af: 'Afrikaans', zu: 'isiZulu' };

/**
 * The Links screen's words (payment links, the payment request form, the share controls), kept in
 * a block of their own and spread into each language below.
 */
const linksEn = {
  'links.title': 'Payment links',
  'links.caption': '{count} payment links, newest first',
  'links.col.description': 'Description',
  'links.col.amount': 'Amount',
  'links.col.payments': 'Payments',
  'links.col.captured': 'Captured',
  'links.col.state': 'State',
  'links.col.switch': 'Switch',
  'links.col.share': 'Share',
  'links.empty': 'No payment links yet.',
  'links.singleUse': 'single use',
  'links.typed': 'customer types it',
  'links.on': 'on',
  'links.off': 'off',
  'links.switchOff': 'Switch off',
  'links.switchOn': 'Switch on',
  'links.shareRow': 'Share',
  'links.shareRowLabel': 'Share {description}',
  'links.new': 'New payment link',
  'links.description': 'What the customer pays for',
  'links.amount': 'Amount in rand, such as 150,00 (leave empty: the customer types it)',
  'links.singleUseLabel': 'Single use: closes once it is paid',
  'links.create': 'Create link',
  'links.made': 'Link made for “{description}” ({amount}). Share it:',
  'links.madeTyped': 'the customer types the amount',
  'links.badAmount': 'The amount is not valid',
  'links.badAmountHelp': 'write it in rand, such as 100,50 or 100.50, or leave it empty',
  'links.payText': 'Pay {description}:',
  'request.title': 'Request a payment by e-mail',
  'request.amount': 'Amount in rand, such as 450,00',
  'request.description': 'What it is for',
  'request.email': "The customer's e-mail address",
  'request.submit': 'Send the request',
  'request.sent': 'A request for {amount} ({description}) is on its way to {email}. Its payment page:',
  'request.badAmountHelp': 'write it in rand, such as 450,00 or 450.00',
  'request.page': 'the payment page',
  'share.copy': 'Copy',
  'share.copied': 'Copied.',
  'share.noCopy': 'Could not copy here: select the address and copy it.',
  'share.qr': 'QR code of {title}',
  'share.whatsapp': 'Share on WhatsApp',
  'share.download': 'Download the QR code (PNG)',
};
type LinksKey = keyof typeof linksEn;

const linksAf: Record<LinksKey, string> = {
  'links.title': 'Betaalskakels',
  'links.caption': '{count} betaalskakels, nuutste eerste',
  'links.col.description': 'Beskrywing',
  'links.col.amount': 'Bedrag',
  'links.col.payments': 'Betalings',
  'links.col.captured': 'Ontvang',
  'links.col.state': 'Stand',
  'links.col.switch': 'Aan of af',
  'links.col.share': 'Deel',
  'links.empty': 'Nog geen betaalskakels nie.',
  'links.singleUse': 'eenmalig',
  'links.typed': 'die klant tik dit in',
  'links.on': 'aan',
  'links.off': 'af',
  'links.switchOff': 'Skakel af',
  'links.switchOn': 'Skakel aan',
  'links.shareRow': 'Deel',
  'links.shareRowLabel': 'Deel {description}',
  'links.new': 'Nuwe betaalskakel',
  'links.description': 'Waarvoor die klant betaal',
  'links.amount': 'Bedrag in rand, soos 150,00 (laat leeg: die klant tik dit in)',
  'links.singleUseLabel': 'Eenmalig: sluit sodra dit betaal is',
  'links.create': 'Maak die skakel',
  'links.made': 'Skakel gemaak vir “{description}” ({amount}). Deel dit:',
  'links.madeTyped': 'die klant tik die bedrag in',
  'links.badAmount': 'Die bedrag is nie geldig nie',
  'links.badAmountHelp': 'skryf dit in rand, soos 100,50 of 100.50, of laat dit leeg',
  'links.payText': 'Betaal {description}:',
  'request.title': 'Vra per e-pos vir ’n betaling',
  'request.amount': 'Bedrag in rand, soos 450,00',
  'request.description': 'Waarvoor dit is',
  'request.email': 'Die klant se e-posadres',
  'request.submit': 'Stuur die versoek',
  'request.sent': '’n Versoek vir {amount} ({description}) is op pad na {email}. Die betaalblad:',
  'request.badAmountHelp': 'skryf dit in rand, soos 450,00 of 450.00',
  'request.page': 'die betaalblad',
  'share.copy': 'Kopieer',
  'share.copied': 'Gekopieer.',
  'share.noCopy': 'Kan nie hier kopieer nie: kies die adres en kopieer dit.',
  'share.qr': 'QR-kode van {title}',
  'share.whatsapp': 'Deel op WhatsApp',
  'share.download': 'Laai die QR-kode af (PNG)',
};

const linksZu: Record<LinksKey, string> = {
  'links.title': 'Izixhumanisi zokukhokha',
  'links.caption': 'Izixhumanisi zokukhokha ezingu-{count}, ezintsha kuqala',
  'links.col.description': 'Incazelo',
  'links.col.amount': 'Inani',
  'links.col.payments': 'Izinkokhelo',
  'links.col.captured': 'Okutholakele',
  'links.col.state': 'Isimo',
  'links.col.switch': 'Vula noma vala',
  'links.col.share': 'Yabelana',
  'links.empty': 'Azikho izixhumanisi zokukhokha okwamanje.',
  'links.singleUse': 'esisetshenziswa kanye',
  'links.typed': 'ikhasimende liyalibhala',
  'links.on': 'kuvuliwe',
  'links.off': 'kuvaliwe',
  'links.switchOff': 'Vala',
  'links.switchOn': 'Vula',
  'links.shareRow': 'Yabelana',
  'links.shareRowLabel': 'Yabelana ngo-{description}',
  'links.new': 'Isixhumanisi esisha sokukhokha',
  'links.description': 'Lokho ikhasimende elikhokhela khona',
  'links.amount': 'Inani ngama-rand, njengo-150,00 (shiya kungabhalwanga lutho: ikhasimende liyalibhala)',
  'links.singleUseLabel': 'Esisetshenziswa kanye: siyavalwa uma sesikhokhiwe',
  'links.create': 'Dala isixhumanisi',
  'links.made': 'Isixhumanisi senzelwe “{description}” ({amount}). Yabelana ngaso:',
  'links.madeTyped': 'ikhasimende libhala inani',
  'links.badAmount': 'Inani alilungile',
  'links.badAmountHelp': 'libhale ngama-rand, njengo-100,50 noma 100.50, noma ulishiye lingabhalwanga',
  'links.payText': 'Khokhela {description}:',
  'request.title': 'Cela inkokhelo nge-imeyili',
  'request.amount': 'Inani ngama-rand, njengo-450,00',
  'request.description': 'Okwenzelwe khona',
  'request.email': 'Ikheli le-imeyili lekhasimende',
  'request.submit': 'Thumela isicelo',
  'request.sent': 'Isicelo sika-{amount} ({description}) sisendleleni eya ku-{email}. Ikhasi lokukhokha:',
  'request.badAmountHelp': 'libhale ngama-rand, njengo-450,00 noma 450.00',
  'request.page': 'ikhasi lokukhokha',
  'share.copy': 'Kopisha',
  'share.copied': 'Kukopishiwe.',
  'share.noCopy': 'Akukwazi ukukopisha lapha: khetha ikheli bese ulikopisha.',
  'share.qr': 'Ikhodi ye-QR ka-{title}',
  'share.whatsapp': 'Yabelana ku-WhatsApp',
  'share.download': 'Landa ikhodi ye-QR (PNG)',
};

const en = {
  ...linksEn,
  'nav.balance': 'Balance',
  'nav.payments': 'Payments',
  'nav.links': 'Links',
  'nav.payouts': 'Payouts',
  'nav.webhooks': 'Webhooks',
  'nav.keys': 'API keys',
  'nav.statements': 'Statements',
  'nav.people': 'People',
  'nav.account': 'Security',
  'nav.menu': 'Dashboard',
  'nav.open': 'Menu',
  skip: 'Skip to content',
  signOut: 'Sign out',
  language: 'Language',
  loading: 'Loading…',
  'login.title': 'Sign in to zarpay',
  'login.email': 'E-mail address',
  'login.password': 'Password',
  'login.submit': 'Sign in',
  'login.forgot': 'Forgot your password?',
  'login.noReset': 'Forgot your password? Resetting it by e-mail is not set up here: ask an owner of your merchant, or the operator.',
  'code.title': 'Your authenticator code',
  'code.label': 'The 6-digit code from your authenticator app, or a recovery code',
  'code.submit': 'Verify and sign in',
  'setup.title': 'Set up your second factor',
  'setup.help': 'Your merchant asks everyone for a second factor. Scan this QR code with an authenticator app, then type the 6-digit code it shows.',
  'setup.secret': 'Or type this key into the app:',
  'setup.qr': 'QR code to scan with an authenticator app',
  'setup.submit': 'Confirm',
  'recovery.title': 'Your recovery codes',
  'recovery.help': 'Each code works once instead of the app (if you lose your phone). They are shown only now: keep them somewhere safe.',
  'recovery.continue': 'I have kept them: continue',
  'invite.title': 'Join {merchant} on zarpay',
  'invite.for': '{merchant} invited you as {role}. You will sign in as {email}. The link works once, until {until}.',
  'invite.password': 'New password (at least 12 characters)',
  'invite.submit': 'Set password and sign in',
  'invite.dead': 'This invite no longer works',
  'invite.used': 'This invite link has been used already: it works once.',
  'invite.expired': 'This invite link has expired: it works for 72 hours.',
  'invite.unknown': 'This invite link is not valid.',
  'invite.signIn': 'If you set your password already, sign in. Otherwise ask an owner of the merchant for a new invite.',
  'invite.heading': 'Your invite',
  'forgot.title': 'Forgot your password?',
  'forgot.help': 'Type the e-mail address you sign in with. We e-mail you a link that sets a new password (it works for an hour, once).',
  'forgot.submit': 'E-mail me a link',
  'forgot.sent': 'If that address signs in to zarpay, a link is on its way. Check your e-mail.',
  'forgot.back': 'Back to sign-in',
  'reset.title': 'Choose a new password',
  'reset.submit': 'Set new password',
  'reset.done': 'Your password is set, and every other session has been signed out. Sign in with the new password.',
  'account.title': 'Security',
  'account.on': 'Sign-in asks for a code from your authenticator app. Recovery codes left: {left}.',
  'account.off': 'Sign-in asks for your password only. Add a second factor: a code from an authenticator app on your phone.',
  'account.start': 'Set up a second factor',
  'account.remove': 'Remove the second factor',
  'account.removeCode': 'A code from the app, or a recovery code, to remove it',
  'account.required': 'Everyone on this merchant must have a second factor.',
  'account.require': 'Demand a second factor of everyone on this merchant',
  'account.requireHelp': 'People without one are signed out, and set one up after their password at the next sign-in.',
  'account.stopRequiring': 'Stop demanding a second factor',
};
export type MessageKey = keyof typeof en;

const af: Record<MessageKey, string> = {
  ...linksAf,
  'nav.balance': 'Saldo',
  'nav.payments': 'Betalings',
  'nav.links': 'Betaalskakels',
  'nav.payouts': 'Uitbetalings',
  'nav.webhooks': 'Webhooks',
  'nav.keys': 'API-sleutels',
  'nav.statements': 'State',
  'nav.people': 'Mense',
  'nav.account': 'Sekuriteit',
  'nav.menu': 'Paneelbord',
  'nav.open': 'Kieslys',
  skip: 'Slaan oor na die inhoud',
  signOut: 'Meld af',
  language: 'Taal',
  loading: 'Laai tans…',
  'login.title': 'Meld aan by zarpay',
  'login.email': 'E-posadres',
  'login.password': 'Wagwoord',
  'login.submit': 'Meld aan',
  'login.forgot': 'Wagwoord vergeet?',
  'login.noReset': "Wagwoord vergeet? Om dit per e-pos te herstel is nie hier opgestel nie: vra 'n eienaar van jou handelaar, of die operateur.",
  'code.title': 'Jou verifikasiekode',
  'code.label': "Die 6-syferkode van jou verifikasie-app, of 'n herstelkode",
  'code.submit': 'Verifieer en meld aan',
  'setup.title': "Stel jou tweede faktor op",
  'setup.help': "Jou handelaar vra almal vir 'n tweede faktor. Skandeer hierdie QR-kode met 'n verifikasie-app en tik dan die 6-syferkode wat dit wys.",
  'setup.secret': 'Of tik hierdie sleutel in die app:',
  'setup.qr': "QR-kode om met 'n verifikasie-app te skandeer",
  'setup.submit': 'Bevestig',
  'recovery.title': 'Jou herstelkodes',
  'recovery.help': "Elke kode werk een keer in plaas van die app (as jy jou foon verloor). Hulle word net nou gewys: hou hulle op 'n veilige plek.",
  'recovery.continue': 'Ek het hulle gebêre: gaan voort',
  'invite.title': 'Sluit aan by {merchant} op zarpay',
  'invite.for': '{merchant} het jou as {role} genooi. Jy meld aan as {email}. Die skakel werk een keer, tot {until}.',
  'invite.password': 'Nuwe wagwoord (minstens 12 karakters)',
  'invite.submit': 'Stel wagwoord en meld aan',
  'invite.dead': 'Hierdie uitnodiging werk nie meer nie',
  'invite.used': 'Hierdie uitnodigingskakel is reeds gebruik: dit werk een keer.',
  'invite.expired': 'Hierdie uitnodigingskakel het verval: dit werk vir 72 uur.',
  'invite.unknown': 'Hierdie uitnodigingskakel is nie geldig nie.',
  'invite.signIn': "As jy reeds jou wagwoord gestel het, meld aan. Vra andersins 'n eienaar van die handelaar vir 'n nuwe uitnodiging.",
  'invite.heading': 'Jou uitnodiging',
  'forgot.title': 'Wagwoord vergeet?',
  'forgot.help': "Tik die e-posadres waarmee jy aanmeld. Ons e-pos vir jou 'n skakel wat 'n nuwe wagwoord stel (dit werk vir een uur, een keer).",
  'forgot.submit': "E-pos vir my 'n skakel",
  'forgot.sent': "As daardie adres by zarpay aanmeld, is 'n skakel op pad. Kyk in jou e-pos.",
  'forgot.back': 'Terug na aanmelding',
  'reset.title': "Kies 'n nuwe wagwoord",
  'reset.submit': 'Stel nuwe wagwoord',
  'reset.done': 'Jou wagwoord is gestel, en elke ander sessie is afgemeld. Meld aan met die nuwe wagwoord.',
  'account.title': 'Sekuriteit',
  'account.on': "Aanmelding vra 'n kode van jou verifikasie-app. Herstelkodes oor: {left}.",
  'account.off': "Aanmelding vra net jou wagwoord. Voeg 'n tweede faktor by: 'n kode van 'n verifikasie-app op jou foon.",
  'account.start': "Stel 'n tweede faktor op",
  'account.remove': 'Verwyder die tweede faktor',
  'account.removeCode': "'n Kode van die app, of 'n herstelkode, om dit te verwyder",
  'account.required': "Almal by hierdie handelaar moet 'n tweede faktor hê.",
  'account.require': "Vereis 'n tweede faktor van almal by hierdie handelaar",
  'account.requireHelp': 'Mense sonder een word afgemeld en stel een op ná hul wagwoord by die volgende aanmelding.',
  'account.stopRequiring': "Hou op om 'n tweede faktor te vereis",
};

const zu: Record<MessageKey, string> = {
  ...linksZu,
  'nav.balance': 'Ibhalansi',
  'nav.payments': 'Izinkokhelo',
  'nav.links': 'Izixhumanisi',
  'nav.payouts': 'Izinkokhelo eziphumayo',
  'nav.webhooks': 'Ama-webhook',
  'nav.keys': 'Okhiye be-API',
  'nav.statements': 'Izitatimende',
  'nav.people': 'Abantu',
  'nav.account': 'Ukuphepha',
  'nav.menu': 'Ideshibhodi',
  'nav.open': 'Imenyu',
  skip: 'Yeqela kokuqukethwe',
  signOut: 'Phuma',
  language: 'Ulimi',
  loading: 'Iyalayisha…',
  'login.title': 'Ngena ku-zarpay',
  'login.email': 'Ikheli le-imeyili',
  'login.password': 'Iphasiwedi',
  'login.submit': 'Ngena',
  'login.forgot': 'Ukhohlwe iphasiwedi?',
  'login.noReset': 'Ukhohlwe iphasiwedi? Ukuyisetha kabusha nge-imeyili akuhlelwanga lapha: buza umnikazi womthengisi wakho, noma u-opharetha.',
  'code.title': 'Ikhodi yakho yokuqinisekisa',
  'code.label': 'Ikhodi yezinombolo ezi-6 evela ku-app yakho yokuqinisekisa, noma ikhodi yokubuyisela',
  'code.submit': 'Qinisekisa bese ungena',
  'setup.title': 'Hlela isici sakho sesibili',
  'setup.help': 'Umthengisi wakho ucela wonke umuntu isici sesibili. Skena le khodi ye-QR nge-app yokuqinisekisa, bese uthayipha ikhodi yezinombolo ezi-6 ekhonjiswayo.',
  'setup.secret': 'Noma thayipha lo khiye ku-app:',
  'setup.qr': 'Ikhodi ye-QR yokuskena nge-app yokuqinisekisa',
  'setup.submit': 'Qinisekisa',
  'recovery.title': 'Amakhodi akho okubuyisela',
  'recovery.help': 'Ikhodi ngayinye isebenza kanye esikhundleni se-app (uma ulahlekelwa yifoni). Akhonjiswa manje kuphela: wagcine endaweni ephephile.',
  'recovery.continue': 'Sengiwagcinile: qhubeka',
  'invite.title': 'Joyina u-{merchant} ku-zarpay',
  'invite.for': 'U-{merchant} ukumeme njengo-{role}. Uzongena njengo-{email}. Isixhumanisi sisebenza kanye, kuze kube ngu-{until}.',
  'invite.password': 'Iphasiwedi entsha (okungenani izinhlamvu ezi-12)',
  'invite.submit': 'Setha iphasiwedi bese ungena',
  'invite.dead': 'Lesi simemo asisasebenzi',
  'invite.used': 'Lesi sixhumanisi sesimemo sesivele sisetshenzisiwe: sisebenza kanye.',
  'invite.expired': 'Lesi sixhumanisi sesimemo siphelelwe yisikhathi: sisebenza amahora angu-72.',
  'invite.unknown': 'Lesi sixhumanisi sesimemo asivumelekile.',
  'invite.signIn': 'Uma usuyisethile iphasiwedi yakho, ngena. Uma kungenjalo cela umnikazi womthengisi isimemo esisha.',
  'invite.heading': 'Isimemo sakho',
  'forgot.title': 'Ukhohlwe iphasiwedi?',
  'forgot.help': 'Thayipha ikheli le-imeyili ongena ngalo. Sizokuthumelela isixhumanisi esisetha iphasiwedi entsha (sisebenza ihora elilodwa, kanye).',
  'forgot.submit': 'Ngithumelele isixhumanisi',
  'forgot.sent': 'Uma lelo kheli lingena ku-zarpay, isixhumanisi sisendleleni. Hlola i-imeyili yakho.',
  'forgot.back': 'Buyela ekungeneni',
  'reset.title': 'Khetha iphasiwedi entsha',
  'reset.submit': 'Setha iphasiwedi entsha',
  'reset.done': 'Iphasiwedi yakho isethiwe, futhi zonke ezinye izikhathi ziphumile. Ngena ngephasiwedi entsha.',
  'account.title': 'Ukuphepha',
  'account.on': 'Ukungena kucela ikhodi evela ku-app yakho yokuqinisekisa. Amakhodi okubuyisela asele: {left}.',
  'account.off': 'Ukungena kucela iphasiwedi yakho kuphela. Engeza isici sesibili: ikhodi evela ku-app yokuqinisekisa efonini yakho.',
  'account.start': 'Hlela isici sesibili',
  'account.remove': 'Susa isici sesibili',
  'account.removeCode': 'Ikhodi evela ku-app, noma ikhodi yokubuyisela, ukuze usisuse',
  'account.required': 'Wonke umuntu kulo mthengisi kumele abe nesici sesibili.',
  'account.require': 'Funa isici sesibili kubo bonke abantu balo mthengisi',
  'account.requireHelp': 'Abantu abangenaso bayaphuma, futhi basihlele ngemuva kwephasiwedi yabo lapho bengena ngokulandelayo.',
  'account.stopRequiring': 'Yeka ukufuna isici sesibili',
};

const MESSAGES: Record<Language, Record<MessageKey, string>> = { en, af, zu };
const STORED = 'zarpay.language';

const isLanguage = (v: unknown): v is Language => typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v);

function stored(): Language {
  try {
    const v = localStorage.getItem(STORED);
    return isLanguage(v) ? v : 'en';
  } catch {
    return 'en';
  }
}

let current: Language = typeof localStorage === 'undefined' ? 'en' : stored();
const listeners = new Set<(l: Language) => void>();

/** Switches the dashboard's language: the words, `<html lang>`, and this browser's memory of it. */
export function switchLanguage(language: string | null | undefined) {
  const next = typeof language === 'string' ? language.toLowerCase() : '';
  if (!isLanguage(next)) return;
  current = next;
  document.documentElement.lang = next;
  try {
    localStorage.setItem(STORED, next);
  } catch {
    // A browser that keeps nothing: the person's stored language still applies at sign-in.
  }
  for (const l of listeners) l(next);
}

/** The current language; the component renders again when it changes. */
export function useLanguage(): Language {
  const [language, setLanguage] = useState(current);
  useEffect(() => {
    listeners.add(setLanguage);
    document.documentElement.lang = current;
    return () => void listeners.delete(setLanguage);
  }, []);
  return language;
}

/** A text in the current language, its `{name}` places filled in. */
export function t(key: MessageKey, vars: Record<string, string | number> = {}): string {
  return MESSAGES[current][key].replace(/\{(\w+)\}/g, (_, name: string) => String(vars[name] ?? ''));
}
