import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest, onRequestHookHandler, preValidationHookHandler } from 'fastify';
import type { Config } from '../config.ts';
import { type Actor, OPERATOR, OPERATOR_NAME } from '../domain/actor.ts';
import { AppError, isAppError } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';
import { paymentNotFound } from '../domain/payment.ts';
import { CSRF_HEADER, SESSION_COOKIE } from '../domain/people.ts';
import type { Services } from '../services/index.ts';
import { spendAnonymous } from './anonymous.ts';

/**
 * One way in: who sent a request is decided here, once, and nowhere else. Adapters (REST,
 * GraphQL, its event streams, the hosted page, provider notifications) read the verified
 * `req.actor` and never look at a credential themselves; services only ever see that actor.
 *
 * Each route comes in by a gate (GATES, declared once per group of routes as its `gate` config;
 * unset: `public`), which names the credentials the route takes, whether it must have one, and
 * when a request spends its address's `anonymous` budget (CONTRACT §9). Two Fastify hooks run the
 * step, because Fastify reads the body between them:
 *
 * - `onRequest`, before the body is read: spends the budget and checks the credentials carried
 *   by the headers or the address. REST refuses a caller before reading its body, and a flood is
 *   turned away before its bodies are read.
 * - `preValidation`, once the body is read: checks the credentials that are in the body (the
 *   hosted page's form token, a provider's signature over the raw bytes). Their gates spend the
 *   budget on every request, whatever it carries, so the count never waits for them.
 *
 * A gate reads its credentials at one of the two only, so each request's caller is resolved
 * exactly once (`resolveCaller`), and its budget spent at most once, in `onRequest`.
 */

/**
 * The credentials zarpay takes, and where each is read: from the request line and headers before
 * the body, or from the body. A new kind (the dashboard's session cookie) is one more entry here,
 * with its check in `credentialChecks`, and its name in the gates that take it.
 *
 * - `operatorToken`: `Authorization: Bearer <OPERATOR_TOKEN>` → the operator.
 * - `secretKey`: `X-API-Key` → its merchant (the key cache: a known key costs no statement).
 * - `paymentAddress`: `/pay/{id}` → that payment's customer. The address is the capability: a
 *   payment id is a random UUID handed to the customer alone, so holding it is the proof, and a
 *   well-formed one is all there is to check here (whether the payment exists, the service says,
 *   exactly as before: 404 for an unknown or malformed id alike). Only views and the way back from
 *   a provider take it: they change nothing that the provider does not confirm.
 * - `qrSignature`: `/qr/{id}.png?expires=…&signature=…` → that payment's customer, for a link
 *   zarpay signed and that has not expired (403 otherwise).
 * - `formToken`: the hosted page's form posts carry the HMAC of the payment id the page was
 *   rendered with (`token`): no actor for a button press without it (403).
 * - `providerSignature`: `POST /providers/{name}/webhook` → that provider, with the notification
 *   it signed, once the provider has verified its signature over the raw body (401 missing, 403
 *   wrong or stale). Nothing of an unverified notification reaches the payment flow.
 * - `session`: the dashboard's session cookie (CONTRACT §10) → its merchant, as the person signed
 *   in (with their role). A cookie travels with any request the browser makes, so it proves
 *   nothing alone: the request must also carry the session's CSRF token (`X-CSRF-Token`, which
 *   only a page of this origin can read from its cookie) and, when the browser names one, come
 *   from this origin (`Origin`). 401 for a session that has ended, 403 for a failed CSRF check.
 */
const CREDENTIALS = {
  operatorToken: 'request',
  secretKey: 'request',
  paymentAddress: 'request',
  qrSignature: 'request',
  formToken: 'body',
  providerSignature: 'body',
  session: 'request',
} as const satisfies Record<string, 'request' | 'body'>;

type Credential = keyof typeof CREDENTIALS;
type Stage = 'request' | 'body';

interface Gate {
  /** The credentials the routes take, in the order they are looked for: the first one a request presents decides. */
  readonly credentials: readonly Credential[];
  /** When set, a request presenting none is refused with 401 UNAUTHORIZED, in these words. */
  readonly required?: string;
  /**
   * Credentials presented and refused (401, 403): `answered` with that refusal, or `ignored` (the
   * route takes none, so the request goes on as nobody; it is counted all the same, so a made-up
   * key buys no way around the budget).
   */
  readonly refused: 'answered' | 'ignored';
  /**
   * When the request spends its address's `anonymous` budget: `unproved` (no valid credentials:
   * none, or refused ones), `always` (whatever it carries), `never` (health checks).
   */
  readonly budget: 'unproved' | 'always' | 'never';
}

