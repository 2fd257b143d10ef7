import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { StreamLimits } from '../domain/stream-limits.ts';
import { countAnonymous, countRefusal } from '../http/anonymous.ts';
import { authenticate } from '../http/auth.ts';
import { classify } from '../http/errors.ts';
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
 * `/graphql` and `/graphql/stream` on Fastify. The caller is authenticated here, once per HTTP
 * request (a stream's reservation, its connection and each of its operations alike): bad
 * credentials are refused with the REST status (401, 403) and a GraphQL error body before Yoga
 * runs anything. A request without valid credentials (none, or refused ones) counts against its
 * address's `anonymous` budget, here, so that the 429 is a GraphQL error body too. Yoga reads
 * GraphQL bodies itself, whatever their content type, so that one it cannot read is answered as
 * GraphQL over HTTP wants (a JSON `errors` list, 400).
 */
export function graphqlRoutes(app: FastifyInstance, services: Services, config: Config, metrics?: Metrics, streamLimits?: StreamLimits): GraphQLRoutes {
  const known = knownDocuments();
  const streams = eventStreams(services, config, streamLimits);
  const yoga = createGraphQL(services, config, metrics, known, streams.plugin);
  const direct = directGraphQL({ services, schema, known, maxCost: config.graphql.maxCost, metrics });
  /** Refused credentials (401, 403), the anonymous budget spent (429), or the database down (503), as a GraphQL error body. */
  const refuse = (req: FastifyRequest, reply: FastifyReply, e: unknown) => {
    const c = classify(e);
    if (c.unexpected) req.log.error({ err: e }, 'unexpected error');
    return reply.code(c.status).type('application/json; charset=utf-8').send({ errors: [{ message: c.message, extensions: { code: c.code } }] });
  };
  const handle = async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      req.actor = await authenticate(services.keys, config.operatorToken, req.headers);
    } catch (e) {
      return refuse(req, reply, await countRefusal(services, req, reply, e));
    }
    if (!req.actor) {
      try {
        await countAnonymous(services, req, reply);
      } catch (e) {
        return refuse(req, reply, e);
      }
    }
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
    const counting = { anonymous: 'self' } as const;
    scope.route({ url: '/graphql', method: ['GET', 'POST', 'OPTIONS'], config: counting, handler: handle });
    scope.route({ url: '/graphql/stream', method: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'], config: counting, handler: handleStream });
  });
  return {
    closeStreams() {
      streams.registry.closeAll();
      for (const socket of streamSockets) socket.destroy();
    },
    streamCounts: () => streams.registry.counts(),
  };
}
