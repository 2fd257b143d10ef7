import { formatRand } from './money.ts';

/**
 * The audit log in words (CONTRACT §11, "who did what"): one sentence per entry, "thandi@… approved
 * payout 3f25… of R 250.00", from the entry's action, its actor, its target and the amount it
 * names or its payout or payment has. Every action zarpay records has its line here
 * (test/audit-words.test.ts finds every action in src/ and checks it), the dashboard's mutations
 * too (`dashboard.<mutation>`, recorded by src/graphql/roles.ts with the payout, payment or refund
 * they touched).
 */

export interface AuditFacts {
  action: string;
  actor: string;
  detail: Record<string, unknown>;
  paymentId: string | null;
  payoutId: string | null;
  /** The amount of the payout or payment the entry is about, in cents, when it has one. */
  amountCents: number | null;
}

/** The languages the log is read in: a dashboard person's own (CONTRACT §11 `language`); English for API keys and the operator. */
export type AuditLanguage = 'en' | 'af' | 'zu';

/** The words for who, in each language. */
const WHO: Readonly<Record<AuditLanguage, { removed: string; someone: string; operator: string; apiKey: string; system: string }>> = {
  en: { removed: 'a removed person', someone: 'someone', operator: 'The operator', apiKey: 'An API key', system: 'zarpay' },
  af: { removed: "'n verwyderde persoon", someone: 'iemand', operator: 'Die operateur', apiKey: "'n API-sleutel", system: 'zarpay' },
  zu: { removed: 'umuntu osusiwe', someone: 'othile', operator: 'Umphathi', apiKey: 'Ukhiye we-API', system: 'U-zarpay' },
};

/** Who an actor label names, in words; `names` gives people's e-mail addresses by person id. */
export function actorWords(actor: string, names: ReadonlyMap<string, string> = new Map(), language: AuditLanguage = 'en'): string {
  const who = WHO[language];
  const person = /\/person:([0-9a-f-]{36})$/.exec(actor)?.[1];
  if (person) return names.get(person) ?? who.removed;
  if (actor === 'operator') return who.operator;
  if (actor.startsWith('operator:')) return `${who.operator} (${actor.slice('operator:'.length)})`;
  if (actor.startsWith('merchant:')) return who.apiKey;
  if (actor.startsWith('system:')) return who.system;
  return actor;
}

const short = (id: unknown) => (typeof id === 'string' ? id.slice(0, 8) : '');
const cents = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

type Words = (f: AuditFacts, about: (personId: unknown) => string) => string;

const payout = (verb: string): Words => (f) => `${verb} payout ${short(f.payoutId)}${f.amountCents !== null ? ` of ${formatRand(f.amountCents)}` : ''}`;
const payment = (verb: string): Words => (f) => `${verb} payment ${short(f.paymentId)}${f.amountCents !== null ? ` of ${formatRand(f.amountCents)}` : ''}`;
const refund = (verb: string): Words => (f) => {
  const amount = cents(f.detail.amount_cents);
  return `${verb} ${amount !== null ? `${formatRand(amount)} of ` : ''}payment ${short(f.paymentId)}`;
};