/** The gates, one per kind of route. A route declares its gate in its config: `{ config: { gate: 'health' } }`. */
export const GATES = {
  /** `/api/v1`: a merchant's secret key, always. */
  api: { credentials: ['secretKey'], required: 'missing API key: send your secret API key in the X-API-Key header', refused: 'answered', budget: 'unproved' },
  /**
   * `/api/v1/operator`: the operator token, always. A merchant's key is read too, so that its
   * holder is told FORBIDDEN (by the routes' own hook, before the body is read) rather than that
   * no credential came.
   */
  operator: {
    credentials: ['operatorToken', 'secretKey'],
    required: 'missing operator token: send Authorization: Bearer <OPERATOR_TOKEN>',
    refused: 'answered',
    budget: 'unproved',
  },
  /** `/graphql`, `/graphql/stream`: the operator token or a secret key; without either, the caller is nobody (public fields only). */
  graphql: { credentials: ['operatorToken', 'secretKey', 'session'], refused: 'answered', budget: 'unproved' },
  /** Every other route (the home page, docs, GraphiQL's files, `/metrics`, unknown routes): takes none, and does not charge valid ones. */
  public: { credentials: ['operatorToken', 'secretKey'], refused: 'ignored', budget: 'unproved' },
  /** The hosted page's views: `GET /pay/{id}`, its hand-off to a provider's checkout and the way back. */
  paymentPage: { credentials: ['paymentAddress'], refused: 'answered', budget: 'always' },
  /** The hosted page's buttons: `POST /pay/{id}/pay|cancel|decline`. */
  paymentForm: { credentials: ['formToken'], refused: 'answered', budget: 'always' },
  /** QR images: `GET /qr/{id}.png|.svg`. */
  qrImage: { credentials: ['qrSignature'], refused: 'answered', budget: 'always' },
  /** Provider notifications: `POST /providers/{name}/webhook` (and `/callback`, its first address). */
  providerNotification: { credentials: ['providerSignature'], refused: 'answered', budget: 'always' },
  /**
   * A payment link's page, its form and its QR image (CONTRACT §11): the link's address is public
   * (the merchant shares it), so there is nothing to prove; each request is counted all the same.
   */
  linkPage: { credentials: [], refused: 'answered', budget: 'always' },
  /** The hosted page's favicon: nothing to prove. */
  pageAsset: { credentials: [], refused: 'answered', budget: 'always' },
  /** The dashboard's sign-in and invite forms (POST): nothing to prove yet, and always counted (CONTRACT §10). */
  signIn: { credentials: [], refused: 'answered', budget: 'always' },
  /** The dashboard's sign-out (POST): the session, with its CSRF check. */
  session: { credentials: ['session'], required: 'not signed in', refused: 'answered', budget: 'unproved' },
  /** `/healthz`, `/readyz`: load balancers poll them from a handful of addresses, without credentials. */
  health: { credentials: [], refused: 'answered', budget: 'never' },
} as const satisfies Record<string, Gate>;

export type GateName = keyof typeof GATES;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How the route's requests come in (GATES); unset: `public`. */
    gate?: GateName;
  }
  interface FastifyRequest {
    /** Who sent the request, as the caller step verified it; undefined: nobody, on a gate that lets nobody in. */
    actor?: Actor;
    /**
     * What the caller step turned the request away with, if it did: GraphQL writes these in its
     * own error shape, and everything else that happens before it runs (a body too large, plain
     * HTTP in prd) in the service-wide envelope.
     */
    refusal?: unknown;
  }
}

/** The stage each gate reads its credentials at, checked once when this module loads. */
const STAGES = new Map<Gate, Stage>(
  Object.entries(GATES).map(([name, gate]: [string, Gate]) => {
    const stages = new Set(gate.credentials.map((c) => CREDENTIALS[c]));
    const stage: Stage = stages.has('body') ? 'body' : 'request';
    // A gate cannot count by a credential it reads after the count, nor read at two stages (it
    // would resolve its caller twice).
    if (stage === 'body' && (stages.size > 1 || gate.budget === 'unproved')) throw new Error(`gate ${name}: a body credential alone, and a budget that does not depend on it`);
    return [gate, stage];
  }),
);

/** Constant-time check of `Authorization: Bearer <token>`. */
function bearerMatches(header: string, token: string): boolean {
  if (!header.startsWith('Bearer ')) return false;
  // Compare digests, not the texts: equal lengths always, so timing tells nothing of the
  // token's length either.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(header.slice('Bearer '.length)), digest(token));
}

/** A header sent once; a repeated header is no credential. */
const single = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);
const param = (req: FastifyRequest, name: string) => (req.params as Record<string, string | undefined>)[name] ?? '';

