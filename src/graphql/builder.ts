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
      ctx.actor ? new AppError('FORBIDDEN', 'not allowed for this caller') : new AppError('UNAUTHORIZED', 'missing credentials: send your secret API key in the X-API-Key header (the operator: Authorization: Bearer <OPERATOR_TOKEN>)'),
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    // The connections' own parts, described once for every list (the relay connection rules).
    pageInfoTypeOptions: { description: 'Where a page sits in its list (Relay): whether there are more, and the cursors to ask for them.' },
    hasNextPageFieldOptions: { description: 'Whether a page follows this one (paging forwards with first/after).' },
    hasPreviousPageFieldOptions: { description: 'Whether a page comes before this one (paging backwards with last/before).' },
    startCursorFieldOptions: { description: 'The first edge\'s cursor: pass it as `before` for the previous page; null on an empty page.' },
    endCursorFieldOptions: { description: 'The last edge\'s cursor: pass it as `after` for the next page; null on an empty page.' },
    cursorFieldOptions: { description: 'This edge\'s place in the list, opaque: pass it as `after` or `before`. Stable when rows are added.' },
    nodeFieldOptions: { description: 'The item.' },
    edgesFieldOptions: { description: 'The items of this page, each with its cursor, in the list\'s order.' },
    pageInfoFieldOptions: { description: 'Whether there are more pages, and the cursors to ask for them.' },
    firstArgOptions: { description: 'How many items from the start (after `after`), 0 to 100; without first and last, 50. VALIDATION_FAILED outside 0..100.' },
    lastArgOptions: { description: 'How many items from the end (before `before`), 0 to 100. VALIDATION_FAILED outside 0..100.' },
    afterArgOptions: { description: 'A cursor this list handed out: the page starts after it. VALIDATION_FAILED for any other text.' },
    beforeArgOptions: { description: 'A cursor this list handed out: the page ends before it. VALIDATION_FAILED for any other text.' },
    defaultConnectionTypeOptions: { description: 'A page of a list (Relay connection), with the total count of the whole list.' },
    defaultEdgeTypeOptions: { description: 'One item of a page, with its cursor.' },
  },
  zod: { validationError: zodRefusal },
});

builder.queryType({
  description:
    'Reads. Merchants authenticate with `X-API-Key`; the operator with `Authorization: Bearer <OPERATOR_TOKEN>`. Every field answers UNAUTHORIZED without credentials and FORBIDDEN to the wrong kind of caller (a merchant asking an operator field, or the other way round); a merchant only ever sees its own data. Amounts are cents (Money).',
});
builder.mutationType({
  description:
    'Changes. Each has the same rules, error codes and rate limits as its REST twin (named in its description); operator moves are the CLI\'s. UNAUTHORIZED without credentials, FORBIDDEN to the wrong kind of caller.',
});

builder.globalConnectionField('totalCount', (t) =>
  t.int({ description: 'How many match the filter, on all pages.', resolve: (connection) => connection.totalCount() }),
);

/** The caller of a field whose auth scopes require one (scope-auth refused everyone else already). */
export function actorOf(ctx: GraphQLContext): Actor {
  if (!ctx.actor) throw new AppError('UNAUTHORIZED', 'missing credentials: send your secret API key in the X-API-Key header (the operator: Authorization: Bearer <OPERATOR_TOKEN>)');
  return ctx.actor;
}