/** Each action's words, after the actor's name. */
export const AUDIT_WORDS: Readonly<Record<string, Words>> = {
  'payout.approve': payout('approved'),
  'payout.reject': (f) => `${payout('rejected')(f, String)}${str(f.detail.reason) ? `: ${str(f.detail.reason)}` : ''}`,
  'payout.start_transfer': payout('started the bank transfer of'),
  'payout.complete': payout('completed'),
  'payout.fail': payout('marked as failed'),
  'payout.reveal_bank_account': payout('revealed the bank account of'),
  'payment.settle': (f) => `${payment('settled')(f, String)} as ${str(f.detail.outcome)}`,
  'payment.reconcile': payment('checked with the provider'),
  'payment.notify': payment('passed on the provider\'s notification of'),
  'payment.captured': payment('recorded the capture of'),
  'payment.failed': payment('recorded the failure of'),
  'payment.reopened': payment('reopened'),
  'payment.refund_owed': payment('owes the customer a refund of money that came late for'),
  'payment.expired': payment('expired unfinished'),
  'payment.notification_mismatch': payment('refused a provider notification whose amount did not match'),
  'payment.refund_requested': payment('asked the provider to refund late money of'),
  'payment.refund_failed': payment('could not get the provider to refund late money of'),
  'payment.refund_outcome_ignored': payment('ignored a repeated refund outcome of'),
  'refund.requested': refund('asked the provider to refund'),
  'refund.rekeyed': refund('asked the provider again to refund'),
  'refund.outcome_ignored': refund('ignored a repeated outcome of the refund of'),
  'refund.notification_mismatch': refund('refused a refund notification that did not match'),
  'payout_batch.export': (f) => `exported a bank file of ${Number(f.detail.payouts ?? 0)} payouts, ${formatRand(cents(f.detail.total_cents) ?? 0)}`,
  'payout_batch.file': (f) => `downloaded the bank file of batch ${short(f.detail.batch_id)}`,
  'bank_report.import': (f) => `imported a bank report: ${Number(f.detail.completed ?? 0)} completed, ${Number(f.detail.failed ?? 0)} failed, ${Number(f.detail.unmatched ?? 0)} unmatched`,
  'data_key.rotate': () => 'rotated the data key',
  'person.invite': (f, about) => `invited ${about(f.detail.person_id)} as ${str(f.detail.role)}`,
  'person.remove': (f, about) => `removed ${about(f.detail.person_id)}`,
  'person.role': (f, about) => `made ${about(f.detail.person_id)} ${str(f.detail.role)}`,
  'person.sign_in_locked': (f, about) => `locked the sign-in of ${about(f.detail.person_id)} after too many wrong passwords`,
  'person.password_reset_requested': (f, about) => `e-mailed a password reset link to ${about(f.detail.person_id)}`,
  'person.password_reset': () => 'reset their password',
  'person.second_factor_enabled': () => 'set up a second factor',
  'person.second_factor_removed': () => 'removed their second factor',
  'person.recovery_code_used': (f) => `used a recovery code (${Number(f.detail.recovery_codes_left ?? 0)} left)`,
  'payee.create': (f) => `saved the payee ${str(f.detail.name)} (${str(f.detail.bank)} ${str(f.detail.account_number_masked)})`,
  'payee.remove': (f) => `removed the payee ${str(f.detail.name)}`,
  'payout.return': (f) => `${payout('recorded the bank\'s return of')(f, String)}${str(f.detail.return_reason) ? `: ${str(f.detail.return_reason)}` : ''}`,
  'person.step_up_failed': () => 'gave a wrong password where it was asked again',
  'merchant.second_factor_required': (f) => (f.detail.required ? 'demanded a second factor of everyone' : 'stopped demanding a second factor'),
  // The dashboard's mutations, by their GraphQL names.
  'dashboard.createPayout': payout('created'),
  'dashboard.initiatePayment': payment('started'),
  'dashboard.refundPayment': refund('refunded'),
  'dashboard.issueApiKey': () => 'issued an API key',
  'dashboard.revokeApiKey': () => 'revoked an API key',
  'dashboard.regenerateSecretKey': () => 'regenerated the secret API key',
  'dashboard.createWebhookSecret': () => 'created a webhook signing secret',
  'dashboard.rotateWebhookSecret': () => 'rotated the webhook signing secret',
  'dashboard.updateWebhookUrl': (f) => (str(f.detail.url) ? `changed the webhook URL to ${str(f.detail.url)}` : 'cleared the webhook URL'),
  'dashboard.redeliverEvent': (f) => `redelivered event ${short(f.detail.event_id)}`,
  'dashboard.updateMerchantSettings': () => 'changed the merchant\'s settings',
  'dashboard.invitePerson': (f) => `invited ${str(f.detail.invited) || 'someone'}`,
  'dashboard.removePerson': () => 'removed a person',
  'dashboard.changePersonRole': () => 'changed a person\'s role',
  'dashboard.requireSecondFactor': () => 'changed whether everyone needs a second factor',
  'dashboard.setLanguage': () => 'changed their language',
  'dashboard.beginSecondFactorSetup': () => 'started setting up a second factor',
  'dashboard.confirmSecondFactorSetup': () => 'confirmed their second factor',
  'dashboard.removeSecondFactor': () => 'removed their second factor',
  'dashboard.createPaymentLink': () => 'created a payment link',
  'dashboard.updatePaymentLink': () => 'switched a payment link on or off',
  'dashboard.requestPayment': payment('e-mailed the customer a request to pay'),
  'dashboard.createPayee': () => 'saved a payee',
  'dashboard.removePayee': () => 'removed a payee',
};

