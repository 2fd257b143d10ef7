import { AppError } from '../../domain/errors.ts';
import type { AttemptNotification, ProviderNotification, RefundNotification } from '../../domain/provider-notification.ts';

// Defined with the provider actor it travels with; the providers name it from here.
export type { AttemptNotification, ProviderNotification, RefundNotification };

/**
 * What zarpay needs from a payment provider: start an attempt (and send the customer to pay),
 * turn the provider's signed notification into an outcome, ask for an attempt's state when a
 * notification is late or lost, and refund. A provider knows nothing of payments' states, the
 * ledger, HTTP routing or databases; the payments service decides what an outcome means.
 */
export interface StartAttempt {
  /** zarpay's id for this attempt (uuid): the provider's idempotency key, and echoed in its metadata. */
  attemptId: string;
  paymentId: string;
  /** Integer cents, ZAR. */
  amountCents: number;
  currency: 'ZAR';
  /** What is being bought, shown by the provider where it can. */
  description?: string;
  /** Where the provider sends the customer back: zarpay's own hosted page addresses. */
  returnUrls: { success: string; cancel: string; failure: string };
}

/**
 * A test provider's stand-in for its customer (tst/dev only): it starts an attempt whose
 * customer's card is declined, as the hosted page's "Simulate a decline" asks. Kept apart from
 * PaymentProvider: real providers' customers decide on their own pages, and nothing of this
 * reaches a provider that is not a simulator.
 */
export interface ProviderSimulator {
  readonly name: string;
  startDeclinedAttempt(attempt: StartAttempt): Promise<StartedAttempt>;
}

export interface StartedAttempt {
  /** The provider's id for the attempt (Yoco: the checkout id). */
  providerRef: string;
  /** Where the customer goes to pay; null when the customer stays on zarpay's page (sandbox). */
  redirectUrl: string | null;
}

/** What the provider says about an attempt when asked (status API). */
export type AttemptState =
  /** Created or in progress at the provider. */
  | { status: 'pending' }
  /**
   * Money taken. A provider whose status answer names the amount and currency says them, and
   * zarpay checks them against the payment as it checks a notification's.
   */
  | { status: 'succeeded'; paymentRef?: string; amountCents?: number; currency?: string }
  /** Declined or failed: the customer was not charged. */
  | { status: 'failed'; reason: string }
  /** The provider no longer accepts payment for it (or never saw it). */
  | { status: 'expired' };

/** A refund request that may have reached the provider already (PaymentProvider.refund). */
export interface EarlierRefundRequest {
  /** When zarpay first sent it. */
  since: Date;
  /** The provider's ids of the payment's other refunds: never this one. */
  taken: readonly string[];
}

/** Request headers with lower-case names, as Node gives them. */
export type NotificationHeaders = Record<string, string | string[] | undefined>;

