import { requireMerchant } from '../../domain/actor.ts';
import { emailSchema, type Person } from '../../domain/people.ts';
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

const SignedInRef = builder
  .objectRef<{ personId: string; email: string; role: Person['role'] }>('SignedInPerson')
  .implement({
    description: 'The person whose dashboard session made this request.',
    fields: (t) => ({
      email: t.exposeString('email', { description: 'Their e-mail address.' }),
      personId: t.expose('personId', { type: 'UUID', description: 'Their person id.' }),
      role: t.expose('role', { type: PersonRoleEnum, description: 'Their role.' }),
    }),
  });

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
    resolve: (_r, _a, ctx) => requireMerchant(actorOf(ctx)).person ?? null,
  }),
  people: t.field({
    type: [PersonRef],
    description: 'A merchant\'s people, oldest first: a merchant its own, the operator the merchant it names.',
    authScopes: { merchant: true, operator: true },
    args: { merchantId: t.arg({ type: 'UUID', description: 'The operator names the merchant; a merchant may only name itself.' }) },
    resolve: (_r, { merchantId }, ctx) => ctx.services.people.list(actorOf(ctx), merchantId),
  }),
}));

builder.mutationFields((t) => ({
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