const amountAf = (f: AuditFacts) => (f.amountCents !== null ? ` van ${formatRand(f.amountCents)}` : '');
/** "uitbetaling 9b2c7a10 van R 250.00", "betaling …", "R 15.00 van betaling …" (dashboard/src/words: uitbetaling, betaling, terugbetaling). */
const payoutAf = (f: AuditFacts) => `uitbetaling ${short(f.payoutId)}${amountAf(f)}`;
const paymentAf = (f: AuditFacts) => `betaling ${short(f.paymentId)}${amountAf(f)}`;
const refundAf = (f: AuditFacts) => {
  const amount = cents(f.detail.amount_cents);
  return `${amount !== null ? `${formatRand(amount)} van ` : ''}betaling ${short(f.paymentId)}`;
};
const ROLE_AF: Readonly<Record<string, string>> = { owner: 'eienaar', developer: 'ontwikkelaar', viewer: 'kyker' };
const roleAf = (v: unknown) => ROLE_AF[str(v)] ?? str(v);
/** A payment's status, as the dashboard names it (dashboard/src/i18n.ts `status.*`). */
const STATUS_AF: Readonly<Record<string, string>> = { created: 'geskep', initiated: 'begin', awaiting_webhook: 'wag vir webhook', captured: 'ontvang', failed: 'misluk', cancelled: 'gekanselleer' };
const reasonOf = (v: unknown) => (str(v) ? `: ${str(v)}` : '');

