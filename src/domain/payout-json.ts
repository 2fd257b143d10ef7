import { z } from 'zod';
import { type Payout, PAYOUT_STATUSES, type PayoutStatus } from './payout.ts';

/**
 * The public JSON shape of a payout (spec "Payout", optional members by state): REST answers,
 * the webhook's `data`, the events streamed to subscribers and the CLI carry it. The schema
 * documents it (OpenAPI); `payoutJson` writes it, typed against the schema; `payoutFromJson`
 * reads it back (an event's payout as it was recorded).
 */

const uuid = z.uuid().meta({ example: '3f1c9a52-8a43-4c1e-9a57-5d2f0e2b7c11' });
const timestamp = z.iso.datetime().meta({ example: '2026-11-22T10:15:30.000Z' });
const cents = (description: string, example: number) =>
  z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).meta({ format: 'int64', description, example });

export const payoutJsonSchema = z
  .object({
    id: uuid,
    merchant_id: uuid,
    amount_cents: cents('What the recipient receives', 25000),
    fee_cents: cents('Calculated at request time and locked for this payout', 500),
    gross_amount_cents: cents('amount_cents + fee_cents: reserved, then deducted', 25500),
    currency: z.literal('ZAR'),
    status: z.enum(PAYOUT_STATUSES),
    payout_method: z.literal('eft'),
    // The bounds are the inputs' (payout-input.ts, validation.ts `reasonSchema`).
    merchant_reference: z.string().max(100).optional().meta({ example: 'INV-1001' }),
    description: z.string().max(500).optional().meta({ example: 'Supplier invoice 1001' }),
    metadata: z.record(z.string(), z.unknown()).optional().meta({ description: 'As given at creation' }),
    external_transfer_id: z.string().max(500).optional().meta({ description: 'When status is completed', example: 'FNB-778812' }),
    failure_reason: z.string().max(500).optional().meta({ description: 'When status is failed', example: 'Account closed' }),
    rejection_reason: z.string().max(500).optional().meta({ description: 'When status is rejected', example: 'Unknown recipient' }),
    created_at: timestamp,
    updated_at: timestamp,
    completed_at: timestamp.optional().meta({ description: 'When status is completed' }),
    returned_at: timestamp.nullable().meta({ description: 'When the bank gave a completed payout back (its status stays completed); null otherwise' }),
    return_reason: z.string().max(500).nullable().meta({ description: 'Why the bank gave it back; null otherwise', example: 'AC04 closed account' }),
  })
  .strict()
  .meta({ id: 'Payout' });

export type PayoutJson = z.input<typeof payoutJsonSchema>;

export function payoutJson(p: Payout): PayoutJson {
  return {
    id: p.id,
    merchant_id: p.merchantId,
    amount_cents: p.amountCents,
    fee_cents: p.feeCents,
    gross_amount_cents: p.grossAmountCents,
    currency: p.currency,
    status: p.status,
    payout_method: p.payoutMethod,
    ...(p.merchantReference !== null && { merchant_reference: p.merchantReference }),
    ...(p.description !== null && { description: p.description }),
    ...(p.metadata !== null && { metadata: p.metadata }),
    ...(p.status === 'completed' && p.externalTransferId !== null && { external_transfer_id: p.externalTransferId }),
    ...(p.status === 'failed' && p.failureReason !== null && { failure_reason: p.failureReason }),
    ...(p.status === 'rejected' && p.rejectionReason !== null && { rejection_reason: p.rejectionReason }),
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
    ...(p.status === 'completed' && p.completedAt && { completed_at: p.completedAt.toISOString() }),
    returned_at: p.returnedAt ? p.returnedAt.toISOString() : null,
    return_reason: p.returnReason,
  };
}

/** A payout from its public JSON (an event's `data`): the payout as it was when the event was recorded. */
export function payoutFromJson(json: PayoutJson): Payout {
  return {
    id: json.id,
    merchantId: json.merchant_id,
    amountCents: json.amount_cents,
    feeCents: json.fee_cents,
    grossAmountCents: json.gross_amount_cents,
    currency: 'ZAR',
    status: json.status as PayoutStatus,
    payoutMethod: 'eft',
    merchantReference: json.merchant_reference ?? null,
    description: json.description ?? null,
    metadata: json.metadata ?? null,
    externalTransferId: json.external_transfer_id ?? null,
    failureReason: json.failure_reason ?? null,
    rejectionReason: json.rejection_reason ?? null,
    createdAt: new Date(json.created_at),
    updatedAt: new Date(json.updated_at),
    completedAt: json.completed_at ? new Date(json.completed_at) : null,
    returnedAt: json.returned_at ? new Date(json.returned_at) : null,
    returnReason: json.return_reason ?? null,
  };
}
