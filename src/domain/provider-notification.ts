/**
 * A payment provider's notification (webhook), as its provider read it once its signature over
 * the raw body checked out (`PaymentProvider.parseNotification`). It is what the provider actor
 * proves: the two travel together (actor.ts). Either about an attempt's outcome, or about a
 * refund zarpay asked for.
 */
export type ProviderNotification = AttemptNotification | RefundNotification;

/** An attempt's outcome (Yoco: `payment.succeeded`). */
export interface AttemptNotification {
  about?: 'attempt';
  /** The provider's event id: the same event may arrive more than once, so dedupe on it. */
  eventId: string;
  /** Which attempt (Yoco: the checkout id). */
  providerRef: string;
  /**
   * `expired`: the attempt ended at the provider without payment, and the provider takes no money
   * for it any more (Ozow: Cancelled, Error, Abandoned): the payment is payable again, as when the
   * status API says so. Yoco never sends it.
   */
  outcome: 'succeeded' | 'failed' | 'expired';
  paymentRef?: string;
  reason?: string;
  /**
   * What the provider says it took, when it says (CONTRACT §10: a "paid" notification whose amount
   * or currency differs from the attempt captures nothing, and the money goes back).
   */
  amountCents?: number;
  currency?: string;
}

/** How a refund went (Yoco: `refund.succeeded`, `refund.failed`). */
export interface RefundNotification {
  about: 'refund';
  eventId: string;
  /** The attempt whose money it gives back (Yoco: the checkout id). */
  providerRef: string;
  /** The provider's id for the refund (Yoco: `rfd_…`, as its refund answer gave it). */
  refundRef: string;
  outcome: 'succeeded' | 'failed';
  /**
   * What the provider says it gave back, when it says: a notification whose amount or currency
   * differs from the refund's settles nothing (issue 31), as for payments (CONTRACT §10).
   */
  amountCents?: number;
  currency?: string;
  reason?: string;
}
