import { type GraphQLError as GraphQLErrorType, GraphQLError, type GraphQLSchema, isObjectType, validate } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ERROR_STATUS, type ErrorCode, isErrorCode } from '../domain/errors.ts';
import { classify } from '../http/errors.ts';

/**
 * Every GraphQL error carries a contract code in `extensions.code` (CONTRACT §8), whatever
 * raised it, and says nothing internal. One plugin applies one ordered list of rules; the first
 * that matches decides:
 *
 * 1. a request that cannot be a GraphQL request (unreadable body, no query, a refused Accept or
 *    Content-Type) → INVALID_INPUT, status 400;
 * 2. a document that does not parse (or is over the token limit) → INVALID_INPUT;
 * 3. a document that does not validate (unknown field, a literal of the wrong type, over a
 *    depth, alias or cost limit) → VALIDATION_FAILED;
 * 4. variables that do not coerce (wrong type, unknown enum value, missing) → VALIDATION_FAILED,
 *    or the code a scalar gave its refusal;
 * 5. anything thrown while executing → `classify` (http/errors.ts), as REST: our refusals keep
 *    their code, an outage is SERVICE_UNAVAILABLE with status 503, anything else INTERNAL_ERROR.
 *
 * Rules 1–4 are request errors: nothing executed. With `application/graphql-response+json` their
 * status is 400 (GraphQL over HTTP); legacy `application/json` clients get 200 (`http.spec`).
 *
 * No message suggests a name ("Did you mean …"), in any environment: graphql-js is asked not to
 * (validation, and variables through the executor), and `scrub` removes what another layer may
 * still add, so that the schema's names (operator-only enum values among them) cannot be
 * guessed one typo at a time.
 */

/** Media ranges under which graphql-yoga can answer (JSON, SSE, multipart, GraphiQL). */
const ANSWERABLE = /^(\*\/\*|application\/\*|application\/json|application\/graphql-response\+json|text\/\*|text\/event-stream|text\/html|multipart\/\*|multipart\/mixed)$/i;

export const acceptable = (accept: string | null) =>
  accept === null || accept.trim() === '' || accept.split(',').some((range) => ANSWERABLE.test(range.split(';')[0]!.trim()));

/** Yoga's and graphql-js' own codes for a request they refuse. */
const REQUEST_CODES: Record<string, ErrorCode> = {
  GRAPHQL_PARSE_FAILED: 'INVALID_INPUT',
  BAD_REQUEST: 'INVALID_INPUT',
  REQUEST_ENTITY_TOO_LARGE: 'INVALID_INPUT',
  GRAPHQL_VALIDATION_FAILED: 'VALIDATION_FAILED',
  BAD_USER_INPUT: 'VALIDATION_FAILED',
};

/** A refused request, as GraphQL over HTTP answers one: a JSON `errors` list. */
const refusalResponse = (fetchAPI: { Response: typeof Response }, code: ErrorCode, message: string, status = ERROR_STATUS[code]) =>
  new fetchAPI.Response(JSON.stringify({ errors: [{ message, extensions: { code } }] }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });

/** graphql-js' and its executors' suggestions: " Did you mean …?" ends the message they are added to. */
const SUGGESTION = /\s*Did you mean [^?]*\?/g;

/** The error without any suggestion in its message. */
export function scrub<E extends GraphQLErrorType>(error: E): E {
  if (error.message.includes('Did you mean')) error.message = error.message.replace(SUGGESTION, '');
  return error;
}

/**
 * Gives a request error (rules 2–4) its contract code unless it has one (a scalar's own), drops
 * Yoga's echo of the underlying error, and makes it a 400 for GraphQL-over-HTTP clients.
 */
export function tag(error: GraphQLErrorType, code: ErrorCode): void {
  scrub(error);
  const extensions = error.extensions as Record<string, unknown>;
  if (!isErrorCode(extensions.code)) extensions.code = REQUEST_CODES[String(extensions.code)] ?? code;
  delete extensions.originalError;
  const http = (extensions.http ?? {}) as Record<string, unknown>;
  // Keep a status Yoga already chose (400 for an unreadable body, 405); GraphQL's own request
  // errors are 400, except for legacy `application/json` clients (`spec`: 200).
  if (http.status === undefined) extensions.http = { ...http, spec: true, status: 400 };
}

/** How GraphQL names a use case's field: under the `input` argument when the root field takes one. */
function nameFor(schema: GraphQLSchema | undefined, path: readonly (string | number)[] | undefined) {
  const root = typeof path?.[0] === 'string' ? path[0] : undefined;
  const takesInput = [schema?.getMutationType(), schema?.getQueryType()].some(
    (type) => root !== undefined && isObjectType(type) && type.getFields()[root]?.args.some((a) => a.name === 'input'),
  );
  return (field: readonly (string | number)[]) => (takesInput ? ['input', ...field] : field).join('.');
}

