import type { ApiKeyRecord, Balance, Merchant, Payout } from './payout.ts';

/**
 * The public JSON shapes of the specification (snake_case, optional members by state). REST
 * responses, webhook bodies and the CLI all print these, so they live in one place.
 */

export function payoutJson(p: Payout): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: p.id,
    merchant_id: p.merchantId,
    amount_cents: p.amountCents,
    fee_cents: p.feeCents,
    gross_amount_cents: p.grossAmountCents,
    currency: p.currency,
    status: p.status,
    payout_method: p.payoutMethod,
  };
  if (p.merchantReference !== null) out.merchant_reference = p.merchantReference;
  if (p.description !== null) out.description = p.description;
  if (p.metadata !== null) out.metadata = p.metadata;
  if (p.status === 'completed' && p.externalTransferId !== null) out.external_transfer_id = p.externalTransferId;
  if (p.status === 'failed' && p.failureReason !== null) out.failure_reason = p.failureReason;
  if (p.status === 'rejected' && p.rejectionReason !== null) out.rejection_reason = p.rejectionReason;
  out.created_at = p.createdAt.toISOString();
  out.updated_at = p.updatedAt.toISOString();
  if (p.status === 'completed' && p.completedAt) out.completed_at = p.completedAt.toISOString();
  return out;
}

export function balanceJson(b: Balance): Record<string, unknown> {
  return {
    merchant_id: b.merchantId,
    balance_cents: b.balanceCents,
    reserved_cents: b.reservedCents,
    totals: {
      gross_cents: b.totals.grossCents,
      fees_cents: b.totals.feesCents,
      withdrawals_cents: b.totals.withdrawalsCents,
    },
    available_cents: b.availableCents,
    currency: b.currency,
  };
}

export function apiKeyJson(k: ApiKeyRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: k.id,
    kid: k.kid,
    env: k.env,
    type: k.type,
    status: k.status,
    created_at: k.createdAt.toISOString(),
    display_mask: k.displayMask,
  };
  if (k.expiresAt) out.expires_at = k.expiresAt.toISOString();
  if (k.revokedAt) out.revoked_at = k.revokedAt.toISOString();
  return out;
}

export function merchantJson(m: Merchant): Record<string, unknown> {
  return {
    merchant_id: m.id,
    name: m.name,
    webhook_url: m.webhookUrl,
    payment_fee_bps: m.paymentFeeBps,
    payment_fee_fixed_cents: m.paymentFeeFixedCents,
    payout_fee_cents: m.payoutFeeCents,
    auto_topup: m.autoTopup,
    redirect_domains: m.redirectDomains,
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
  };
}
