/**
 * What zarpay needs from a payment provider: start an attempt, and turn the provider's signed
 * callback into a confirmation. Providers know nothing about payments' states or the ledger.
 */
export interface StartAttempt {
  /** Our reference for the attempt; providers echo it back in their confirmation. */
  attemptId: string;
  paymentId: string;
  amountCents: number;
  currency: string;
  /** Sandbox only: make the provider decline (the hosted page's `decline`, tst/dev). */
  simulate?: 'decline';
}

export interface ProviderConfirmation {
  attemptId: string;
  providerRef: string;
  outcome: 'succeeded' | 'failed';
  reason?: string;
}

/** The headers of a callback request, lower-case names. */
export type CallbackHeaders = Record<string, string | string[] | undefined>;

export interface PaymentProvider {
  readonly name: string;
  /** Starts an attempt; the outcome arrives later through the provider's callback. */
  start(attempt: StartAttempt): Promise<{ providerRef: string }>;
  /**
   * Authenticates a callback and parses it. Throws UNAUTHORIZED without a signature, FORBIDDEN
   * with a wrong or stale one, VALIDATION_FAILED for a body that is not a confirmation.
   */
  verifyCallback(rawBody: Buffer, headers: CallbackHeaders): ProviderConfirmation;
  /** Stops background work (pending confirmations, retries). */
  stop(): Promise<void>;
}
