import { describe, expect, it } from 'vitest';
import { actorWords, type AuditFacts, AUDIT_WORDS_IN, auditSentence } from '../src/domain/audit-words.ts';
import { type ConfirmationFacts, confirmationEmail, paymentRequestEmail } from '../src/domain/customer-email.ts';
import { confirmationSms, gsm7, isGsm7, SMS_LIMIT, withoutLinks } from '../src/domain/customer-sms.ts';
import { createKeyring, type Keyring, keyFingerprint, kidOrUnknown, maskAccountNumber, openOrNull, SealError } from '../src/domain/sealing.ts';
import { acceptedStep, codeSchema, isRecoveryCode, newRecoveryCodes, newTotpSecret, RECOVERY_CODES, recoveryDigest, totpCode, totpUri } from '../src/domain/second-factor.ts';

/**
 * The words and secrets zarpay hands to people, called directly (no server, no database): the
 * audit log's sentences in English, Afrikaans and isiZulu (audit-words.ts), the customer's
 * confirmation and payment request by e-mail (customer-email.ts) and by SMS (customer-sms.ts),
 * data sealed at rest (sealing.ts) and a person's second factor (second-factor.ts). Each
 * expectation is an exact answer for an exact input, so that mutation testing (`npm run mutate`,
 * docs/testing.md) finds a change to any of them. Where an outside reference exists it is the
 * one used: RFC 6238's and RFC 4226's published codes for TOTP; for sealing, envelopes, digests
 * and check values computed independently of zarpay (Python's `cryptography`: HKDF-SHA256,
 * HMAC-SHA256, AES-256-GCM), so a value sealed today keeps opening after any change.
 */

const PAYMENT_ID = '3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11';

