import type { Merchant } from '../domain/merchant.ts';
import type { MerchantRow } from './types.ts';

/** A merchant row as services hand it out. */
export function toMerchant(row: Pick<MerchantRow, keyof MerchantRow>): Merchant {
  return {
    id: row.id,
    name: row.name,
    webhookUrl: row.webhook_url,
    paymentFeeBps: row.payment_fee_bps,
    paymentFeeFixedCents: row.payment_fee_fixed_cents,
    payoutFeeCents: row.payout_fee_cents,
    autoTopup: row.auto_topup,
    redirectDomains: row.redirect_domains,
    supportContact: row.support_contact,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
