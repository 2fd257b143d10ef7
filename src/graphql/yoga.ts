import type { FastifyRequest } from 'fastify';
import { type CORSOptions, createYoga, type Plugin } from 'graphql-yoga';
import type { Config } from '../config.ts';
import type { Metrics } from '../metrics.ts';
import type { Services } from '../services/index.ts';
import type { GraphQLContext } from './builder.ts';
import { useAdmission } from './admission.ts';
import { type KnownDocuments, knownDocuments } from './direct.ts';
import { maskError, useErrorContract } from './errors.ts';
import { graphiqlOptions, renderGraphiQLPage } from './graphiql.ts';
import { limitPlugins } from './limits.ts';
import { recordOperation } from './operation-metrics.ts';
import { schema } from './schema.ts';
import { eventStreams } from './streams.ts';

/**
 * GraphQL over HTTP at `/graphql` (GraphiQL outside `prd`) and graphql-sse at `/graphql/stream`
 * (`streams`, see streams.ts). The caller is resolved once, before Yoga, by the caller step
 * (src/http/caller.ts, the `graphql` gate): merchants with `X-API-Key` exactly as in REST, the
 * operator with its bearer token. `known` remembers the documents Yoga has validated, for the
 * direct path (direct.ts).
 */
export function createGraphQL(
  services: Services,
  config: Config,
  metrics?: Metrics,
  known: KnownDocuments = knownDocuments(),
  streams: Plugin = eventStreams(services).plugin,
) {
  return createYoga<{ req?: FastifyRequest }, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    // Outside prd, served from the installed package (graphiql.ts); in prd not at all.
    graphiql: config.serviceEnv !== 'prd' && graphiqlOptions(),
    renderGraphiQL: renderGraphiQLPage,
    landingPage: false,
    logging: false,
    cors: corsFor(config.publicBaseUrl),
    // Fastify has already read the body within its 64 KiB limit; Yoga's own limit would pipe
    // every body through a stream to count its bytes again.
    maxRequestBodySize: false,
    // Parsed documents are kept by weight, not by number (document-cache.ts): a caller without
    // credentials can send a new one on every request.
    parserAndValidationCache: { documentCache: known.caches.documents, errorCache: known.caches.errors },
    maskedErrors: { maskError: maskError(schema) },
    // The caller was resolved by the caller step (src/http/caller.ts) before Fastify handed the
    // request over; Yoga run without Fastify (the schema's own tests) serves nobody.
    context: ({ request, req }): GraphQLContext => ({ services, actor: req?.actor, request }),
    // Documents validated here are then answered by direct.ts, which does each request's part
    // of these plugins itself (the error contract, the operation metrics, the cost and rate limits):
    // a plugin that acts on every request (onRequest, onExecute, onResultProcess, onResponse)
    // must be given its place there too, or run in http.ts before the split.
    plugins: [
      useErrorContract(),
      streams,
      ...limitPlugins(config, schema),
      ...(metrics ? [countOperations(metrics)] : []),
      useAdmission(config.graphql.maxCost),
      known.plugin,
    ],
  });
}

/**
 * Who may read `/graphql` from a browser page of another origin. A dashboard person's session is
 * a cookie, so credentials are allowed for the service's own origin (PUBLIC_BASE_URL's) only; any
 * other origin may call with an API key, which needs no credentials, and is never told it may
 * send cookies (Yoga's default echoed every origin with `Access-Control-Allow-Credentials: true`,
 * letting any page read what a signed-in person's cookie may read).
 */
function corsFor(publicBaseUrl: string): (request: Request) => CORSOptions {
  const own = new URL(publicBaseUrl).origin;
  const ours: CORSOptions = { origin: [own], credentials: true };
  // '*' makes Yoga answer with the caller's origin and `Vary: Origin`, but without credentials.
  const anyone: CORSOptions = { origin: '*', credentials: false };
  return (request) => (request.headers.get('origin') === own ? ours : anyone);
}

/** Counts executed operations for `/metrics` (placed before admission, so its refusals count too). */
function countOperations(metrics: Metrics): Plugin {
  return {
    onExecute({ args }) {
      return {
        onExecuteDone({ result }) {
          if (!(Symbol.asyncIterator in result)) recordOperation(metrics, args.document, args.operationName, result);
        },
      };
    },
  };
}
