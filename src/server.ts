import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import pino from 'pino';
import { rest } from '../rest/index.ts';
import { ping } from './db/health.ts';
import type { Config } from './config.ts';
import { AppError } from './domain/errors.ts';
import { STREAM_LIMITS, type StreamLimits } from './domain/stream-limits.ts';
import { type GraphQLRoutes, graphqlRoutes } from './graphql/http.ts';
import { callerStep } from './http/caller.ts';
import { failure, success } from './http/envelope.ts';
import { RequestLogger } from './http/request-logger.ts';
import { sendError } from './http/reply.ts';
import { securityHeaders } from './http/security-headers.ts';
import { homeRoute } from './home.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { pages } from './pages/index.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { type ServiceRuntime, serviceQueues } from './runtime.ts';

export const BODY_LIMIT = 64 * 1024;
/** How long stop() lets requests in flight finish before cutting connections. */
const DRAIN_MS = 3_000;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface App {
  app: FastifyInstance;
  services: ServiceRuntime;
  /** Starts the services' background work and listens on `config.port` (0 for any); returns the base URL. */
  start(): Promise<string>;
  /**
   * Stops taking requests, lets those in flight finish (up to 3 s), then stops the services,
   * which closes every connection. Within 5 s whatever is under way.
   */
  stop(): Promise<void>;
  /** `/graphql` and `/graphql/stream`: what the event streams hold. */
  graphql: GraphQLRoutes;
  /** The `/api/v1` routes served, as `METHOD /api/v1/path` with parameters as `{}` (known once the app is ready). */
  restRoutes: readonly string[];
}

/** pino's number for `info`, the level of the request lines. */
const INFO = pino.levels.values.info!;
const pid = process.pid;
const host = hostname();

/** How many bytes of log lines are gathered before a write, and how long a line may wait at most. */
const LOG_BLOCK_BYTES = 4096;
const LOG_FLUSH_MS = 100;

export interface AppOptions {
  /** Where JSON log lines go (default stdout); tests read them from here. */
  logStream?: NodeJS.WritableStream;
  /** Other bounds for the event streams than STREAM_LIMITS (tests: a short reservation TTL). */
  streamLimits?: Partial<StreamLimits>;
}

/** The whole HTTP surface over the services: REST, GraphQL, the hosted pages, docs, health, metrics. */
export function createApp(services: ServiceRuntime, options: AppOptions = {}): App {
  const { config, database } = services;
  const metrics = createMetrics(database, services.stats, services.events, services.jobs);
  const logStream = options.logStream ?? blockWrittenStdout();
  const app = fastifyFor(config, logStream);
  jsonBodies(app);
  const shutdown = { draining: false };
  requestHooks(app, services, shutdown);
  requestLines(app, metrics, config, logStream);
  app.setErrorHandler((error, req, reply) => sendError(error, req, reply));
  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send(failure('NOT_FOUND', `no route for ${req.method} ${req.url.split('?')[0]}`));
  });
  operationalRoutes(app, services, metrics);
  app.register(homeRoute, { config });
  app.register(pages, { services, config });
  app.register(dashboardRoutes, { services, config });
  // The composition root mounts the REST adapter (its /api/v1 routes and its reference at /docs).
  const restRoutes = rest(app, services, config);
  const graphql = graphqlRoutes(app, services, config, metrics, { ...STREAM_LIMITS, ...options.streamLimits });
  return { app, services, graphql, restRoutes, ...lifecycle(app, services, graphql, shutdown) };
}

/**
 * Stdout written asynchronously and in blocks: lines gather until 4 KiB (about 25 request lines)
 * or for at most 100 ms, then go out in one write. A write per line cost ten microseconds of a
 * read request's eighty on the bench machine (blocking write(2) at first, then a thread-pool round
 * trip each); pino writes what is gathered on exit. A kill -9 loses at most the last 100 ms of
 * lines: logs are not the record (the database and its audit log are).
 */
function blockWrittenStdout(): pino.DestinationStream {
  return pino.destination({ dest: 1, sync: false, minLength: LOG_BLOCK_BYTES, periodicFlush: LOG_FLUSH_MS });
}

/** Fastify as zarpay runs it: its body limit, request ids, error shapes and redacting logger. */
function fastifyFor(config: Config, logStream: pino.DestinationStream): FastifyInstance {
  return Fastify({
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
    // One line per request, written in onResponse (requestLines), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: (logger, bindings, options) => new RequestLogger(logger, bindings, options),
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
          '*.paymentDetails',
          '*.account_number',
          '*.accountNumber',
        ],
        censor: '[redacted]',
      },
    },
  });
}

/**
 * JSON bodies: an empty body is "no body" (for POSTs that take none); anything unparsable is
 * INVALID_INPUT in the envelope, never Fastify's own error shape.
 */
