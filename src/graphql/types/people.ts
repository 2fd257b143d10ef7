import { z } from 'zod';
import { requireMerchant } from '../../domain/actor.ts';
import { AppError } from '../../domain/errors.ts';
import { emailSchema, type Person } from '../../domain/people.ts';
import { codeSchema } from '../../domain/second-factor.ts';
import type { PersonProfile } from '../../services/profile.ts';
import { actorOf, builder } from '../builder.ts';
import { validated } from '../validation.ts';
import { PersonRoleEnum } from './enums.ts';

/** The merchant dashboard's people (CONTRACT §10): who may sign in for a merchant, and with which role. */

export const PersonRef = builder.objectRef<Person>('Person').implement({
  description: 'One of a merchant\'s people: signs in to the dashboard with an e-mail address and a password.',
  fields: (t) => ({
    active: t.exposeBoolean('active', { description: 'Whether the invite was accepted (a password is set).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When they were first invited.' }),
    email: t.exposeString('email', { description: 'Their e-mail address, lower case: what they sign in with.' }),
    id: t.expose('id', { type: 'UUID', description: 'The person id (named in the audit log).' }),
    merchantId: t.expose('merchantId', { type: 'UUID', description: 'Whose person.' }),
    role: t.expose('role', { type: PersonRoleEnum, description: 'What they may do.' }),
  }),
});

const LanguageEnum = builder.enumType('PersonLanguage', {
  description: 'The language the dashboard speaks to a person (the hosted page\'s three).',
  values: {
    AF: { value: 'af', description: 'Afrikaans.' },
    EN: { value: 'en', description: 'English.' },
    ZU: { value: 'zu', description: 'isiZulu.' },
  },
});

type SignedIn = { personId: string; email: string; role: Person['role']; profile: PersonProfile };

const SignedInRef = builder.objectRef<SignedIn>('SignedInPerson').implement({
  description: 'The person whose dashboard session made this request, with their own settings.',
  fields: (t) => ({
    email: t.exposeString('email', { description: 'Their e-mail address.' }),
    language: t.field({ type: LanguageEnum, description: 'The language the dashboard speaks to them (kept with them: it survives sign-out).', resolve: (p) => p.profile.language }),
    personId: t.expose('personId', { type: 'UUID', description: 'Their person id.' }),
    recoveryCodesLeft: t.int({ description: 'How many of their recovery codes are unused.', resolve: (p) => p.profile.recoveryCodesLeft }),
    role: t.expose('role', { type: PersonRoleEnum, description: 'Their role.' }),
    secondFactor: t.boolean({ description: 'Whether sign-in asks them for a code of their authenticator app (TOTP).', resolve: (p) => p.profile.secondFactor }),
    secondFactorRequired: t.boolean({ description: 'Whether their merchant demands a second factor of everyone.', resolve: (p) => p.profile.secondFactorRequired }),
  }),
});

const SecondFactorSetupRef = builder.simpleObject('SecondFactorSetup', {
  description: 'A TOTP secret being set up: scan the QR code (or type the secret) into an authenticator app, then confirm with a code.',
  fields: (t) => ({
    otpauthUri: t.string({ description: 'The `otpauth://totp/…` URI (RFC 6238: SHA-1, 6 digits, 30 seconds).' }),
    qrCode: t.string({ description: 'The URI as a QR image, a `data:image/png;base64,…` URL.' }),
    secret: t.string({ description: 'The secret in base32, to type by hand.' }),
  }),
});

const RecoveryCodesRef = builder.simpleObject('SecondFactorConfirmed', {
  description: 'A second factor now asked at every sign-in.',
  fields: (t) => ({
    recoveryCodes: t.stringList({ description: 'Ten recovery codes, each usable once instead of a code: shown only here.' }),
  }),
});

/** The signed-in person with their settings; FORBIDDEN for an API key. */
async function signedIn(ctx: Parameters<typeof actorOf>[0]): Promise<SignedIn> {
  const actor = requireMerchant(actorOf(ctx));
  if (!actor.person) throw new AppError('FORBIDDEN', 'only a person signed in to the dashboard has these');
  return { ...actor.person, profile: await ctx.services.profile.profile(actor) };
}

const InvitePayload = builder.simpleObject('InvitePersonPayload', {
  description: 'A new invite: the link is valid 72 hours, once, and shown only here (and in the e-mail, when SMTP is set).',
  fields: (t) => ({
    emailed: t.boolean({ description: 'Whether the link was e-mailed to the person.' }),
    expiresAt: t.field({ type: 'DateTime', description: 'When the link stops working.' }),
    inviteUrl: t.string({ description: 'The link that sets the person\'s password and signs them in.' }),
    person: t.field({ type: PersonRef, description: 'The person invited.' }),
  }),
});

const PersonPayload = builder.simpleObject('PersonPayload', {
  description: 'A person as changed.',
  fields: (t) => ({ person: t.field({ type: PersonRef, description: 'The person.' }) }),
});

builder.queryFields((t) => ({
  signedInPerson: t.field({
    type: SignedInRef,
    nullable: true,
    description: 'The person signed in to the dashboard, with their role; null for a request made with an API key (merchant only).',
    authScopes: { merchant: true },
    resolve: async (_r, _a, ctx) => (requireMerchant(actorOf(ctx)).person ? signedIn(ctx) : null),
  }),
  people: t.field({
    type: [PersonRef],
    description:
      'A merchant\'s people (invites too), oldest first: a merchant its own, the operator the merchant it names. All of them, or a page with `first` and `offset` (the dashboard asks for one more than it shows: that one says there is a next page).',
    authScopes: { merchant: true, operator: true },
    args: {
      merchantId: t.arg({ type: 'UUID', description: 'The operator names the merchant; a merchant may only name itself.' }),
      first: t.arg.int({
        description: 'At most this many (1 to 500; left out: all).',
        validate: validated(z.number().int().min(1, 'must be 1 to 500').max(500, 'must be 1 to 500')),
      }),
      offset: t.arg.int({
        description: 'Skip this many first (0 to 10000; default 0): the next page starts at offset + first.',
        validate: validated(z.number().int().min(0, 'must be 0 to 10000').max(10_000, 'must be 0 to 10000')),
      }),
    },
    resolve: (_r, { merchantId, first, offset }, ctx) => ctx.services.people.list(actorOf(ctx), merchantId, { limit: first ?? null, offset: offset ?? 0 }),
  }),
}));

