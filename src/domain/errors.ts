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
  DUPLICATE_ORDER_ID: 409,
  CONFLICT: 409,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Overrides the code's usual HTTP status (413 for an oversize body). */
    readonly httpStatus: number = ERROR_STATUS[code],
  ) {
    super(message);
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;
