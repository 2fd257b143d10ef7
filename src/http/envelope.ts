import type { ErrorCode, ProblemDetail } from '../domain/errors.ts';

/** The specification's response envelope, for every route that answers JSON outside GraphQL. */

export const API_VERSION = 'v1';

export const metadata = () => ({ timestamp: new Date().toISOString(), api_version: API_VERSION });

export function success<T>(data: T, withMetadata = false) {
  return withMetadata ? { status: 'success' as const, data, metadata: metadata() } : { status: 'success' as const, data };
}

export function failure(code: ErrorCode, message: string, details?: readonly ProblemDetail[]) {
  return { status: 'error' as const, error: { code, message, ...(details && details.length > 0 && { details }) }, metadata: metadata() };
}
