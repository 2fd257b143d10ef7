import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { type ExecutionResult, getOperationAST, GraphQLError } from 'graphql';
import { createHandler, type RequestParams, type Request as SseRequest, type Response as SseResponse, TOKEN_HEADER_KEY, TOKEN_QUERY_KEY } from 'graphql-sse';
import type { Plugin, YogaServerInstance } from 'graphql-yoga';
import type { Actor } from '../domain/actor.ts';
import { AppError, ERROR_STATUS, type ErrorCode } from '../domain/errors.ts';
import { STREAM_LIMITS, type StreamLimits } from '../domain/stream-limits.ts';
import { classify } from '../http/errors.ts';
import type { Services } from '../services/index.ts';
import { tagUncoded } from './errors.ts';
import { type EventStreamConnection, type Release, StreamRegistry } from './stream-registry.ts';

const ENDPOINT = '/graphql/stream';

type ServerContext = { req?: FastifyRequest } & Record<string, unknown>;
type Yoga = YogaServerInstance<Record<string, unknown>, Record<string, unknown>>;

/** What this file tells graphql-sse's handler about a request, and gets back in its callbacks. */
interface Context {
  /** The stream token, decided here; null: none (distinct-connection mode). */
  token: string | null;
  /** The connection the request's operation writes to. */
  stream?: EventStreamConnection;
  /** Gives the operation's place back (once it has ended). */
  operation?: Release;
  serverContext: ServerContext;
}
type Req = SseRequest<Request | undefined, Context>;

export interface EventStreams {
  /** The Yoga plugin that serves `/graphql/stream`. */
  plugin: Plugin;
  registry: StreamRegistry;
}

/** graphql-sse's own refusals, under the contract's codes (CONTRACT §2). */
const REFUSALS: Record<number, [ErrorCode, number]> = {
  400: ['INVALID_INPUT', 400],
  404: ['NOT_FOUND', 404],
  405: ['NOT_FOUND', 404],
  406: ['INVALID_INPUT', 400],
  409: ['CONFLICT', 409],
  415: ['INVALID_INPUT', 400],
};

/**
 * `/graphql/stream`: the graphql-sse protocol (both modes) served by graphql-sse's own handler,
 * with what a public endpoint needs around it (see STREAM_LIMITS):
 *
 * - A reservation (`PUT`) needs credentials, and its token is drawn here (crypto-random; the
 *   handler would accept one the client chose). Only the principal that reserved a token may
 *   connect it, run operations on it or stop them; anyone else is told it does not exist.
 * - Every reservation, connection and running operation takes a place of its principal's,
 *   refused with 429 RATE_LIMIT_EXCEEDED when none is left; a reservation not connected within
 *   the TTL is freed.
 * - An operation takes its next result only while its connection's socket has room, so a reader
 *   that does not read leaves its events in its event stream, which ends past its bound.
 * - When a key stops working, its event streams end with FORBIDDEN (the event bus) and its
 *   reservations and connections with them (the registry).
 */
export function eventStreams(services: Services, limits: StreamLimits = STREAM_LIMITS): EventStreams {
  const server = new StreamServer(services, limits);
  return { plugin: server.plugin, registry: server.registry };
}

/** `/graphql/stream` as one object: graphql-sse's handler, the registry of places, and the steps of each kind of request. */
class StreamServer {
  private yoga!: Yoga;
  private handler!: (req: Req) => Promise<SseResponse>;
  readonly registry: StreamRegistry;

  constructor(
    services: Services,
    private readonly limits: StreamLimits,
  ) {
    this.registry = new StreamRegistry(limits, services.people.watchCaller, (token) => void this.expire(token));
  }

  private request = (raw: Request | undefined, context: Context): Req => ({
    method: raw?.method ?? 'GET',
    url: raw?.url ?? ENDPOINT,
    headers: raw?.headers ?? new Headers({ accept: 'text/event-stream' }),
    body: raw ? () => raw.text() : null,
    raw,
    context,
  });

  /** Frees a reservation held by graphql-sse: connecting it and leaving at once is what disposes of one. */
  private async expire(token: string) {
    try {
      const [body] = await this.handler(this.request(undefined, { token, serverContext: {} }));
      if (body && typeof body !== 'string') await body.return(undefined);
    } catch {
      // Nothing was held.
    }
  }