describe('audit-words.ts: the audit log in words', () => {
  const PERSON = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
  const GONE = '0b7d1c22-5a6e-4f3b-8c9d-1e2f3a4b5c6d';
  const PERSON_ACTOR = `merchant:11111111-1111-1111-1111-111111111111/person:${PERSON}`;
  const names = new Map([[PERSON, 'thandi@shop.example']]);
  /** An entry with every fact a sentence can name, by zarpay itself (`system:reconciler`). */
  const full = (action: string): AuditFacts => ({
    action,
    actor: 'system:reconciler',
    detail: {
      amount_cents: 1_500, reason: 'duplicate', return_reason: 'AC01', outcome: 'captured', payouts: 3, total_cents: 75_000, batch_id: '7d1e2f30-0000-4000-8000-000000000000',
      completed: 2, failed: 1, unmatched: 4, person_id: PERSON, role: 'viewer', recovery_codes_left: 7, name: 'Cement Suppliers', bank: 'FNB', account_number_masked: '****6789',
      url: 'https://shop.example/hook', event_id: 'a1b2c3d4-0000-4000-8000-000000000000', invited: 'sipho@shop.example', required: true,
    },
    paymentId: '5e6f7a80-0000-4000-8000-000000000000',
    payoutId: '9b2c7a10-0000-4000-8000-000000000000',
    amountCents: 25_000,
  });
  /** The same entry with no detail and no amount: what each sentence says when a fact is missing. */
  const sparse = (action: string): AuditFacts => ({ ...full(action), detail: {}, amountCents: null });

  // The words after the actor, for `full` facts, for every action of each language's table.
  const EN: [string, string][] = [
    ['payout.approve', 'approved payout 9b2c7a10 of R 250.00'],
    ['payout.reject', 'rejected payout 9b2c7a10 of R 250.00: duplicate'],
    ['payout.start_transfer', 'started the bank transfer of payout 9b2c7a10 of R 250.00'],
    ['payout.complete', 'completed payout 9b2c7a10 of R 250.00'],
    ['payout.fail', 'marked as failed payout 9b2c7a10 of R 250.00'],
    ['payout.reveal_bank_account', 'revealed the bank account of payout 9b2c7a10 of R 250.00'],
    ['payment.settle', 'settled payment 5e6f7a80 of R 250.00 as captured'],
    ['payment.reconcile', 'checked with the provider payment 5e6f7a80 of R 250.00'],
    ['payment.notify', "passed on the provider's notification of payment 5e6f7a80 of R 250.00"],
    ['payment.captured', 'recorded the capture of payment 5e6f7a80 of R 250.00'],
    ['payment.failed', 'recorded the failure of payment 5e6f7a80 of R 250.00'],
    ['payment.reopened', 'reopened payment 5e6f7a80 of R 250.00'],
    ['payment.refund_owed', 'owes the customer a refund of money that came late for payment 5e6f7a80 of R 250.00'],
    ['payment.expired', 'expired unfinished payment 5e6f7a80 of R 250.00'],
    ['payment.notification_mismatch', 'refused a provider notification whose amount did not match payment 5e6f7a80 of R 250.00'],
    ['payment.refund_requested', 'asked the provider to refund late money of payment 5e6f7a80 of R 250.00'],
    ['payment.refund_failed', 'could not get the provider to refund late money of payment 5e6f7a80 of R 250.00'],
    ['payment.refund_outcome_ignored', 'ignored a repeated refund outcome of payment 5e6f7a80 of R 250.00'],
    ['refund.requested', 'asked the provider to refund R 15.00 of payment 5e6f7a80'],
    ['refund.rekeyed', 'asked the provider again to refund R 15.00 of payment 5e6f7a80'],
    ['refund.outcome_ignored', 'ignored a repeated outcome of the refund of R 15.00 of payment 5e6f7a80'],
    ['refund.notification_mismatch', 'refused a refund notification that did not match R 15.00 of payment 5e6f7a80'],
    ['payout_batch.export', 'exported a bank file of 3 payouts, R 750.00'],
    ['payout_batch.file', 'downloaded the bank file of batch 7d1e2f30'],
    ['bank_report.import', 'imported a bank report: 2 completed, 1 failed, 4 unmatched'],
    ['data_key.rotate', 'rotated the data key'],
    ['person.invite', 'invited thandi@shop.example as viewer'],
    ['person.remove', 'removed thandi@shop.example'],
    ['person.role', 'made thandi@shop.example viewer'],
    ['person.sign_in_locked', 'locked the sign-in of thandi@shop.example after too many wrong passwords'],
    ['person.password_reset_requested', 'e-mailed a password reset link to thandi@shop.example'],
    ['person.password_reset', 'reset their password'],
    ['person.second_factor_enabled', 'set up a second factor'],
    ['person.second_factor_removed', 'removed their second factor'],
    ['person.recovery_code_used', 'used a recovery code (7 left)'],
    ['payee.create', 'saved the payee Cement Suppliers (FNB ****6789)'],
    ['payee.remove', 'removed the payee Cement Suppliers'],
    ['payout.return', "recorded the bank's return of payout 9b2c7a10 of R 250.00: AC01"],
    ['person.step_up_failed', 'gave a wrong password where it was asked again'],
    ['merchant.second_factor_required', 'demanded a second factor of everyone'],
    ['dashboard.createPayout', 'created payout 9b2c7a10 of R 250.00'],
    ['dashboard.initiatePayment', 'started payment 5e6f7a80 of R 250.00'],
    ['dashboard.refundPayment', 'refunded R 15.00 of payment 5e6f7a80'],
    ['dashboard.issueApiKey', 'issued an API key'],
    ['dashboard.revokeApiKey', 'revoked an API key'],
    ['dashboard.regenerateSecretKey', 'regenerated the secret API key'],
    ['dashboard.createWebhookSecret', 'created a webhook signing secret'],
    ['dashboard.rotateWebhookSecret', 'rotated the webhook signing secret'],
    ['dashboard.updateWebhookUrl', 'changed the webhook URL to https://shop.example/hook'],
    ['dashboard.redeliverEvent', 'redelivered event a1b2c3d4'],
    ['dashboard.updateMerchantSettings', "changed the merchant's settings"],
    ['dashboard.invitePerson', 'invited sipho@shop.example'],
    ['dashboard.removePerson', 'removed a person'],
    ['dashboard.changePersonRole', "changed a person's role"],
    ['dashboard.requireSecondFactor', 'changed whether everyone needs a second factor'],
    ['dashboard.setLanguage', 'changed their language'],
    ['dashboard.beginSecondFactorSetup', 'started setting up a second factor'],
    ['dashboard.confirmSecondFactorSetup', 'confirmed their second factor'],
    ['dashboard.removeSecondFactor', 'removed their second factor'],
    ['dashboard.createPaymentLink', 'created a payment link'],
    ['dashboard.updatePaymentLink', 'switched a payment link on or off'],
    ['dashboard.requestPayment', 'e-mailed the customer a request to pay payment 5e6f7a80 of R 250.00'],
    ['dashboard.createPayee', 'saved a payee'],
    ['dashboard.removePayee', 'removed a payee'],
  ];
  const EN_SPARSE: [string, string][] = [
    ['payout.approve', 'approved payout 9b2c7a10'],
    ['payout.reject', 'rejected payout 9b2c7a10'],
    ['payout.start_transfer', 'started the bank transfer of payout 9b2c7a10'],
    ['payment.settle', 'settled payment 5e6f7a80 as '],
    ['payment.reconcile', 'checked with the provider payment 5e6f7a80'],
    ['payment.notify', "passed on the provider's notification of payment 5e6f7a80"],
    ['refund.requested', 'asked the provider to refund payment 5e6f7a80'],
    ['refund.outcome_ignored', 'ignored a repeated outcome of the refund of payment 5e6f7a80'],
    ['payout_batch.export', 'exported a bank file of 0 payouts, R 0.00'],
    ['payout_batch.file', 'downloaded the bank file of batch '],
    ['bank_report.import', 'imported a bank report: 0 completed, 0 failed, 0 unmatched'],
    ['person.invite', 'invited someone as '],
    ['person.role', 'made someone '],
    ['person.recovery_code_used', 'used a recovery code (0 left)'],
    ['payee.create', 'saved the payee  ( )'],
    ['payout.return', "recorded the bank's return of payout 9b2c7a10"],
    ['merchant.second_factor_required', 'stopped demanding a second factor'],
    ['dashboard.refundPayment', 'refunded payment 5e6f7a80'],
    ['dashboard.updateWebhookUrl', 'cleared the webhook URL'],
    ['dashboard.redeliverEvent', 'redelivered event '],
    ['dashboard.invitePerson', 'invited someone'],
  ];
  const AF: [string, string][] = [
    ['payout.approve', 'het uitbetaling 9b2c7a10 van R 250.00 goedgekeur'],
    ['payout.reject', 'het uitbetaling 9b2c7a10 van R 250.00 afgekeur: duplicate'],
    ['payout.start_transfer', 'het die bankoorplasing van uitbetaling 9b2c7a10 van R 250.00 begin'],
    ['payout.complete', 'het uitbetaling 9b2c7a10 van R 250.00 voltooi'],
    ['payout.fail', 'het uitbetaling 9b2c7a10 van R 250.00 as misluk gemerk'],
    ['payout.reveal_bank_account', 'het die bankrekening van uitbetaling 9b2c7a10 van R 250.00 gewys'],
    ['payment.settle', 'het betaling 5e6f7a80 van R 250.00 as ontvang afgehandel'],
    ['payment.reconcile', 'het betaling 5e6f7a80 van R 250.00 by die verskaffer nagegaan'],
    ['payment.notify', 'het die verskaffer se kennisgewing oor betaling 5e6f7a80 van R 250.00 deurgegee'],
    ['payment.captured', 'het die ontvangs van betaling 5e6f7a80 van R 250.00 aangeteken'],
    ['payment.failed', 'het die mislukking van betaling 5e6f7a80 van R 250.00 aangeteken'],
    ['payment.reopened', 'het betaling 5e6f7a80 van R 250.00 heropen'],
    ['payment.refund_owed', "skuld die kliënt 'n terugbetaling van geld wat laat gekom het vir betaling 5e6f7a80 van R 250.00"],
    ['payment.expired', 'het betaling 5e6f7a80 van R 250.00 onvoltooid laat verval'],
    ['payment.notification_mismatch', "het 'n kennisgewing van die verskaffer geweier waarvan die bedrag nie met betaling 5e6f7a80 van R 250.00 ooreengestem het nie"],
    ['payment.refund_requested', 'het die verskaffer gevra om laat geld van betaling 5e6f7a80 van R 250.00 terug te betaal'],
    ['payment.refund_failed', 'kon nie die verskaffer kry om laat geld van betaling 5e6f7a80 van R 250.00 terug te betaal nie'],
    ['payment.refund_outcome_ignored', "het 'n herhaalde terugbetalingsuitslag van betaling 5e6f7a80 van R 250.00 geïgnoreer"],
    ['refund.requested', 'het die verskaffer gevra om R 15.00 van betaling 5e6f7a80 terug te betaal'],
    ['refund.rekeyed', 'het die verskaffer weer gevra om R 15.00 van betaling 5e6f7a80 terug te betaal'],
    ['refund.outcome_ignored', "het 'n herhaalde uitslag van die terugbetaling van R 15.00 van betaling 5e6f7a80 geïgnoreer"],
    ['refund.notification_mismatch', "het 'n terugbetalingskennisgewing geweier wat nie met R 15.00 van betaling 5e6f7a80 ooreengestem het nie"],
    ['payout_batch.export', "het 'n banklêer van 3 uitbetalings, R 750.00, uitgevoer"],
    ['payout_batch.file', 'het die banklêer van bondel 7d1e2f30 afgelaai'],
    ['bank_report.import', "het 'n bankverslag ingevoer: 2 voltooi, 1 misluk, 4 nie gepas nie"],
    ['data_key.rotate', 'het die datasleutel vervang'],
    ['person.invite', 'het thandi@shop.example as kyker genooi'],
    ['person.remove', 'het thandi@shop.example verwyder'],
    ['person.role', 'het thandi@shop.example kyker gemaak'],
    ['person.sign_in_locked', 'het die aanmelding van thandi@shop.example gesluit ná te veel verkeerde wagwoorde'],
    ['person.password_reset_requested', "het 'n skakel om die wagwoord te herstel aan thandi@shop.example ge-e-pos"],
    ['person.password_reset', 'het hul wagwoord herstel'],
    ['person.second_factor_enabled', "het 'n tweede faktor opgestel"],
    ['person.second_factor_removed', 'het hul tweede faktor verwyder'],
    ['person.recovery_code_used', "het 'n herstelkode gebruik (7 oor)"],
    ['payee.create', 'het die begunstigde Cement Suppliers (FNB ****6789) gestoor'],
    ['payee.remove', 'het die begunstigde Cement Suppliers verwyder'],
    ['payout.return', 'het die bank se terugstuur van uitbetaling 9b2c7a10 van R 250.00 aangeteken: AC01'],
    ['person.step_up_failed', "het 'n verkeerde wagwoord gegee waar dit weer gevra is"],
    ['merchant.second_factor_required', "het 'n tweede faktor van almal geëis"],
    ['dashboard.createPayout', 'het uitbetaling 9b2c7a10 van R 250.00 geskep'],
    ['dashboard.initiatePayment', 'het betaling 5e6f7a80 van R 250.00 begin'],
    ['dashboard.refundPayment', 'het R 15.00 van betaling 5e6f7a80 terugbetaal'],
    ['dashboard.issueApiKey', "het 'n API-sleutel uitgereik"],
    ['dashboard.revokeApiKey', "het 'n API-sleutel herroep"],
    ['dashboard.regenerateSecretKey', "het 'n nuwe geheime API-sleutel gemaak"],
    ['dashboard.createWebhookSecret', "het 'n webhook-ondertekengeheim geskep"],
    ['dashboard.rotateWebhookSecret', 'het die webhook-ondertekengeheim vervang'],
    ['dashboard.updateWebhookUrl', 'het die webhook-URL na https://shop.example/hook verander'],
    ['dashboard.redeliverEvent', 'het gebeurtenis a1b2c3d4 weer afgelewer'],
    ['dashboard.updateMerchantSettings', 'het die handelaar se instellings verander'],
    ['dashboard.invitePerson', 'het sipho@shop.example genooi'],
    ['dashboard.removePerson', 'het iemand verwyder'],
    ['dashboard.changePersonRole', 'het iemand se rol verander'],
    ['dashboard.requireSecondFactor', "het verander of almal 'n tweede faktor nodig het"],
    ['dashboard.setLanguage', 'het hul taal verander'],
    ['dashboard.beginSecondFactorSetup', "het begin om 'n tweede faktor op te stel"],
    ['dashboard.confirmSecondFactorSetup', 'het hul tweede faktor bevestig'],
    ['dashboard.removeSecondFactor', 'het hul tweede faktor verwyder'],
    ['dashboard.createPaymentLink', "het 'n betaalskakel geskep"],
    ['dashboard.updatePaymentLink', "het 'n betaalskakel aan- of afgeskakel"],
    ['dashboard.requestPayment', 'het die kliënt per e-pos gevra om betaling 5e6f7a80 van R 250.00 te betaal'],
    ['dashboard.createPayee', "het 'n begunstigde gestoor"],
    ['dashboard.removePayee', "het 'n begunstigde verwyder"],
  ];
  const AF_SPARSE: [string, string][] = [
    ['payout.approve', 'het uitbetaling 9b2c7a10 goedgekeur'],
    ['payout.reject', 'het uitbetaling 9b2c7a10 afgekeur'],
    ['payout.start_transfer', 'het die bankoorplasing van uitbetaling 9b2c7a10 begin'],
    ['payment.settle', 'het betaling 5e6f7a80 as  afgehandel'],
    ['payment.reconcile', 'het betaling 5e6f7a80 by die verskaffer nagegaan'],
    ['payment.notify', 'het die verskaffer se kennisgewing oor betaling 5e6f7a80 deurgegee'],
    ['refund.requested', 'het die verskaffer gevra om betaling 5e6f7a80 terug te betaal'],
    ['payout_batch.export', "het 'n banklêer van 0 uitbetalings, R 0.00, uitgevoer"],
    ['payout_batch.file', 'het die banklêer van bondel  afgelaai'],
    ['bank_report.import', "het 'n bankverslag ingevoer: 0 voltooi, 0 misluk, 0 nie gepas nie"],
    ['person.invite', 'het iemand as  genooi'],
    ['person.role', 'het iemand  gemaak'],
    ['person.recovery_code_used', "het 'n herstelkode gebruik (0 oor)"],
    ['payee.create', 'het die begunstigde  ( ) gestoor'],
    ['payout.return', 'het die bank se terugstuur van uitbetaling 9b2c7a10 aangeteken'],
    ['merchant.second_factor_required', "het opgehou om 'n tweede faktor te eis"],
    ['dashboard.refundPayment', 'het betaling 5e6f7a80 terugbetaal'],
    ['dashboard.updateWebhookUrl', 'het die webhook-URL leeggemaak'],
    ['dashboard.redeliverEvent', 'het gebeurtenis  weer afgelewer'],
    ['dashboard.invitePerson', 'het iemand genooi'],
  ];
  const ZU: [string, string][] = [
    ['payout.approve', 'ugunyaze inkokhelo ephumayo 9b2c7a10 ka-R 250.00'],
    ['payout.reject', 'wenqabe inkokhelo ephumayo 9b2c7a10 ka-R 250.00: duplicate'],
    ['payout.start_transfer', 'uqale ukudlulisela ebhange imali yenkokhelo ephumayo 9b2c7a10 ka-R 250.00'],
    ['payout.complete', 'uqede inkokhelo ephumayo 9b2c7a10 ka-R 250.00'],
    ['payout.fail', 'uphawule inkokhelo ephumayo 9b2c7a10 ka-R 250.00 njengehlulekile'],
    ['payout.reveal_bank_account', 'uvezile i-akhawunti yasebhange yenkokhelo ephumayo 9b2c7a10 ka-R 250.00'],
    ['payment.settle', 'uqede inkokhelo 5e6f7a80 ka-R 250.00, isimo: kwamukelwe'],
    ['payment.reconcile', 'uhlole inkokhelo 5e6f7a80 ka-R 250.00 kumhlinzeki'],
    ['payment.notify', 'udlulise isaziso somhlinzeki mayelana nenkokhelo 5e6f7a80 ka-R 250.00'],
    ['payment.captured', 'ubhale ukutholwa kwenkokhelo 5e6f7a80 ka-R 250.00'],
    ['payment.failed', 'ubhale ukwehluleka kwenkokhelo 5e6f7a80 ka-R 250.00'],
    ['payment.reopened', 'uvule kabusha inkokhelo 5e6f7a80 ka-R 250.00'],
    ['payment.refund_owed', 'ukweleta ikhasimende imbuyiselo yemali efike sekwephuzile yenkokhelo 5e6f7a80 ka-R 250.00'],
    ['payment.expired', 'uvumele inkokhelo 5e6f7a80 ka-R 250.00 iphelelwe yisikhathi ingaqediwe'],
    ['payment.notification_mismatch', 'wenqabe isaziso somhlinzeki esinenani elingafani nenkokhelo 5e6f7a80 ka-R 250.00'],
    ['payment.refund_requested', 'ucele umhlinzeki ukuthi abuyisele imali efike sekwephuzile yenkokhelo 5e6f7a80 ka-R 250.00'],
    ['payment.refund_failed', 'wehlulekile ukwenza umhlinzeki abuyisele imali efike sekwephuzile yenkokhelo 5e6f7a80 ka-R 250.00'],
    ['payment.refund_outcome_ignored', 'unganakile umphumela ophindiwe wembuyiselo yenkokhelo 5e6f7a80 ka-R 250.00'],
    ['refund.requested', 'ucele umhlinzeki ukuthi abuyisele u-R 15.00 wenkokhelo 5e6f7a80'],
    ['refund.rekeyed', 'ucele umhlinzeki futhi ukuthi abuyisele u-R 15.00 wenkokhelo 5e6f7a80'],
    ['refund.outcome_ignored', 'unganakile umphumela ophindiwe wembuyiselo: u-R 15.00 wenkokhelo 5e6f7a80'],
    ['refund.notification_mismatch', 'wenqabe isaziso sembuyiselo esingafani nayo: u-R 15.00 wenkokhelo 5e6f7a80'],
    ['payout_batch.export', 'ukhiphe ifayela lebhange lezinkokhelo eziphumayo ezingu-3, R 750.00'],
    ['payout_batch.file', 'ulande ifayela lebhange leqoqo 7d1e2f30'],
    ['bank_report.import', 'ungenise umbiko webhange: okungu-2 kuqediwe, okungu-1 kwehlulekile, okungu-4 akufanisiwe'],
    ['data_key.rotate', 'ushintshe ukhiye wedatha'],
    ['person.invite', 'umeme thandi@shop.example, indima: umbukeli'],
    ['person.remove', 'ususe thandi@shop.example'],
    ['person.role', 'unikeze thandi@shop.example indima: umbukeli'],
    ['person.sign_in_locked', 'uvimbe ukungena kuka-thandi@shop.example ngemva kwamaphasiwedi amaningi angalungile'],
    ['person.password_reset_requested', 'uthumele ku-thandi@shop.example isixhumanisi sokusetha kabusha iphasiwedi nge-imeyili'],
    ['person.password_reset', 'usethe kabusha iphasiwedi yakhe'],
    ['person.second_factor_enabled', 'uhlele isici sesibili'],
    ['person.second_factor_removed', 'ususe isici sakhe sesibili'],
    ['person.recovery_code_used', 'usebenzise ikhodi yokubuyisela (kusele ezingu-7)'],
    ['payee.create', 'ulondoloze umamukeli Cement Suppliers (FNB ****6789)'],
    ['payee.remove', 'ususe umamukeli Cement Suppliers'],
    ['payout.return', 'ubhale ukubuyiswa yibhange kwenkokhelo ephumayo 9b2c7a10 ka-R 250.00: AC01'],
    ['person.step_up_failed', 'unikeze iphasiwedi engalungile lapho ibuzwa futhi'],
    ['merchant.second_factor_required', 'udinge isici sesibili kuwo wonke umuntu'],
    ['dashboard.createPayout', 'udale inkokhelo ephumayo 9b2c7a10 ka-R 250.00'],
    ['dashboard.initiatePayment', 'uqale inkokhelo 5e6f7a80 ka-R 250.00'],
    ['dashboard.refundPayment', 'ubuyisele u-R 15.00 wenkokhelo 5e6f7a80'],
    ['dashboard.issueApiKey', 'ukhiphe ukhiye we-API'],
    ['dashboard.revokeApiKey', 'uhoxise ukhiye we-API'],
    ['dashboard.regenerateSecretKey', 'wenze ukhiye omusha we-API oyimfihlo'],
    ['dashboard.createWebhookSecret', 'udale imfihlo yokusayina ye-webhook'],
    ['dashboard.rotateWebhookSecret', 'ushintshe imfihlo yokusayina ye-webhook'],
    ['dashboard.updateWebhookUrl', 'ushintshe i-URL ye-webhook yaba ngu-https://shop.example/hook'],
    ['dashboard.redeliverEvent', 'uthumele futhi umcimbi a1b2c3d4'],
    ['dashboard.updateMerchantSettings', 'ushintshe izilungiselelo zomthengisi'],
    ['dashboard.invitePerson', 'umeme sipho@shop.example'],
    ['dashboard.removePerson', 'ususe umuntu'],
    ['dashboard.changePersonRole', 'ushintshe indima yomuntu'],
    ['dashboard.requireSecondFactor', 'ushintshe ukuthi wonke umuntu uyasidinga yini isici sesibili'],
    ['dashboard.setLanguage', 'ushintshe ulimi lwakhe'],
    ['dashboard.beginSecondFactorSetup', 'uqale ukuhlela isici sesibili'],
    ['dashboard.confirmSecondFactorSetup', 'uqinisekise isici sakhe sesibili'],
    ['dashboard.removeSecondFactor', 'ususe isici sakhe sesibili'],
    ['dashboard.createPaymentLink', 'udale isixhumanisi sokukhokha'],
    ['dashboard.updatePaymentLink', 'uvule noma wavala isixhumanisi sokukhokha'],
    ['dashboard.requestPayment', 'uthumele ikhasimende isicelo sokukhokha inkokhelo 5e6f7a80 ka-R 250.00 nge-imeyili'],
    ['dashboard.createPayee', 'ulondoloze umamukeli'],
    ['dashboard.removePayee', 'ususe umamukeli'],
  ];
  const ZU_SPARSE: [string, string][] = [
    ['payout.approve', 'ugunyaze inkokhelo ephumayo 9b2c7a10'],
    ['payout.reject', 'wenqabe inkokhelo ephumayo 9b2c7a10'],
    ['payout.start_transfer', 'uqale ukudlulisela ebhange imali yenkokhelo ephumayo 9b2c7a10'],
    ['payment.settle', 'uqede inkokhelo 5e6f7a80, isimo: '],
    ['payment.reconcile', 'uhlole inkokhelo 5e6f7a80 kumhlinzeki'],
    ['payment.notify', 'udlulise isaziso somhlinzeki mayelana nenkokhelo 5e6f7a80'],
    ['refund.requested', 'ucele umhlinzeki ukuthi abuyisele inkokhelo 5e6f7a80'],
    ['payout_batch.export', 'ukhiphe ifayela lebhange lezinkokhelo eziphumayo ezingu-0, R 0.00'],
    ['payout_batch.file', 'ulande ifayela lebhange leqoqo '],
    ['bank_report.import', 'ungenise umbiko webhange: okungu-0 kuqediwe, okungu-0 kwehlulekile, okungu-0 akufanisiwe'],
    ['person.invite', 'umeme othile, indima: '],
    ['person.role', 'unikeze othile indima: '],
    ['person.recovery_code_used', 'usebenzise ikhodi yokubuyisela (kusele ezingu-0)'],
    ['payee.create', 'ulondoloze umamukeli  ( )'],
    ['payout.return', 'ubhale ukubuyiswa yibhange kwenkokhelo ephumayo 9b2c7a10'],
    ['merchant.second_factor_required', 'uyekile ukudinga isici sesibili'],
    ['dashboard.refundPayment', 'ubuyisele inkokhelo 5e6f7a80'],
    ['dashboard.updateWebhookUrl', 'usule i-URL ye-webhook'],
    ['dashboard.redeliverEvent', 'uthumele futhi umcimbi '],
    ['dashboard.invitePerson', 'umeme othile'],
  ];

  const ZARPAY = { en: 'zarpay', af: 'zarpay', zu: 'U-zarpay' } as const;
  const TABLES = { en: [EN, EN_SPARSE], af: [AF, AF_SPARSE], zu: [ZU, ZU_SPARSE] } as const;

  for (const language of ['en', 'af', 'zu'] as const) {
    const [sentences, missing] = TABLES[language];
    it(`${language}: has a sentence for every action, naming its payout or payment, amount, person and counts`, () => {
      expect(sentences.map(([action]) => action).sort()).toEqual(Object.keys(AUDIT_WORDS_IN[language]).sort());
      for (const [action, words] of sentences) expect(auditSentence(full(action), names, language), action).toBe(`${ZARPAY[language]} ${words}`);
    });

    it(`${language}: leaves out what the entry does not have (an amount, a reason, a person, counts read as 0)`, () => {
      for (const [action, words] of missing) expect(auditSentence(sparse(action), names, language), action).toBe(`${ZARPAY[language]} ${words}`);
    });
  }

  it('names the actor: a person by e-mail, a removed person, the operator (by name), an API key, zarpay itself', () => {
    const actors = [PERSON_ACTOR, `merchant:11111111-1111-1111-1111-111111111111/person:${GONE}`, 'operator', 'operator:sipho', 'merchant:11111111-1111-1111-1111-111111111111', 'system:expiry', 'provider:yoco'];
    expect(actors.map((a) => actorWords(a, names))).toEqual(['thandi@shop.example', 'a removed person', 'The operator', 'The operator (sipho)', 'An API key', 'zarpay', 'provider:yoco']);
    expect(actors.map((a) => actorWords(a, names, 'af'))).toEqual(['thandi@shop.example', "'n verwyderde persoon", 'Die operateur', 'Die operateur (sipho)', "'n API-sleutel", 'zarpay', 'provider:yoco']);
    expect(actors.map((a) => actorWords(a, names, 'zu'))).toEqual(['thandi@shop.example', 'umuntu osusiwe', 'Umphathi', 'Umphathi (sipho)', 'Ukhiye we-API', 'U-zarpay', 'provider:yoco']);
    // Without the names of the merchant's people, every person reads as removed; English is the default.
    expect(actorWords(PERSON_ACTOR)).toBe('a removed person');
    expect(actorWords('operator:sipho')).toBe('The operator (sipho)');
    // Only a whole person id at the end of the label is a person.
    expect(actorWords(`merchant:11111111-1111-1111-1111-111111111111/person:${PERSON}/x`, names)).toBe('An API key');
    expect(actorWords(`merchant:11111111-1111-1111-1111-111111111111/person:${PERSON.slice(1)}`, names)).toBe('An API key');
    expect(actorWords(`merchant:11111111-1111-1111-1111-111111111111/person:${PERSON.replace('3', '_')}`, names)).toBe('An API key');
    expect(actorWords('operator-sipho')).toBe('operator-sipho');
    expect(actorWords('the merchant:x')).toBe('the merchant:x');
    expect(actorWords('the system:x')).toBe('the system:x');
    expect(actorWords('x operator:sipho')).toBe('x operator:sipho');
  });

  it('names the person an entry is about, or says the person was removed, in each language', () => {
    const about = (language: 'en' | 'af' | 'zu', personId: unknown) => auditSentence({ ...full('person.remove'), actor: PERSON_ACTOR, detail: { person_id: personId } }, names, language);
    expect(about('en', PERSON)).toBe('thandi@shop.example removed thandi@shop.example');
    expect(about('en', GONE)).toBe('thandi@shop.example removed a removed person');
    expect(about('af', GONE)).toBe("thandi@shop.example het 'n verwyderde persoon verwyder");
    expect(about('zu', GONE)).toBe('thandi@shop.example ususe umuntu osusiwe');
    expect(about('en', 42)).toBe('thandi@shop.example removed someone');
  });

  it('reads English when no language is given, and without names every person as removed', () => {
    const entry = { ...full('person.remove'), actor: PERSON_ACTOR };
    expect(auditSentence(entry)).toBe('a removed person removed a removed person');
    expect(auditSentence(entry, names)).toBe('thandi@shop.example removed thandi@shop.example');
  });

  it('names a payment\'s outcome in the dashboard\'s words; an outcome it does not know, as recorded', () => {
    const settled = (outcome: string, language: 'af' | 'zu') => auditSentence({ ...full('payment.settle'), detail: { outcome } }, names, language);
    const outcomes = ['created', 'initiated', 'awaiting_webhook', 'captured', 'failed', 'cancelled', 'refunded'];
    expect(outcomes.map((o) => settled(o, 'af'))).toEqual(
      ['geskep', 'begin', 'wag vir webhook', 'ontvang', 'misluk', 'gekanselleer', 'refunded'].map((w) => `zarpay het betaling 5e6f7a80 van R 250.00 as ${w} afgehandel`),
    );
    expect(outcomes.map((o) => settled(o, 'zu'))).toEqual(
      ['kwenziwe', 'kuqalisiwe', 'kulindwe i-webhook', 'kwamukelwe', 'kuhlulekile', 'kukhanselwe', 'refunded'].map((w) => `U-zarpay uqede inkokhelo 5e6f7a80 ka-R 250.00, isimo: ${w}`),
    );
    expect(auditSentence({ ...full('payment.settle'), detail: { outcome: 'failed' } })).toBe('zarpay settled payment 5e6f7a80 of R 250.00 as failed');
  });

  it('names a role in the reader\'s words; a role it does not know, as recorded', () => {
    const made = (role: string, language: 'en' | 'af' | 'zu') => auditSentence({ ...full('person.role'), detail: { person_id: PERSON, role } }, names, language);
    const roles = ['owner', 'developer', 'viewer', 'auditor'];
    expect(roles.map((r) => made(r, 'en'))).toEqual(roles.map((r) => `zarpay made thandi@shop.example ${r}`));
    expect(roles.map((r) => made(r, 'af'))).toEqual(['eienaar', 'ontwikkelaar', 'kyker', 'auditor'].map((w) => `zarpay het thandi@shop.example ${w} gemaak`));
    expect(roles.map((r) => made(r, 'zu'))).toEqual(['umnikazi', 'umthuthukisi', 'umbukeli', 'auditor'].map((w) => `U-zarpay unikeze thandi@shop.example indima: ${w}`));
    expect(auditSentence({ ...full('person.invite'), detail: { person_id: PERSON, role: 'owner' } }, names, 'af')).toBe('zarpay het thandi@shop.example as eienaar genooi');
    expect(auditSentence({ ...full('person.invite'), detail: { person_id: PERSON, role: 'developer' } }, names, 'zu')).toBe('U-zarpay umeme thandi@shop.example, indima: umthuthukisi');
  });

  it('shows a refund\'s amount only when it is a whole number of cents', () => {
    for (const amount_cents of [1.5, '1500', Number.MAX_SAFE_INTEGER + 1, null]) {
      const refund = { ...full('dashboard.refundPayment'), detail: { amount_cents } };
      expect(auditSentence(refund, names), String(amount_cents)).toBe('zarpay refunded payment 5e6f7a80');
      expect(auditSentence(refund, names, 'af'), String(amount_cents)).toBe('zarpay het betaling 5e6f7a80 terugbetaal');
      expect(auditSentence(refund, names, 'zu'), String(amount_cents)).toBe('U-zarpay ubuyisele inkokhelo 5e6f7a80');
    }
    expect(auditSentence({ ...full('dashboard.refundPayment'), detail: { amount_cents: 0 } }, names)).toBe('zarpay refunded R 0.00 of payment 5e6f7a80');
    expect(auditSentence({ ...full('payout_batch.export'), detail: { payouts: 2, total_cents: 1.5 } }, names)).toBe('zarpay exported a bank file of 2 payouts, R 0.00');
  });

  it('a payout or payment without its id, and an amount of zero, still read', () => {
    const entry = { ...full('payout.approve'), payoutId: null, amountCents: 0 };
    expect(auditSentence(entry, names)).toBe('zarpay approved payout  of R 0.00');
    expect(auditSentence(entry, names, 'af')).toBe('zarpay het uitbetaling  van R 0.00 goedgekeur');
    expect(auditSentence(entry, names, 'zu')).toBe('U-zarpay ugunyaze inkokhelo ephumayo  ka-R 0.00');
    expect(auditSentence({ ...full('payment.reconcile'), paymentId: null, amountCents: null }, names)).toBe('zarpay checked with the provider payment ');
  });

  it('reads an action it has no words for (one a newer version records) by its name', () => {
    const unknown = (action: string, language: 'en' | 'af' | 'zu' = 'en') => auditSentence({ ...full(action), actor: 'operator:sipho' }, names, language);
    expect(unknown('dashboard.exportLedger')).toBe('The operator (sipho) exportLedger');
    expect(unknown('payout.put_on_hold')).toBe('The operator (sipho) payout put on hold');
    expect(unknown('merchant.dashboard.seen')).toBe('The operator (sipho) merchant dashboard seen');
    expect(unknown('payout.put_on_hold', 'zu')).toBe('Umphathi (sipho) payout put on hold');
  });
});

