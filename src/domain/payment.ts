import { AppError } from './errors.ts';

/** Payments as services return them, and their states (spec "Payment states"). */

export const PAYMENT_STATUSES = ['created', 'initiated', 'awaiting_webhook', 'captured', 'failed', 'cancelled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const TERMINAL_PAYMENT_STATUSES = ['captured', 'failed', 'cancelled'] as const satisfies readonly PaymentStatus[];
export type PaymentOutcome = (typeof TERMINAL_PAYMENT_STATUSES)[number];
export const OPEN_PAYMENT_STATUSES = ['created', 'initiated', 'awaiting_webhook'] as const satisfies readonly PaymentStatus[];

export const isTerminal = (s: PaymentStatus): s is PaymentOutcome => (TERMINAL_PAYMENT_STATUSES as readonly string[]).includes(s);

export const INTENT_TYPES = ['purchase', 'purchase_and_redeem'] as const;
export type IntentType = (typeof INTENT_TYPES)[number];

/**
 * An attempt is `pending` at the provider until it `succeeded` (money taken), `failed` (declined:
 * the customer was not charged), was `cancelled` (the customer cancelled, or another attempt
 * finished the payment) or `expired` (the provider no longer takes payment for it, or never saw
 * it: the payment is open again and the customer may start afresh).
 */
export const ATTEMPT_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled', 'expired'] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

export interface PaymentAttempt {
  status: AttemptStatus;
  provider: string;
  /** Null until the provider has answered the start of the attempt. */
  providerRef: string | null;
  createdAt: Date;
}

export interface Payment {
  id: string;
  merchantId: string;
  merchantOrderId: string;
  /** What is being bought, as the merchant described it (shown on the hosted page). */
  description: string | null;
  intentType: IntentType;
  amountCents: number;
  currency: 'ZAR';
  feeCents: number;
  /**
   * The net credited on capture (amount − fee): expected while the payment is open, credited once
   * captured, null once it failed or was cancelled (nothing was or will be credited).
   */
  netAmountCents: number | null;
  status: PaymentStatus;
  /** Why it failed, when zarpay decided it: `expired` (never finished in PAYMENT_EXPIRES_AFTER_MS); null otherwise. */
  failureReason: string | null;
  includeQr: boolean;
  successUrl: string | null;
  cancelUrl: string | null;
  failureUrl: string | null;
  webhookUrl: string | null;
  /** The payment link it was made through (CONTRACT §11); null otherwise. */
  paymentLinkId: string | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
  /** The sum of the payment's succeeded refunds (CONTRACT §10); the status stays `captured`. */
  refundedCents: number;
  latestAttempt: PaymentAttempt | null;
  /** The voucher a capture issued (the merchant redeems it); null until then. */
  voucherCode: string | null;
  voucherRedeemed: boolean;
}

/** CONTRACT §9: the net amount of a payment in a given state (see `Payment.netAmountCents`). */
export const netAmountIn = (status: PaymentStatus, expectedNetCents: number): number | null =>
  status === 'failed' || status === 'cancelled' ? null : expectedNetCents;

/** The addresses a payment hands out: its hosted page, and a signed QR image when asked for. */
export interface PaymentLinks {
  paymentUrl: string;
  qrCode: { content: string; imageUrl: string } | null;
}

/** What initiation answers: the payment, and where the customer pays it. */
export interface PaymentInitiation {
  payment: Payment;
  links: PaymentLinks;
  /** False when an Idempotency-Key or merchant_order_id replayed an earlier initiation. */
  created: boolean;
  /**
   * Return addresses the hosted page will not send the customer to (CONTRACT §4: their host is not
   * on the merchant's allow-list, or in prd not https on 443): the page shows the result instead.
   */
  warnings: RedirectWarning[];
}

export interface RedirectWarning {
  field: 'successUrl' | 'cancelUrl' | 'failureUrl';
  message: string;
}

/** The failure reason of a payment that was never finished in time (CONTRACT §10). */
export const EXPIRED = 'expired';

/** The failure reason of a payment paid through a single-use link that another payment had paid first (its money goes back). */
export const LINK_PAID_ALREADY = 'link_paid_already';

export const paymentNotFound = () => new AppError('PAYMENT_NOT_FOUND', 'payment not found');
