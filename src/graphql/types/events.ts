import { clearAllDataLoaders } from '@pothos/plugin-dataloader';
import { z } from 'zod';
import { decodePosition, encodePosition } from '../../domain/event-position.ts';
import { AppError } from '../../domain/errors.ts';
import { EVENT_TYPES, type StreamedEvent } from '../../domain/events.ts';
import type { StreamItem } from '../../services/event-bus.ts';
import { payoutFromJson, type PayoutJson } from '../../domain/payout-json.ts';
import { actorOf, builder, type GraphQLContext } from '../builder.ts';
import { validated, validatedInput } from '../validation.ts';
import { PaymentRef } from './payment.ts';
import { PayoutRef } from './payout.ts';

/**
 * Live events over graphql-sse (`/graphql/stream`): the same committed outbox rows the webhooks
 * carry, pushed by every service process connected to the database.
 */

/** How a stream ends early, said on both subscriptions. */
const ENDINGS =
  'A stream ends with one last error result, then completes: FORBIDDEN the moment the key that opened it is revoked, regenerated or expires (on any instance); RATE_LIMIT_EXCEEDED when its reader falls more than 1,000 events behind (subscribe again with `after`: the position of the last event received).';

const POSITION =
  'Where this event sits in the event log, as an opaque string: pass the last one received as `after` to resume the stream after it (for 7 days by default, EVENT_REPLAY_WINDOW_MS).';

const PayoutEventRef = builder.objectRef<StreamedEvent>('PayoutEvent').implement({
  description: 'A payout event: the payout as it was when the event was recorded.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID', description: 'The event id: the webhook-id and X-Service-Event-Id of its webhook.' }),
    type: t.exposeString('type', { description: 'For example `payout.approved`.' }),
    position: t.string({ description: POSITION, resolve: (e) => encodePosition(e.position) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was recorded.' }),
    merchantId: t.expose('merchantId', { type: 'UUID', description: 'Whose payout.' }),
    payout: t.field({ type: PayoutRef, description: 'The payout as the event recorded it.', resolve: (e) => payoutFromJson(e.data as PayoutJson) }),
    data: t.expose('data', { type: 'JSON', description: 'The webhook body\'s `data`, in the REST shape.' }),
  }),
});

const PaymentEventRef = builder.objectRef<StreamedEvent>('PaymentEvent').implement({
  description: 'A payment event: a payment reached captured, failed or cancelled.',
  fields: (t) => ({
    id: t.expose('id', { type: 'UUID', description: 'The event id: the webhook-id and X-Service-Event-Id of its webhook.' }),
    type: t.exposeString('type', { description: 'For example `payment.captured`.' }),
    position: t.string({ description: POSITION, resolve: (e) => encodePosition(e.position) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was recorded.' }),
    merchantId: t.expose('merchantId', { type: 'UUID', description: 'Whose payment.' }),
    paymentId: t.expose('paymentId', { type: 'UUID', nullable: true, description: 'The payment.' }),
    payment: t.field({
      type: PaymentRef,
      nullable: true,
      description:
        'The payment. Payment events come only from terminal states, which never change, so this is the payment as the event reported it; null if it is not stored.',
      resolve: async (e, _a, ctx) => (e.paymentId ? ((await ctx.services.payments.getMany(actorOf(ctx), [e.paymentId]))[0] ?? null) : null),
    }),
    data: t.expose('data', { type: 'JSON', description: 'The webhook body\'s `data`, in the REST shape.' }),
  }),
});

/** The arguments of both subscriptions: whose events, and which types (checked against the stream's kind). */
const streamArgs = (prefix: string) =>
  z.looseObject({
    merchantId: z.string().nullish(),
    types: z
      .array(z.string().refine((type) => Object.hasOwn(EVENT_TYPES, type) && type.startsWith(prefix), `must be a ${prefix.slice(0, -1)} event type`))
      .max(20, 'must list at most 20 types')
      .nullish(),
    after: z
      .string()
      .refine((text) => decodePosition(text) !== undefined, 'not a position this service gave out')
      .nullish(),
  });
const payoutStreamArgs = streamArgs('payout.');
const paymentStreamArgs = streamArgs('payment.');

builder.subscriptionType({
  description:
    'Live events over graphql-sse at /graphql/stream: the same committed events the webhooks carry (the same ids), from whichever instance committed them. Each has a position; pass the last one as `after` to resume without a gap (7 days back by default).',
});

builder.subscriptionFields((t) => {
  const args = {
    merchantId: t.arg({ type: 'UUID', description: 'A merchant may only name itself (FORBIDDEN otherwise); the operator any merchant, or none for all.' }),
    types: t.arg.stringList({ description: 'Only these event types (absent or empty: all of the stream\'s kind).' }),
    after: t.arg.string({
      description:
        'Resume: the `position` of the last event received. The stream first replays, in order, every stored event after it that this subscription lets through, then goes on live, with no gap and no duplicate. Errors: VALIDATION_FAILED for a position not given out by this service, or older than the replay window (7 days by default).',
    }),
  };
  const stream = (prefix: string, schema: typeof payoutStreamArgs) => async (_r: unknown, a: unknown, ctx: GraphQLContext) => {
    const { merchantId, types, after: given } = validatedInput(schema, a);
    const actor = actorOf(ctx);
    const after = given ? decodePosition(given) : undefined;
    // The position is checked before the stream opens, so a refusal is the subscription's answer.
    if (after) await ctx.services.events.checkResumable(actor, after);
    return ctx.services.events.subscribe(actor, { prefix, types: types ?? [], merchantId, after });
  };
  /**
   * A stream that ends for a reason (its key stopped working, its reader fell behind) yields the
   * reason last: raised here, it reaches the client as the stream's last result, an error with
   * its code, before the stream completes. Each event is executed with the stream's one context,
   * where the loaders live: emptied before each event, they read what is true now (a balance
   * changes between two events) and hold no more than one event's rows, however long the stream
   * stays open.
   */
  const event = (item: StreamItem, _a: unknown, ctx: GraphQLContext) => {
    if (item instanceof AppError) throw item;
    clearAllDataLoaders(ctx);
    return item;
  };
  return {
    payoutEvents: t.field({
      type: PayoutEventRef,
      description:
        'Payout events as they commit: a merchant its own, the operator every merchant\'s or one\'s (no REST twin: the webhooks carry the same events; CLI `zarpay events tail`). Errors: UNAUTHORIZED, FORBIDDEN when a merchant names another merchant, VALIDATION_FAILED for an unknown or non-payout type or an unusable `after`. ' +
        ENDINGS,
      authScopes: { merchant: true, operator: true },
      args,
      validate: validated(payoutStreamArgs),
      subscribe: stream('payout.', payoutStreamArgs),
      resolve: event,
    }),
    paymentEvents: t.field({
      type: PaymentEventRef,
      description:
        'Payment events as they commit (captured, failed, cancelled): a merchant its own, the operator every merchant\'s or one\'s (no REST twin: the webhooks carry the same events). Errors: UNAUTHORIZED, FORBIDDEN when a merchant names another merchant, VALIDATION_FAILED for an unknown or non-payment type or an unusable `after`. ' +
        ENDINGS,
      authScopes: { merchant: true, operator: true },
      args,
      validate: validated(paymentStreamArgs),
      subscribe: stream('payment.', paymentStreamArgs),
      resolve: event,
    }),
  };
});