/** Rules 4 and 5: what a client sees of an error raised during a request. */
function contractError(error: unknown, schema?: GraphQLSchema): GraphQLError {
  if (error instanceof GraphQLError) {
    const cause = error.originalError;
    if (!cause) {
      // Yoga's own request errors carry a code (BAD_REQUEST: INVALID_INPUT) and an HTTP status.
      // A body that is not JSON is 400 for every client, as in REST (CONTRACT §2), not 200 for
      // application/json. Without a code, the executor refused the variables (missing, null for
      // a non-null type) or the operation to run before anything ran: VALIDATION_FAILED, 400.
      const http = error.extensions.http as { spec?: boolean } | undefined;
      if (error.extensions.code === 'BAD_REQUEST' && http) http.spec = false;
      tag(error, 'VALIDATION_FAILED');
      return error;
    }
    // A value refused during coercion (a scalar's or an enum's parseValue): graphql-js wraps the
    // refusal with the variable's name. Keep that message; the code is the scalar's or VALIDATION_FAILED.
    if (cause instanceof GraphQLError && !cause.originalError) {
      const code = isErrorCode(cause.extensions.code) ? cause.extensions.code : 'VALIDATION_FAILED';
      return scrub(new GraphQLError(error.message, { nodes: error.nodes, path: error.path, extensions: { code } }));
    }
    return fromThrown(cause, schema, error);
  }
  return fromThrown(error, schema);
}

function fromThrown(thrown: unknown, schema?: GraphQLSchema, original?: GraphQLError): GraphQLError {
  const c = classify(thrown, nameFor(schema, original?.path));
  return new GraphQLError(c.message, {
    ...(original && { nodes: original.nodes, source: original.source, positions: original.positions, path: original.path }),
    extensions: {
      code: c.code,
      ...(c.details && { details: c.details }),
      // An outage is 503 on the HTTP response too, as in REST, so clients and load balancers back off.
      ...(c.code === 'SERVICE_UNAVAILABLE' && { http: { status: 503 } }),
    },
  });
}

/** Yoga's error masking (`maskedErrors.maskError`): the same rules. */
export const maskError = (schema: GraphQLSchema) => (error: unknown) => contractError(error, schema);

/** The one plugin that applies the rules above at every stage of a request. */
export function useErrorContract(): Plugin {
  return {
    // Rule 1. Yoga picks the response format only after executing, so an Accept it cannot serve
    // used to run a mutation and then answer 406: refuse such a request before anything runs.
    onRequest({ request, endResponse, fetchAPI }) {
      if (!acceptable(request.headers.get('accept'))) endResponse(refusalResponse(fetchAPI, 'INVALID_INPUT', 'Accept must allow application/json', 400));
    },
    // Rule 2.
    onParse: () => ({ result }) => {
      if (result instanceof GraphQLError) tag(result, 'INVALID_INPUT');
    },
    // Rule 3, with graphql-js asked for no suggestions.
    onValidate: ({ setValidationFn }) => {
      setValidationFn((schema, document, rules) => validate(schema, document, rules, { hideSuggestions: true }));
      return ({ valid, result }) => {
        if (!valid) for (const error of result) tag(error, 'VALIDATION_FAILED');
      };
    },
    // Rule 4: the executor (@graphql-tools/executor, which reads this graphql-js option that
    // envelop's types do not list yet) coerces variables without suggesting enum values or fields.
    onExecute: ({ args }) => {
      (args as { hideSuggestions?: boolean }).hideSuggestions = true;
    },
    onExecutionResult: ({ result }) => tagUnexecuted(result),
    onSubscribe: ({ args }) => {
      (args as { hideSuggestions?: boolean }).hideSuggestions = true;
      return {
        // graphql-sse recognises an execution result only by its `data` member; a refused
        // subscription (bad arguments, not allowed) is `{ errors }` alone, which it would answer
        // with "Unable to detect operation AST". `data: null` lets the refusal reach the client.
        onSubscribeResult: ({ result, setResult }) => {
          if (Symbol.asyncIterator in result) return;
          result.errors?.forEach(scrub);
          if (!('data' in result)) setResult({ ...result, data: null });
        },
      };
    },
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result)) result.forEach(tagUncoded);
      else tagUncoded(result);
      setResult(result);
    },
    // Rule 1 again: Yoga's own 406 and 415 answers become a 400 refusal with a contract code.
    onResponse({ response, setResponse, fetchAPI }) {
      if (response.status !== 406 && response.status !== 415) return;
      const what = response.status === 406 ? 'Accept must allow application/json' : 'Content-Type must be application/json';
      setResponse(refusalResponse(fetchAPI, 'INVALID_INPUT', what, 400));
    },
  };
}

/** Rule 4: execution that never started (variables did not coerce) has errors and no `data`. */
export function tagUnexecuted(result: unknown): void {
  if (!isSingleResult(result) || 'data' in result || !result.errors?.length) return;
  for (const error of result.errors) if (error instanceof GraphQLError) tag(error, 'VALIDATION_FAILED');
}

/** Whatever got as far as the answer without a contract code gets one (a request error Yoga raised itself). */
export function tagUncoded(result: unknown): void {
  if (!isSingleResult(result)) return;
  for (const e of (result.errors ?? []) as readonly GraphQLError[]) {
    if (!isErrorCode(e.extensions?.code)) tag(e, 'VALIDATION_FAILED');
    else scrub(e);
  }
}

function isSingleResult(result: unknown): result is { data?: unknown; errors?: readonly unknown[] } {
  return typeof result === 'object' && result !== null && !(Symbol.asyncIterator in result);
}