/** Each action's words in Afrikaans, after the actor's name (the same facts as the English). */
export const AUDIT_WORDS_AF: Readonly<Record<string, Words>> = {
  'payout.approve': (f) => `het ${payoutAf(f)} goedgekeur`,
  'payout.reject': (f) => `het ${payoutAf(f)} afgekeur${reasonOf(f.detail.reason)}`,
  'payout.start_transfer': (f) => `het die bankoorplasing van ${payoutAf(f)} begin`,
  'payout.complete': (f) => `het ${payoutAf(f)} voltooi`,
  'payout.fail': (f) => `het ${payoutAf(f)} as misluk gemerk`,
  'payout.reveal_bank_account': (f) => `het die bankrekening van ${payoutAf(f)} gewys`,
  'payment.settle': (f) => `het ${paymentAf(f)} as ${STATUS_AF[str(f.detail.outcome)] ?? str(f.detail.outcome)} afgehandel`,
  'payment.reconcile': (f) => `het ${paymentAf(f)} by die verskaffer nagegaan`,
  'payment.notify': (f) => `het die verskaffer se kennisgewing oor ${paymentAf(f)} deurgegee`,
  'payment.captured': (f) => `het die ontvangs van ${paymentAf(f)} aangeteken`,
  'payment.failed': (f) => `het die mislukking van ${paymentAf(f)} aangeteken`,
  'payment.reopened': (f) => `het ${paymentAf(f)} heropen`,
  'payment.refund_owed': (f) => `skuld die kliënt 'n terugbetaling van geld wat laat gekom het vir ${paymentAf(f)}`,
  'payment.expired': (f) => `het ${paymentAf(f)} onvoltooid laat verval`,
  'payment.notification_mismatch': (f) => `het 'n kennisgewing van die verskaffer geweier waarvan die bedrag nie met ${paymentAf(f)} ooreengestem het nie`,
  'payment.refund_requested': (f) => `het die verskaffer gevra om laat geld van ${paymentAf(f)} terug te betaal`,
  'payment.refund_failed': (f) => `kon nie die verskaffer kry om laat geld van ${paymentAf(f)} terug te betaal nie`,
  'payment.refund_outcome_ignored': (f) => `het 'n herhaalde terugbetalingsuitslag van ${paymentAf(f)} geïgnoreer`,
  'refund.requested': (f) => `het die verskaffer gevra om ${refundAf(f)} terug te betaal`,
  'refund.rekeyed': (f) => `het die verskaffer weer gevra om ${refundAf(f)} terug te betaal`,
  'refund.outcome_ignored': (f) => `het 'n herhaalde uitslag van die terugbetaling van ${refundAf(f)} geïgnoreer`,
  'refund.notification_mismatch': (f) => `het 'n terugbetalingskennisgewing geweier wat nie met ${refundAf(f)} ooreengestem het nie`,
  'payout_batch.export': (f) => `het 'n banklêer van ${Number(f.detail.payouts ?? 0)} uitbetalings, ${formatRand(cents(f.detail.total_cents) ?? 0)}, uitgevoer`,
  'payout_batch.file': (f) => `het die banklêer van bondel ${short(f.detail.batch_id)} afgelaai`,
  'bank_report.import': (f) => `het 'n bankverslag ingevoer: ${Number(f.detail.completed ?? 0)} voltooi, ${Number(f.detail.failed ?? 0)} misluk, ${Number(f.detail.unmatched ?? 0)} nie gepas nie`,
  'data_key.rotate': () => 'het die datasleutel vervang',
  'person.invite': (f, about) => `het ${about(f.detail.person_id)} as ${roleAf(f.detail.role)} genooi`,
  'person.remove': (f, about) => `het ${about(f.detail.person_id)} verwyder`,
  'person.role': (f, about) => `het ${about(f.detail.person_id)} ${roleAf(f.detail.role)} gemaak`,
  'person.sign_in_locked': (f, about) => `het die aanmelding van ${about(f.detail.person_id)} gesluit ná te veel verkeerde wagwoorde`,
  'person.password_reset_requested': (f, about) => `het 'n skakel om die wagwoord te herstel aan ${about(f.detail.person_id)} ge-e-pos`,
  'person.password_reset': () => 'het hul wagwoord herstel',
  'person.second_factor_enabled': () => "het 'n tweede faktor opgestel",
  'person.second_factor_removed': () => 'het hul tweede faktor verwyder',
  'person.recovery_code_used': (f) => `het 'n herstelkode gebruik (${Number(f.detail.recovery_codes_left ?? 0)} oor)`,
  'payee.create': (f) => `het die begunstigde ${str(f.detail.name)} (${str(f.detail.bank)} ${str(f.detail.account_number_masked)}) gestoor`,
  'payee.remove': (f) => `het die begunstigde ${str(f.detail.name)} verwyder`,
  'payout.return': (f) => `het die bank se terugstuur van ${payoutAf(f)} aangeteken${reasonOf(f.detail.return_reason)}`,
  'person.step_up_failed': () => "het 'n verkeerde wagwoord gegee waar dit weer gevra is",
  'merchant.second_factor_required': (f) => (f.detail.required ? "het 'n tweede faktor van almal geëis" : "het opgehou om 'n tweede faktor te eis"),
  'dashboard.createPayout': (f) => `het ${payoutAf(f)} geskep`,
  'dashboard.initiatePayment': (f) => `het ${paymentAf(f)} begin`,
  'dashboard.refundPayment': (f) => `het ${refundAf(f)} terugbetaal`,
  'dashboard.issueApiKey': () => "het 'n API-sleutel uitgereik",
  'dashboard.revokeApiKey': () => "het 'n API-sleutel herroep",
  'dashboard.regenerateSecretKey': () => "het 'n nuwe geheime API-sleutel gemaak",
  'dashboard.createWebhookSecret': () => "het 'n webhook-ondertekengeheim geskep",
  'dashboard.rotateWebhookSecret': () => 'het die webhook-ondertekengeheim vervang',
  'dashboard.updateWebhookUrl': (f) => (str(f.detail.url) ? `het die webhook-URL na ${str(f.detail.url)} verander` : 'het die webhook-URL leeggemaak'),
  'dashboard.redeliverEvent': (f) => `het gebeurtenis ${short(f.detail.event_id)} weer afgelewer`,
  'dashboard.updateMerchantSettings': () => 'het die handelaar se instellings verander',
  'dashboard.invitePerson': (f) => `het ${str(f.detail.invited) || 'iemand'} genooi`,
  'dashboard.removePerson': () => 'het iemand verwyder',
  'dashboard.changePersonRole': () => 'het iemand se rol verander',
  'dashboard.requireSecondFactor': () => "het verander of almal 'n tweede faktor nodig het",
  'dashboard.setLanguage': () => 'het hul taal verander',
  'dashboard.beginSecondFactorSetup': () => "het begin om 'n tweede faktor op te stel",
  'dashboard.confirmSecondFactorSetup': () => 'het hul tweede faktor bevestig',
  'dashboard.removeSecondFactor': () => 'het hul tweede faktor verwyder',
  'dashboard.createPaymentLink': () => "het 'n betaalskakel geskep",
  'dashboard.updatePaymentLink': () => "het 'n betaalskakel aan- of afgeskakel",
  'dashboard.requestPayment': (f) => `het die kliënt per e-pos gevra om ${paymentAf(f)} te betaal`,
  'dashboard.createPayee': () => "het 'n begunstigde gestoor",
  'dashboard.removePayee': () => "het 'n begunstigde verwyder",
};

