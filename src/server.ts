import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { sql } from 'kysely';
import pino from 'pino';
import { restApi } from '../rest/index.ts';
import { docsRoutes } from '../rest/openapi/routes.ts';
import { classify, failure, success } from '../rest/envelope.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/index.ts';
import { AppError } from './domain/errors.ts';
import { bearerMatches, createGraphQL } from './graphql/yoga.ts';
import { createMetrics } from './metrics.ts';
import { pages } from './pages/index.ts';
import { createServices, type Services } from './services/index.ts';
import { securityHeaders } from './security-headers.ts';

export const BODY_LIMIT = 64 * 1024;
/** How long stop() waits for requests in flight before cutting connections. */
const SHUTDOWN_GRACE_MS = 10_000;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface App {
  app: FastifyInstance;
  services: Services;
  /** Listens on `config.port` (0 for any) and returns the base URL. */
  start(): Promise<string>;
  /** Stops taking requests, lets in-flight ones finish, stops background work. */
  stop(): Promise<void>;
}

export interface AppOptions {
  /** Where JSON log lines go (default stdout); tests read them from here. */
  logStream?: NodeJS.WritableStream;
}

/** Builds the whole HTTP surface over one database: REST, GraphQL, health, metrics. */
export function createApp(config: Config, database: DatabaseHandle, options: AppOptions = {}): App {
  const services = createServices({ db: database.db, config, database });
  const metrics = createMetrics(database, services.stats, services.events);
  // Stdout written asynchronously: a line goes out at once when the stream is idle, and under
  // load the lines that queue meanwhile go out together, instead of one blocking write(2) per
  // request (a third of a request's cost on the bench machine). pino flushes on exit.
  const logStream = options.logStream ?? pino.destination({ dest: 1, sync: false });
  // The one line per request is written by a logger of its own without redaction: it carries
  // only the fields named in onResponse, none of them secret, and redaction's object walk was
  // ten microseconds a line. Everything else goes through Fastify's redacting logger.
  const requestLog = pino({ level: config.logLevel }, logStream);
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    // Long path ids reach the route (→ 404 PAYOUT_NOT_FOUND) instead of Fastify's own 414 shape;
    // anything the router still refuses (bad percent-encoding, longer ids) gets the envelope.
    routerOptions: { maxParamLength: 1024 },
    frameworkErrors: (error, req, reply) => {
      securityHeaders(req, reply);
      sendError(error, req, reply);
    },
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // One line per request, written in onResponse below, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    logger: {
      level: config.logLevel,
      stream: logStream,
      // Requests are logged without headers or bodies; these paths keep credentials and bank
      // details out even if something logs an object that carries them.
      redact: {
        paths: [
          'req.headers["x-api-key"]',
          'req.headers.authorization',
          '*.full_key',
          '*.fullKey',
          '*.secret',
          '*.api_key',
          '*.payment_details',
          '*.account_number',
          '*.accountNumber',
        ],
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

  let draining = false;
  // Hooks run on every request, so they are few and synchronous (an async hook costs a promise
  // and a turn of the microtask queue each).
  app.addHook('onRequest', (req, reply, done) => {
    securityHeaders(req, reply);
    reply.header('X-Request-Id', req.id);
    // Plain HTTP is refused in production unless a trusted proxy terminated TLS. Health checks
    // stay reachable for the load balancer.
    if (config.serviceEnv === 'prd' && req.protocol !== 'https' && !req.url.startsWith('/healthz') && !req.url.startsWith('/readyz')) {
      return done(new AppError('FORBIDDEN', 'HTTPS is required'));
    }
    done();
  });

  // While draining, answer what is in flight and then let the client's connection go, so
  // keep-alive sockets do not hold the shutdown open.
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (draining) reply.header('Connection', 'close');
    done(null, payload);
  });

  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    metrics.httpRequest(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
    requestLog.info(
      {
        reqId: req.id,
        method: req.method,
        route,
        status: reply.statusCode,
        duration_ms: Math.round(reply.elapsedTime * 10) / 10,
        merchant_id: req.principal?.merchant.id,
      },
      'request',
    );
    done();
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

  // Prometheus scrape; outside tst/dev only with the operator token.
  app.get('/metrics', async (req, reply) => {
    if (config.serviceEnv === 'prd' && !bearerMatches(req.headers.authorization, config.operatorToken)) {
      throw new AppError('UNAUTHORIZED', 'the operator token is required');
    }
    reply.header('Content-Type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });
  app.register(pages, { services, config });
  app.addHook('onClose', () => services.rateLimits.close());

  app.register(restApi, { prefix: '/api/v1', services });
  app.register(docsRoutes, { publicBaseUrl: config.publicBaseUrl });

  const yoga = createGraphQL(services, config, metrics);
  const graphqlHandler = async (req: FastifyRequest, reply: FastifyReply) => {
    const response = await yoga.handleNodeRequestAndResponse(req, reply, { req });
    response.headers.forEach((value, key) => void reply.header(key, value));
    reply.status(response.status);
    // An answer that is not a stream (JSON) goes out as a string: piping it as a stream cost an
    // AbortController and a DOMException per request, a third of a GraphQL read.
    const type = response.headers.get('content-type') ?? '';
    reply.send(type.includes('event-stream') || type.includes('multipart') ? response.body : await response.text());
    return reply;
  };
  // Yoga reads GraphQL bodies itself, whatever their content type, so that one it cannot read is
  // answered as GraphQL over HTTP wants (a JSON `errors` list, 400 or 415). Refusals before that
  // (plain HTTP in prd, a body over 64 KiB) stay in the envelope, as on every route.
  // Event streams live until the client leaves; stop() cuts the ones still open so close() can finish.
  const streamSockets = new Set<Socket>();
  const streamHandler = async (req: FastifyRequest, reply: FastifyReply) => {
    const socket = req.raw.socket;
    streamSockets.add(socket);
    socket.once('close', () => streamSockets.delete(socket));
    return graphqlHandler(req, reply);
  };
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    scope.route({ url: '/graphql', method: ['GET', 'POST', 'OPTIONS'], handler: graphqlHandler });
    scope.route({ url: '/graphql/stream', method: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'], handler: streamHandler });
  });

  let started = false;
  return {
    app,
    services,
    async start() {
      await services.notifications.start();
      await services.events.start();
      if (config.runDispatcher) services.dispatcher.start((err) => app.log.warn({ err }, 'webhook dispatcher'));
      const address = await app.listen({ port: config.port, host: config.host });
      started = true;
      services.payments.attach(address, (message, err) => app.log.warn({ err }, message));
      return address.replace('[::1]', 'localhost');
    },
    async stop() {
      if (!started) {
        await services.dispatcher.stop();
        await services.events.stop();
        await services.notifications.stop();
        return;
      }
      started = false;
      draining = true;
      // Background work first: pending sandbox confirmations and webhook deliveries stop, and
      // ending the event streams lets open subscriptions finish, so close() can drain.
      await services.payments.stop();
      await services.dispatcher.stop();
      await services.events.stop();
      await services.notifications.stop();
      for (const socket of streamSockets) socket.destroy();
      // Requests in flight finish; idle keep-alive sockets close at once. Whatever is still open
      // after the grace period (a stuck client) is cut.
      const grace = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      grace.unref();
      const closeIdle = setInterval(() => app.server.closeIdleConnections(), 100);
      try {
        await app.close();
      } finally {
        clearTimeout(grace);
        clearInterval(closeIdle);
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
