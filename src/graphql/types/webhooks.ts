import { z } from 'zod';
import type { WebhookAttempt, WebhookDelivery } from '../../services/webhook-deliveries.ts';
import type { WebhookSecret } from '../../services/webhook-secrets.ts';
import { webhookUrlInput } from '../../domain/merchant.ts';
import { actorOf, builder } from '../builder.ts';
import { validated } from '../validation.ts';
import { WebhookDeliveryStatusEnum, WebhookSecretStatusEnum } from './enums.ts';
import { MerchantRef } from './merchant.ts';

export const WebhookSecretRef = builder.objectRef<WebhookSecret>('WebhookSecret').implement({
  description: 'A webhook signing secret\'s metadata. The secret itself is only in the answer that created it.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID', description: 'The secret\'s record id.' }),
    kid: t.exposeString('kid', { description: 'Its public identifier (`whk_…`).' }),
    status: t.expose('status', { type: WebhookSecretStatusEnum, description: 'Whether it signs.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    rotatingUntil: t.expose('rotatingUntil', { type: 'DateTime', nullable: true, description: 'Until when a rotated-out secret still signs.' }),
    secret: t.string({
      nullable: true,
      description: 'The `whsec_` secret: only in createWebhookSecret and rotateWebhookSecret answers, null everywhere else.',
      resolve: (s) => s.secret ?? null,
    }),
  }),
});

const WebhookAttemptRef = builder.objectRef<WebhookAttempt>('WebhookAttempt').implement({
  description: 'One attempt of a delivery.',
  fields: (t) => ({
    attempt: t.exposeInt('attempt', { description: '1 for the first try, up to 5.' }),
    attemptedAt: t.expose('attemptedAt', { type: 'DateTime', description: 'When it was made.' }),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: 'The receiver\'s HTTP status; null when no answer came (refused, timed out).' }),
    durationMs: t.exposeInt('durationMs', { description: 'How long it took.' }),
    error: t.exposeString('error', { nullable: true, description: 'Why it failed.' }),
    succeeded: t.exposeBoolean('succeeded', { description: 'Whether the receiver answered 2xx in time.' }),
  }),
});

const WebhookDeliveryRef = builder.objectRef<WebhookDelivery>('WebhookDelivery').implement({
  description: 'One delivery of an event to one URL, with its attempts. A redelivery is a new delivery.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID', description: 'The delivery id.' }),
    eventId: t.expose('eventId', { type: 'UUID', description: 'The event delivered (its webhook-id).' }),
    eventType: t.exposeString('eventType', { description: 'The event\'s type.' }),
    merchantId: t.expose('merchantId', { type: 'UUID', description: 'Whose event.' }),
    url: t.exposeString('url', { description: 'Where it is delivered.' }),
    status: t.expose('status', { type: WebhookDeliveryStatusEnum, description: 'Where the delivery is.' }),
    attempts: t.exposeInt('attempts', { description: 'Attempts made so far.' }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true, description: 'When the next attempt is due, while pending.' }),
    lastStatusCode: t.exposeInt('lastStatusCode', { nullable: true, description: 'The last attempt\'s HTTP status.' }),
    lastError: t.exposeString('lastError', { nullable: true, description: 'The last attempt\'s error.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the delivery was queued.' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true, description: 'When it succeeded or finally failed.' }),
    attemptLog: t.field({ type: [WebhookAttemptRef], description: 'Every attempt, in order.', resolve: (d) => d.attemptLog }),
  }),
});

builder.objectFields(MerchantRef, (t) => ({
  webhookSecrets: t.field({
    type: [WebhookSecretRef],
    description: 'The merchant\'s webhook signing secrets, newest first (never the secrets themselves).',
    resolve: (m, _a, ctx) => ctx.services.webhookSecrets.list(actorOf(ctx), m.id),
  }),
}));