const amountZu = (f: AuditFacts) => (f.amountCents !== null ? ` ka-${formatRand(f.amountCents)}` : '');
/**
 * "inkokhelo ephumayo 9b2c7a10 ka-R 250.00", "inkokhelo …" (dashboard/src/words: inkokhelo ephumayo,
 * inkokhelo, imbuyiselo); `of` makes it possessive ("ye" → "yenkokhelo ephumayo …").
 */
const payoutZu = (f: AuditFacts, of = '') => `${of ? `${of}nkokhelo` : 'inkokhelo'} ephumayo ${short(f.payoutId)}${amountZu(f)}`;
const paymentZu = (f: AuditFacts, of = '') => `${of ? `${of}nkokhelo` : 'inkokhelo'} ${short(f.paymentId)}${amountZu(f)}`;
const refundZu = (f: AuditFacts) => {
  const amount = cents(f.detail.amount_cents);
  return amount !== null ? `u-${formatRand(amount)} wenkokhelo ${short(f.paymentId)}` : `inkokhelo ${short(f.paymentId)}`;
};
const ROLE_ZU: Readonly<Record<string, string>> = { owner: 'umnikazi', developer: 'umthuthukisi', viewer: 'umbukeli' };
const roleZu = (v: unknown) => ROLE_ZU[str(v)] ?? str(v);
const STATUS_ZU: Readonly<Record<string, string>> = { created: 'kwenziwe', initiated: 'kuqalisiwe', awaiting_webhook: 'kulindwe i-webhook', captured: 'kwamukelwe', failed: 'kuhlulekile', cancelled: 'kukhanselwe' };

