import { AppError, ERROR_STATUS, type ErrorCode, isAppError, type ProblemDetail } from '../domain/errors.ts';
import { fieldInWords } from '../domain/validation.ts';

/** What a caller is told about anything thrown: the contract's status, code and words. */
export interface Classified {
  status: number;
  code: ErrorCode;
  message: string;
  /** Every problem of a refused input (CONTRACT §9), named the way the caller's adapter names fields. */
  details?: ProblemDetail[];
  /** Not a refusal but a fault: log it; the caller only learns INTERNAL_ERROR. */
  unexpected: boolean;
}

/** How an adapter writes a domain field path (`['paymentDetails', 'branchCode']`). */
export type FieldNamer = (path: readonly (string | number)[]) => string;

const asGiven: FieldNamer = (path) => path.join('.');

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
 * Turns anything thrown into the HTTP status and error code of CONTRACT §2, in order:
 * 1. our own refusals (AppError), their field problems named by `nameField`;
 * 2. Fastify's refusals of a malformed request (body, content type, URL): INVALID_INPUT;
 * 3. a value PostgreSQL refuses as data (class 22: it came from the caller): VALIDATION_FAILED;
 * 4. the database unreachable: SERVICE_UNAVAILABLE;
 * 5. anything else: INTERNAL_ERROR with a fixed message, never a stack trace or SQL.
 */
export function classify(e: unknown, nameField: FieldNamer = asGiven): Classified {
  if (isAppError(e)) return fromAppError(e, nameField);
  const code = (e as { code?: unknown })?.code;
  if (typeof code === 'string' && code.startsWith('FST_ERR_CTP_')) {
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return { status: 413, code: 'INVALID_INPUT', message: 'request body is larger than 64 KiB', unexpected: false };
    }
    return { status: 400, code: 'INVALID_INPUT', message: 'request body must be a JSON object sent as application/json', unexpected: false };
  }
  if (typeof code === 'string' && code.startsWith('FST_ERR')) {
    const status = (e as { statusCode?: number }).statusCode ?? 400;
    if (status >= 400 && status < 500) return { status: 400, code: 'INVALID_INPUT', message: 'malformed request', unexpected: false };
  }
  if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) {
    return { status: 400, code: 'VALIDATION_FAILED', message: 'a value in the request cannot be stored', unexpected: false };
  }
  if (isDatabaseUnavailable(e)) {
    return { status: 503, code: 'SERVICE_UNAVAILABLE', message: 'the service is temporarily unavailable; retry with backoff', unexpected: false };
  }
  return { status: ERROR_STATUS.INTERNAL_ERROR, code: 'INTERNAL_ERROR', message: 'internal server error', unexpected: true };
}

function fromAppError(e: AppError, nameField: FieldNamer): Classified {
  const named = e.fields?.map((f) => ({ field: nameField(f.path), message: f.message }));
  const details = named ?? e.details;
  const message = named?.length ? `${fieldInWords(named[0]!.field)}: ${named[0]!.message}` : e.message;
  return { status: e.httpStatus, code: e.code, message, ...(details && { details }), unexpected: false };
}
