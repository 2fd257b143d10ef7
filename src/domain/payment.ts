import { AppError } from './errors.ts';

/** Payments as services return them, their states, and their public JSON shape. */

export const PAYMENT_STATUSES = ['created', 'initiated', 'awaiting_webhook', 'captured', 'failed', 'cancelled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const TERMINAL_PAYMENT_STATUSES = ['captured', 'failed', 'cancelled'] as const satisfies readonly PaymentStatus[];
export type PaymentOutcome = (typeof TERMINAL_PAYMENT_STATUSES)[number];
export const OPEN_PAYMENT_STATUSES = ['created', 'initiated', 'awaiting_webhook'] as const satisfies readonly PaymentStatus[];

export const isTerminal = (s: PaymentStatus): s is PaymentOutcome => (TERMINAL_PAYMENT_STATUSES as readonly string[]).includes(s);

export const INTENT_TYPES = ['purchase', 'purchase_and_redeem'] as const;
export type IntentType = (typeof INTENT_TYPES)[number];

export type AttemptStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';

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
  intentType: IntentType;
  amountCents: number;
  currency: string;
  feeCents: number;
  netAmountCents: number;
  status: PaymentStatus;
  includeQr: boolean;
  successUrl: string | null;
  cancelUrl: string | null;
  failureUrl: string | null;
  webhookUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
  latestAttempt: PaymentAttempt | null;
}

/** The initiation response's `data` (spec "Fields returned by payment initiation"). */
export interface PaymentInitiation {
  payment_id: string;
  status: 'created';
  payment_url: string;
  qr_code?: { content: string; image_url: string };
}

/** The status object of `GET /api/v1/payments/{id}`; `latest_attempt` is absent before any attempt. */
export function paymentStatusJson(p: Payment): Record<string, unknown> {
  const out: Record<string, unknown> = {
    payment_id: p.id,
    status: p.status,
    amount: p.amountCents,
    currency: p.currency,
    fee_cents: p.feeCents,
    net_amount_cents: p.netAmountCents,
  };
  if (p.latestAttempt) {
    out.latest_attempt = {
      status: p.latestAttempt.status,
      provider: p.latestAttempt.provider,
      provider_ref: p.latestAttempt.providerRef,
      created_at: p.latestAttempt.createdAt.toISOString(),
    };
  }
  return out;
}

/** A payment event's `data` (CONTRACT §6): the status object plus `merchant_order_id`. */
export function paymentEventData(p: Payment): Record<string, unknown> {
  return { ...paymentStatusJson(p), merchant_order_id: p.merchantOrderId };
}

export const paymentNotFound = () => new AppError('PAYMENT_NOT_FOUND', 'payment not found');
