import type { PaymentScope } from '../domain/actor.ts';

/**
 * A payment scope (domain/actor.ts) as the parameters of a statement: each null when it does not
 * narrow the read, all three null for the operator's every merchant.
 */
export interface PaymentFilter {
  merchantId: string | null;
  paymentId: string | null;
  provider: string | null;
}

export function paymentFilter(s: PaymentScope): PaymentFilter {
  if ('all' in s) return { merchantId: null, paymentId: null, provider: null };
  if ('merchantId' in s) return { merchantId: s.merchantId, paymentId: null, provider: null };
  if ('paymentId' in s) return { merchantId: null, paymentId: s.paymentId, provider: null };
  if ('provider' in s) return { merchantId: null, paymentId: null, provider: s.provider };
  const unknown: never = s;
  throw new Error(`no filter for the scope ${JSON.stringify(unknown)}`);
}

/** Within a payment scope: the condition on payments aliased `p`. */
export const PAYMENT_SCOPED = `(:merchantId::uuid is null or p.merchant_id = :merchantId::uuid)
  and (:paymentId::uuid is null or p.id = :paymentId::uuid)
  and (:provider::text is null or exists (select 1 from payment_attempts mine where mine.payment_id = p.id and mine.provider = :provider::text))`;

/** Within a payment scope: the condition on attempts aliased `a` of payments aliased `p`. */
export const ATTEMPT_SCOPED = `(:merchantId::uuid is null or p.merchant_id = :merchantId::uuid)
  and (:paymentId::uuid is null or a.payment_id = :paymentId::uuid)
  and (:provider::text is null or a.provider = :provider::text)`;
