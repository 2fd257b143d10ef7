import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { StreamLimits } from '../domain/stream-limits.ts';
import { classify } from '../http/errors.ts';
import { sendError } from '../http/reply.ts';
import type { Metrics } from '../metrics.ts';
import type { Services } from '../services/index.ts';
import { directGraphQL, knownDocuments } from './direct.ts';
import { GRAPHIQL_CSP, graphiqlAssetRoutes } from './graphiql.ts';
import { schema } from './schema.ts';
import { eventStreams } from './streams.ts';
import { createGraphQL } from './yoga.ts';

export interface GraphQLRoutes {
  /** Ends every open event stream and frees every reservation, so the server can close. */
  closeStreams(): void;
  /** What principals hold on `/graphql/stream` now (docs/limits.md). */
  streamCounts(): { reservations: number; connections: number; operations: number };
}

/**
 * `/graphql` and `/graphql/stream` on Fastify. The caller comes in by the `graphql` gate
 * (src/http/caller.ts), resolved once per HTTP request (a stream's reservation, its connection and
 * each of its operations alike) before the body is read: merchants with `X-API-Key` exactly as in
 * REST, the operator with its bearer token, or nobody. Bad credentials are refused with the REST
 * status (401, 403) and a GraphQL error body before Yoga runs anything, and so is a request over
 * its address's `anonymous` budget (429). Yoga reads GraphQL bodies itself, whatever their content
 * type, so that one it cannot read is answered as GraphQL over HTTP wants (a JSON `errors` list, 400).
 */
export function graphqlRoutes(app: FastifyInstance, services: Services, config: Config, metrics?: Metrics, streamLimits?: StreamLimits): GraphQLRoutes {
  const known = knownDocuments();
  const streams = eventStreams(services, streamLimits);
  const yoga = createGraphQL(services, config, metrics, known, streams.plugin);
  const direct = directGraphQL({ services, schema, known, maxCost: config.graphql.maxCost, metrics });
  /** Refused credentials (401, 403), the anonymous budget spent (429), or the database down (503), as a GraphQL error body. */
  const refuse = (req: FastifyRequest, reply: FastifyReply, e: unknown) => {
    const c = classify(e);
    if (c.unexpected) req.log.error({ err: e }, 'unexpected error');
    return reply.code(c.status).type('application/json; charset=utf-8').send({ errors: [{ message: c.message, extensions: { code: c.code } }] });
  };
  const handle = async (req: FastifyRequest, reply: FastifyReply) => {
    const answer = await direct(req);
    if (answer) return reply.code(answer.status).headers(answer.headers).send(answer.body);
    const response = await yoga.handleNodeRequestAndResponse(req, reply, { req });
    response.headers.forEach((value, key) => void reply.header(key, value));
    reply.status(response.status);
    // An answer that is not a stream (JSON) goes out as a string: piping it as a stream cost an
    // AbortController and a DOMException per request, a third of a GraphQL read.
    const type = response.headers.get('content-type') ?? '';
    if (type.startsWith('text/html')) reply.header('Content-Security-Policy', GRAPHIQL_CSP);
    return reply.send(type.includes('event-stream') || type.includes('multipart') ? response.body : await response.text());
  };
  // Event streams live until the client leaves; closeStreams() cuts the ones still open.
  const streamSockets = new Set<Socket>();
  const handleStream = async (req: FastifyRequest, reply: FastifyReply) => {
    const socket = req.raw.socket;
    // Once per socket: a keep-alive socket carries many requests, and a listener each would pile up.
    if (!streamSockets.has(socket)) {
      streamSockets.add(socket);
      socket.once('close', () => streamSockets.delete(socket));
    }
    return handle(req, reply);
  };
  if (config.serviceEnv !== 'prd') graphiqlAssetRoutes(app);
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    // The caller step's refusals are GraphQL's to write; what is refused before it (plain HTTP in
    // prd) or after it (a body over 64 KiB) keeps the service-wide envelope, as on every route.
    scope.setErrorHandler((error, req, reply) => (error === req.refusal ? refuse(req, reply, error) : sendError(error, req, reply)));
    const gate = { gate: 'graphql' } as const;
    scope.route({ url: '/graphql', method: ['GET', 'POST', 'OPTIONS'], config: gate, handler: handle });
    scope.route({ url: '/graphql/stream', method: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'], config: gate, handler: handleStream });
  });
  return {
    closeStreams() {
      streams.registry.closeAll();
      for (const socket of streamSockets) socket.destroy();
    },
    streamCounts: () => streams.registry.counts(),
  };
}
