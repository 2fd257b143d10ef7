import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { keysWords } from './words/keys.ts';
import { linksWords } from './words/links.ts';
import { paymentWords } from './words/payment.ts';
import { payoutWords } from './words/payout.ts';
import { payoutsWords } from './words/payouts.ts';
import { peopleWords } from './words/people.ts';
import { refundsWords } from './words/refunds.ts';
import { statementsWords } from './words/statements.ts';
import { sharedWords } from './words/shared.ts';
import { webhooksWords } from './words/webhooks.ts';

/**
 * The dashboard's words in English, Afrikaans and isiZulu (CONTRACT §11: the `language` control),
 * in the hosted payment page's tone, for every screen. Here: the shell (menu, sign-in and -out,
 * paging, loading), the invite, forgotten password, second-factor and Security screens, Balance and
 * Payments; each other screen's words, and those ui.tsx shares, are a block of their own in
 * `words/<screen>.ts`, spread into each language below. The language is the person's own (stored
 * with them, read at sign-in), and kept in this browser too, so the sign-in page already speaks it.
 */

export const LANGUAGES = ['en', 'af', 'zu'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Each language named in itself, for the switcher. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', af: 'Afrikaans', zu: 'isiZulu' };

const en = {
  ...linksWords.en,
  ...sharedWords.en,
  ...paymentWords.en,
  ...payoutWords.en,
  ...payoutsWords.en,
  ...refundsWords.en,
  ...webhooksWords.en,
  ...keysWords.en,
  ...statementsWords.en,
  ...peopleWords.en,
  'nav.balance': 'Balance',
  'nav.payments': 'Payments',
  'nav.links': 'Links',
  'nav.refunds': 'Refunds',
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
  loadFailed: 'Could not load this: {message}',
  'pager.previous': 'Previous page',
  'pager.next': 'Next page',
  'pager.page': 'Page {number}',
  'pager.of': 'Pages of {what}',
  'balance.available': 'Available',
  'balance.availableWhy': 'What you can pay out or refund now: the balance less what is reserved.',
  'balance.reserved': 'Reserved',
  'balance.reservedWhy': 'Held for payouts not yet paid and refunds not yet done; still part of the balance.',
  'balance.total': 'Balance',
  'balance.totalWhy': 'Everything below added up: available plus reserved.',
  'balance.addsUp': 'How the balance adds up',
  'balance.payments': 'Payments in',
  'balance.paymentsWhy': "Customers' captured payments, at their full amount.",
  'balance.paymentFees': 'Payment fees',
  'balance.paymentFeesWhy': "zarpay's fees on those payments.",
  'balance.credits': 'Top-ups',
  'balance.creditsWhy': 'Money your account manager put in: not a sale.',
  'balance.refunds': 'Refunds',
  'balance.refundsWhy': 'Given back to customers (refunds that went through).',
  'balance.payouts': 'Paid out',
  'balance.payoutsWhy': 'Sent to your bank account by completed payouts.',
  'balance.payoutFees': 'Payout fees',
  'balance.payoutFeesWhy': 'The fee of each completed payout.',
  'balance.returns': 'Returned by the bank',
  'balance.returnsWhy': 'Payouts the bank sent back, credited again.',
  'payments.find': 'Find (order, amount in rand, customer e-mail)',
  'payments.placeholder': 'INV-1042, 100,50 or name@example.co.za',
  'payments.status': 'Status',
  'payments.all': 'All',
  'payments.count': '{count} payments, newest first',
  'payments.found': '{count} payments found for “{search}”, newest first',
  'payments.order': 'Order',
  'payments.amount': 'Amount',
  'payments.created': 'Created',
  'payments.notFound': 'No payment has the order reference, amount or customer e-mail “{search}”.',
  'payments.noneIn': 'No payments that are {status}.',
  'payments.none': 'No payments yet.',
  'status.created': 'created',
  'status.initiated': 'initiated',
  'status.awaiting_webhook': 'awaiting webhook',
  'status.captured': 'captured',
  'status.failed': 'failed',
  'status.cancelled': 'cancelled',
};
export type MessageKey = keyof typeof en;

const af: Record<MessageKey, string> = {
  ...linksWords.af,
  ...sharedWords.af,
  ...paymentWords.af,
  ...payoutWords.af,
  ...payoutsWords.af,
  ...refundsWords.af,
  ...webhooksWords.af,
  ...keysWords.af,
  ...statementsWords.af,
  ...peopleWords.af,
  'nav.balance': 'Saldo',
  'nav.payments': 'Betalings',
  'nav.links': 'Betaalskakels',
  'nav.refunds': 'Terugbetalings',
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
  loadFailed: 'Kon dit nie laai nie: {message}',
  'pager.previous': 'Vorige bladsy',
  'pager.next': 'Volgende bladsy',
  'pager.page': 'Bladsy {number}',
  'pager.of': 'Bladsye van {what}',
  'balance.available': 'Beskikbaar',
  'balance.availableWhy': 'Wat jy nou kan uitbetaal of terugbetaal: die saldo min wat gereserveer is.',
  'balance.reserved': 'Gereserveer',
  'balance.reservedWhy': 'Gehou vir uitbetalings wat nog nie betaal is nie en terugbetalings wat nog nie gedoen is nie; steeds deel van die saldo.',
  'balance.total': 'Saldo',
  'balance.totalWhy': 'Alles hieronder bymekaargetel: beskikbaar plus gereserveer.',
  'balance.addsUp': 'Hoe die saldo optel',
  'balance.payments': 'Betalings in',
  'balance.paymentsWhy': 'Kliënte se ontvangde betalings, teen hul volle bedrag.',
  'balance.paymentFees': 'Betalingsfooie',
  'balance.paymentFeesWhy': 'zarpay se fooie op daardie betalings.',
  'balance.credits': 'Aanvullings',
  'balance.creditsWhy': "Geld wat jou rekeningbestuurder ingesit het: nie 'n verkoping nie.",
  'balance.refunds': 'Terugbetalings',
  'balance.refundsWhy': 'Aan kliënte teruggegee (terugbetalings wat deurgegaan het).',
  'balance.payouts': 'Uitbetaal',
  'balance.payoutsWhy': 'Na jou bankrekening gestuur deur voltooide uitbetalings.',
  'balance.payoutFees': 'Uitbetalingsfooie',
  'balance.payoutFeesWhy': 'Die fooi van elke voltooide uitbetaling.',
  'balance.returns': 'Deur die bank teruggestuur',
  'balance.returnsWhy': 'Uitbetalings wat die bank teruggestuur het, weer gekrediteer.',
  'payments.find': 'Soek (bestelling, bedrag in rand, kliënt se e-pos)',
  'payments.placeholder': 'INV-1042, 100,50 of naam@voorbeeld.co.za',
  'payments.status': 'Status',
  'payments.all': 'Almal',
  'payments.count': '{count} betalings, nuutste eerste',
  'payments.found': '{count} betalings gevind vir “{search}”, nuutste eerste',
  'payments.order': 'Bestelling',
  'payments.amount': 'Bedrag',
  'payments.created': 'Geskep',
  'payments.notFound': 'Geen betaling het die bestelverwysing, bedrag of kliënt-e-pos “{search}” nie.',
  'payments.noneIn': 'Geen betalings wat {status} is nie.',
  'payments.none': 'Nog geen betalings nie.',
  'status.created': 'geskep',
  'status.initiated': 'begin',
  'status.awaiting_webhook': 'wag vir webhook',
  'status.captured': 'ontvang',
  'status.failed': 'misluk',
  'status.cancelled': 'gekanselleer',
};

const zu: Record<MessageKey, string> = {
  ...linksWords.zu,
  ...sharedWords.zu,
  ...paymentWords.zu,
  ...payoutWords.zu,
  ...payoutsWords.zu,
  ...refundsWords.zu,
  ...webhooksWords.zu,
  ...keysWords.zu,
  ...statementsWords.zu,
  ...peopleWords.zu,
  'nav.balance': 'Ibhalansi',
  'nav.payments': 'Izinkokhelo',
  'nav.links': 'Izixhumanisi',
  'nav.refunds': 'Izimbuyiselo',
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
  loadFailed: 'Akukwazanga ukulayisha lokhu: {message}',
  'pager.previous': 'Ikhasi langaphambilini',
  'pager.next': 'Ikhasi elilandelayo',
  'pager.page': 'Ikhasi {number}',
  'pager.of': 'Amakhasi: {what}',
  'balance.available': 'Okutholakalayo',
  'balance.availableWhy': 'Okungakhokhwa noma okungabuyiselwa manje: ibhalansi ngaphandle kwalokho okugodliwe.',
  'balance.reserved': 'Okugodliwe',
  'balance.reservedWhy': 'Kugcinelwe izinkokhelo eziphumayo ezingakakhokhwa nezimbuyiselo ezingakenziwa; kusayingxenye yebhalansi.',
  'balance.total': 'Ibhalansi',
  'balance.totalWhy': 'Konke okungezansi kuhlanganisiwe: okutholakalayo kanye nokugodliwe.',
  'balance.addsUp': 'Ukuthi ibhalansi ihlanganiswa kanjani',
  'balance.payments': 'Izinkokhelo ezingenayo',
  'balance.paymentsWhy': 'Izinkokhelo zamakhasimende ezamukelwe, ngenani lazo eliphelele.',
  'balance.paymentFees': 'Izimali zezinkokhelo',
  'balance.paymentFeesWhy': 'Izimali zika-zarpay kulezo zinkokhelo.',
  'balance.credits': 'Okwengeziwe',
  'balance.creditsWhy': 'Imali efakwe ngumphathi we-akhawunti yakho: akukona ukuthengisa.',
  'balance.refunds': 'Izimbuyiselo',
  'balance.refundsWhy': 'Okubuyiselwe kumakhasimende (izimbuyiselo eziphumelele).',
  'balance.payouts': 'Okukhokhiwe',
  'balance.payoutsWhy': 'Kuthunyelwe ku-akhawunti yakho yasebhange ngezinkokhelo eziphumayo eziqediwe.',
  'balance.payoutFees': 'Izimali zezinkokhelo eziphumayo',
  'balance.payoutFeesWhy': 'Imali yenkokhelo ngayinye ephumayo eqediwe.',
  'balance.returns': 'Okubuyiswe yibhange',
  'balance.returnsWhy': 'Izinkokhelo eziphumayo ezibuyiswe yibhange, zaphinde zafakwa.',
  'payments.find': 'Thola (i-oda, inani ngamarandi, i-imeyili yekhasimende)',
  'payments.placeholder': 'INV-1042, 100,50 noma igama@isibonelo.co.za',
  'payments.status': 'Isimo',
  'payments.all': 'Konke',
  'payments.count': 'Izinkokhelo ezingu-{count}, ezintsha kuqala',
  'payments.found': 'Izinkokhelo ezingu-{count} ezitholakele ku-“{search}”, ezintsha kuqala',
  'payments.order': 'I-oda',
  'payments.amount': 'Inani',
  'payments.created': 'Kwenziwe',
  'payments.notFound': 'Ayikho inkokhelo ene-oda, inani noma i-imeyili yekhasimende “{search}”.',
  'payments.noneIn': 'Azikho izinkokhelo ezithi: {status}.',
  'payments.none': 'Azikho izinkokhelo okwamanje.',
  'status.created': 'kwenziwe',
  'status.initiated': 'kuqalisiwe',
  'status.awaiting_webhook': 'kulindwe i-webhook',
  'status.captured': 'kwamukelwe',
  'status.failed': 'kuhlulekile',
  'status.cancelled': 'kukhanselwe',
};

/** Every word in every language (exported for the test that each has the same keys and `{places}`). */
export const MESSAGES: Record<Language, Record<MessageKey, string>> = { en, af, zu };
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

/**
 * A text in the current language with elements in its `{name}` places (an amount in its own
 * `<span class="money">`, say), so that each language puts them where its sentence wants them.
 */
export function tNodes(key: MessageKey, vars: Record<string, ComponentChildren>): ComponentChildren[] {
  return MESSAGES[current][key].split(/\{(\w+)\}/).map((part, i) => (i % 2 === 1 ? vars[part] : part));
}

/** Whether the dashboard has words for `key` (an enum value the API may one day answer anew has none yet). */
export const hasWords = (key: string): key is MessageKey => Object.hasOwn(MESSAGES.en, key);

/**
 * The current language as locales of South Africa, for dates: `af-ZA`, `zu-ZA`, each then `en-ZA`
 * (a browser without isiZulu's formats, such as Chromium, writes the day as South Africa does).
 */
export const locales = (): string[] => [`${current}-ZA`, 'en-ZA'];