  private async serve(raw: Request, serverContext: ServerContext): Promise<Response> {
    // Resolved by the caller step (src/http/caller.ts) before the request reached Yoga; served
    // without Fastify, nobody.
    const actor = serverContext.req?.actor;
    try {
      if (raw.method === 'PUT') return await this.reserve(raw, actor, serverContext);
      const token = raw.headers.get(TOKEN_HEADER_KEY) ?? new URL(raw.url).searchParams.get(TOKEN_QUERY_KEY);
      if (token !== null) return await this.onReservation(raw, actor, token, serverContext);
      if (raw.headers.get('accept') === 'text/event-stream') return await this.distinct(raw, actor, serverContext);
      return this.respond(await this.handler(this.request(raw, { token: null, serverContext })));
    } catch (e) {
      const c = classify(e);
      if (c.unexpected) serverContext.req?.log.error({ err: e }, 'unexpected error');
      const retry = c.code === 'RATE_LIMIT_EXCEEDED' && raw.method === 'PUT' ? { 'retry-after': String(Math.ceil(this.limits.reservationTtlMs / 1000)) } : undefined;
      return this.refusal(c.code, c.message, c.status, retry);
    }
  }

  private async reserve(raw: Request, actor: Actor | undefined, serverContext: ServerContext) {
    if (!actor) throw new AppError('UNAUTHORIZED', 'a stream reservation needs credentials: X-API-Key, or the operator token');
    const principal = this.registry.principal(actor);
    let release: Release;
    try {
      release = this.registry.take(principal, 'reservations');
    } catch (e) {
      this.registry.settle(principal);
      throw e;
    }
    const token = randomUUID();
    try {
      const response = await this.handler(this.request(raw, { token, serverContext }));
      if (response[1].status === 201 && principal) this.registry.reserved(principal, token, release);
      else release();
      return this.respond(response);
    } catch (e) {
      release();
      throw e;
    }
  }

  /** Connecting a reservation, running an operation on it, or stopping one (single-connection mode). */
  private async onReservation(raw: Request, actor: Actor | undefined, token: string, serverContext: ServerContext) {
    if (!actor) throw new AppError('UNAUTHORIZED', 'a stream reservation is used with the credentials that made it');
    const stream = this.registry.find(token, actor);
    if (!stream) {
      const ttl = Math.ceil(this.limits.reservationTtlMs / 1000);
      throw new AppError('NOT_FOUND', `no stream reservation with this token for this caller (one not connected within ${ttl} s is freed)`);
    }
    const context: Context = { token, stream, serverContext };
    if (raw.headers.get('accept') === 'text/event-stream') {
      // Already connected: graphql-sse answers 409.
      if (stream.state !== 'reserved') return this.respond(await this.handler(this.request(raw, context)));
      return this.connect(raw, context, this.registry.take(stream.principal, 'connections'));
    }
    if (raw.method === 'DELETE') return this.respond(await this.handler(this.request(raw, context)));
    const release = this.registry.take(stream.principal, 'operations');
    context.operation = release;
    try {
      const response = await this.handler(this.request(raw, context));
      // 202: the operation runs (and gives its place back when it ends); anything else: it does not.
      if (response[1].status !== 202) release();
      return this.respond(response);
    } catch (e) {
      release();
      throw e;
    }
  }

  /** One operation on a connection of its own (distinct-connection mode). */
  private async distinct(raw: Request, actor: Actor | undefined, serverContext: ServerContext) {
    const principal = this.registry.principal(actor);
    let operation: Release | undefined;
    let connection: Release;
    try {
      operation = this.registry.take(principal, 'operations');
      connection = this.registry.take(principal, 'connections');
    } catch (e) {
      operation?.();
      this.registry.settle(principal);
      throw e;
    }
    const stream = this.registry.distinct(principal);
    return this.connect(raw, { token: null, stream, operation, serverContext }, connection);
  }

  /** Streams the response of a connecting request, counting what its socket takes. */
  private async connect(raw: Request, context: Context, release: Release): Promise<Response> {
    const stream = context.stream!;
    let response: SseResponse;
    try {
      response = await this.handler(this.request(raw, context));
    } catch (e) {
      release();
      context.operation?.();
      if (stream.token === null) stream.closed();
      throw e;
    }
    const [messages, init] = response;
    if (!messages || typeof messages === 'string') {
      // Refused before streaming (a request graphql-sse cannot read).
      release();
      context.operation?.();
      if (stream.token === null) stream.closed();
      return this.respond(response);
    }
    if (stream.state === 'closed') {
      // Freed meanwhile (its TTL ran out, or its key ended while it connected).
      release();
      await messages.return(undefined);
      throw new AppError('NOT_FOUND', 'this stream reservation has just been freed; reserve another');
    }
    const body = this.body(messages, stream);
    stream.connected(
      release,
      () => void messages.return(undefined),
      () => context.serverContext.req?.raw.socket?.destroy(),
    );
    return new this.yoga.fetchAPI.Response(body, init);
  }

