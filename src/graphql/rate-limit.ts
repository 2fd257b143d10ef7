import {
  type DocumentNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { RateLimitedOperation } from '../config.ts';
import type { RateLimitDecision } from '../services/rate-limits.ts';
import { rateLimitExceeded, rateLimitHeaders } from '../http/rate-limits.ts';
import type { GraphQLContext } from './builder.ts';

/**
 * Which GraphQL fields count against which REST budget (CONTRACT §8: GraphQL is no way around
 * the limits). One line per field, keyed by schema coordinate `Type.field`. A field nested
 * under another field of the same operation is not counted again (`viewer { balance }` is one
 * balance check); every other occurrence is, so aliases cannot batch around a limit.
 */
export const GRAPHQL_RATE_LIMITS: Record<string, RateLimitedOperation> = {
  'Query.viewer': 'balance',
  'Query.balance': 'balance',
  'Merchant.balance': 'balance',
  'Query.payout': 'payout_status',
  'Query.payouts': 'payout_status',
  'Mutation.createPayout': 'payout_create',
  'Mutation.regenerateSecretKey': 'credentials',
  'Query.payment': 'payment_status',
  'Query.payments': 'payment_status',
  'Mutation.initiatePayment': 'payment_init',
  'Mutation.createWebhookSecret': 'credentials',
  'Mutation.rotateWebhookSecret': 'credentials',
};

type Counts = Map<RateLimitedOperation, number>;

/**
 * The counts of each document, by operation name: Yoga's parser cache hands the same document
 * object to every request with the same query text, so the walk runs once per query.
 */
const countsOf = new WeakMap<DocumentNode, Map<string, Counts>>();

/** How many units of each budget an operation uses, following fragments (cached per document). */
export function countOperations(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null): Counts {
  let byName = countsOf.get(document);
  if (!byName) countsOf.set(document, (byName = new Map()));
  let counts = byName.get(operationName ?? '');
  if (!counts) byName.set(operationName ?? '', (counts = walkOperation(schema, document, operationName)));
  return counts;
}

function walkOperation(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null): Counts {
  const fragments = new Map<string, FragmentDefinitionNode>();
  let operation: OperationDefinitionNode | undefined;
  for (const def of document.definitions) {
    if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    else if (def.kind === Kind.OPERATION_DEFINITION && (!operationName || def.name?.value === operationName)) operation ??= def;
  }
  const counts: Counts = new Map();
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return counts;

  const walk = (set: SelectionSetNode, type: GraphQLNamedType | undefined | null, inside: Set<RateLimitedOperation>, depth: number) => {
    if (depth > 32 || !type) return;
    for (const sel of set.selections) {
      if (sel.kind === Kind.INLINE_FRAGMENT) {
        const cond = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : type;
        walk(sel.selectionSet, cond, inside, depth + 1);
      } else if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const frag = fragments.get(sel.name.value);
        if (frag) walk(frag.selectionSet, schema.getType(frag.typeCondition.name.value), inside, depth + 1);
      } else {
        const op = GRAPHQL_RATE_LIMITS[`${type.name}.${sel.name.value}`];
        let next = inside;
        if (op && !inside.has(op)) {
          counts.set(op, (counts.get(op) ?? 0) + 1);
          next = new Set(inside).add(op);
        }
        const field = isObjectType(type) || isInterfaceType(type) ? type.getFields()[sel.name.value] : undefined;
        if (sel.selectionSet && field) walk(sel.selectionSet, getNamedType(field.type), next, depth + 1);
      }
    }
  };
  walk(operation.selectionSet, root, new Set(), 0);
  return counts;
}

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
 * Counts a merchant's GraphQL operation against the REST budgets before it executes. Over a
 * limit, the answer is one RATE_LIMIT_EXCEEDED error with HTTP 429 and `Retry-After`, and
 * nothing may run. The decision for the `RateLimit-*` headers is kept either way. The operator
 * is not limited. Shared by the plugin below and the direct path (direct.ts).
 */
export async function chargeRateLimits(
  ctx: GraphQLContext,
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName?: string | null,
): Promise<{ errors: GraphQLError[] } | undefined> {
  if (ctx.actor?.kind !== 'merchant') return undefined;
  const merchantId = ctx.actor.merchant.id;
  let shown: RateLimitDecision | undefined;
  let refused: RateLimitDecision | undefined;
  for (const [op, n] of countOperations(schema, document, operationName)) {
    for (let i = 0; i < n; i++) {
      const d = await ctx.services.rateLimits.consume(merchantId, op);
      if (!d) break;
      shown = tighter(shown, d);
      if (!d.allowed) refused ??= d;
    }
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

/** `chargeRateLimits` before every execution; the headers on every answer. */
export function useRateLimits(): Plugin<GraphQLContext> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const refusal = await chargeRateLimits(args.contextValue, args.schema, args.document, args.operationName);
      if (refusal) setResultAndStopExecution(refusal);
    },
    onResponse({ request, response }) {
      for (const [name, value] of Object.entries(rateLimitHeadersOf(request) ?? {})) response.headers.set(name, value);
    },
  };
}
