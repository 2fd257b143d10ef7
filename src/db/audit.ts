import { type MerchantScope, merchantFilter } from '../domain/actor.ts';
import type { DbOrTx } from './index.ts';
import { statement } from './statement.ts';

/** The audit log: who did what to a payment or payout, and when. Append-only (the database refuses changes). */

export interface AuditEntry {
  id: number;
  at: Date;
  actor: string;
  action: string;
  merchantId: string | null;
  paymentId: string | null;
  payoutId: string | null;
  detail: Record<string, unknown>;
  /** The amount of the payout (or else the payment) the entry is about, in cents; null without one. */
  amountCents: number | null;
}

export interface NewAuditEntry {
  actor: string;
  action: string;
  merchantId?: string | null;
  paymentId?: string | null;
  payoutId?: string | null;
  /** What was found and done; never a secret, an account number or a voucher code. */
  detail?: Record<string, unknown>;
}

export async function recordAudit(db: DbOrTx, e: NewAuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor: e.actor,
      action: e.action,
      merchant_id: e.merchantId ?? null,
      payment_id: e.paymentId ?? null,
      payout_id: e.payoutId ?? null,
      detail: JSON.stringify(e.detail ?? {}),
    })
    .execute();
}

const eventSeen = statement<{ paymentId: string; action: string; eventId: string }, { one: number }>(
  'an audit entry of one provider event',
  `select 1 as one from audit_log
    where payment_id = :paymentId::uuid and action = :action::text and detail->>'provider_event_id' = :eventId::text limit 1`,
);

/** Whether the payment's audit log already records `action` for this provider event (a duplicate delivery). */
export async function auditedEvent(db: DbOrTx, paymentId: string, action: string, eventId: string): Promise<boolean> {
  return (await eventSeen.run(db, { paymentId, action, eventId })).length > 0;
}

/**
 * The entries within the scope, newest first; `paymentId` / `payoutId` narrow it to one resource.
 * Entries that name no merchant are zarpay's own, within the scope of every merchant only.
 */
export async function listAudit(
  db: DbOrTx,
  scope: MerchantScope,
  filter: { paymentId?: string | null; payoutId?: string | null; limit: number; offset?: number },
): Promise<AuditEntry[]> {
  const merchantId = merchantFilter(scope);
  let q = db
    .selectFrom('audit_log')
    .leftJoin('payouts', 'payouts.id', 'audit_log.payout_id')
    .leftJoin('payments', 'payments.id', 'audit_log.payment_id')
    .selectAll('audit_log')
    .select(['payouts.amount_cents as payout_amount_cents', 'payments.amount_cents as payment_amount_cents'])
    .orderBy('audit_log.id', 'desc')
    .limit(filter.limit)
    .offset(filter.offset ?? 0);
  if (merchantId !== null) q = q.where('audit_log.merchant_id', '=', merchantId);
  if (filter.paymentId) q = q.where('audit_log.payment_id', '=', filter.paymentId);
  if (filter.payoutId) q = q.where('audit_log.payout_id', '=', filter.payoutId);
  const rows = await q.execute();
  return rows.map((r) => ({
    id: r.id,
    at: r.at,
    actor: r.actor,
    action: r.action,
    merchantId: r.merchant_id,
    paymentId: r.payment_id,
    payoutId: r.payout_id,
    detail: typeof r.detail === 'string' ? JSON.parse(r.detail) : r.detail,
    amountCents: r.payout_amount_cents != null ? Number(r.payout_amount_cents) : r.payment_amount_cents != null ? Number(r.payment_amount_cents) : null,
  }));
}
