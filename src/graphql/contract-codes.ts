import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ERROR_STATUS, type ErrorCode } from '../domain/errors.ts';

/** graphql-yoga's and graphql-js' own codes for a request they refuse, onto CONTRACT §2. */
const YOGA_CODES: Record<string, ErrorCode> = {
  GRAPHQL_PARSE_FAILED: 'INVALID_INPUT',
  BAD_REQUEST: 'INVALID_INPUT',
  GRAPHQL_VALIDATION_FAILED: 'VALIDATION_FAILED',
  BAD_USER_INPUT: 'VALIDATION_FAILED',
};

function contractCode(code: unknown): ErrorCode {
  if (typeof code === 'string' && code in ERROR_STATUS) return code as ErrorCode;
  // Unexpected errors were already masked as INTERNAL_ERROR; what is left is a refused request
  // (a variable that does not coerce has no code at all).
  return (typeof code === 'string' && YOGA_CODES[code]) || 'VALIDATION_FAILED';
}

function withContractCode(e: GraphQLError): GraphQLError {
  const code = contractCode(e.extensions?.code);
  if (code === e.extensions?.code) return e;
  return new GraphQLError(e.message, {
    nodes: e.nodes,
    source: e.source,
    positions: e.positions,
    path: e.path,
    originalError: e.originalError,
    extensions: { ...e.extensions, code },
  });
}

/** Media ranges under which graphql-yoga can answer (JSON, SSE, multipart, GraphiQL). */
const ANSWERABLE = /^(\*\/\*|application\/\*|application\/json|application\/graphql-response\+json|text\/\*|text\/event-stream|text\/html|multipart\/\*|multipart\/mixed)$/i;

function acceptable(accept: string | null): boolean {
  if (accept === null || accept.trim() === '') return true;
  return accept.split(',').some((range) => ANSWERABLE.test(range.split(';')[0]!.trim()));
}

const refusal = (fetchAPI: { Response: typeof Response }, message: string) =>
  new fetchAPI.Response(JSON.stringify({ errors: [{ message, extensions: { code: 'INVALID_INPUT' } }] }), {
    status: 400,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });

/**
 * Every GraphQL error carries a CONTRACT code in `extensions.code` (CONTRACT §8), including the
 * ones graphql-yoga produces before execution (syntax, validation, a missing query, variables
 * of the wrong shape). Requests yoga would refuse without a GraphQL body (406 for an Accept it
 * cannot serve, 415 for an unsupported Content-Type) get a 400 INVALID_INPUT error instead.
 */
export function useContractCodes(): Plugin {
  return {
    // yoga picks the response format only after executing, so an Accept it cannot serve used to
    // run a mutation and then answer 406: refuse such a request before anything runs.
    onRequest({ request, endResponse, fetchAPI }) {
      if (!acceptable(request.headers.get('accept'))) endResponse(refusal(fetchAPI, 'Accept must allow application/json'));
    },
    onResultProcess({ result, setResult }) {
      const fix = (r: { errors?: readonly GraphQLError[] }) => (r.errors ? { ...r, errors: r.errors.map(withContractCode) } : r);
      if (Array.isArray(result)) setResult(result.map(fix));
      else if (result && typeof result === 'object' && 'errors' in result) setResult(fix(result as { errors?: readonly GraphQLError[] }) as never);
    },
    onResponse({ response, setResponse, fetchAPI }) {
      if (response.status !== 406 && response.status !== 415) return;
      setResponse(refusal(fetchAPI, response.status === 406 ? 'Accept must allow application/json' : 'Content-Type must be application/json'));
    },
  };
}
