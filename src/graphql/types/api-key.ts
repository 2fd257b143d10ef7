import type { ApiKeyRecord } from '../../domain/payout.ts';
import { builder } from '../builder.ts';
import { ApiKeyStatusEnum } from './enums.ts';

export const ApiKeyRef = builder.objectRef<ApiKeyRecord>('ApiKey');

ApiKeyRef.implement({
  description: 'A secret API key record. The key itself is only ever returned once, as fullKey.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    merchantId: t.expose('merchantId', { type: 'UUID' }),
    kid: t.exposeString('kid'),
    env: t.exposeString('env'),
    type: t.exposeString('type'),
    status: t.expose('status', { type: ApiKeyStatusEnum }),
    displayMask: t.exposeString('displayMask'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
  }),
});

const NewApiKeyPayload = builder.simpleObject('NewApiKeyPayload', {
  fields: (t) => ({
    apiKey: t.field({ type: ApiKeyRef }),
    fullKey: t.string({ description: 'The complete secret key; shown once.' }),
  }),
});

const ApiKeyPayload = builder.simpleObject('ApiKeyPayload', {
  fields: (t) => ({ apiKey: t.field({ type: ApiKeyRef }) }),
});

builder.mutationFields((t) => ({
  regenerateSecretKey: t.field({
    type: NewApiKeyPayload,
    description: 'Issues a new secret key and revokes the calling one at once.',
    authScopes: { merchant: true },
    resolve: (_r, _a, ctx) => ctx.services.keys.regenerate(ctx.principal!.key.id),
  }),
  issueApiKey: t.field({
    type: NewApiKeyPayload,
    authScopes: { operator: true },
    args: { merchantId: t.arg({ type: 'UUID', required: true }) },
    resolve: (_r, { merchantId }, ctx) => ctx.services.keys.issue(merchantId),
  }),
  revokeApiKey: t.field({
    type: ApiKeyPayload,
    authScopes: { operator: true },
    args: { kid: t.arg.string({ required: true }) },
    resolve: async (_r, { kid }, ctx) => ({ apiKey: await ctx.services.keys.revoke(kid) }),
  }),
  expireApiKey: t.field({
    type: ApiKeyPayload,
    authScopes: { operator: true },
    args: { kid: t.arg.string({ required: true }) },
    resolve: async (_r, { kid }, ctx) => ({ apiKey: await ctx.services.keys.expire(kid) }),
  }),
}));