describe('sealing.ts: data at rest', () => {
  const SECRET = 'test-service-secret-shared-by-every-child-process';
  /** The kid of the key HKDF derives from SECRET: `ss-` and 8 hex digits of HMAC(key, "kid"). */
  const DERIVED_KID = 'ss-20900864';
  const K1 = { kid: 'k1', key: Buffer.from(Array.from({ length: 32 }, (_, i) => i)) };
  const K2 = { kid: 'k2', key: Buffer.alloc(32, 7) };
  const PAYOUT = '9b2c7a10-0000-4000-8000-000000000000';
  const PAYMENT = '5e6f7a80-0000-4000-8000-000000000000';
  const PERSON = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
  // Sealed outside zarpay, with the iv 000102…0b: the layout and the key derivation are the contract.
  const SEALED_BY_DERIVED = Buffer.from(
    '010b73732d3230393030383634000102030405060708090a0bc008fcf049a8290797ad75abbc409ae6e2aad036dc5399caefe688c7bd8534b93ce1',
    'hex',
  );
  const SEALED_BY_K1 = Buffer.from('01026b31000102030405060708090a0baecada19ec36b7af571bb63879a353357630e52fe8d0f42cb56caebb80db555eb7e3b1', 'hex');
  const EMPTY_BY_K1 = Buffer.from('01026b31000102030405060708090a0b595e6f6920cd6684824392ee1d055b9a', 'hex');

  const sealError = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(SealError);
      expect((e as Error).name).toBe('SealError');
      return (e as Error).message;
    }
    throw new Error('did not throw');
  };

  it('without DATA_KEY, seals with the key derived from SERVICE_SECRET, under its fingerprint kid', () => {
    const ring = createKeyring(SECRET);
    expect(ring.currentKid).toBe(DERIVED_KID);
    expect(createKeyring(SECRET, []).currentKid).toBe(DERIVED_KID);
    expect(createKeyring('another-service-secret-of-32-chars!').currentKid).not.toBe(DERIVED_KID);
    expect(ring.open('payout-details', PAYOUT, SEALED_BY_DERIVED)).toBe('250655 62123456789');
    expect(ring.kidOf(SEALED_BY_DERIVED)).toBe(DERIVED_KID);
  });

  it('lays a sealed value out as version 1, kid length, kid, 12-byte iv, 16-byte tag, ciphertext', () => {
    const ring = createKeyring(SECRET, [K1]);
    const sealed = ring.seal('voucher-code', PAYMENT, '1234-5678-9012-3456');
    expect(sealed).toHaveLength(1 + 1 + 2 + 12 + 16 + 19);
    expect([...sealed.subarray(0, 4)]).toEqual([1, 2, 0x6b, 0x31]);
    expect(ring.kidOf(sealed)).toBe('k1');
    expect(ring.open('voucher-code', PAYMENT, sealed)).toBe('1234-5678-9012-3456');
    // A fresh iv each time: the same plaintext never seals to the same bytes.
    expect(ring.seal('voucher-code', PAYMENT, '1234-5678-9012-3456').equals(sealed)).toBe(false);
    // Text outside ASCII goes in as UTF-8 and comes out whole.
    const name = ring.seal('payee-details', PAYOUT, 'Ñandú Café ☕');
    expect(name).toHaveLength(2 + 2 + 12 + 16 + Buffer.byteLength('Ñandú Café ☕'));
    expect(ring.open('payee-details', PAYOUT, name)).toBe('Ñandú Café ☕');
    const empty = ring.seal('totp-secret', PERSON, '');
    expect(empty).toHaveLength(2 + 2 + 12 + 16);
    expect(ring.open('totp-secret', PERSON, empty)).toBe('');
  });

  it('opens values sealed outside zarpay with the same key, purpose and id (the envelope is the contract)', () => {
    const ring = createKeyring(SECRET, [K1]);
    expect(ring.open('voucher-code', PAYMENT, SEALED_BY_K1)).toBe('1234-5678-9012-3456');
    expect(ring.open('totp-secret', PERSON, EMPTY_BY_K1)).toBe('');
    // The derived key stays in the ring after a DATA_KEY is introduced, so old values still open.
    expect(ring.currentKid).toBe('k1');
    expect(ring.open('payout-details', PAYOUT, SEALED_BY_DERIVED)).toBe('250655 62123456789');
  });

  it('a value does not open as another purpose, for another row, or under another key of the same kid', () => {
    const ring = createKeyring(SECRET, [K1]);
    expect(sealError(() => ring.open('payout-details', PAYMENT, SEALED_BY_K1))).toBe(`a sealed payout-details value of ${PAYMENT} does not open under key k1`);
    expect(sealError(() => ring.open('voucher-code', PAYOUT, SEALED_BY_K1))).toBe(`a sealed voucher-code value of ${PAYOUT} does not open under key k1`);
    // `purpose:id` is what is bound, colon and all: the same characters split otherwise do not open.
    expect(sealError(() => ring.open('voucher-code', `:${PAYMENT}`, SEALED_BY_K1))).toBe(`a sealed voucher-code value of :${PAYMENT} does not open under key k1`);
    const wrong = createKeyring(SECRET, [{ kid: 'k1', key: K2.key }]);
    expect(sealError(() => wrong.open('voucher-code', PAYMENT, SEALED_BY_K1))).toBe(`a sealed voucher-code value of ${PAYMENT} does not open under key k1`);
    const tampered = Buffer.from(SEALED_BY_K1);
    tampered[tampered.length - 1]! ^= 1;
    expect(sealError(() => ring.open('voucher-code', PAYMENT, tampered))).toBe(`a sealed voucher-code value of ${PAYMENT} does not open under key k1`);
  });

  it('names a kid the ring does not have', () => {
    const ring = createKeyring(SECRET, [K2]);
    expect(sealError(() => ring.open('voucher-code', PAYMENT, SEALED_BY_K1))).toBe('sealed with key k1, which is not in DATA_KEY (nor derived from SERVICE_SECRET)');
    expect(ring.kidOf(SEALED_BY_K1)).toBe('k1');
    // Another SERVICE_SECRET derives another key: the old derived kid is unknown.
    expect(sealError(() => createKeyring('another-service-secret-of-32-chars!').open('payout-details', PAYOUT, SEALED_BY_DERIVED))).toBe(
      `sealed with key ${DERIVED_KID}, which is not in DATA_KEY (nor derived from SERVICE_SECRET)`,
    );
  });

  it('the first DATA_KEY seals; every key of the ring opens', () => {
    const ring = createKeyring(SECRET, [K2, K1]);
    expect(ring.currentKid).toBe('k2');
    const sealed = ring.seal('bank-report', PAYOUT, 'report');
    expect(ring.kidOf(sealed)).toBe('k2');
    expect(createKeyring(SECRET, [K2]).open('bank-report', PAYOUT, sealed)).toBe('report');
    expect(ring.open('voucher-code', PAYMENT, SEALED_BY_K1)).toBe('1234-5678-9012-3456');
    expect(ring.open('payout-details', PAYOUT, SEALED_BY_DERIVED)).toBe('250655 62123456789');
  });

  it('reads a sealed value handed back as a plain Uint8Array (embedded PostgreSQL bytea) like a Buffer', () => {
    const ring = createKeyring(SECRET, [K1]);
    const plain = new Uint8Array(SEALED_BY_K1);
    expect(Buffer.isBuffer(plain)).toBe(false);
    expect(ring.kidOf(plain as Buffer)).toBe('k1');
    expect(ring.open('voucher-code', PAYMENT, plain as Buffer)).toBe('1234-5678-9012-3456');
  });

  it('refuses what is not a sealed value of version 1, or is shorter than its header, iv and tag', () => {
    const ring = createKeyring(SECRET, [K1]);
    expect(sealError(() => ring.kidOf(Buffer.alloc(0)))).toBe('not a sealed value of a known version');
    expect(sealError(() => ring.kidOf(Buffer.from([1])))).toBe('not a sealed value of a known version');
    const v2 = Buffer.from(EMPTY_BY_K1);
    v2[0] = 2;
    expect(sealError(() => ring.kidOf(v2))).toBe('not a sealed value of a known version');
    expect(sealError(() => ring.open('totp-secret', PERSON, v2))).toBe('not a sealed value of a known version');
    // Two bytes is a header with an empty kid and nothing after it: truncated, not unknown.
    expect(sealError(() => ring.kidOf(Buffer.from([1, 0])))).toBe('sealed value is truncated');
    // Exactly header + kid + iv + tag is whole (an empty plaintext); one byte less is not.
    expect(ring.kidOf(EMPTY_BY_K1)).toBe('k1');
    expect(sealError(() => ring.kidOf(EMPTY_BY_K1.subarray(0, EMPTY_BY_K1.length - 1)))).toBe('sealed value is truncated');
    expect(sealError(() => ring.open('totp-secret', PERSON, EMPTY_BY_K1.subarray(0, EMPTY_BY_K1.length - 1)))).toBe('sealed value is truncated');
    // A kid length that runs past the end.
    expect(sealError(() => ring.kidOf(Buffer.from([1, 200, 0x6b, 0x31])))).toBe('sealed value is truncated');
  });

  it('openOrNull: the plaintext, or null when it will not open; other failures are not hidden', () => {
    const ring = createKeyring(SECRET, [K1]);
    expect(openOrNull(ring, 'voucher-code', PAYMENT, SEALED_BY_K1)).toBe('1234-5678-9012-3456');
    expect(openOrNull(ring, 'voucher-code', PAYOUT, SEALED_BY_K1)).toBeNull();
    expect(openOrNull(createKeyring(SECRET, [K2]), 'voucher-code', PAYMENT, SEALED_BY_K1)).toBeNull();
    expect(openOrNull(ring, 'voucher-code', PAYMENT, Buffer.from('plain text'))).toBeNull();
    const broken: Keyring = { ...ring, open: () => { throw new TypeError('the database handed back a number'); } };
    expect(() => openOrNull(broken, 'voucher-code', PAYMENT, SEALED_BY_K1)).toThrow(new TypeError('the database handed back a number'));
  });

  it('kidOrUnknown: the kid a value names, or ? when it is no sealed value', () => {
    const ring = createKeyring(SECRET);
    expect(kidOrUnknown(ring, SEALED_BY_K1)).toBe('k1');
    expect(kidOrUnknown(ring, SEALED_BY_DERIVED)).toBe(DERIVED_KID);
    expect(kidOrUnknown(ring, Buffer.from('62123456789'))).toBe('?');
    expect(kidOrUnknown(ring, Buffer.alloc(0))).toBe('?');
  });

  it('digests with a key of SERVICE_SECRET alone, per purpose, the same across data-key rotations', () => {
    const request = 'a7de34e13e2e79a638ea0542ac82771c7d7a8f391aee571016f9332890ac793d';
    expect(createKeyring(SECRET).digest('request', '+27825550101').toString('hex')).toBe(request);
    expect(createKeyring(SECRET, [K2, K1]).digest('request', '+27825550101').toString('hex')).toBe(request);
    expect(createKeyring(SECRET).digest('payee-details', '250655 62123456789').toString('hex')).toBe('3ca67921f6bda1e65c5968b817f8f2d0c454c631bff1fdc60d174424a1f22a06');
    expect(createKeyring(SECRET).digest('payee-details', '+27825550101').toString('hex')).not.toBe(request);
    expect(createKeyring('another-service-secret-of-32-chars!').digest('request', '+27825550101').toString('hex')).not.toBe(request);
  });

  it('lists each key\'s check value, DATA_KEY keys first and the derived key last', () => {
    const derivedCheck = '6e46b0463a39a46d33a4144771a8c1199937d24e436bad989d1780375d6441d3';
    const k1Check = 'a5fec3eb278d2d00cf7894d2707c155083886178a979b506eed8231c8fefcb2f';
    const hex = (ring: Keyring) => ring.checks().map((c) => ({ kid: c.kid, check: c.check.toString('hex') }));
    expect(hex(createKeyring(SECRET))).toEqual([{ kid: DERIVED_KID, check: derivedCheck }]);
    expect(hex(createKeyring(SECRET, [K1]))).toEqual([{ kid: 'k1', check: k1Check }, { kid: DERIVED_KID, check: derivedCheck }]);
    // A DATA_KEY given the derived key's kid is the key under that kid: the derived one does not replace it.
    expect(hex(createKeyring(SECRET, [{ kid: DERIVED_KID, key: K1.key }]))).toEqual([{ kid: DERIVED_KID, check: k1Check }]);
  });

  it('masks an account number to its last four digits, and fingerprints a key without showing it', () => {
    expect(maskAccountNumber('62123456789')).toBe('****6789');
    expect(maskAccountNumber('6789')).toBe('****6789');
    expect(maskAccountNumber('89')).toBe('****89');
    expect(keyFingerprint(Buffer.alloc(32))).toBe('66687aad');
    expect(keyFingerprint(K1.key)).toBe('630dcd29');
  });
});

