import { ERROR_STATUS, type ErrorCode, isAppError } from '../src/domain/errors.ts';

export const API_VERSION = 'v1';

export const metadata = () => ({ timestamp: new Date().toISOString(), api_version: API_VERSION });

export function success(data: unknown, withMetadata = false) {
  return withMetadata ? { status: 'success', data, metadata: metadata() } : { status: 'success', data };
}

export function failure(code: ErrorCode, message: string) {
  return { status: 'error', error: { code, message }, metadata: metadata() };
}

/** PostgreSQL unreachable, restarting or refusing connections: a temporary outage, not a bug. */
export function isDatabaseUnavailable(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const { code, message, errors } = e as { code?: unknown; message?: unknown; errors?: unknown };
  // Several addresses tried (IPv4 and IPv6 for `localhost`): an AggregateError of socket errors.
  if (Array.isArray(errors) && errors.some(isDatabaseUnavailable)) return true;
  if (typeof code === 'string') {
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03', '53300'].includes(code)) return true;
    if (code.startsWith('08')) return true;
  }
  return (
    typeof message === 'string' &&
    /timeout exceeded when trying to connect|Connection terminated|Query read timeout|connection .*closed|Client has encountered a connection error/i.test(message)
  );
}

/**
 * Turns anything thrown into the HTTP status and error code of CONTRACT §2. Unknown errors are
 * INTERNAL_ERROR with a fixed message, never a stack trace or SQL.
 */
export function classify(e: unknown): { status: number; code: ErrorCode; message: string; unexpected: boolean } {
  if (isAppError(e)) return { status: e.httpStatus, code: e.code, message: e.message, unexpected: false };
  const fastifyCode = (e as { code?: unknown })?.code;
  if (typeof fastifyCode === 'string' && fastifyCode.startsWith('FST_ERR_CTP_')) {
    if (fastifyCode === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return { status: 413, code: 'INVALID_INPUT', message: 'request body is larger than 64 KiB', unexpected: false };
    }
    return { status: 400, code: 'INVALID_INPUT', message: 'request body must be a JSON object sent as application/json', unexpected: false };
  }
  if (typeof fastifyCode === 'string' && fastifyCode.startsWith('FST_ERR')) {
    const status = (e as { statusCode?: number }).statusCode ?? 400;
    if (status >= 400 && status < 500) {
      return { status: 400, code: 'INVALID_INPUT', message: 'malformed request', unexpected: false };
    }
  }
  // Safety net: a value PostgreSQL refuses as data (SQLSTATE class 22: bad encoding, out of
  // range, invalid text) came from the caller's input, and bad input is never a 500.
  if (typeof fastifyCode === 'string' && /^22[0-9A-Z]{3}$/.test(fastifyCode)) {
    return { status: 400, code: 'VALIDATION_FAILED', message: 'a value in the request cannot be stored', unexpected: false };
  }
  if (isDatabaseUnavailable(e)) {
    return { status: 503, code: 'SERVICE_UNAVAILABLE', message: 'the service is temporarily unavailable; retry with backoff', unexpected: false };
  }
  return { status: ERROR_STATUS.INTERNAL_ERROR, code: 'INTERNAL_ERROR', message: 'internal server error', unexpected: true };
}
