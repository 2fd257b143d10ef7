import type { FastifyRequest } from 'fastify';
import { type DocumentNode, type ExecutionResult, GraphQLError, type GraphQLSchema, getVariableValues, Kind, type OperationDefinitionNode, type Source } from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import { type Plugin, processRegularResult } from 'graphql-yoga';
import type { Metrics } from '../metrics.ts';
import type { Services } from '../services/index.ts';
import type { GraphQLContext } from './builder.ts';
import { acceptable, maskError, tagUncoded, tagUnexecuted } from './errors.ts';
import { admit } from './admission.ts';
import { COMPILED_MAX_FIELDS, compiledWeight, type DocumentCaches, documentCaches, documentWeight, expandedFields } from './document-cache.ts';
import { rateLimitHeadersOf } from './rate-limit.ts';
import { recordOperation } from './operation-metrics.ts';

/**
 * The everyday GraphQL request, answered without the Fetch API bridge and without re-walking its
 * document.
 *
 * Yoga speaks the Fetch API: served by Fastify, each request was copied into a Fetch `Request`
 * and each answer out of a Fetch `Response`, through promise helpers at every step, and each
 * request went through envelop's plugin chain and graphql-js' executor, which interprets the
 * document anew every time. On a read by id that was most of zarpay's GraphQL CPU time
 * (bench/results). A request that is plainly a query or mutation over JSON, whose document this
 * server has already parsed and validated, is answered here: with the same context, the same
 * cost limit and rate limits (`admit`), the same operation metrics, every error through the same
 * contract (`maskError`, the tags of errors.ts), serialised and given its status by Yoga's own
 * `processRegularResult`; its operation runs as compiled once by graphql-jit, calling the same
 * resolvers (Pothos' auth scopes, validation and loaders included).
 *
 * Anything else goes to Yoga as before: a document seen for the first time (so every document
 * is parsed and validated by Yoga, with every limit of limits.ts, before it can come here), a
 * refused or unusual request, a stream, GraphiQL, CORS. test/graphql-direct.test.ts checks that
 * both paths answer the same requests identically.
 */

export interface DirectAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A document Yoga parsed and validated without error, and its operations by name. */
interface KnownDocument {
  document: DocumentNode;
  operations: Map<string | null, OperationDefinitionNode>;
  /** Its operations compiled (graphql-jit), by name, as they are first asked for. */
  compiled: Map<string | null, Compiled | undefined>;
  /** What it weighs in the document cache, its compiled operations included (document-cache.ts). */
  weight: number;
}

/** How many operations of one document are compiled (a document may hold any number). */
const COMPILED_PER_DOCUMENT = 20;

/**
 * Remembers which of the documents Yoga keeps (document-cache.ts, bounded by weight) passed its
 * parsing and validation, with every limit: `known.plugin` goes in Yoga's plugins,
 * `known.get(text)` finds them. Validation depends only on the document and this server's fixed
 * rules, so a document valid once is valid for every request to this server. A document the
 * cache lets go is forgotten with its compiled operations.
 */
export function knownDocuments(caches: DocumentCaches = documentCaches()) {
  const validated = new WeakMap<DocumentNode, KnownDocument>();
  const plugin: Plugin = {
    onValidate: ({ params }) => ({ valid }) => {
      if (!valid || validated.has(params.documentAST)) return;
      const operations = new Map<string | null, OperationDefinitionNode>();
      for (const def of params.documentAST.definitions) if (def.kind === Kind.OPERATION_DEFINITION) operations.set(def.name?.value ?? null, def);
      validated.set(params.documentAST, { document: params.documentAST, operations, compiled: new Map(), weight: 0 });
    },
  };
  return {
    plugin,
    caches,
    get(text: string): KnownDocument | undefined {
      const document = caches.documents.get(text);
      return document && validated.get(document);
    },
    /** Adds a compiled operation's weight to its document's in the cache. */
    weigh(text: string, doc: KnownDocument, weight: number) {
      doc.weight = (doc.weight || documentWeight(text, doc.document)) + weight;
      if (caches.documents.get(text) === doc.document) caches.documents.set(text, doc.document, { size: doc.weight });
    },
  };
}

export type KnownDocuments = ReturnType<typeof knownDocuments>;

const JSON_TYPE = /^application\/json\s*(;\s*charset=utf-8\s*)?$/i;
const PARAMS = new Set(['query', 'variables', 'operationName', 'extensions']);
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