/** Each action's words in isiZulu, after the actor's name (the same facts as the English). */
export const AUDIT_WORDS_ZU: Readonly<Record<string, Words>> = {
  'payout.approve': (f) => `ugunyaze ${payoutZu(f)}`,
  'payout.reject': (f) => `wenqabe ${payoutZu(f)}${reasonOf(f.detail.reason)}`,
  'payout.start_transfer': (f) => `uqale ukudlulisela ebhange imali ${payoutZu(f, 'ye')}`,
  'payout.complete': (f) => `uqede ${payoutZu(f)}`,
  'payout.fail': (f) => `uphawule ${payoutZu(f)} njengehlulekile`,
  'payout.reveal_bank_account': (f) => `uvezile i-akhawunti yasebhange ${payoutZu(f, 'ye')}`,
  'payment.settle': (f) => `uqede ${paymentZu(f)}, isimo: ${STATUS_ZU[str(f.detail.outcome)] ?? str(f.detail.outcome)}`,
  'payment.reconcile': (f) => `uhlole ${paymentZu(f)} kumhlinzeki`,
  'payment.notify': (f) => `udlulise isaziso somhlinzeki mayelana ${paymentZu(f, 'ne')}`,
  'payment.captured': (f) => `ubhale ukutholwa ${paymentZu(f, 'kwe')}`,
  'payment.failed': (f) => `ubhale ukwehluleka ${paymentZu(f, 'kwe')}`,
  'payment.reopened': (f) => `uvule kabusha ${paymentZu(f)}`,
  'payment.refund_owed': (f) => `ukweleta ikhasimende imbuyiselo yemali efike sekwephuzile ${paymentZu(f, 'ye')}`,
  'payment.expired': (f) => `uvumele ${paymentZu(f)} iphelelwe yisikhathi ingaqediwe`,
  'payment.notification_mismatch': (f) => `wenqabe isaziso somhlinzeki esinenani elingafani ${paymentZu(f, 'ne')}`,
  'payment.refund_requested': (f) => `ucele umhlinzeki ukuthi abuyisele imali efike sekwephuzile ${paymentZu(f, 'ye')}`,
  'payment.refund_failed': (f) => `wehlulekile ukwenza umhlinzeki abuyisele imali efike sekwephuzile ${paymentZu(f, 'ye')}`,
  'payment.refund_outcome_ignored': (f) => `unganakile umphumela ophindiwe wembuyiselo ${paymentZu(f, 'ye')}`,
  'refund.requested': (f) => `ucele umhlinzeki ukuthi abuyisele ${refundZu(f)}`,
  'refund.rekeyed': (f) => `ucele umhlinzeki futhi ukuthi abuyisele ${refundZu(f)}`,
  'refund.outcome_ignored': (f) => `unganakile umphumela ophindiwe wembuyiselo: ${refundZu(f)}`,
  'refund.notification_mismatch': (f) => `wenqabe isaziso sembuyiselo esingafani nayo: ${refundZu(f)}`,
  'payout_batch.export': (f) => `ukhiphe ifayela lebhange lezinkokhelo eziphumayo ezingu-${Number(f.detail.payouts ?? 0)}, ${formatRand(cents(f.detail.total_cents) ?? 0)}`,
  'payout_batch.file': (f) => `ulande ifayela lebhange leqoqo ${short(f.detail.batch_id)}`,
  'bank_report.import': (f) => `ungenise umbiko webhange: okungu-${Number(f.detail.completed ?? 0)} kuqediwe, okungu-${Number(f.detail.failed ?? 0)} kwehlulekile, okungu-${Number(f.detail.unmatched ?? 0)} akufanisiwe`,
  'data_key.rotate': () => 'ushintshe ukhiye wedatha',
  'person.invite': (f, about) => `umeme ${about(f.detail.person_id)}, indima: ${roleZu(f.detail.role)}`,
  'person.remove': (f, about) => `ususe ${about(f.detail.person_id)}`,
  'person.role': (f, about) => `unikeze ${about(f.detail.person_id)} indima: ${roleZu(f.detail.role)}`,
  'person.sign_in_locked': (f, about) => `uvimbe ukungena kuka-${about(f.detail.person_id)} ngemva kwamaphasiwedi amaningi angalungile`,
  'person.password_reset_requested': (f, about) => `uthumele ku-${about(f.detail.person_id)} isixhumanisi sokusetha kabusha iphasiwedi nge-imeyili`,
  'person.password_reset': () => 'usethe kabusha iphasiwedi yakhe',
  'person.second_factor_enabled': () => 'uhlele isici sesibili',
  'person.second_factor_removed': () => 'ususe isici sakhe sesibili',
  'person.recovery_code_used': (f) => `usebenzise ikhodi yokubuyisela (kusele ezingu-${Number(f.detail.recovery_codes_left ?? 0)})`,
  'payee.create': (f) => `ulondoloze umamukeli ${str(f.detail.name)} (${str(f.detail.bank)} ${str(f.detail.account_number_masked)})`,
  'payee.remove': (f) => `ususe umamukeli ${str(f.detail.name)}`,
  'payout.return': (f) => `ubhale ukubuyiswa yibhange ${payoutZu(f, 'kwe')}${reasonOf(f.detail.return_reason)}`,
  'person.step_up_failed': () => 'unikeze iphasiwedi engalungile lapho ibuzwa futhi',
  'merchant.second_factor_required': (f) => (f.detail.required ? 'udinge isici sesibili kuwo wonke umuntu' : 'uyekile ukudinga isici sesibili'),
  'dashboard.createPayout': (f) => `udale ${payoutZu(f)}`,
  'dashboard.initiatePayment': (f) => `uqale ${paymentZu(f)}`,
  'dashboard.refundPayment': (f) => `ubuyisele ${refundZu(f)}`,
  'dashboard.issueApiKey': () => 'ukhiphe ukhiye we-API',
  'dashboard.revokeApiKey': () => 'uhoxise ukhiye we-API',
  'dashboard.regenerateSecretKey': () => 'wenze ukhiye omusha we-API oyimfihlo',
  'dashboard.createWebhookSecret': () => 'udale imfihlo yokusayina ye-webhook',
  'dashboard.rotateWebhookSecret': () => 'ushintshe imfihlo yokusayina ye-webhook',
  'dashboard.updateWebhookUrl': (f) => (str(f.detail.url) ? `ushintshe i-URL ye-webhook yaba ngu-${str(f.detail.url)}` : 'usule i-URL ye-webhook'),
  'dashboard.redeliverEvent': (f) => `uthumele futhi umcimbi ${short(f.detail.event_id)}`,
  'dashboard.updateMerchantSettings': () => 'ushintshe izilungiselelo zomthengisi',
  'dashboard.invitePerson': (f) => `umeme ${str(f.detail.invited) || 'othile'}`,
  'dashboard.removePerson': () => 'ususe umuntu',
  'dashboard.changePersonRole': () => 'ushintshe indima yomuntu',
  'dashboard.requireSecondFactor': () => 'ushintshe ukuthi wonke umuntu uyasidinga yini isici sesibili',
  'dashboard.setLanguage': () => 'ushintshe ulimi lwakhe',
  'dashboard.beginSecondFactorSetup': () => 'uqale ukuhlela isici sesibili',
  'dashboard.confirmSecondFactorSetup': () => 'uqinisekise isici sakhe sesibili',
  'dashboard.removeSecondFactor': () => 'ususe isici sakhe sesibili',
  'dashboard.createPaymentLink': () => 'udale isixhumanisi sokukhokha',
  'dashboard.updatePaymentLink': () => 'uvule noma wavala isixhumanisi sokukhokha',
  'dashboard.requestPayment': (f) => `uthumele ikhasimende isicelo sokukhokha ${paymentZu(f)} nge-imeyili`,
  'dashboard.createPayee': () => 'ulondoloze umamukeli',
  'dashboard.removePayee': () => 'ususe umamukeli',
};

/** Each language's table: every action has its line in each (test/audit-words.test.ts checks it). */
export const AUDIT_WORDS_IN: Readonly<Record<AuditLanguage, Readonly<Record<string, Words>>>> = { en: AUDIT_WORDS, af: AUDIT_WORDS_AF, zu: AUDIT_WORDS_ZU };

/**
 * The entry as a sentence in the reader's language; an action without words (recorded by a newer
 * version) still reads, by its name.
 */
export function auditSentence(f: AuditFacts, names: ReadonlyMap<string, string> = new Map(), language: AuditLanguage = 'en'): string {
  const who = WHO[language];
  const about = (personId: unknown) => (typeof personId === 'string' ? (names.get(personId) ?? who.removed) : who.someone);
  const words = AUDIT_WORDS_IN[language][f.action];
  const what = words ? words(f, about) : f.action.replace(/^dashboard\./, '').replace(/[._]/g, ' ');
  return `${actorWords(f.actor, names, language)} ${what}`;
}
