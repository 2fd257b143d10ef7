/**
 * A payment provider's notification (webhook) about an attempt's outcome, as its provider read it
 * once its signature over the raw body checked out (`PaymentProvider.parseNotification`). It is
 * what the provider actor proves: the two travel together (actor.ts).
 */
export interface ProviderNotification {
  /** The provider's event id: the same event may arrive more than once, so dedupe on it. */
  eventId: string;
  /** Which attempt (Yoco: the checkout id). */
  providerRef: string;
  outcome: 'succeeded' | 'failed';
  paymentRef?: string;
  reason?: string;
}
