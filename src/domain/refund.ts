import { z } from 'zod';
import { AppError } from './errors.ts';
import { offsetPage, optional } from './validation.ts';

/**
 * Refunds (CONTRACT §10): money of a captured payment given back to its customer, in full or in
 * parts, through the provider that took it. A refund is `pending` from its creation (its amount
 * reserved on the merchant's balance) until the provider says it `succeeded` (the reservation
 * leaves the balance) or `failed` (the reservation is released). The payment's fee is not returned.
 */

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export interface Refund {
  id: string;
  merchantId: string;
  paymentId: string;
  status: RefundStatus;
  amountCents: number;
  currency: 'ZAR';
  reason: string | null;
  merchantReference: string | null;
  failureReason: string | null;
  createdAt: Date;
  completedAt: Date | null;
}

export const refundNotFound = () => new AppError('REFUND_NOT_FOUND', 'refund not found');

/** `POST /api/v1/payments/{id}/refunds` and GraphQL `refundPayment`, less the payment's id. */
export const createRefundInput = z
  .strictObject({
    /**
     * Absent: what is still refundable (the service decides). Null is not absent: a client whose
     * arithmetic went wrong (NaN serialises as null) must not refund the whole payment.
     */
    amountCents: z
      .number({ error: (issue) => (issue.input === null ? 'must not be null: leave it out to refund all that is still refundable' : undefined) })
      .int('must be a whole number of cents')
      .min(1, 'must be at least 1')
      .max(Number.MAX_SAFE_INTEGER, 'is too large')
      .meta({ description: 'Cents; absent: what is still refundable (null is refused)', example: 2500 })
      .optional(),
    reason: optional(z.string().max(200, 'must be at most 200 characters').meta({ example: 'Customer returned the kettle' })),
    merchantReference: optional(z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters').meta({ example: 'RET-1001' })),
  })
  .meta({ id: 'CreateRefundRequest' });
export type CreateRefundInput = z.output<typeof createRefundInput>;

const uuid = z.uuid().meta({ example: '7b0e4c1a-2f7d-4d8e-9a57-5d2f0e2b7c11' });
const timestamp = z.iso.datetime().meta({ example: '2026-11-25T10:15:30.000Z' });

export const refundJsonSchema = z
  .object({
    refund_id: uuid,
    payment_id: uuid,
    status: z.enum(REFUND_STATUSES),
    amount_cents: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).meta({ format: 'int64', description: 'Cents given back', example: 2500 }),
    currency: z.literal('ZAR'),
    reason: z.string().max(200).nullable(),
    merchant_reference: z.string().max(64).nullable(),
    failure_reason: z.string().max(500).optional().meta({ description: 'Why the refund failed; only when `failed`' }),
    created_at: timestamp,
    completed_at: timestamp.optional().meta({ description: 'When it succeeded or failed; absent while `pending`' }),
  })
  .strict()
  .meta({ id: 'Refund' });

/** A refund's public shape: REST, the webhook's `data`, the CLI. */
export function refundJson(r: Refund): z.input<typeof refundJsonSchema> {
  return {
    refund_id: r.id,
    payment_id: r.paymentId,
    status: r.status,
    amount_cents: r.amountCents,
    currency: r.currency,
    reason: r.reason,
    merchant_reference: r.merchantReference,
    ...(r.status === 'failed' && { failure_reason: r.failureReason ?? 'failed' }),
    created_at: r.createdAt.toISOString(),
    ...(r.completedAt && r.status !== 'pending' && { completed_at: r.completedAt.toISOString() }),
  };
}

/** What a provider says about one refund it was asked for. */
export type RefundOutcome = { status: 'succeeded' } | { status: 'failed'; reason: string };

/** `GET /api/v1/payments/{id}/refunds`: offset paging like every REST list. */
export const listRefundsQuery = z.strictObject({ ...offsetPage });
export type ListRefundsQuery = z.output<typeof listRefundsQuery>;

/** `GET /api/v1/refunds`: the merchant's every refund, a page at a time, optionally in one status. */
export const listMerchantRefundsQuery = z.strictObject({
  ...offsetPage,
  status: optional(z.enum(REFUND_STATUSES, { error: `must be one of ${REFUND_STATUSES.join(', ')}` })),
});
export type ListMerchantRefundsQuery = z.output<typeof listMerchantRefundsQuery>;