describe('second-factor.ts: TOTP and recovery codes', () => {
  /** RFC 6238 appendix B's SHA-1 secret, the ASCII "12345678901234567890", in base32. */
  const RFC = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
  const s = (seconds: number) => seconds * 1000;

  it('gives RFC 6238\'s published codes (their last six digits) at RFC 6238\'s instants', () => {
    expect(totpCode(RFC, s(59))).toBe('287082');
    expect(totpCode(RFC, s(1111111109))).toBe('081804');
    expect(totpCode(RFC, s(1111111111))).toBe('050471');
    expect(totpCode(RFC, s(1234567890))).toBe('005924');
    expect(totpCode(RFC, s(2000000000))).toBe('279037');
    expect(totpCode(RFC, s(20000000000))).toBe('353130');
    // 30-second steps: RFC 4226's codes for counters 0, 1 and 2.
    expect([0, 29, 30, 59, 60].map((t) => totpCode(RFC, s(t)))).toEqual(['755224', '755224', '287082', '287082', '359152']);
  });

  it('gives the otpauth:// URI an authenticator app reads: issuer zarpay, the person\'s e-mail, SHA1, 6 digits, 30 s', () => {
    expect(totpUri(RFC, 'thandi@shop.example')).toBe(`otpauth://totp/zarpay:thandi%40shop.example?issuer=zarpay&secret=${RFC}&algorithm=SHA1&digits=6&period=30`);
  });

  it('makes a fresh 20-byte secret in base32 each time', () => {
    const a = newTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(a);
    expect(totpCode(a, s(59))).toMatch(/^\d{6}$/);
  });

  it('accepts the code of now, of one step before and of one step after, as the step it belongs to', () => {
    const step = 37037036; // 1111111109 s / 30
    expect(acceptedStep(RFC, '081804', null, s(1111111109))).toBe(step);
    expect(acceptedStep(RFC, '081804', null, s(1111111109 + 30))).toBe(step);
    expect(acceptedStep(RFC, '081804', null, s(1111111109 - 30))).toBe(step);
    expect(acceptedStep(RFC, '081804', null, s(1111111109 + 60))).toBeNull();
    expect(acceptedStep(RFC, '081804', null, s(1111111109 - 60))).toBeNull();
    expect(acceptedStep(RFC, '081805', null, s(1111111109))).toBeNull();
    // The very first step, 0, is a step like any other.
    expect(acceptedStep(RFC, '755224', null, s(10))).toBe(0);
    expect(acceptedStep(RFC, '287082', null, s(10))).toBe(1);
  });

  it('reads a code typed with spaces; refuses one of another length or with letters', () => {
    expect(acceptedStep(RFC, '081 804', null, s(1111111109))).toBe(37037036);
    expect(acceptedStep(RFC, ' 081804\n', null, s(1111111109))).toBe(37037036);
    expect(acceptedStep(RFC, '81804', null, s(1111111109))).toBeNull();
    expect(acceptedStep(RFC, '0081804', null, s(1111111109))).toBeNull();
    expect(acceptedStep(RFC, '08180a', null, s(1111111109))).toBeNull();
    expect(acceptedStep(RFC, '', null, s(1111111109))).toBeNull();
  });

  it('never accepts a step twice, nor one before the last accepted (RFC 6238 §5.2)', () => {
    const at = s(1111111109);
    expect(acceptedStep(RFC, '081804', 37037035, at)).toBe(37037036);
    expect(acceptedStep(RFC, '081804', 37037036, at)).toBeNull();
    expect(acceptedStep(RFC, '081804', 37037037, at)).toBeNull();
    expect(acceptedStep(RFC, '755224', 0, s(10))).toBeNull();
    expect(acceptedStep(RFC, '287082', 0, s(10))).toBe(1);
  });

  it('reads the clock when no instant is given', () => {
    const secret = newTotpSecret();
    expect(acceptedStep(secret, totpCode(secret), null)).toBe(Math.floor(Date.now() / 30_000));
  });

  it('issues ten recovery codes, xxxxx-xxxxx, without the letters and digits people confuse', () => {
    expect(RECOVERY_CODES).toBe(10);
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
    expect(newRecoveryCodes(3)).toHaveLength(3);
    for (const c of codes) expect(isRecoveryCode(c), c).toBe(true);
  });

  it('tells a recovery code from a TOTP code, in any case, with or without its dash or spaces', () => {
    for (const yes of ['abcde-fghjk', 'ABCDE-FGHJK', 'abcdefghjk', 'abcde fghjk', ' abcde-fghjk ', 'a2c4e-6g8j9', '12345abcde', 'abcde12345']) expect(isRecoveryCode(yes), yes).toBe(true);
    for (const no of ['287082', '287 082', '1234567890', '12345-67890', '12345 67890', 'abcd-efghj', 'abcde-fghjkm', 'abcde_fghjk', '!abcdefghjk', 'abcdefghjk!', 'abcde-fghj!', '']) expect(isRecoveryCode(no), no).toBe(false);
  });

  it('digests a recovery code the same however it was typed, and differently from any other code', () => {
    // SHA-256 of `zarpay recovery v1`, a NUL and the code in lower case without its dash.
    const digest = 'e979adad9b353e4db7eaed11c7f7b7149f54ff0d2a0867e4f58afdcc6fea82b8';
    expect(recoveryDigest('abcde-fghjk').toString('hex')).toBe(digest);
    for (const same of ['ABCDE-FGHJK', 'abcdefghjk', 'abcde fghjk', ' Abcde-Fghjk ']) expect(recoveryDigest(same).toString('hex'), same).toBe(digest);
    expect(recoveryDigest('abcde-fghjm').toString('hex')).not.toBe(digest);
  });

  it('takes a 6-digit code or a recovery code, trimmed, up to 32 characters', () => {
    expect(codeSchema.parse(' 081804 ')).toBe('081804');
    expect(codeSchema.parse('abcde-fghjk')).toBe('abcde-fghjk');
    expect(codeSchema.parse('x'.repeat(32))).toBe('x'.repeat(32));
    const short = codeSchema.safeParse(' 12345 ');
    expect(short.success).toBe(false);
    expect(short.error!.issues[0]!.message).toBe('must be the 6-digit code or a recovery code');
    expect(codeSchema.safeParse('x'.repeat(33)).success).toBe(false);
  });
});