export interface PaymentProvider {
  /** 'yoco': appears in latest_attempt.provider and in /providers/{name}/webhook. */
  readonly name: string;
  /**
   * Creates the attempt at the provider. Retrying with the same `attemptId` does not create a
   * second one. Throws ProviderUnavailableError when the provider could not be reached or failed
   * (the attempt may or may not exist), ProviderRefusedError when it declined the request.
   */
  startAttempt(attempt: StartAttempt): Promise<StartedAttempt>;
  /**
   * Verifies the signature over the raw body and parses it. Returns null for a verified event that
   * is not about an attempt's outcome (ignored, answered 200). Throws AppError: UNAUTHORIZED when
   * the signature headers are missing, FORBIDDEN when the signature is wrong or the timestamp
   * outside the tolerance (replay), VALIDATION_FAILED for a verified body that is not understood.
   */
  parseNotification(rawBody: Buffer, headers: NotificationHeaders): ProviderNotification | null;
  /**
   * Asks the provider for the attempt's state (used by the reconciler when a notification is late
   * or lost). Throws ProviderUnavailableError or ProviderRefusedError as startAttempt does.
   *
   * `signal` (here and in every call a job makes): the job's abort at shutdown. Aborted, the call
   * ends at once with the signal's own error, never one that says the provider failed.
   */
  queryAttempt(providerRef: string, signal?: AbortSignal): Promise<AttemptState>;
  /**
   * Optional: refunds `amountCents` of a succeeded attempt (the whole of it, or a part). Resolves
   * once the provider accepted the refund for processing, with its id for the refund; the outcome
   * comes later, as a notification (or from `queryRefund`). The same `idempotencyKey` again is
   * the same refund. Throws ProviderUnavailableError (nothing known: ask again with the same key,
   * unless the error says the first request provably created nothing) or ProviderRefusedError
   * (the provider will not make it).
   *
   * `earlier` is set when a request for this refund may already have reached the provider (zarpay
   * recorded, before that request, that it was sending it; its answer never came back). A provider
   * whose API has no idempotency looks for that refund first, among refunds created since
   * `earlier.since`, leaving out `earlier.taken` (the provider's ids of the payment's other
   * refunds), and answers it instead of making a second one.
   */
  refund?(providerRef: string, amountCents: number, idempotencyKey: string, signal?: AbortSignal, earlier?: EarlierRefundRequest): Promise<{ refundRef: string }>;
  /**
   * Optional: how a refund the provider accepted went, for when its notification is late or lost.
   * A provider without it is only ever told by its notifications.
   */
  queryRefund?(providerRef: string, refundRef: string, signal?: AbortSignal): Promise<RefundState>;
}

/** What the provider says about a refund when asked. */
export type RefundState = { status: 'pending' } | { status: 'succeeded' } | { status: 'failed'; reason: string };

/** Why a provider could not be used just now. Every one of them is worth retrying later. */
export type UnavailableReason = 'network' | 'timeout' | 'server_error' | 'rate_limited' | 'busy' | 'bad_response';

/**
 * The provider could not be reached, timed out, failed (5xx), asked us to slow down, or answered
 * with something we could not read. Nothing is known about the outcome: a create may have
 * happened, so retry with the same idempotency key. An AppError with SERVICE_UNAVAILABLE, so an
 * adapter that lets it through answers 503.
 */
export class ProviderUnavailableError extends AppError {
  override name = 'ProviderUnavailableError';
  constructor(
    readonly provider: string,
    readonly reason: UnavailableReason,
    message: string,
    /** The provider's HTTP status, when it answered. */
    readonly status?: number,
    options?: {
      cause?: unknown;
      /** How long the provider asked us to wait (its `Retry-After`), in milliseconds. */
      retryAfterMs?: number;
      /**
       * True when the provider's answer proves the request created nothing (a failure it replays
       * for the same idempotency key): asking again needs a new key, and a new key is safe.
       */
      createdNothing?: boolean;
    },
  ) {
    super('SERVICE_UNAVAILABLE', message);
    if (options?.cause !== undefined) this.cause = options.cause;
    this.retryAfterMs = options?.retryAfterMs;
    this.createdNothing = options?.createdNothing === true;
  }
  readonly retryAfterMs: number | undefined;
  readonly createdNothing: boolean;
}

/**
 * The provider answered and declined the request (a 4xx: bad credentials, invalid request, a
 * refund it will not make). Retrying the same request will not help. Deliberately not an AppError:
 * it is a fault in zarpay's request or configuration, so an adapter that lets it through answers
 * 500 without showing the provider's words to a merchant. The message carries the provider's
 * explanation and never a credential.
 */
export class ProviderRefusedError extends Error {
  override name = 'ProviderRefusedError';
  constructor(
    readonly provider: string,
    readonly status: number,
    /** The provider's own error code, when it gave one. */
    readonly providerCode: string | undefined,
    message: string,
  ) {
    super(message);
  }
}