  /** The bytes of a stream's messages as its socket takes them; each result it takes is counted against the connection's room. */
  private body(messages: AsyncGenerator<string, void, undefined>, stream: EventStreamConnection): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    return new this.yoga.fetchAPI.ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await messages.next();
          if (value != null) {
            controller.enqueue(encoder.encode(value));
            if (value.startsWith('event: next')) stream.taken();
          }
          if (done) {
            controller.close();
            stream.closed();
          }
        } catch (e) {
          stream.closed();
          controller.error(e);
        }
      },
      async cancel() {
        stream.closed();
        await messages.return(undefined);
      },
    });
  }

  /** An answer of graphql-sse's that is not a stream; its refusals get a contract code. */
  private respond([body, init]: SseResponse): Response {
    const refused = REFUSALS[init.status];
    if (!refused) return new this.yoga.fetchAPI.Response(body as string | null, init);
    let message = init.statusText;
    try {
      message = (JSON.parse(body as string) as { errors: { message: string }[] }).errors[0]!.message;
    } catch {
      // No body: its status text says it.
    }
    return this.refusal(refused[0], message, refused[1]);
  }

  private refusal(code: ErrorCode, message: string, status: number = ERROR_STATUS[code], headers: Record<string, string> = {}): Response {
    return new this.yoga.fetchAPI.Response(JSON.stringify({ errors: [{ message, extensions: { code } }] }), {
      status,
      headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    });
  }

  /** Runs an operation through Yoga's plugins (as graphql-yoga's own graphql-sse plugin does). */
  private async run(req: Req, params: RequestParams): Promise<ExecutionResult | AsyncIterable<ExecutionResult>> {
    const enveloped = this.yoga.getEnveloped({ ...req.context.serverContext, request: req.raw, params });
    let document;
    try {
      // Yoga's parse also refuses a mutation sent with GET.
      document = enveloped.parse(params.query);
    } catch (e) {
      if (e instanceof GraphQLError) return refused([e]);
      throw e;
    }
    const errors = enveloped.validate(enveloped.schema, document);
    if (errors.length > 0) return refused(errors);
    const operation = getOperationAST(document, params.operationName);
    const args = {
      schema: enveloped.schema,
      document,
      contextValue: await enveloped.contextFactory(),
      variableValues: params.variables,
      operationName: params.operationName,
    };
    return operation?.operation === 'subscription' ? enveloped.subscribe(args) : enveloped.execute(args);
  }

  /** graphql-sse's `onSubscribe`: runs the operation, its results paced by its connection. */
  private async onSubscribe(req: Req, params: RequestParams) {
    const { stream, operation: release } = req.context;
    const result = await this.run(req, params);
    if (!(Symbol.asyncIterator in result) || !stream) {
      // One result, written at once: the operation is over.
      release?.();
      stream?.produced();
      return result;
    }
    return paced(result, stream, release ?? (() => {}));
  }

  readonly plugin: Plugin = {
    onYogaInit: ({ yoga: instance }) => {
      this.yoga = instance as unknown as Yoga;
      this.handler = createHandler<Request | undefined, Context>({
        // The token is decided in `serve`: graphql-sse's default would use one the client sent with its PUT.
        authenticate: (req) => req.context.token,
        onSubscribe: (req, params) => this.onSubscribe(req, params),
      });
    },
    onRequest: ({ request: raw, url, serverContext, endResponse }) => {
      if (!url.pathname.endsWith(ENDPOINT)) return;
      return this.serve(raw, serverContext as ServerContext).then(endResponse);
    },
  };
}

/**
 * A request that did not run, as the stream's one result: graphql-sse recognises a result by its
 * `data` member, the errors carry contract codes as on `/graphql`, and Yoga's HTTP hints go (the
 * stream has answered 200 already).
 */
function refused(errors: readonly GraphQLError[]): ExecutionResult {
  const result = { data: null, errors };
  tagUncoded(result);
  for (const error of errors) delete (error.extensions as Record<string, unknown>).http;
  return result;
}

/**
 * An operation's results, each taken from it only once its connection has room: what a slow
 * reader has not read waits in the operation's source (the event bus bounds it), not in the
 * connection. Gives the operation's place back when it ends, however it ends.
 */
function paced(result: AsyncIterable<ExecutionResult>, stream: EventStreamConnection, release: Release): AsyncGenerator<ExecutionResult, void, undefined> {
  const source = result[Symbol.asyncIterator]();
  const over: IteratorReturnResult<void> = { done: true, value: undefined };
  let ended = false;
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const end = () => {
    if (ended) return;
    ended = true;
    stop();
    release();
    stream.operationEnded();
  };
  stream.operations++;
  const paced: AsyncGenerator<ExecutionResult, void, undefined> = {
    async next() {
      if (ended) return over;
      await Promise.race([stream.room(), stopped]);
      if (ended) return over;
      try {
        const next = await source.next();
        if (next.done) end();
        else stream.produced();
        return next.done ? over : next;
      } catch (e) {
        end();
        throw e;
      }
    },
    async return() {
      end();
      await source.return?.();
      return over;
    },
    async throw(e: unknown) {
      end();
      await source.return?.();
      throw e;
    },
    [Symbol.asyncIterator]() {
      return paced;
    },
  };
  return paced;
}
