import type { ApiKeyRecord } from '../../domain/api-key.ts';
import { actorOf, builder } from '../builder.ts';
import { ApiKeyIssuerEnum, ApiKeyStatusEnum, PersonRoleEnum } from './enums.ts';
import { PersonRef } from './people.ts';

export const ApiKeyRef = builder.objectRef<ApiKeyRecord>('ApiKey');

ApiKeyRef.implement({
  description: 'A secret API key\'s record (spec "API key record"). The key itself is only ever returned once, as fullKey.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID', description: 'The record id.' }),
    merchantId: t.expose('merchantId', { type: 'UUID', description: 'The merchant the key authenticates.' }),
    kid: t.exposeString('kid', { description: 'The key id: the third part of `sec1-{env}-{kid}-…`.' }),
    env: t.exposeString('env', { description: 'The environment the key works in: prd, tst or dev.' }),
    type: t.exposeString('type', { description: 'Always `secret`.' }),
    status: t.expose('status', { type: ApiKeyStatusEnum, description: 'Whether it still authenticates.' }),
    displayMask: t.exposeString('displayMask', { description: 'For display: `sec1-{env}-{kid}…{checksum}`.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was issued.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'When it stops (stopped) working, if ever.' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true, description: 'When it was revoked, if it was.' }),
    issuedBy: t.expose('issuedBy', { type: ApiKeyIssuerEnum, description: 'Who issued it.' }),
    issuedByPersonId: t.expose('issuedByPersonId', { type: 'UUID', nullable: true, description: 'The person who issued it, when issuedBy is PERSON: removing them revokes it.' }),
    role: t.expose('role', { type: PersonRoleEnum, description: 'The most it may do: its issuer\'s role when it was issued, lowered with theirs (docs/access.md).' }),
  }),
});

builder.objectField(PersonRef, 'issuedKeys', (t) =>
  t.loadableList({
    type: ApiKeyRef,
    description: 'The active secret keys this person issued, newest first: removing the person revokes them.',
    load: (personIds: string[], ctx) => ctx.services.keys.issuedByMany(actorOf(ctx), personIds),
    resolve: (p) => p.id,
  }),
);

const NewApiKeyPayload = builder.simpleObject('NewApiKeyPayload', {
  description: 'A newly issued secret key.',
  fields: (t) => ({
    apiKey: t.field({ type: ApiKeyRef, description: 'Its record.' }),
    fullKey: t.string({ description: 'The complete secret key; shown once, never again.' }),
  }),
});

const ApiKeyPayload = builder.simpleObject('ApiKeyPayload', {
  description: 'A key record as changed.',
  fields: (t) => ({ apiKey: t.field({ type: ApiKeyRef, description: 'The record.' }) }),
});

builder.mutationFields((t) => ({
  regenerateSecretKey: t.field({
    type: NewApiKeyPayload,
    description:
      'Issues a new secret key and revokes the calling one at once: the next request with the old key is FORBIDDEN (merchant only; REST `POST /api/v1/merchant/api-keys/secret/regenerate`). Signed in to the dashboard, name the key to replace with kid. Rate limit: credentials. Errors: FORBIDDEN for the operator, NOT_FOUND for another merchant\'s kid.',
    authScopes: { merchant: true },
    args: { kid: t.arg.string({ description: 'The key to replace (a dashboard session must name it; a key replaces itself).' }) },
    resolve: (_r, { kid }, ctx) => ctx.services.keys.regenerate(actorOf(ctx), kid),
  }),
  issueApiKey: t.field({
    type: NewApiKeyPayload,
    description: 'Issues a merchant another secret key; the merchant\'s other keys keep working (the operator, or a merchant for itself; CLI `zarpay key issue`). Errors: NOT_FOUND, FORBIDDEN for another merchant.',
    authScopes: { merchant: true, operator: true },
    args: { merchantId: t.arg({ type: 'UUID', description: 'The merchant: the operator must name one; a merchant may only name itself.' }) },
    resolve: (_r, { merchantId }, ctx) => ctx.services.keys.issue(actorOf(ctx), merchantId),
  }),
  revokeApiKey: t.field({
    type: ApiKeyPayload,
    description: 'Revokes a key: FORBIDDEN from now on, on every instance (the operator any key, a merchant its own; CLI `zarpay key revoke`). Errors: NOT_FOUND for an unknown kid or another merchant\'s.',
    authScopes: { merchant: true, operator: true },
    args: { kid: t.arg.string({ required: true, description: 'The key id.' }) },
    resolve: async (_r, { kid }, ctx) => ({ apiKey: await ctx.services.keys.revoke(actorOf(ctx), kid) }),
  }),
  expireApiKey: t.field({
    type: ApiKeyPayload,
    description: 'Expires a key now: FORBIDDEN from now on (operator only; CLI `zarpay key expire`). Errors: NOT_FOUND for an unknown kid, FORBIDDEN for a merchant.',
    authScopes: { operator: true },
    args: { kid: t.arg.string({ required: true, description: 'The key id.' }) },
    resolve: async (_r, { kid }, ctx) => ({ apiKey: await ctx.services.keys.expire(actorOf(ctx), kid) }),
  }),
}));
