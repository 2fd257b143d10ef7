import { AppError } from '../../domain/errors.ts';
import type { WebhookAttempt, WebhookDelivery } from '../../services/webhook-deliveries.ts';
import type { WebhookSecret } from '../../services/webhook-secrets.ts';
import { builder } from '../builder.ts';
import { eventScope } from './events.ts';
import { MerchantRef } from './merchant.ts';

const upper = <T extends string>(values: readonly T[]) =>
  Object.fromEntries(values.map((v) => [v.toUpperCase(), { value: v }])) as Record<Uppercase<T>, { value: T }>;

const WebhookSecretStatusEnum = builder.enumType('WebhookSecretStatus', { values: upper(['active', 'rotating', 'disabled'] as const) });
const WebhookDeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', { values: upper(['pending', 'succeeded', 'failed'] as const) });

export const WebhookSecretRef = builder.objectRef<WebhookSecret>('WebhookSecret').implement({
  description: 'A webhook signing secret\'s metadata. The secret itself is only in the answer that created it.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    kid: t.exposeString('kid'),
    status: t.expose('status', { type: WebhookSecretStatusEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    rotatingUntil: t.expose('rotatingUntil', { type: 'DateTime', nullable: true, description: 'Until when a rotated-out secret still signs.' }),
    secret: t.string({
      nullable: true,
      description: 'The `whsec_` secret: only in createWebhookSecret and rotateWebhookSecret answers, null everywhere else.',
      resolve: (s) => s.secret ?? null,
    }),
  }),
});

const WebhookAttemptRef = builder.objectRef<WebhookAttempt>('WebhookAttempt').implement({
  fields: (t) => ({
    attempt: t.exposeInt('attempt', { description: '1 for the first try, up to 5.' }),
    attemptedAt: t.expose('attemptedAt', { type: 'DateTime' }),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: 'Null when no HTTP answer came (refused, timed out).' }),
    durationMs: t.exposeInt('durationMs'),
    error: t.exposeString('error', { nullable: true }),
    succeeded: t.exposeBoolean('succeeded'),
  }),
});

const WebhookDeliveryRef = builder.objectRef<WebhookDelivery>('WebhookDelivery').implement({
  description: 'One delivery of an event to one URL, with its attempts. A redelivery is a new delivery.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID' }),
    eventId: t.expose('eventId', { type: 'UUID' }),
    eventType: t.exposeString('eventType'),
    merchantId: t.expose('merchantId', { type: 'UUID' }),
    url: t.exposeString('url'),
    status: t.expose('status', { type: WebhookDeliveryStatusEnum }),
    attempts: t.exposeInt('attempts'),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true }),
    lastStatusCode: t.exposeInt('lastStatusCode', { nullable: true }),
    lastError: t.exposeString('lastError', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    attemptLog: t.field({ type: [WebhookAttemptRef], resolve: (d) => d.attemptLog }),
  }),
});

builder.objectFields(MerchantRef, (t) => ({
  webhookSecrets: t.field({
    type: [WebhookSecretRef],
    description: 'Webhook signing secrets, newest first (never the secrets themselves).',
    resolve: (m, _a, ctx) => ctx.services.webhookSecrets.list(m.id),
  }),
}));

builder.queryFields((t) => ({
  webhookDeliveries: t.field({
    type: [WebhookDeliveryRef],
    description: 'The delivery log, newest first. A merchant sees its own; the operator all, or one merchant\'s.',
    authScopes: { merchant: true, operator: true },
    args: {
      eventId: t.arg({ type: 'UUID' }),
      merchantId: t.arg({ type: 'UUID' }),
      first: t.arg.int({ description: '1 to 100, default 50.' }),
    },
    resolve: (_r, a, ctx) => {
      const merchantId = eventScope(ctx, a.merchantId);
      return ctx.services.webhookDeliveries.list({
        ...(a.eventId && { eventId: a.eventId }),
        ...(merchantId && { merchantId }),
        ...(a.first != null && { limit: a.first }),
      });
    },
  }),
}));

const WebhookSecretPayload = builder.simpleObject('WebhookSecretPayload', {
  fields: (t) => ({
    webhookSecret: t.field({ type: WebhookSecretRef }),
    rotatingKid: t.string({ nullable: true, description: 'The secret now rotating out (rotate only).' }),
    rotatingUntil: t.field({ type: 'DateTime', nullable: true, description: 'When it stops signing (rotate only).' }),
  }),
});

const DeliveryPayload = builder.simpleObject('WebhookDeliveryPayload', {
  fields: (t) => ({ delivery: t.field({ type: WebhookDeliveryRef }) }),
});

const UpdateWebhookUrlPayload = builder.simpleObject('UpdateWebhookUrlPayload', {
  fields: (t) => ({ merchant: t.field({ type: MerchantRef }) }),
});

builder.mutationFields((t) => ({
  createWebhookSecret: t.field({
    type: WebhookSecretPayload,
    description: 'A first active signing secret; CONFLICT when one is active (rotate instead).',
    authScopes: { merchant: true },
    resolve: async (_r, _a, ctx) => ({ webhookSecret: await ctx.services.webhookSecrets.create(ctx.principal!.merchant.id) }),
  }),
  rotateWebhookSecret: t.field({
    type: WebhookSecretPayload,
    description: 'A new active secret; the old one keeps signing for the rotation window.',
    authScopes: { merchant: true },
    resolve: async (_r, _a, ctx) => {
      const s = await ctx.services.webhookSecrets.rotate(ctx.principal!.merchant.id);
      return { webhookSecret: s, rotatingKid: s.rotatingKid, rotatingUntil: s.rotatingUntil };
    },
  }),
  updateWebhookUrl: t.field({
    type: UpdateWebhookUrlPayload,
    description: 'Where this merchant\'s events are delivered; null stops deliveries.',
    authScopes: { merchant: true },
    args: { url: t.arg.string() },
    resolve: async (_r, a, ctx) => ({ merchant: await ctx.services.merchants.update(ctx.principal!.merchant.id, { webhook_url: a.url ?? null }) }),
  }),
  redeliverEvent: t.field({
    type: DeliveryPayload,
    description: 'Sends an event again as a new delivery (fresh attempts) to its URL or the merchant\'s current one.',
    authScopes: { operator: true },
    args: { eventId: t.arg({ type: 'UUID', required: true }) },
    resolve: async (_r, a, ctx) => {
      if (!a.eventId) throw new AppError('VALIDATION_FAILED', 'eventId: required');
      return { delivery: await ctx.services.webhookDeliveries.redeliver(a.eventId) };
    },
  }),
}));