/** A cookie's value by name, from the `Cookie` header. */
export function cookie(req: FastifyRequest, name: string): string | undefined {
  const header = single(req.headers.cookie);
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** Whether a browser request comes from this service's own pages: no `Origin` (not a browser's cross-origin request), or ours. */
export function sameOrigin(req: FastifyRequest, publicBaseUrl: string): boolean {
  const origin = single(req.headers.origin);
  if (origin === undefined) return true;
  if (origin === new URL(publicBaseUrl).origin) return true;
  return origin === `${req.protocol}://${req.host}`;
}

const QR_FILE = /^([0-9a-fA-F-]{36})\.(png|svg)$/;

/** The customer of a payment address: a well-formed payment id is one; anything else is no payment's. */
function customer(id: string): Extract<Actor, { kind: 'customer' }> {
  if (!isUuid(id)) throw paymentNotFound();
  return { kind: 'customer', paymentId: id.toLowerCase() };
}

/** What a 401 says to a caller who sent an API key the way Stripe's and Paystack's take theirs. */
const API_KEY_AS_BEARER = 'an API key was sent as Authorization: Bearer: send it in the X-API-Key header instead';

/** Whether `Authorization: Bearer` carries what looks like a zarpay API key (`sec1-…`) rather than the operator token. */
function bearerApiKey(req: FastifyRequest): boolean {
  const authorization = single(req.headers.authorization);
  return authorization !== undefined && /^Bearer\s+sec1-/i.test(authorization.trim());
}

/** A form post whose token is missing or not this payment's (another page, an old one, another site). */
export class StaleForm extends AppError {
  constructor() {
    super('FORBIDDEN', 'This form is not valid any more. Go back and reload the payment page.');
  }
}

/**
 * How each credential is checked: the actor it proves; undefined when the request does not
 * present it; throws (401, 403, 404) when it presents it and it does not hold.
 */
function credentialChecks(services: Services, operatorToken: string, publicBaseUrl: string): Record<Credential, (req: FastifyRequest) => Actor | undefined | Promise<Actor | undefined>> {
  return {
    operatorToken(req) {
      const authorization = single(req.headers.authorization);
      if (authorization === undefined) return undefined;
      if (!bearerMatches(authorization, operatorToken)) throw new AppError('UNAUTHORIZED', bearerApiKey(req) ? API_KEY_AS_BEARER : 'invalid operator token');
      if (req.headers['x-api-key'] !== undefined) throw new AppError('UNAUTHORIZED', 'send an API key or the operator token, not both');
      // Who is at the console, for the audit log: the token is shared, so this is what the
      // operator's CLI says (ZARPAY_OPERATOR or the login name), not a credential.
      const name = single(req.headers['x-operator-name']);
      return name !== undefined && OPERATOR_NAME.test(name) ? Object.freeze({ kind: 'operator', name }) : OPERATOR;
    },
    secretKey(req) {
      const header = req.headers['x-api-key'];
      // Empty is no key (GraphiQL's header template until one is pasted): the caller is nobody.
      const value = single(header);
      if (header === undefined || value?.trim() === '') return undefined;
      // A key the cache knows is answered at once (a throw), any other later (a rejection).
      try {
        const actor = services.keys.authenticate(value);
        return actor instanceof Promise ? actor.catch(refuseKey) : actor;
      } catch (e) {
        return refuseKey(e);
      }
    },
    paymentAddress: (req) => customer(param(req, 'id')),
    qrSignature(req) {
      const match = QR_FILE.exec(param(req, 'file'));
      if (!match) throw new AppError('FORBIDDEN', 'invalid or expired QR code link');
      const query = req.query as Record<string, unknown>;
      services.paymentLinks.verifyQr(match[1]!, query.expires, query.signature);
      return customer(match[1]!);
    },
    formToken(req) {
      const actor = customer(param(req, 'id'));
      const token = (req.body as Record<string, unknown> | null | undefined)?.token;
      if (!services.paymentLinks.formTokenMatches(actor.paymentId, token)) throw new StaleForm();
      return actor;
    },
    session(req) {
      const token = cookie(req, SESSION_COOKIE);
      if (token === undefined) return undefined;
      if (!sameOrigin(req, publicBaseUrl)) throw new AppError('FORBIDDEN', 'CSRF check failed: a request from another site');
      const csrf = single(req.headers[CSRF_HEADER]);
      // A page load (GraphiQL's, in a browser that is also signed in to the dashboard) carries the
      // cookie but no token: it reads as nobody. Anything else without the token is refused.
      if (csrf === undefined && (req.method === 'GET' || req.method === 'HEAD') && !req.url.startsWith('/graphql/stream')) return undefined;
      return services.people.authenticate(token, csrf);
    },
    providerSignature(req) {
      const provider = services.providers.get(param(req, 'provider'));
      if (!provider) throw new AppError('NOT_FOUND', 'unknown payment provider');
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      return { kind: 'provider', provider: provider.name, notification: provider.parseNotification(raw, req.headers) };
    },
  };
}