describe('customer-email.ts: the customer\'s e-mails', () => {
  const facts: ConfirmationFacts = {
    paymentId: PAYMENT_ID,
    merchantName: 'Kasi Coffee',
    amountCents: 12_345,
    merchantOrderId: 'ORD-7781',
    intentType: 'purchase',
    description: 'Two flat whites',
    voucherCode: '1234-5678-9012-3456',
    paidAt: new Date('2026-11-25T10:04:59.999Z'),
  };

  it('confirms a purchase with its amount, order, description, time in UTC, reference and voucher code', () => {
    expect(confirmationEmail(facts)).toEqual({
      subject: 'Your payment of R 123.45 to Kasi Coffee',
      text: [
        'Thank you for your payment to Kasi Coffee.',
        '',
        'Amount paid: R 123.45',
        'Order: ORD-7781',
        'For: Two flat whites',
        'Paid at: 2026-11-25 10:04 UTC',
        `Payment reference: ${PAYMENT_ID}`,
        '',
        'Your voucher code: 1234-5678-9012-3456',
        'Keep this code: you need it to use your voucher. Anyone who has it can use it.',
        '',
        'If you did not make this payment, contact Kasi Coffee and quote the payment reference.',
        '',
      ].join('\n'),
    });
  });

  it('says a purchase_and_redeem voucher was redeemed and never shows its code; no description, no "For:" line', () => {
    expect(confirmationEmail({ ...facts, intentType: 'purchase_and_redeem', description: null }).text).toBe(
      [
        'Thank you for your payment to Kasi Coffee.',
        '',
        'Amount paid: R 123.45',
        'Order: ORD-7781',
        'Paid at: 2026-11-25 10:04 UTC',
        `Payment reference: ${PAYMENT_ID}`,
        '',
        'Your voucher has been redeemed with Kasi Coffee.',
        '',
        'If you did not make this payment, contact Kasi Coffee and quote the payment reference.',
        '',
      ].join('\n'),
    );
    expect(confirmationEmail({ ...facts, intentType: 'purchase_and_redeem', description: '' }).text).not.toContain('For:');
  });

  it('a purchase without a voucher code says nothing of a voucher', () => {
    expect(confirmationEmail({ ...facts, voucherCode: null, description: null }).text).toBe(
      [
        'Thank you for your payment to Kasi Coffee.',
        '',
        'Amount paid: R 123.45',
        'Order: ORD-7781',
        'Paid at: 2026-11-25 10:04 UTC',
        `Payment reference: ${PAYMENT_ID}`,
        '',
        'If you did not make this payment, contact Kasi Coffee and quote the payment reference.',
        '',
      ].join('\n'),
    );
  });

  it('puts the merchant\'s text on one line: no line break reaches the subject header or splits a line', () => {
    const mail = confirmationEmail({ ...facts, merchantName: ' Kasi\r\n\tCoffee\r\nBcc: all@evil.example ', merchantOrderId: 'ORD\n7781', description: 'Two\r\nflat whites\t' });
    expect(mail.subject).toBe('Your payment of R 123.45 to Kasi Coffee Bcc: all@evil.example');
    expect(mail.text.split('\n').slice(0, 5)).toEqual(['Thank you for your payment to Kasi Coffee Bcc: all@evil.example.', '', 'Amount paid: R 123.45', 'Order: ORD 7781', 'For: Two flat whites']);
  });

  it('cuts the subject at 200 characters; the text keeps the whole name', () => {
    const name = 'A'.repeat(250);
    const mail = confirmationEmail({ ...facts, merchantName: name });
    expect(mail.subject).toBe(`Your payment of R 123.45 to ${'A'.repeat(172)}`);
    expect(mail.text.startsWith(`Thank you for your payment to ${name}.\n`)).toBe(true);
  });

  it('asks for a payment: who, how much, for what, the one link, the order', () => {
    const request = { merchantName: 'Kasi Coffee', amountCents: 12_345, description: 'Two flat whites', merchantOrderId: 'ORD-7781', paymentUrl: `https://pay.zarpay.example/pay/${PAYMENT_ID}` };
    expect(paymentRequestEmail(request)).toEqual({
      subject: 'Kasi Coffee asks you to pay R 123.45',
      text: [
        'Kasi Coffee asks you to pay R 123.45 for Two flat whites.',
        '',
        `Pay here: https://pay.zarpay.example/pay/${PAYMENT_ID}`,
        '',
        'Order: ORD-7781',
        'If you were not expecting this request, do not pay it: contact Kasi Coffee.',
        '',
      ].join('\n'),
    });
    expect(paymentRequestEmail({ ...request, description: null }).text.split('\n')[0]).toBe('Kasi Coffee asks you to pay R 123.45.');
    const folded = paymentRequestEmail({ ...request, merchantName: 'Kasi\r\nCoffee ', description: 'Two\nflat whites', merchantOrderId: 'ORD\t7781' });
    expect(folded.subject).toBe('Kasi Coffee asks you to pay R 123.45');
    expect(folded.text.split('\n')).toEqual([
      'Kasi Coffee asks you to pay R 123.45 for Two flat whites.',
      '',
      `Pay here: https://pay.zarpay.example/pay/${PAYMENT_ID}`,
      '',
      'Order: ORD 7781',
      'If you were not expecting this request, do not pay it: contact Kasi Coffee.',
      '',
    ]);
    expect(paymentRequestEmail({ ...request, merchantName: 'B'.repeat(250) }).subject).toBe('B'.repeat(200));
  });
});

