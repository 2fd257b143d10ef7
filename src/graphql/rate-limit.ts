import { GraphQLError } from 'graphql';
import type { RateLimitedOperation } from '../config.ts';
import type { RateLimitDecision } from '../services/rate-limits.ts';
import { rateLimitExceeded, rateLimitHeaders } from '../http/rate-limits.ts';
import type { GraphQLContext } from './builder.ts';

/**
 * Which GraphQL fields count against which REST budget (CONTRACT §8: GraphQL is no way around
 * the limits). One line per field, keyed by schema coordinate `Type.field`. A field nested
 * under another field of the same operation is not counted again (`viewer { balance }` is one
 * balance check); every other occurrence is, so aliases cannot batch around a limit. A point
 * read is one unit; a list one unit per 50 rows it asks for (cost.ts works the units out).
 */
export const GRAPHQL_RATE_LIMITS: Record<string, RateLimitedOperation> = {
  'Query.viewer': 'balance',
  'Query.balance': 'balance',
  'Merchant.balance': 'balance',
  'Query.statement': 'balance',
  'Query.payout': 'payout_status',
  'Query.payouts': 'payout_status',
  'Mutation.createPayout': 'payout_create',
  'Mutation.regenerateSecretKey': 'credentials',
  'Mutation.updateMerchantSettings': 'credentials',
  'Query.payment': 'payment_status',
  'Query.payments': 'payment_status',
  'Mutation.initiatePayment': 'payment_init',
  'Mutation.createPaymentLink': 'payment_init',
  'Mutation.updatePaymentLink': 'payment_init',
  'Mutation.requestPayment': 'payment_init',
  'Query.paymentLink': 'payment_init',
  'Query.paymentLinks': 'payment_init',
  'Mutation.refundPayment': 'refund',
  'Query.refund': 'payment_status',
  'Mutation.createWebhookSecret': 'credentials',
  'Mutation.rotateWebhookSecret': 'credentials',
  'Mutation.issueApiKey': 'credentials',
  'Mutation.revokeApiKey': 'credentials',
  'Mutation.invitePerson': 'credentials',
  'Mutation.removePerson': 'credentials',
  'Mutation.changePersonRole': 'credentials',
};

/** The decision reported in the headers: the one with the least left. */
const tighter = (a: RateLimitDecision | undefined, b: RateLimitDecision) =>
  !a || (!b.allowed && a.allowed) || (b.allowed === a.allowed && b.remaining < a.remaining) ? b : a;

/** Each request's decision to report in its `RateLimit-*` headers, by the request's context key. */
const reported = new WeakMap<object, RateLimitDecision>();

/** The `RateLimit-*` headers of a request's answer (none when nothing was counted). */
export function rateLimitHeadersOf(request: object): Record<string, string> | undefined {
  const d = reported.get(request);
  return d && rateLimitHeaders(d);
}

/**
 * Counts a merchant's GraphQL operation against the REST budgets before it executes: `units` of
 * each (cost.ts). Over a limit, the answer is one RATE_LIMIT_EXCEEDED error with HTTP 429 and
 * `Retry-After`, and nothing may run. The decision for the `RateLimit-*` headers is kept either
 * way. The operator is not limited. Used by both execution paths (admission.ts).
 */
export async function chargeRateLimits(ctx: GraphQLContext, units: ReadonlyMap<RateLimitedOperation, number>): Promise<{ errors: GraphQLError[] } | undefined> {
  if (ctx.actor?.kind !== 'merchant') return undefined;
  const merchantId = ctx.actor.merchant.id;
  let shown: RateLimitDecision | undefined;
  let refused: RateLimitDecision | undefined;
  // One count per budget, for all of its units at once: one store operation, whatever the rows.
  for (const [op, n] of units) {
    const d = await ctx.services.rateLimits.consume(merchantId, op, n);
    if (!d) continue;
    shown = tighter(shown, d);
    if (!d.allowed) refused ??= d;
  }
  if (shown) reported.set(ctx.request, shown);
  if (!refused) return undefined;
  const e = rateLimitExceeded(refused);
  return {
    errors: [
      new GraphQLError(e.message, {
        extensions: { code: e.code, http: { status: 429, headers: { 'Retry-After': String(refused.resetSeconds) } } },
      }),
    ],
  };
}