/** Throws a key's refusal as the caller step gives it: a 401 says what the header should hold. */
const refuseKey = (e: unknown): never => {
  throw isAppError(e) && e.code === 'UNAUTHORIZED' ? new AppError('UNAUTHORIZED', 'invalid API key: the X-API-Key header holds no valid secret key of this environment') : e;
};

/** Credentials that were there and wrong (401), or of a revoked or expired key (403). */
const credentialsRefused = (e: unknown) => isAppError(e) && (e.code === 'UNAUTHORIZED' || e.code === 'FORBIDDEN');

/** The hooks that run the caller step; server.ts adds them once, for every route. */
export function callerStep(services: Services, config: Pick<Config, 'operatorToken' | 'publicBaseUrl'>): { onRequest: onRequestHookHandler; preValidation: preValidationHookHandler } {
  const checks = credentialChecks(services, config.operatorToken, config.publicBaseUrl);
  const counting = services.rateLimits.limitOf('anonymous') !== undefined;
  const spend = (req: FastifyRequest, reply: FastifyReply) => spendAnonymous(services.rateLimits, req, reply);
  const gateOf = (req: FastifyRequest): Gate => GATES[req.routeOptions.config.gate ?? 'public'];

  /** The caller, by the gate's credentials: the first one presented decides. Runs once per request. */
  async function resolveCaller(gate: Gate, req: FastifyRequest): Promise<Actor | undefined> {
    for (const credential of gate.credentials) {
      const checked = checks[credential](req);
      // Most checks answer at once; only a key may need the database (or the key cache).
      const actor = checked instanceof Promise ? await checked : checked;
      if (actor) return actor;
    }
    if (gate.required) throw new AppError('UNAUTHORIZED', bearerApiKey(req) ? API_KEY_AS_BEARER : gate.required);
    return undefined;
  }

  /** The step at one stage: the budget (at `request` only) and the caller (at its gate's stage). */
  async function admit(stage: Stage, gate: Gate, req: FastifyRequest, reply: FastifyReply): Promise<void> {
    // Counted whatever the request carries: before anything is checked or read for it.
    if (stage === 'request' && counting && gate.budget === 'always') await spend(req, reply);
    if (STAGES.get(gate) !== stage) return;
    let actor: Actor | undefined;
    try {
      actor = await resolveCaller(gate, req);
    } catch (e) {
      // Refused credentials count (once the address is over its budget, the 429 is the answer);
      // a failure that is not the caller's (the database down) does not, unless the route
      // ignores credentials anyway.
      const counts = gate.budget === 'unproved' && (gate.refused === 'ignored' || credentialsRefused(e));
      if (counting && counts) await spend(req, reply);
      if (gate.refused === 'ignored') return;
      throw e;
    }
    req.actor = actor;
    if (counting && gate.budget === 'unproved' && !actor) await spend(req, reply);
  }

  /** Whether the step has anything to do for this gate at the request stage. */
  const busy = (gate: Gate) => (STAGES.get(gate) === 'request' && gate.credentials.length > 0) || (counting && gate.budget !== 'never');

  // Hooks run on every request: they answer at once when there is nothing to do, instead of
  // costing a promise each.
  const run = (stage: Stage, gate: Gate, req: FastifyRequest, reply: FastifyReply, done: (e?: Error) => void) =>
    void admit(stage, gate, req, reply).then(
      () => done(),
      (e: Error) => {
        req.refusal = e;
        done(e);
      },
    );
  return {
    onRequest(req, reply, done) {
      const gate = gateOf(req);
      if (!busy(gate)) return done();
      run('request', gate, req, reply, done);
    },
    preValidation(req, reply, done) {
      const gate = gateOf(req);
      if (STAGES.get(gate) !== 'body') return done();
      run('body', gate, req, reply, done);
    },
  };
}

/** The verified actor of a route whose gate admits only `kind` (anything else is a fault of the route's declaration). */
export function verifiedActor<K extends Actor['kind']>(req: FastifyRequest, kind: K): Extract<Actor, { kind: K }> {
  if (req.actor?.kind !== kind) throw new Error(`${req.method} ${req.url} ran without its ${kind}`);
  return req.actor as Extract<Actor, { kind: K }>;
}
