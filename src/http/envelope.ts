import type { ErrorCode, ProblemDetail } from '../domain/errors.ts';

/** The specification's response envelope, for every route that answers JSON outside GraphQL. */

export const API_VERSION = 'v1';

export const metadata = () => ({ timestamp: new Date().toISOString(), api_version: API_VERSION });

export function success<T>(data: T, withMetadata = false) {
  return withMetadata ? { status: 'success' as const, data, metadata: metadata() } : { status: 'success' as const, data };
}

/**
 * Bounds of an error's text (the OpenAPI document promises them): a message or field can quote
 * what the caller sent (an unknown key, a path), which may be up to a whole body long.
 */
export const MAX_MESSAGE = 1000;
export const MAX_FIELD = 200;
export const MAX_DETAILS = 50;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

export function failure(code: ErrorCode, message: string, details?: readonly ProblemDetail[]) {
  const listed = details?.slice(0, MAX_DETAILS).map((d) => ({ field: clip(d.field, MAX_FIELD), message: clip(d.message, MAX_MESSAGE) }));
  return {
    status: 'error' as const,
    error: { code, message: clip(message, MAX_MESSAGE), ...(listed && listed.length > 0 && { details: listed }) },
    metadata: metadata(),
  };
}