describe('customer-sms.ts: the customer\'s SMS', () => {
  const facts: ConfirmationFacts = {
    paymentId: PAYMENT_ID,
    merchantName: 'Kasi Coffee',
    amountCents: 12_345,
    merchantOrderId: 'ORD-7781',
    intentType: 'purchase',
    description: null,
    voucherCode: '1234-5678-9012-3456',
    paidAt: new Date('2026-11-25T10:00:00Z'),
  };

  it('knows GSM 03.38\'s basic set: one septet each; the extension table and the rest are not in it', () => {
    expect(SMS_LIMIT).toBe(160);
    expect(isGsm7('')).toBe(true);
    expect(isGsm7('Café Ñandú? No: Crème @ R 5.00 £ ¥ § ¿ ¡ Δ Ω ß Ä ö ü à\r\n')).toBe(false); // ú is not in it
    expect(isGsm7('Café Ñandu? No: Crème @ R 5.00 £ ¥ § ¿ ¡ Δ Ω ß Ä ö ü à\r\n')).toBe(true);
    for (const ch of ['€', '{', '}', '[', ']', '~', '|', '\\', '^', '\t', '’', 'ô', '☕']) expect(isGsm7(`a${ch}b`), ch).toBe(false);
  });

  it('folds merchant text into GSM-7 on one line: plain quotes and dashes, accents it lacks dropped, the rest ?', () => {
    expect(gsm7('  Kasi\r\n\tCoffee  ')).toBe('Kasi Coffee');
    expect(gsm7('a\r\n\r\nb')).toBe('a b');
    expect(gsm7('‘one’ ‚two‛ ′')).toBe("'one' 'two' '");
    expect(gsm7('“one” „two‟ ″')).toBe('"one" "two" "');
    expect(gsm7('a‐b‑c‒d–e—f―g')).toBe('a-b-c-d-e-f-g');
    expect(gsm7('Wait…')).toBe('Wait...');
    expect(gsm7('Crème brûlée à la carte, Ñandú, Łódź')).toBe('Crème brulée à la carte, Ñandu, ?odz');
    expect(gsm7('Coffee ☕ €5 {x}')).toBe('Coffee ? ?5 ?x?');
    // A sign that is another letter written twice in Unicode folds to the letter: Ω (ohm) is Ω.
    expect(gsm7('10 \u2126')).toBe('10 Ω');
    // An accent written after its letter is the same accent: kept where GSM-7 has the letter, dropped where not.
    expect(gsm7('Cafe\u0301 cre\u0300me bru\u0302le\u0301e')).toBe('Café crème brulée');
    expect(gsm7('x\u0301')).toBe('x');
  });

  it('takes out of merchant text whatever a phone would make a link of', () => {
    expect(withoutLinks('https://evil.example/x')).toBe('evil example/x');
    expect(withoutLinks('Pay at HTTPS://Evil.Example/x now')).toBe('Pay at Evil Example/x now');
    expect(withoutLinks('svn+ssh://host.example')).toBe('host example');
    expect(withoutLinks('pay@evil.com')).toBe('pay@evil com');
    expect(withoutLinks('www.evil.co.za')).toBe('www evil co za');
    expect(withoutLinks('v2.shop')).toBe('v2 shop');
    expect(withoutLinks('10.0.0.1/login')).toBe('10 0 0 1/login');
    expect(withoutLinks('at 192.168.100.254:8080')).toBe('at 192 168 100 254:8080');
    // Dots that join numbers, or stand at a word's end or start, are no link.
    expect(withoutLinks('INV.2026.0042')).toBe('INV.2026.0042');
    expect(withoutLinks('Kasi Pty. Ltd.')).toBe('Kasi Pty. Ltd.');
    expect(withoutLinks('.com')).toBe('.com');
    expect(withoutLinks('a.1')).toBe('a.1');
    expect(withoutLinks('1234.5.6.7')).toBe('1234.5.6.7');
    expect(withoutLinks('1.2.3.4567')).toBe('1.2.3.4567');
  });

  it('confirms a purchase in one SMS with the voucher code and its warning', () => {
    expect(confirmationSms(facts)).toBe('Kasi Coffee: payment of R 123.45 received, order ORD-7781. Voucher code: 1234-5678-9012-3456. Anyone with this code can use it.');
  });

  it('says a purchase_and_redeem voucher was redeemed, without its code; a purchase without a code says nothing of one', () => {
    expect(confirmationSms({ ...facts, intentType: 'purchase_and_redeem' })).toBe('Kasi Coffee: payment of R 123.45 received, order ORD-7781. Your voucher has been redeemed.');
    expect(confirmationSms({ ...facts, voucherCode: null })).toBe('Kasi Coffee: payment of R 123.45 received, order ORD-7781.');
  });

  it('keeps the warning while it fits in 160 characters, and drops it, never the code, from 161', () => {
    // 30 + 22 characters of name and order: exactly 160 with the warning.
    const fits = confirmationSms({ ...facts, merchantName: 'Kasi Coffee Roasters of Soweto', merchantOrderId: 'ORD-2026-11-25-0001234' });
    expect(fits).toBe('Kasi Coffee Roasters of Soweto: payment of R 123.45 received, order ORD-2026-11-25-0001234. Voucher code: 1234-5678-9012-3456. Anyone with this code can use it.');
    expect(fits).toHaveLength(160);
    const over = confirmationSms({ ...facts, merchantName: 'Kasi Coffee Roasters of Soweto', merchantOrderId: 'ORD-2026-11-25-00012345' });
    expect(over).toBe('Kasi Coffee Roasters of Soweto: payment of R 123.45 received, order ORD-2026-11-25-00012345. Voucher code: 1234-5678-9012-3456');
  });

  it('shortens the merchant name to 40 and the order to 30 characters, at a word\'s end without its space', () => {
    const long = confirmationSms({ ...facts, amountCents: 300_000, merchantName: 'Ñandú’s “Very” Long — Café and Bakery of Soweto Extension 12 ☕', merchantOrderId: 'O'.repeat(255) });
    expect(long).toBe(`Ñandu's "Very" Long - Café and Bakery of: payment of R 3000.00 received, order ${'O'.repeat(30)}. Voucher code: 1234-5678-9012-3456`);
    // Exactly 40 and 30 characters are kept whole.
    const whole = confirmationSms({ ...facts, voucherCode: null, merchantName: 'N'.repeat(40), merchantOrderId: 'O'.repeat(30) });
    expect(whole).toBe(`${'N'.repeat(40)}: payment of R 123.45 received, order ${'O'.repeat(30)}.`);
    // A cut that ends at a space loses the space.
    const atSpace = confirmationSms({ ...facts, voucherCode: null, merchantName: 'Kasi Coffee Roasters and Bakery, Soweto East' });
    expect(atSpace).toBe('Kasi Coffee Roasters and Bakery, Soweto: payment of R 123.45 received, order ORD-7781.');
  });

  it('takes links out of the name and order before it shortens them', () => {
    expect(confirmationSms({ ...facts, voucherCode: null, merchantName: 'www.evil.co.za', merchantOrderId: 'https://evil.example/x' })).toBe('www evil co za: payment of R 123.45 received, order evil example/x.');
    // A scheme at the end of a name goes, and leaves the space before it.
    expect(confirmationSms({ ...facts, voucherCode: null, merchantName: 'Kasi Coffee https://' })).toBe('Kasi Coffee : payment of R 123.45 received, order ORD-7781.');
    // What is left is shortened only past 40 characters: exactly 40, its last a space, stays as it is.
    expect(confirmationSms({ ...facts, voucherCode: null, merchantName: 'Kasi Coffee Roasters of Soweto Ext. 123 https://' })).toBe(
      'Kasi Coffee Roasters of Soweto Ext. 123 : payment of R 123.45 received, order ORD-7781.',
    );
  });

  it('a voucher code too long for even the short line still goes whole, the head cut to make room', () => {
    const code = 'V'.repeat(80);
    const sms = confirmationSms({ ...facts, merchantName: 'Kasi Coffee Roasters of Soweto', voucherCode: code });
    expect(sms).toBe(`Kasi Coffee Roasters of Soweto: payment of R 123.45 received, ord Voucher code: ${code}`);
    expect(sms).toHaveLength(160);
  });
});
