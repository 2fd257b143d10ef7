import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ERROR_STATUS, type ErrorCode } from '../domain/errors.ts';

/**
 * Gives GraphQL's own request errors the REST code of CONTRACT §2, so that a client reads
 * `extensions.code` the same way whatever refused its request:
 *
 * - a document that does not parse (or is over the token limit) → INVALID_INPUT, like a body that is not JSON;
 * - a document that does not validate (unknown field, literal of the wrong type, over a limit) → VALIDATION_FAILED;
 * - variables that do not coerce (wrong type, unknown enum value, missing) → VALIDATION_FAILED.
 *
 * All three are request errors: nothing executed, and with `application/graphql-response+json`
 * the status is 400 (GraphQL over HTTP); `http.spec` keeps 200 for legacy `application/json`.
 */
export function useRestErrorCodes(): Plugin {
  return {
    onParse: () => ({ result }) => {
      if (result instanceof GraphQLError) tag(result, 'INVALID_INPUT');
    },
    onValidate: () => ({ valid, result }) => {
      if (!valid) for (const error of result) tag(error, 'VALIDATION_FAILED');
    },
    onExecutionResult: ({ result }) => {
      // Execution that never started (variable coercion failed) has errors and no `data` at all.
      if (!isSingleResult(result) || 'data' in result || !result.errors?.length) return;
      for (const error of result.errors) if (error instanceof GraphQLError) tag(error, 'VALIDATION_FAILED');
    },
  };
}

function isSingleResult(result: unknown): result is { data?: unknown; errors?: readonly unknown[] } {
  return typeof result === 'object' && result !== null && !(Symbol.asyncIterator in result);
}

export const isRestCode = (code: unknown): code is ErrorCode => typeof code === 'string' && code in ERROR_STATUS;

/**
 * Sets the REST code unless one (ours, e.g. from a scalar) is already there, replacing Yoga's
 * own (`GRAPHQL_PARSE_FAILED`, `BAD_REQUEST`, …), and drops Yoga's echo of the underlying error.
 */
export function tag(error: GraphQLError, code: ErrorCode): void {
  const extensions = error.extensions as Record<string, unknown>;
  if (!isRestCode(extensions.code)) extensions.code = code;
  delete extensions.originalError;
  const http = (extensions.http ?? {}) as Record<string, unknown>;
  // Keep a status Yoga already chose (400 for an unreadable body, 405, 415); GraphQL's own
  // request errors are 400, except for legacy `application/json` clients (`spec`: 200).
  if (http.status === undefined) extensions.http = { ...http, spec: true, status: 400 };
}