builder.mutationFields((t) => ({
  setLanguage: t.field({
    type: SignedInRef,
    description: 'Sets the language the dashboard speaks to the signed-in person; kept with them, so it survives sign-out (a dashboard session only).',
    authScopes: { merchant: true },
    args: { language: t.arg({ type: LanguageEnum, required: true, description: 'en, af or zu.' }) },
    resolve: async (_r, { language }, ctx) => {
      await ctx.services.profile.setLanguage(actorOf(ctx), language);
      return signedIn(ctx);
    },
  }),
  beginSecondFactorSetup: t.field({
    type: SecondFactorSetupRef,
    description: 'Starts setting up the signed-in person\'s second factor (TOTP): a new secret, replacing one not yet confirmed. CONFLICT when they have one.',
    authScopes: { merchant: true },
    resolve: async (_r, _a, ctx) => {
      const s = await ctx.services.profile.beginSecondFactor(actorOf(ctx));
      return { otpauthUri: s.otpauthUri, qrCode: s.qrDataUrl, secret: s.secret };
    },
  }),
  confirmSecondFactorSetup: t.field({
    type: RecoveryCodesRef,
    description: 'Confirms the second factor being set up with a code of the app: from now on sign-in asks for one. UNAUTHORIZED for a wrong code.',
    authScopes: { merchant: true },
    args: { code: t.arg.string({ required: true, description: 'The 6 digits the app shows.', validate: validated(codeSchema) }) },
    resolve: async (_r, { code }, ctx) => ({ recoveryCodes: await ctx.services.profile.confirmSecondFactor(actorOf(ctx), code) }),
  }),
  removeSecondFactor: t.field({
    type: SignedInRef,
    description: 'Removes the signed-in person\'s second factor and recovery codes, with a code of it. CONFLICT while their merchant demands one.',
    authScopes: { merchant: true },
    args: { code: t.arg.string({ required: true, description: 'A code of the app, or a recovery code.', validate: validated(codeSchema) }) },
    resolve: async (_r, { code }, ctx) => {
      await ctx.services.profile.removeSecondFactor(actorOf(ctx), code);
      return signedIn(ctx);
    },
  }),
  requireSecondFactor: t.field({
    type: SignedInRef,
    description:
      'Demands a second factor of everyone on the merchant (an owner signed in to the dashboard, who has one): people without one are signed out and set one up after their password at the next sign-in. `false` stops demanding it.',
    authScopes: { merchant: true },
    args: { required: t.arg.boolean({ required: true, description: 'Whether to demand it.' }) },
    resolve: async (_r, { required }, ctx) => {
      await ctx.services.profile.requireSecondFactor(actorOf(ctx), required);
      return signedIn(ctx);
    },
  }),
  invitePerson: t.field({
    type: InvitePayload,
    description:
      'Invites a person to a merchant\'s dashboard with a role (an owner signed in to the dashboard, or the operator; never an API key; CLI `zarpay merchant invite`). Inviting someone not yet accepted again sends a new link with the new role. Errors: CONFLICT when the address belongs to a person already (change their role with changePersonRole), NOT_FOUND for an unknown merchant, FORBIDDEN for other roles and for API keys.',
    authScopes: { merchant: true, operator: true },
    args: {
      email: t.arg.string({ required: true, description: 'Their e-mail address.', validate: validated(emailSchema) }),
      merchantId: t.arg({ type: 'UUID', description: 'The operator names the merchant; an owner invites to their own.' }),
      role: t.arg({ type: PersonRoleEnum, required: true, description: 'What they may do.' }),
    },
    resolve: (_r, { merchantId, email, role }, ctx) => ctx.services.people.invite(actorOf(ctx), merchantId, email.trim().toLowerCase(), role),
  }),
  changePersonRole: t.field({
    type: PersonPayload,
    description:
      'Changes a person\'s role (an owner signed in to the dashboard, or the operator; never an API key). The keys they issued are lowered to the new role where they carried more. Errors: NOT_FOUND, CONFLICT for the last owner, FORBIDDEN for anyone else.',
    authScopes: { merchant: true, operator: true },
    args: {
      id: t.arg({ type: 'UUID', required: true, description: 'The person id.' }),
      role: t.arg({ type: PersonRoleEnum, required: true, description: 'Their new role.' }),
    },
    resolve: async (_r, { id, role }, ctx) => ({ person: await ctx.services.people.changeRole(actorOf(ctx), id, role) }),
  }),
  removePerson: t.field({
    type: PersonPayload,
    description: 'Removes a person: they cannot sign in any more, their sessions (and open event streams) end at once, and the API keys they issued are revoked (an owner signed in to the dashboard, or the operator; never an API key). Errors: NOT_FOUND, CONFLICT for the last owner.',
    authScopes: { merchant: true, operator: true },
    args: { id: t.arg({ type: 'UUID', required: true, description: 'The person id.' }) },
    resolve: async (_r, { id }, ctx) => ({ person: await ctx.services.people.remove(actorOf(ctx), id) }),
  }),
}));
