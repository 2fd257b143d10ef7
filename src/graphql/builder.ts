import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import SimpleObjectsPlugin from '@pothos/plugin-simple-objects';
import ZodPlugin from '@pothos/plugin-zod';
import type { Actor } from '../domain/actor.ts';
import { AppError } from '../domain/errors.ts';
import type { Services } from '../services/index.ts';
import { zodRefusal } from './validation.ts';

export interface GraphQLContext {
  services: Services;
  /** Who sent the request: a merchant (`X-API-Key`), the operator (bearer token), or nobody. */
  actor: Actor | undefined;
  /** The HTTP request (the rate-limit plugin reports its decision on the response to it). */
  request: Request;
}

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    UUID: { Input: string; Output: string };
    Money: { Input: number; Output: number };
    JSON: { Input: unknown; Output: unknown };
  };
  AuthScopes: { merchant: boolean; operator: boolean };
  /** Every connection also counts what matches its filter, on all pages. */
  Connection: { totalCount: () => Promise<number> };
  DefaultFieldNullability: false;
}>({
  plugins: [ScopeAuthPlugin, SimpleObjectsPlugin, RelayPlugin, DataloaderPlugin, ZodPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authScopes: (ctx) => ({ merchant: ctx.actor?.kind === 'merchant', operator: ctx.actor?.kind === 'operator' }),
    // Nobody authenticated: UNAUTHORIZED. Authenticated as the wrong kind of caller: FORBIDDEN.
    unauthorizedError: (_parent, ctx) =>
      ctx.actor ? new AppError('FORBIDDEN', 'not allowed for this caller') : new AppError('UNAUTHORIZED', 'missing or invalid credentials'),
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    nodeQueryOptions: false,
    nodesQueryOptions: false,
  },
  zod: { validationError: zodRefusal },
});

builder.queryType({ description: 'Reads. Merchants authenticate with `X-API-Key`; the operator with `Authorization: Bearer <OPERATOR_TOKEN>`.' });
builder.mutationType({ description: 'Changes. Each has the same rules, error codes and rate limits as its REST twin.' });

builder.globalConnectionField('totalCount', (t) =>
  t.int({ description: 'How many match the filter, on all pages.', resolve: (connection) => connection.totalCount() }),
);

/** The caller of a field whose auth scopes require one (scope-auth refused everyone else already). */
export function actorOf(ctx: GraphQLContext): Actor {
  if (!ctx.actor) throw new AppError('UNAUTHORIZED', 'missing or invalid credentials');
  return ctx.actor;
}
