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

/** Who an actor label names, in words; `names` gives people's e-mail addresses by person id. */
export function actorWords(actor: string, names: ReadonlyMap<string, string> = new Map()): string {
  const person = /\/person:([0-9a-f-]{36})$/.exec(actor)?.[1];
  if (person) return names.get(person) ?? 'a removed person';
  if (actor === 'operator') return 'The operator';
  if (actor.startsWith('operator:')) return `The operator (${actor.slice('operator:'.length)})`;
  if (actor.startsWith('merchant:')) return 'An API key';
  if (actor.startsWith('system:')) return 'zarpay';
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
  return `${verb} ${amount !== null ? `${formatRand(amount)} ` : ''}of payment ${short(f.paymentId)}`;
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

/** The entry as a sentence; an action without words (recorded by a newer version) still reads. */
export function auditSentence(f: AuditFacts, names: ReadonlyMap<string, string> = new Map()): string {
  const about = (personId: unknown) => (typeof personId === 'string' ? (names.get(personId) ?? 'a removed person') : 'someone');
  const words = AUDIT_WORDS[f.action];
  const what = words ? words(f, about) : f.action.replace(/^dashboard\./, '').replace(/[._]/g, ' ');
  return `${actorWords(f.actor, names)} ${what}`;
}
