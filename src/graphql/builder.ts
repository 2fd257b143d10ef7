import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import SimpleObjectsPlugin from '@pothos/plugin-simple-objects';
import ZodPlugin from '@pothos/plugin-zod';
import { AppError } from '../domain/errors.ts';
import type { GraphQLContext } from './context.ts';

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    UUID: { Input: string; Output: string };
    Money: { Input: number; Output: number };
    JSON: { Input: unknown; Output: unknown };
  };
  AuthScopes: { merchant: boolean; operator: boolean };
  DefaultFieldNullability: false;
}>({
  plugins: [ScopeAuthPlugin, SimpleObjectsPlugin, RelayPlugin, DataloaderPlugin, ZodPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authScopes: (ctx) => ({ merchant: ctx.principal !== undefined, operator: ctx.operator }),
    // Nobody authenticated: UNAUTHORIZED. Authenticated as the wrong kind of caller: FORBIDDEN.
    unauthorizedError: (_parent, ctx) =>
      ctx.principal || ctx.operator
        ? new AppError('FORBIDDEN', 'not allowed for this caller')
        : new AppError('UNAUTHORIZED', 'missing or invalid credentials'),
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    nodeQueryOptions: false,
    nodesQueryOptions: false,
  },
  zod: {
    validationError: (error) => {
      const issue = error.issues[0];
      const where = issue?.path.length ? issue.path.join('.') : 'input';
      return new AppError('VALIDATION_FAILED', `${where}: ${issue?.message ?? 'invalid'}`);
    },
  },
});

builder.queryType({});
builder.mutationType({});