type Answerable = 'application/graphql-response+json' | 'application/json';
const ANSWERABLE: Answerable[] = ['application/graphql-response+json', 'application/json'];

/**
 * The media type Yoga's result processors answer a query with for this `Accept`, when it is one
 * of the two JSON types (useResultProcessors: the last match, taking the header's ranges in
 * reverse, each JSON type in turn; a range with another charset than UTF-8 does not count).
 */
export function jsonAnswerType(accept: string | undefined): Answerable | undefined {
  let chosen: Answerable | undefined;
  const ranges = (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',').reverse();
  for (const range of ranges) {
    const [type, ...params] = range.split(';');
    const charset = params.find((p) => p.includes('charset=')) ?? 'charset=utf-8';
    if (charset !== 'charset=utf-8' || type === undefined) continue;
    const [pre, suf] = type.split('/');
    for (const candidate of ANSWERABLE) {
      const [cPre, cSuf] = candidate.split('/');
      if ((pre === '*' || pre === cPre) && (suf === '*' || suf === cSuf)) chosen = candidate;
    }
  }
  return chosen;
}

/** What `processRegularResult` needs of the Fetch API: a Response that keeps what it is given. */
class PlainResponse {
  constructor(
    readonly body: string,
    readonly init: { status: number; headers: Record<string, string> },
  ) {}
}
const PLAIN_FETCH = { Response: PlainResponse } as unknown as Parameters<typeof processRegularResult>[1];

/** Requests answered here since the process started (tests check that the path is taken). */
export const directStats = { answered: 0 };

export interface DirectDeps {
  services: Services;
  schema: GraphQLSchema;
  known: KnownDocuments;
  /** GRAPHQL_MAX_COST, checked on each request with its variables (admission.ts). */
  maxCost: number;
  metrics?: Metrics | undefined;
}

/** The answer to `req` if it is an everyday request (see above); undefined: let Yoga answer it. */
export function directGraphQL({ services, schema, known, maxCost, metrics }: DirectDeps) {
  const mask = maskError(schema);
  /** Every error of an executed operation through the contract, with its place in the document. */
  const contract = (source: Source | undefined) => (e: GraphQLError): GraphQLError => withLocations(mask(e), e, source);
  /** The media type to answer in, by Accept header: the first 100 headers seen, of at most 200 characters. */
  const answerTypes = new Map<string, Answerable | undefined>();
  return async function answer(req: FastifyRequest): Promise<DirectAnswer | undefined> {
    if (req.method !== 'POST' || req.url !== '/graphql' || req.headers.origin !== undefined) return undefined;
    if (!JSON_TYPE.test(req.headers['content-type'] ?? '')) return undefined;
    const accept = req.headers.accept ?? '';
    let type = answerTypes.get(accept);
    if (type === undefined && !answerTypes.has(accept)) {
      type = acceptable(accept || null) ? jsonAnswerType(accept || undefined) : undefined;
      if (answerTypes.size < 100 && accept.length <= 200) answerTypes.set(accept, type);
    }
    if (!type || typeof req.body !== 'string') return undefined;

    let params: unknown;
    try {
      params = JSON.parse(req.body);
    } catch {
      return undefined;
    }
    if (!isPlainObject(params) || typeof params.query !== 'string') return undefined;
    for (const key in params) if (!PARAMS.has(key) && params[key] != null) return undefined;
    const { query, variables, operationName, extensions } = params;
    if (extensions != null || (variables != null && !isPlainObject(variables))) return undefined;
    if (operationName != null && typeof operationName !== 'string') return undefined;
    const doc = known.get(query);
    if (!doc) return undefined;
    const compiled = compiledFor(schema, known, query, doc, operationName ?? null);
    if (!compiled) return undefined;

    // The context Yoga would build (yoga.ts), around a key for this request's rate-limit headers.
    const request = {} as Request;
    const ctx: GraphQLContext = { services, actor: req.actor, request };
    let result: ExecutionResult;
    try {
      const refusal = await admit(ctx, schema, doc.document, compiled.operation, variables, maxCost);
      if (refusal) result = refusal;
      else {
        result = await runCompiled(schema, compiled, ctx, variables ?? {});
        // As Yoga's error masking: every error through the contract (errors.ts).
        if (result.errors?.length) result = { ...result, errors: result.errors.map(contract(doc.document.loc?.source)) };
      }
    } catch (e) {
      result = { errors: [mask(e)] };
    }
    if (metrics) recordOperation(metrics, doc.document, operationName, result);
    tagUnexecuted(result);
    tagUncoded(result);
    const response = processRegularResult(result, PLAIN_FETCH, type) as unknown as PlainResponse;
    const headers = { ...response.init.headers, ...rateLimitHeadersOf(request) };
    directStats.answered++;
    return { status: response.init.status, headers, body: response.body };
  };
}

