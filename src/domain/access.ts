import type { Actor, MerchantActor } from './actor.ts';
import { AppError } from './errors.ts';
import type { Role } from './people.ts';

/**
 * Who may do what for a merchant, as one table (CONTRACT §10–11; docs/access.md prints it and
 * test/access.test.ts walks every row through both APIs). Whatever the credential, it reaches no
 * further than the person or system behind it: a session carries its person's role, and a key
 * the role of whoever issued it (`ApiKeyRecord.role`), lowered with that person's and revoked when
 * they are removed. People are managed from an owner's session alone: a key is a machine's
 * credential, and no machine hires or fires.
 *
 * The operator and zarpay's own work are not merchants' credentials: what they may do is decided
 * by each use case (`requireOperator`), not here.
 */

/** What a merchant's credential may be asked to do. */
export const ACTIONS = [
  'read',
  'audit.read',
  'payments.create',
  'payments.request',
  'refunds.create',
  'payouts.create',
  'keys.manage',
  'webhooks.manage',
  'settings.update',
  'people.manage',
  'profile.update',
  'payees.manage',
] as const;
export type Action = (typeof ACTIONS)[number];

/** The kinds of credential a merchant's caller holds. */
export type Credential = 'session' | 'key';

export interface AccessRule {
  /** The roles that may, whatever the credential carries. */
  roles: readonly Role[];
  /** The credentials it may come with. */
  credentials: readonly Credential[];
  /** What it covers, in words (docs/access.md). */
  covers: string;
}

const EVERY_ROLE = ['owner', 'developer', 'viewer'] as const;
const BOTH = ['session', 'key'] as const;

export const ACCESS: Readonly<Record<Action, AccessRule>> = {
  read: { roles: EVERY_ROLE, credentials: BOTH, covers: 'reading payments, payouts, refunds, the balance, statements, keys, people, webhook deliveries and events' },
  'audit.read': { roles: ['owner'], credentials: BOTH, covers: 'reading the audit log (who did what)' },
  'payments.create': { roles: ['owner'], credentials: BOTH, covers: 'initiating payments, and creating and switching off payment links' },
  'payments.request': { roles: ['owner'], credentials: BOTH, covers: 'sending a customer a one-off payment request by e-mail (a payment and its page)' },
  'refunds.create': { roles: ['owner'], credentials: BOTH, covers: 'refunding payments' },
  'payouts.create': { roles: ['owner'], credentials: BOTH, covers: 'creating payouts' },
  'keys.manage': { roles: ['owner', 'developer'], credentials: BOTH, covers: 'issuing, regenerating and revoking API keys, up to the caller\'s own role' },
  'webhooks.manage': { roles: ['owner', 'developer'], credentials: BOTH, covers: 'the webhook URL, signing secrets and redeliveries' },
  'settings.update': { roles: ['owner'], credentials: BOTH, covers: 'the redirect allow-list, support contact and the ways to pay the page offers' },
  'people.manage': { roles: ['owner'], credentials: ['session'], covers: 'inviting and removing people, changing their roles, demanding a second factor of everyone' },
  'profile.update': { roles: EVERY_ROLE, credentials: ['session'], covers: 'a person\'s own second factor and language' },
  // Adding a payee takes the person's password again (services/step-up.ts): only a person has one.
  'payees.manage': { roles: ['owner'], credentials: ['session'], covers: 'adding saved payees (with the password re-entered) and removing them' },
};

/** Roles from the least to the most: a credential never reaches further than the role it carries. */
const RANK: Readonly<Record<Role, number>> = { viewer: 0, developer: 1, owner: 2 };

/** The lesser of two roles. */
export const lesserRole = (a: Role, b: Role): Role => (RANK[a] <= RANK[b] ? a : b);

/** Whether `role` reaches at least as far as `other`. */
export const roleCovers = (role: Role, other: Role): boolean => RANK[role] >= RANK[other];

/** The role a merchant's caller acts with: a person's own, or the one its key carries. */
export function roleOf(actor: MerchantActor): Role {
  return actor.person ? actor.person.role : actor.key.role;
}

const credentialOf = (actor: MerchantActor): Credential => (actor.person ? 'session' : 'key');

/** Why `actor` may not take `action`, in words; undefined when it may. */
export function refusal(actor: MerchantActor, action: Action): string | undefined {
  const rule = ACCESS[action];
  const credential = credentialOf(actor);
  if (!rule.credentials.includes(credential)) {
    return `an API key may not do this (${action}): it needs an owner signed in to the dashboard`;
  }
  const role = roleOf(actor);
  if (rule.roles.includes(role)) return undefined;
  return credential === 'key' ? `this API key carries the ${role} role, which may not do this (${action})` : `your role (${role}) may not do this (${action})`;
}

/** Whether `actor` may take `action` (anyone but a merchant's caller is decided by the use case). */
export function may(actor: Actor | undefined, action: Action): boolean {
  return actor?.kind !== 'merchant' || refusal(actor, action) === undefined;
}

/** FORBIDDEN unless `actor` may take `action`: the check every use case and both adapters share. */
export function authorize(actor: Actor, action: Action): void {
  if (actor.kind !== 'merchant') return;
  const why = refusal(actor, action);
  if (why) throw new AppError('FORBIDDEN', why);
}
