import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import type { FastifyRequest } from 'fastify';
import { getOperationAST } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { Config } from '../config.ts';
import { authenticate } from '../http/auth.ts';
import type { Metrics } from '../metrics.ts';
import type { Services } from '../services/index.ts';
import type { GraphQLContext } from './builder.ts';
import { maskError, useErrorContract } from './errors.ts';
import { limitPlugins } from './limits.ts';
import { useRateLimits } from './rate-limit.ts';
import { schema } from './schema.ts';

/**
 * GraphQL over HTTP at `/graphql` (GraphiQL outside `prd`) and graphql-sse at `/graphql/stream`.
 * The caller is authenticated once, before Yoga (http.ts): merchants with `X-API-Key` exactly
 * as in REST, the operator with its bearer token.
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
    maskedErrors: { maskError: maskError(schema) },
    context: async ({ request, req }): Promise<GraphQLContext> => ({
      services,
      // Served by Fastify (http.ts), the caller is already known; called directly (tests), it is
      // authenticated here, once.
      actor: req ? req.actor : await authenticate(services.keys, config.operatorToken, Object.fromEntries(request.headers)),
      request,
    }),
    plugins: [useErrorContract(), useGraphQLSSE(), ...limitPlugins(config), useRateLimits(), ...(metrics ? [countOperations(metrics)] : [])],
  });
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
