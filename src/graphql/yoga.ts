import { createHash, timingSafeEqual } from 'node:crypto';
import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import { GraphQLError } from 'graphql';
import { createYoga } from 'graphql-yoga';
import type { Config } from '../config.ts';
import { AppError, ERROR_STATUS, isAppError } from '../domain/errors.ts';
import type { Services } from '../services/index.ts';
import { classify } from '../../rest/envelope.ts';
import { createLoaders, type GraphQLContext } from './context.ts';
import { useContractCodes } from './contract-codes.ts';
import { isRestCode, tag, useRestErrorCodes } from './error-codes.ts';
import { limitPlugins } from './limits.ts';
import { useRateLimits } from './rate-limit.ts';
import { schema } from './schema.ts';
import type { FastifyRequest } from 'fastify';
import { useStreamAuthentication, useSubscriptionErrorResults } from './sse-errors.ts';
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
 * What a client sees of any error: GraphQL's own errors (parse, validation, coercion, a scalar's
 * refusal) keep their message with a REST code; everything else goes through `classify`, so an
 * unexpected failure is INTERNAL_ERROR with no stack or SQL.
 */
function maskError(error: unknown): Error {
  if (error instanceof GraphQLError) {
    const cause = error.originalError;
    if (!cause) {
      // Yoga's own request errors (no query, unreadable body) carry an HTTP status. A body that is
      // not JSON is 400 for every client, as in REST (CONTRACT §2), not 200 for application/json.
      const http = error.extensions.http as { spec?: boolean } | undefined;
      if (error.extensions.code === 'BAD_REQUEST' && http) http.spec = false;
      if (!isRestCode(error.extensions.code)) tag(error, http ? 'INVALID_INPUT' : 'VALIDATION_FAILED');
      return error;
    }
    // A value refused during coercion (a scalar's or an enum's parseValue): graphql-js wraps the
    // refusal with the variable's name. Keep that message; the code is the scalar's or VALIDATION_FAILED.
    if (cause instanceof GraphQLError && !cause.originalError) {
      const code = isRestCode(cause.extensions.code) ? cause.extensions.code : 'VALIDATION_FAILED';
      return new GraphQLError(error.message, { nodes: error.nodes, path: error.path, extensions: { code } });
    }
    return toGraphQLError(cause, error);
  }
  return toGraphQLError(error);
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
    // Fastify has already read the body within its 64 KiB limit; Yoga's own limit would pipe
    // every body through a stream to count its bytes again.
    maxRequestBodySize: false,
    maskedErrors: { maskError },
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
    plugins: [
      useStreamAuthentication(services, (header) => bearerMatches(header, config.operatorToken)),
      useGraphQLSSE(),
      useSubscriptionErrorResults(),
      useRestErrorCodes(),
      useContractCodes(),
      ...limitPlugins(config),
      useRateLimits(),
      ...(metrics ? [countOperations(metrics)] : []),
    ],
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
