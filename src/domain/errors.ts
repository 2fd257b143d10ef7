/**
 * The error codes of the specification and CONTRACT §2. Services throw `AppError` with one of
 * these; REST maps the code to its HTTP status and GraphQL puts it in `extensions.code`.
 */
export const ERROR_STATUS = {
  INVALID_INPUT: 400,
  VALIDATION_FAILED: 400,
  INVALID_AMOUNT: 400,
  INVALID_CURRENCY: 400,
  INVALID_PAYOUT_METHOD: 400,
  INVALID_PAYMENT_DETAILS: 400,
  INVALID_STATUS_TRANSITION: 400,
  INSUFFICIENT_BALANCE: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  PAYMENT_NOT_FOUND: 404,
  PAYOUT_NOT_FOUND: 404,
  REFUND_NOT_FOUND: 404,
  DUPLICATE_ORDER_ID: 409,
  CONFLICT: 409,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && Object.hasOwn(ERROR_STATUS, code);

/** One problem of a refused input, its field named as the caller's adapter names it (CONTRACT §9 `error.details`). */
export interface ProblemDetail {
  field: string;
  message: string;
}

/**
 * A problem a service found with one field of its typed input, named by the domain's path
 * (`['successUrl']`): each adapter writes the name its callers know (`success_url`, `input.successUrl`).
 */
export interface FieldProblem {
  path: readonly (string | number)[];
  message: string;
}

export interface AppErrorOptions {
  /** Overrides the code's usual HTTP status (413 for an oversize body). */
  httpStatus?: number;
  /** Every problem of a refused input, already named for the caller; the message is the first. */
  details?: ProblemDetail[];
  /** Problems named by domain paths, for the adapter to name (see `FieldProblem`). */
  fields?: FieldProblem[];
}

export class AppError extends Error {
  override name = 'AppError';
  readonly httpStatus: number;
  readonly details: ProblemDetail[] | undefined;
  readonly fields: FieldProblem[] | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message);
    this.httpStatus = options.httpStatus ?? ERROR_STATUS[code];
    this.details = options.details;
    this.fields = options.fields;
  }
}

/** A refusal of one field of a use case's typed input, e.g. a URL that must be https in `prd`. */
export function fieldError(code: ErrorCode, path: readonly (string | number)[], message: string): AppError {
  return new AppError(code, `${path.join('.')}: ${message}`, { fields: [{ path, message }] });
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;