function jsonBodies(app: FastifyInstance): void {
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
}

/**
 * What every request passes through before its route: security headers and its id, HTTPS in
 * prd, the caller step, and a closing connection while the service drains. Hooks run on every
 * request, so they are few and synchronous (an async hook costs a promise and a turn of the
 * microtask queue each).
 */
function requestHooks(app: FastifyInstance, services: ServiceRuntime, shutdown: { draining: boolean }): void {
  const { config } = services;
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
  // The caller step (http/caller.ts): who sent each request, resolved once, and its address's
  // `anonymous` budget (CONTRACT §9) spent before anything else is done for it. Two hooks because
  // Fastify reads the body between them: credentials in the headers or the address are checked
  // before it is read, the form token and a provider's signature once it is.
  const caller = callerStep(services, config);
  app.addHook('onRequest', caller.onRequest);
  app.addHook('preValidation', caller.preValidation);
  // While draining, answer what is in flight and then let the client's connection go, so
  // keep-alive sockets do not hold the shutdown open.
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (shutdown.draining) reply.header('Connection', 'close');
    done(null, payload);
  });
}

/**
 * The one line per request and its metric, once answered. The line is written in pino's format
 * (level, time, pid, hostname, its fields, msg) straight onto pino's stream, without redaction:
 * it carries only the fields named here, none of them secret. Redaction's object walk was ten
 * microseconds a line, and pino's general-purpose serializer 2.8 µs where JSON.stringify takes
 * 0.4 (a loop of 200,000 on the bench machine). Everything else goes through Fastify's
 * redacting logger.
 */
function requestLines(app: FastifyInstance, metrics: Metrics, config: Config, logStream: pino.DestinationStream): void {
  const logged = (pino.levels.values[config.logLevel] ?? Infinity) <= INFO;
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    metrics.httpRequest(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
    if (logged) {
      logStream.write(
        JSON.stringify({
          level: INFO,
          time: Date.now(),
          pid,
          hostname: host,
          reqId: req.id,
          method: req.method,
          route,
          status: reply.statusCode,
          duration_ms: Math.round(reply.elapsedTime * 10) / 10,
          merchant_id: req.actor?.kind === 'merchant' ? req.actor.merchant.id : undefined,
          msg: 'request',
        }) + '\n',
      );
    }
    done();
  });
}

/** Health for the load balancer and the Prometheus scrape. */
function operationalRoutes(app: FastifyInstance, services: ServiceRuntime, metrics: Metrics): void {
  const { config, database } = services;
  // Load balancers poll these from a handful of addresses, without credentials: never throttled.
  const health = { config: { gate: 'health' as const } };
  app.get('/healthz', health, async () => success({ ok: true }));
  app.get('/readyz', health, async (_req, reply) => {
    try {
      await ping(database.db);
      return success({ ok: true, database: database.kind });
    } catch {
      reply.code(503);
      return failure('SERVICE_UNAVAILABLE', 'database unreachable');
    }
  });
  // Outside tst/dev only with the operator token (a public route: the caller step has checked any
  // token sent, and refused ones leave the caller nobody).
  app.get('/metrics', async (req, reply) => {
    if (config.serviceEnv === 'prd' && req.actor?.kind !== 'operator') {
      throw new AppError('UNAUTHORIZED', 'the operator token is required');
    }
    reply.header('Content-Type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}

/** Start: the background work, then listening. Stop: drain requests and jobs, then the services. */
function lifecycle(app: FastifyInstance, services: ServiceRuntime, graphql: GraphQLRoutes, shutdown: { draining: boolean }): Pick<App, 'start' | 'stop'> {
  let listening = false;
  const closing = async () => {
    if (!listening) return;
    listening = false;
    shutdown.draining = true;
    // Open event streams end now (their clients reconnect elsewhere); requests in flight
    // finish, idle keep-alive sockets close at once, and whatever is still open after the
    // drain (a stuck client) is cut.
    graphql.closeStreams();
    const cut = setTimeout(() => app.server.closeAllConnections(), DRAIN_MS);
    const closeIdle = setInterval(() => app.server.closeIdleConnections(), 100);
    try {
      await app.close();
    } finally {
      clearTimeout(cut);
      clearInterval(closeIdle);
    }
  };
  return {
    async start() {
      const { config } = services;
      await services.start({ queues: serviceQueues(config), onError: (message, err) => app.log.warn({ err }, message) });
      const address = await app.listen({ port: config.port, host: config.host });
      listening = true;
      services.listeningAt(address);
      return address.replace('[::1]', 'localhost');
    },
    async stop() {
      // Requests and background jobs under way finish side by side, each within the drain; then
      // the services close their connections, the database last.
      await Promise.all([closing(), services.runner.stop(DRAIN_MS)]);
      await services.stop();
    },
  };
}
