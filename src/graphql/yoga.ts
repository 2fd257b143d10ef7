import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import { GraphQLError } from 'graphql';
import { createYoga } from 'graphql-yoga';
import type { Config } from '../config.ts';
import { AppError, ERROR_STATUS, isAppError } from '../domain/errors.ts';
import type { Services } from '../services/index.ts';
import { classify } from '../../rest/envelope.ts';
import { createLoaders, type GraphQLContext } from './context.ts';
import { useRateLimits } from './rate-limit.ts';
import { useContractCodes } from './contract-codes.ts';
import { schema } from './schema.ts';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Metrics } from '../metrics.ts';
import '../../rest/auth.ts';

/** Constant-time check of `Authorization: Bearer <token>`. */
export function bearerMatches(header: string | null | undefined, token: string): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  // Compare digests, not the texts: equal lengths always, so timing tells nothing of the
  // token's length either.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(header.slice('Bearer '.length)), digest(token));
}

/** An error as GraphQL clients see it: the REST code in `extensions.code`, nothing internal. */
export function toGraphQLError(error: unknown, original?: GraphQLError): GraphQLError {
  const { code, message } = classify(error);
  return new GraphQLError(message, {
    ...(original && { nodes: original.nodes, source: original.source, positions: original.positions, path: original.path }),
    // An outage is 503 on the HTTP response too, as in REST, so clients and load balancers back off.
    extensions: code === 'SERVICE_UNAVAILABLE' ? { code, http: { status: 503 } } : { code },
  });
}

/**
 * GraphQL over HTTP at `/graphql` (GraphiQL outside `prd`) and graphql-sse at `/graphql/stream`.
 * Merchants authenticate with `X-API-Key` exactly as in REST; the operator with its bearer token.
 */
export function createGraphQL(services: Services, config: Config, metrics?: Metrics) {
  return createYoga<{ req?: FastifyRequest }, GraphQLContext>({
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
    context: async ({ request, req }): Promise<GraphQLContext> => {
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
      // The request log line names the merchant, as it does for REST.
      if (req && principal) req.principal = principal;
      return { services, operator, loaders: createLoaders(services, principal), ...(principal && { principal }) };
    },
    plugins: [useGraphQLSSE(), useRateLimits(), useContractCodes(), ...(metrics ? [countOperations(metrics)] : [])],
  });
}

/** Credentials that fail answer with the same HTTP status as REST (401 or 403). */
function unauthorizedHttp(e: AppError): GraphQLError {
  return new GraphQLError(e.message, { extensions: { code: e.code, http: { status: ERROR_STATUS[e.code] } } });
}

/** Counts executed operations by type, name and outcome for `/metrics`. */
function countOperations(metrics: Metrics): Plugin {
  return {
    onExecute({ args }) {
      const operation = getOperationAST(args.document, args.operationName);
      const type = operation?.operation ?? 'unknown';
      const name = operation?.name?.value ?? 'anonymous';
      return {
        onExecuteDone({ result }) {
          const errors = 'errors' in result ? result.errors : undefined;
          const refused = errors?.some((e) => e.extensions?.code === 'RATE_LIMIT_EXCEEDED');
          metrics.graphqlOperation(type, name, refused ? 'refused' : errors?.length ? 'error' : 'ok');
        },
      };
    },
  };
}
