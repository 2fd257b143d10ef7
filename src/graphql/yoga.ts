import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import { GraphQLError } from 'graphql';
import { createYoga } from 'graphql-yoga';
import type { Config } from '../config.ts';
import { AppError, ERROR_STATUS, isAppError } from '../domain/errors.ts';
import type { Services } from '../services/index.ts';
import { classify } from '../../rest/envelope.ts';
import { createLoaders, type GraphQLContext } from './context.ts';
import { schema } from './schema.ts';
import { useStreamAuthentication, useSubscriptionErrorResults } from './sse-errors.ts';
import { timingSafeEqual } from 'node:crypto';

export function bearerMatches(header: string | null, token: string): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  const presented = Buffer.from(header.slice('Bearer '.length));
  const expected = Buffer.from(token);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/** An error as GraphQL clients see it: the REST code in `extensions.code`, nothing internal. */
export function toGraphQLError(error: unknown, original?: GraphQLError): GraphQLError {
  const { code, message } = classify(error);
  return new GraphQLError(message, {
    ...(original && { nodes: original.nodes, source: original.source, positions: original.positions, path: original.path }),
    extensions: { code },
  });
}

/**
 * GraphQL over HTTP at `/graphql` (GraphiQL outside `prd`) and graphql-sse at `/graphql/stream`.
 * Merchants authenticate with `X-API-Key` exactly as in REST; the operator with its bearer token.
 */
export function createGraphQL(services: Services, config: Config) {
  return createYoga<Record<string, unknown>, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: config.serviceEnv !== 'prd',
    landingPage: false,
    logging: false,
    maskedErrors: {
      maskError: (error) => {
        const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
        if (original instanceof GraphQLError && !original.originalError && original.extensions?.code) return original;
        return toGraphQLError(original, error instanceof GraphQLError ? error : undefined);
      },
    },
    context: async ({ request }): Promise<GraphQLContext> => {
      const key = request.headers.get('x-api-key');
      const operator = bearerMatches(request.headers.get('authorization'), config.operatorToken);
      if (request.headers.get('authorization') && !operator) {
        throw unauthorizedHttp(new AppError('UNAUTHORIZED', 'invalid operator token'));
      }
      let principal;
      if (key !== null) {
        try {
          principal = await services.keys.authenticate(key);
        } catch (e) {
          throw isAppError(e) ? unauthorizedHttp(e) : e;
        }
      }
      return { services, operator, loaders: createLoaders(services, principal), ...(principal && { principal }) };
    },
    plugins: [
      useStreamAuthentication(services, (header) => bearerMatches(header, config.operatorToken)),
      useGraphQLSSE(),
      useSubscriptionErrorResults(),
    ],
  });
}

/** Credentials that fail answer with the same HTTP status as REST (401 or 403). */
function unauthorizedHttp(e: AppError): GraphQLError {
  return new GraphQLError(e.message, { extensions: { code: e.code, http: { status: ERROR_STATUS[e.code] } } });
}
