import { type DocumentNode, type ExecutionResult, GraphQLError, type GraphQLSchema, getOperationAST, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLContext } from './builder.ts';
import { estimate } from './cost.ts';
import { tag } from './errors.ts';
import { chargeRateLimits, rateLimitHeadersOf } from './rate-limit.ts';
import { accessRefusal } from './roles.ts';

/**
 * What a valid document must still pass, on the request as it will run, before anything of it
 * runs: the caller's role (roles.ts), the cost limit (with its variables, cost.ts), then the
 * merchant's rate budgets. Shared by
 * Yoga (the plugin below) and the direct path (direct.ts), so that neither path can be used to
 * go around the other.
 */

/** The refusal of an operation over GRAPHQL_MAX_COST: a request error, as a document-level limit is. */
function overCost(maxCost: number, cost: number): ExecutionResult {
  const error = new GraphQLError(`Query cost limit of ${maxCost} exceeded, found ${Math.ceil(cost)}.`);
  tag(error, 'VALIDATION_FAILED');
  return { errors: [error] };
}

/**
 * The answer that refuses this operation, or undefined when it may run. An unknown operation, or
 * variables that do not coerce, are left to the executor, which refuses them before anything runs.
 * `rateLimited: false` for a subscription: a stream is not counted against the REST budgets.
 */
export async function admit(
  ctx: GraphQLContext,
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode | null | undefined,
  variables: Record<string, unknown> | null | undefined,
  maxCost: number,
  rateLimited = true,
): Promise<ExecutionResult | undefined> {
  if (!operation) return undefined;
  const refused = accessRefusal(ctx.actor, document, operation);
  if (refused) return refused;
  const e = estimate(schema, document, operation, variables);
  if (!e) return undefined;
  if (e.cost > maxCost) return overCost(maxCost, e.cost);
  return rateLimited ? chargeRateLimits(ctx, e.units) : undefined;
}

/** `admit` before every execution and subscription through Yoga; the rate-limit headers on every answer. */
export function useAdmission(maxCost: number): Plugin<GraphQLContext> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const operation = getOperationAST(args.document, args.operationName);
      const refusal = await admit(args.contextValue, args.schema, args.document, operation, args.variableValues, maxCost);
      if (refusal) setResultAndStopExecution(refusal);
    },
    async onSubscribe({ args, setResultAndStopExecution }) {
      const operation = getOperationAST(args.document, args.operationName);
      const refusal = await admit(args.contextValue, args.schema, args.document, operation, args.variableValues, maxCost, false);
      if (refusal) setResultAndStopExecution(refusal);
    },
    onResponse({ request, response }) {
      for (const [name, value] of Object.entries(rateLimitHeadersOf(request) ?? {})) response.headers.set(name, value);
    },
  };
}
