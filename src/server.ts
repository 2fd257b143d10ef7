import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { restApi } from '../rest/index.ts';
import { classify, failure, success } from '../rest/envelope.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/index.ts';
import { AppError } from './domain/errors.ts';
import { createGraphQL } from './graphql/yoga.ts';
import { createServices, type Services } from './services/index.ts';

export const BODY_LIMIT = 64 * 1024;
const STOP_GRACE_MS = 5000;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface App {
  app: FastifyInstance;
  services: Services;
  /** Listens on `config.port` (0 for any) and returns the base URL. */
  start(): Promise<string>;
  /** Stops taking requests, lets in-flight ones finish, stops background work. */
  stop(): Promise<void>;
}

/** Builds the whole HTTP surface over one database: REST, GraphQL, health. */
export function createApp(config: Config, database: DatabaseHandle): App {
  const services = createServices({ db: database.db, config, database });
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    logger: {
      level: config.logLevel,
      // Requests are logged by method and URL only; these paths keep credentials out even if
      // a serializer ever starts logging headers or bodies.
      redact: {
        paths: ['req.headers["x-api-key"]', 'req.headers.authorization', '*.full_key', '*.secret', '*.payment_details'],
        censor: '[redacted]',
      },
    },
  });

  // JSON bodies: an empty body is "no body" (for POSTs that take none); anything unparsable is
  // INVALID_INPUT in the envelope, never Fastify's own error shape.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new AppError('INVALID_INPUT', 'request body is not valid JSON'), undefined);
    }
  });

  app.addHook('onRequest', async (req, reply) => {
    reply.header('X-Request-Id', req.id);
    // Plain HTTP is refused in production unless a trusted proxy terminated TLS. Health checks
    // stay reachable for the load balancer.
    if (config.serviceEnv === 'prd' && req.protocol !== 'https' && !req.url.startsWith('/healthz') && !req.url.startsWith('/readyz')) {
      throw new AppError('FORBIDDEN', 'HTTPS is required');
    }
  });

  app.setErrorHandler((error, req, reply) => sendError(error, req, reply));
  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send(failure('NOT_FOUND', `no route for ${req.method} ${req.url.split('?')[0]}`));
  });

  app.get('/healthz', async () => success({ ok: true }));
  app.get('/readyz', async (_req, reply) => {
    try {
      await sql`select 1`.execute(database.db);
      return success({ ok: true, database: database.kind });
    } catch {
      reply.code(503);
      return failure('SERVICE_UNAVAILABLE', 'database unreachable');
    }
  });

  app.register(restApi, { prefix: '/api/v1', services });

  const yoga = createGraphQL(services, config);
  const graphqlHandler = async (req: FastifyRequest, reply: FastifyReply) => {
    const response = await yoga.handleNodeRequestAndResponse(req, reply, {});
    response.headers.forEach((value, key) => void reply.header(key, value));
    reply.status(response.status);
    reply.send(response.body);
    return reply;
  };
  app.route({ url: '/graphql', method: ['GET', 'POST', 'OPTIONS'], handler: graphqlHandler });
  // Event streams live until the client leaves; stop() cuts the ones still open so close() can finish.
  const streamSockets = new Set<Socket>();
  const streamHandler = async (req: FastifyRequest, reply: FastifyReply) => {
    const socket = req.raw.socket;
    streamSockets.add(socket);
    socket.once('close', () => streamSockets.delete(socket));
    return graphqlHandler(req, reply);
  };
  app.route({ url: '/graphql/stream', method: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'], handler: streamHandler });

  let started = false;
  return {
    app,
    services,
    async start() {
      await services.events.start();
      if (config.runDispatcher) services.dispatcher.start((err) => app.log.warn({ err }, 'webhook dispatcher'));
      const address = await app.listen({ port: config.port, host: config.host });
      started = true;
      return address.replace('[::1]', 'localhost');
    },
    async stop() {
      // Ending the event streams first lets open subscriptions finish, so close() can drain.
      await services.dispatcher.stop();
      await services.events.stop();
      for (const socket of streamSockets) socket.destroy();
      if (started) {
        // In-flight requests get a grace period; a connection still open after it (a client
        // holding an event stream in a way not seen above) is cut rather than hang shutdown.
        const force = setTimeout(() => app.server.closeAllConnections(), STOP_GRACE_MS);
        try {
          await app.close();
        } finally {
          clearTimeout(force);
        }
      }
    },
  };
}

function sendError(error: unknown, req: FastifyRequest, reply: FastifyReply) {
  const { status, code, message, unexpected } = classify(error);
  if (unexpected) req.log.error({ err: error }, 'unexpected error');
  else if (status >= 500) req.log.warn({ code }, message);
  reply.code(status).send(failure(code, message));
}