builder.queryFields((t) => ({
  webhookDeliveries: t.field({
    type: [WebhookDeliveryRef],
    description:
      'The delivery log, newest first: a merchant its own, the operator every merchant\'s or one\'s (`zarpay webhooks deliveries`). Errors: FORBIDDEN when a merchant names another merchant.',
    authScopes: { merchant: true, operator: true },
    args: {
      eventId: t.arg({ type: 'UUID', description: 'Only this event\'s deliveries.' }),
      merchantId: t.arg({ type: 'UUID', description: 'Only this merchant\'s (a merchant may only name itself).' }),
      first: t.arg.int({ description: 'How many, 1 to 100; default 50.' }),
      offset: t.arg.int({
        description: 'Skip this many first (0 to 10000; default 0): the next page starts at offset + first.',
        validate: validated(z.number().int().min(0, 'must be 0 to 10000').max(10_000, 'must be 0 to 10000')),
      }),
      status: t.arg({ type: WebhookDeliveryStatusEnum, description: 'Only deliveries in this state.' }),
    },
    resolve: (_r, a, ctx) =>
      ctx.services.webhookDeliveries.list(actorOf(ctx), { eventId: a.eventId, merchantId: a.merchantId, limit: a.first, offset: a.offset ?? 0, status: a.status ?? null }),
  }),
}));

const WebhookSecretPayload = builder.simpleObject('WebhookSecretPayload', {
  description: 'A new signing secret.',
  fields: (t) => ({
    webhookSecret: t.field({ type: WebhookSecretRef, description: 'The new active secret, with the secret itself (shown once).' }),
    rotatingKid: t.string({ nullable: true, description: 'The secret now rotating out (rotate only).' }),
    rotatingUntil: t.field({ type: 'DateTime', nullable: true, description: 'When it stops signing (rotate only).' }),
  }),
});

const DeliveryPayload = builder.simpleObject('WebhookDeliveryPayload', {
  description: 'A new delivery.',
  fields: (t) => ({ delivery: t.field({ type: WebhookDeliveryRef, description: 'The delivery.' }) }),
});

const UpdateWebhookUrlPayload = builder.simpleObject('UpdateWebhookUrlPayload', {
  description: 'The merchant after the change.',
  fields: (t) => ({ merchant: t.field({ type: MerchantRef, description: 'The merchant.' }) }),
});

builder.mutationFields((t) => ({
  createWebhookSecret: t.field({
    type: WebhookSecretPayload,
    description:
      'Creates the calling merchant\'s first active signing secret; the answer is the only place the secret appears (merchant only; REST `POST /api/v1/merchant/webhooks/secret`). Rate limit: credentials. Errors: CONFLICT when one is active (rotate instead), FORBIDDEN for the operator.',
    authScopes: { merchant: true },
    resolve: async (_r, _a, ctx) => ({ webhookSecret: await ctx.services.webhookSecrets.create(actorOf(ctx)) }),
  }),
  rotateWebhookSecret: t.field({
    type: WebhookSecretPayload,
    description:
      'A new active secret; the old one keeps signing beside it for the rotation window, 24 hours by default (merchant only; REST `POST /api/v1/merchant/webhooks/secret/rotate`). Rate limit: credentials. Errors: FORBIDDEN for the operator.',
    authScopes: { merchant: true },
    resolve: async (_r, _a, ctx) => {
      const s = await ctx.services.webhookSecrets.rotate(actorOf(ctx));
      return { webhookSecret: s, rotatingKid: s.rotatingKid, rotatingUntil: s.rotatingUntil };
    },
  }),
  updateWebhookUrl: t.field({
    type: UpdateWebhookUrlPayload,
    description: 'Sets where the calling merchant\'s events are delivered; null stops deliveries (merchant only). Errors: VALIDATION_FAILED for a URL that is not http(s), or in prd not https or resolving to a private address; FORBIDDEN for the operator, who uses updateMerchant.',
    authScopes: { merchant: true },
    args: { url: t.arg.string({ description: 'An http(s) URL (https in prd), or null.', validate: validated(webhookUrlInput) }) },
    resolve: async (_r, a, ctx) => {
      const actor = actorOf(ctx);
      const merchantId = actor.kind === 'merchant' ? actor.merchant.id : '';
      return { merchant: await ctx.services.merchants.update(actor, merchantId, { webhookUrl: a.url ?? null }) };
    },
  }),
  redeliverEvent: t.field({
    type: DeliveryPayload,
    description: 'Sends an event again as a new delivery, with fresh attempts, to its URL or the merchant\'s current one (the operator, or a merchant its own events; CLI `zarpay webhooks redeliver`). Errors: NOT_FOUND for an unknown event, VALIDATION_FAILED when there is no URL to send it to, FORBIDDEN for a merchant.',
    authScopes: { merchant: true, operator: true },
    args: { eventId: t.arg({ type: 'UUID', required: true, description: 'The event.' }) },
    resolve: async (_r, a, ctx) => ({ delivery: await ctx.services.webhookDeliveries.redeliver(actorOf(ctx), a.eventId) }),
  }),
}));