/**
 * The document's operation compiled by graphql-jit, once: a function that runs exactly this
 * operation's selections, instead of graphql-js walking the document again on every request.
 * Undefined for an operation that is not a query or mutation, or that graphql-jit cannot compile.
 */
/**
 * Runs the compiled operation. graphql-jit coerces the variables itself; when it refuses them
 * (it answers errors and no data, or throws on a missing one), the refusal is worked out again
 * by graphql-js, so the client reads the executor's own messages, as through Yoga.
 */
async function runCompiled(schema: GraphQLSchema, compiled: Compiled, ctx: GraphQLContext, variables: Record<string, unknown>): Promise<ExecutionResult> {
  const refusal = () => {
    const coerced = getVariableValues(schema, compiled.operation.variableDefinitions ?? [], variables, { maxErrors: 50, hideSuggestions: true });
    return coerced.errors && { errors: coerced.errors.map(asRequestError) };
  };
  let result: ExecutionResult;
  try {
    result = await compiled.query.query(undefined, ctx, variables);
  } catch (e) {
    const refused = refusal();
    if (refused) return refused;
    throw e;
  }
  if (!('data' in result) && result.errors?.length) return refusal() ?? result;
  return result;
}

/**
 * graphql-jit's errors carry their place in the document as `locations` only, where graphql-js'
 * carry the nodes that Yoga's serialiser computes `locations` from: the contract's error is given
 * the same place as source positions, so the answer shows the same `locations`.
 */
function withLocations(masked: GraphQLError, original: GraphQLError, source: Source | undefined): GraphQLError {
  if (masked.nodes || masked.positions || !original.locations?.length || !source) return masked;
  const lineStarts = [0];
  for (const m of source.body.matchAll(/\r\n|[\n\r]/g)) lineStarts.push(m.index + m[0].length);
  const positions = original.locations.map(({ line, column }) => (lineStarts[line - 1] ?? 0) + column - 1);
  return new GraphQLError(masked.message, { source, positions, path: masked.path, originalError: masked.originalError, extensions: masked.extensions });
}

/**
 * The executor's refusal of variables, as Yoga's executor (@graphql-tools/executor) gives it:
 * a request error, status 400 whatever the client accepts.
 */
function asRequestError(e: GraphQLError): GraphQLError {
  Object.defineProperty(e, 'extensions', { value: { ...e.extensions, http: { ...(e.extensions.http as object), status: 400 } } });
  return e;
}

interface Compiled {
  operation: OperationDefinitionNode;
  query: CompiledQuery;
}

function compiledFor(schema: GraphQLSchema, known: KnownDocuments, text: string, doc: KnownDocument, operationName: string | null): Compiled | undefined {
  if (doc.compiled.has(operationName)) return doc.compiled.get(operationName);
  // The operation graphql-js would run: the named one, or the only one. A name the document
  // does not have is not remembered: any number of them can be sent.
  const operation = operationName !== null ? doc.operations.get(operationName) : doc.operations.size === 1 ? doc.operations.values().next().value : undefined;
  if (!operation) return undefined;
  // Past this many, operations are left to Yoga, whose executor needs nothing compiled.
  if (doc.compiled.size >= COMPILED_PER_DOCUMENT) return undefined;
  let compiled: Compiled | undefined;
  if (operation.operation !== 'subscription') {
    const fields = expandedFields(doc.document, operation);
    // Too large to keep compiled: Yoga answers it.
    if (fields <= COMPILED_MAX_FIELDS) {
      const made = compileQuery(schema, doc.document, operationName ?? undefined);
      if (isCompiledQuery(made)) {
        compiled = { operation, query: made };
        known.weigh(text, doc, compiledWeight(fields));
      }
    }
  }
  doc.compiled.set(operationName, compiled);
  return compiled;
}
