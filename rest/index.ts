import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config, RateLimitedOperation } from '../src/config.ts';
import { type Action, refusal } from '../src/domain/access.ts';
import { AppError } from '../src/domain/errors.ts';
import { sendError } from '../src/http/reply.ts';
import { rateLimitExceeded, rateLimitHeaders } from '../src/http/rate-limits.ts';
import type { Services } from '../src/services/index.ts';
import type { RateLimitDecision } from '../src/services/rate-limits.ts';
import { merchantRoutes } from './merchant.ts';
import { operatorRoutes } from './operator.ts';
import { undocumented } from './openapi/document.ts';
import { docsRoutes } from './openapi/routes.ts';
import { paymentRoutes } from './payments.ts';
import { payoutRoutes } from './payouts.ts';
import { payeeRoutes } from './payees.ts';
import { paymentLinkRoutes } from './payment-links.ts';
import { paymentRequestRoutes } from './payment-requests.ts';
import { refundRoutes } from './refunds.ts';
import { statementRoutes } from './statements.ts';
import { webhookRoutes } from './webhooks.ts';
import { merchantOf } from './request.ts';
import { restField } from './wire.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The budget this route counts against: `app.get(url, { config: { rateLimit: 'balance' } }, handler)`. */
    rateLimit?: RateLimitedOperation;
    /** What the route does for the merchant (src/domain/access.ts): every `/api/v1` route names it. */
    access?: Action;
  }
  interface FastifyRequest {
    /** A read's count under way while its handler runs, and the headers set before it: onSend waits for it (see restApi). */
    budget?: { counted: Promise<RateLimitDecision | null>; headers: readonly string[] };
  }
}

/**
 * The `/api/v1` adapter: parse, call a service, wrap in the envelope. Every route comes in by the
 * `api` gate (src/http/caller.ts): a valid, active key of this environment, checked before the
 * body is read, so an unauthenticated caller learns nothing about its body's validity, and a
 * request without a valid key counts against its address's `anonymous` budget instead (429 once
 * that is spent). The merchant's own budget for the route's operation is counted next, in this
 * adapter's onRequest hook, also before the body: malformed bodies count too, and every response
 * of a limited route (success, 4xx, 429) carries the RateLimit headers.
 *
 * A write waits for its count before anything else is done for it. A read (GET) is counted while
 * it runs, and its answer waits for the count in onSend: over the budget, a 429 goes out instead
 * of whatever the read found, without the headers or the body its handler made. Counting and
 * reading side by side took a sixth off the CPU time of a REST read (bench/ab.ts, two builds in
 * turns: 120 → 101 µs, 8,400 → 10,000 balance reads a second): its request no longer waits
 * idle through the count's round trip before its own.
 */
async function restApi(app: FastifyInstance, opts: { services: Services; served: string[] }) {
  const { services } = opts;
  // Problems with a use case's input name its fields as REST callers know them (`payment_details.branch_code`).
  app.setErrorHandler((error, req, reply) => sendError(error, req, reply, restField));
  app.addHook('onRoute', (route) => {
    if (!route.config?.access) throw new Error(`${route.method} ${route.url}: name its access (src/domain/access.ts)`);
    route.config = { ...route.config, gate: 'api' };
    // HEAD is Fastify's own twin of each GET.
    for (const method of [route.method].flat()) if (method !== 'HEAD') opts.served.push(`${method} ${route.url.replace(/:[^/]+/g, '{}')}`);
  });
  // Callbacks, like the app's other hooks: an async hook costs a promise and a turn of the
  // microtask queue more on every request.
  app.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: (e?: Error) => void) => {
    const { rateLimit: operation, access } = req.routeOptions.config;
    if (!access) return done(); // not a route (a 404)
    const merchant = merchantOf(req);
    // What the caller's role may not do is refused first, before it spends the merchant's budget
    // (the use case checks the same table again).
    const why = access && refusal(merchant, access);
    if (why) return done(new AppError('FORBIDDEN', why));
    if (!operation) return done();
    const counted = services.rateLimits.consume(merchant.merchant.id, operation);
    // A read changes nothing, so it runs while it is counted, and its answer waits for the count
    // in onSend: a 429 then goes out in its place. Anything else waits for the count first.
    if (req.method === 'GET') {
      req.budget = { counted, headers: Object.keys(reply.getHeaders()) };
      // Never left unobserved, should the request end before onSend (consume does not reject).
      counted.catch(() => {});
      return done();
    }
    counted.then((decision) => done(settle(reply, decision)), done);
  });
  app.addHook('onSend', (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (e: Error | null, payload?: unknown) => void) => {
    const budget = req.budget;
    if (!budget) return done(null, payload);
    req.budget = undefined;
    budget.counted.then((decision) => {
      if (decision?.allowed === false) {
        // Over the budget: the 429 replaces whatever the read found, a 404 included, and nothing
        // its handler set goes out (a statement's stream is closed, its headers dropped): a
        // refused caller learns nothing of what exists.
        if (payload instanceof Readable) payload.destroy();
        for (const name of Object.keys(reply.getHeaders())) if (!budget.headers.includes(name)) reply.removeHeader(name);
      }
      done(settle(reply, decision) ?? null, payload);
    }, done);
  });
  payoutRoutes(app, services);
  payeeRoutes(app, services);
  paymentRoutes(app, services);
  refundRoutes(app, services);
  paymentLinkRoutes(app, services);
  paymentRequestRoutes(app, services);
  merchantRoutes(app, services);
  statementRoutes(app, services);
  webhookRoutes(app, services);
}

/** Puts a count's `RateLimit-*` headers on the reply, and gives the refusal when it is over the budget. */
function settle(reply: FastifyReply, decision: RateLimitDecision | null): Error | undefined {
  if (!decision) return undefined;
  reply.headers(rateLimitHeaders(decision));
  return decision.allowed ? undefined : rateLimitExceeded(decision);
}

/**
 * Mounts REST on the app: `/api/v1`, and its OpenAPI document and reference page. The routes it
 * served are handed back (`METHOD /api/v1/path`, parameters as `{}`); the app does not start
 * while one of them is undocumented, or a documented operation has no route.
 */
export function rest(app: FastifyInstance, services: Services, config: Config): readonly string[] {
  const served: string[] = [];
  app.register(restApi, { prefix: '/api/v1', services, served });
  // The operator's few REST routes: their own gate, body limits and error words (rest/operator.ts).
  app.register(operatorRoutes, { prefix: '/api/v1/operator', services, served });
  app.register(docsRoutes, { publicBaseUrl: config.publicBaseUrl, serviceEnv: config.serviceEnv });
  app.addHook('onReady', (done) => {
    const missing = undocumented(served);
    done(
      missing.routes.length + missing.operations.length === 0
        ? undefined
        : new Error(`REST and its OpenAPI document differ: routes without a document ${JSON.stringify(missing.routes)}, documented operations without a route ${JSON.stringify(missing.operations)} (rest/openapi/document.ts)`),
    );
  });
  return served;
}
