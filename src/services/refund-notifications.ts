import * as attempts from '../db/attempts.ts';
import { auditedEvent, recordAudit } from '../db/audit.ts';
import * as payments from '../db/payments.ts';
import * as store from '../db/refunds.ts';
import { type Actor, actorLabel, type PaymentScope, paymentScope } from '../domain/actor.ts';
import { AppError } from '../domain/errors.ts';
import type { RefundNotification } from '../domain/provider-notification.ts';
import type { RefundOutcome } from '../domain/refund.ts';
import type { ServiceDeps } from './deps.ts';
import type { RefundService } from './refunds.ts';

/** The audit log's name for a refund notification that did not say what zarpay asked for; `zarpay stats` counts them. */
export const REFUND_NOTIFICATION_MISMATCH = 'refund.notification_mismatch';

/** What a notification is about, as the audit log names it, and what zarpay asked the provider to give back. */
interface Subject {
  merchantId: string;
  paymentId: string;
  detail: Record<string, unknown>;
  expected: { amountCents: number; currency: string };
}

const ignored = { paymentId: null, status: null };

/**
 * A provider's notifications about refunds (Yoco: `refund.succeeded`, `refund.failed`), applied to
 * the refund they are about: a merchant's refund (RefundService.apply: the ledger, the merchant's
 * event and the audit entry, once), or money owed back for late money (`payment.refund_owed`: the
 * attempt records how its refund went, audited; no money of the merchant's moves).
 *
 * Either way the notification must say what zarpay asked for. One whose amount or currency
 * differs settles nothing and is reported, as for payments (CONTRACT §10): the audit log's
 * `refund.notification_mismatch`, counted by `zarpay stats`. The refund stays as it was, for the
 * notification that does match, or, failing that, for the operator (`zarpay refund resolve`).
 * Refunds that are not zarpay's (a provider account may serve other shops) are acknowledged and
 * ignored; repeats change nothing.
 */
export class RefundNotifications {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly refunds: RefundService,
  ) {}

  async notified(actor: Actor, n: RefundNotification): Promise<{ paymentId: string | null; status: string | null }> {
    if (actor.kind !== 'provider') throw new AppError('FORBIDDEN', 'only a payment provider sends notifications');
    const s = paymentScope(actor);
    const mine = await this.merchantRefund(s, actor.provider, n);
    if (mine) {
      const { refund, unmatched } = mine;
      const subject: Subject = {
        merchantId: refund.merchantId,
        paymentId: refund.paymentId,
        detail: { refund_id: refund.id },
        expected: { amountCents: refund.amountCents, currency: refund.currency },
      };
      if (await this.mismatched(s, actor, n, subject)) return { paymentId: refund.paymentId, status: refund.status };
      // Only a notification that matches may tell which of the provider's refunds this one is.
      if (unmatched && !(await store.recordAccepted(this.deps.db, refund.id, n.refundRef))) return ignored;
      const outcome: RefundOutcome = n.outcome === 'succeeded' ? { status: 'succeeded' } : { status: 'failed', reason: n.reason ?? 'the provider reported the refund failed' };
      await this.refunds.apply(refund.id, outcome, actor, { provider_event_id: n.eventId });
      const now = await store.findRefund(this.deps.db, s, refund.id);
      return { paymentId: refund.paymentId, status: now?.status ?? null };
    }
    const owed = await attempts.owedRefundNamed(this.deps.db, s, actor.provider, { refundRef: n.refundRef, attemptRef: n.providerRef });
    if (!owed) return ignored;
    const subject: Subject = {
      merchantId: owed.merchant_id,
      paymentId: owed.payment_id,
      detail: { attempt_id: owed.id },
      expected: { amountCents: owed.amount_cents, currency: 'ZAR' },
    };
    if (await this.mismatched(s, actor, n, subject)) return { paymentId: owed.payment_id, status: owed.refund_status };
    return { paymentId: owed.payment_id, status: await this.applyOwed(s, actor, owed, n) };
  }

  /**
   * The merchant's refund a notification names by the provider's id; or, before that id is known
   * (the notification overtook the provider's answer to our request, or that answer was lost), the
   * attempt's one pending refund of the notification's amount, else its only pending refund, which
   * the amount then contradicts. `unmatched` says the provider's id is still to be recorded.
   */
  private async merchantRefund(s: PaymentScope, provider: string, n: RefundNotification): Promise<{ refund: store.StoredRefund; unmatched: boolean } | undefined> {
    const named = await store.findRefundByRef(this.deps.db, s, provider, n.refundRef);
    if (named) return { refund: named, unmatched: false };
    // Without what it gave back, one refund of the attempt cannot be told from another.
    if (n.amountCents === undefined) return undefined;
    const candidates = await store.unmatchedRefunds(this.deps.db, s, provider, n.providerRef);
    const same = candidates.filter((r) => r.amountCents === n.amountCents);
    const refund = same.length === 1 ? same[0] : same.length === 0 && candidates.length === 1 ? candidates[0] : undefined;
    return refund && { refund, unmatched: true };
  }

  /**
   * True when the notification's amount or currency is not what zarpay asked for. It is then
   * reported, once per provider event (a duplicate delivery is not a second report), under the
   * payment's lock so that racing duplicates cannot both write.
   */
  private async mismatched(s: PaymentScope, actor: Actor, n: RefundNotification, about: Subject): Promise<boolean> {
    const amountDiffers = n.amountCents !== undefined && n.amountCents !== about.expected.amountCents;
    const currencyDiffers = n.currency !== undefined && n.currency !== about.expected.currency;
    if (!amountDiffers && !currencyDiffers) return false;
    await this.deps.db.transaction().execute(async (tx) => {
      await payments.lockPayment(tx, s, about.paymentId);
      if (await auditedEvent(tx, about.paymentId, REFUND_NOTIFICATION_MISMATCH, n.eventId)) return;
      await recordAudit(tx, {
        actor: actorLabel(actor),
        action: REFUND_NOTIFICATION_MISMATCH,
        merchantId: about.merchantId,
        paymentId: about.paymentId,
        detail: {
          ...about.detail,
          provider_event_id: n.eventId,
          provider_refund_ref: n.refundRef,
          provider_said: n.outcome,
          expected_amount_cents: about.expected.amountCents,
          expected_currency: about.expected.currency,
          reported_amount_cents: n.amountCents ?? null,
          reported_currency: n.currency ?? null,
          result: 'nothing settled',
        },
      });
    });
    return true;
  }

  /**
   * How a refund owed for late money went, recorded once on its attempt, under its payment's lock,
   * from `pending` or `requested` only, with the audit entry in the same transaction: the money
   * never reached the merchant's balance, so nothing else moves. A later outcome that contradicts
   * the one recorded changes nothing and is audited for an operator to look at.
   */
  private async applyOwed(s: PaymentScope, actor: Actor, owed: attempts.OwedRefund, n: RefundNotification): Promise<string | null> {
    return this.deps.db.transaction().execute(async (tx) => {
      await payments.lockPayment(tx, s, owed.payment_id);
      const audit = (action: string, extra: Record<string, unknown>) =>
        recordAudit(tx, {
          actor: actorLabel(actor),
          action,
          merchantId: owed.merchant_id,
          paymentId: owed.payment_id,
          detail: { attempt_id: owed.id, provider: owed.provider, refund_ref: n.refundRef, amount_cents: owed.amount_cents, provider_event_id: n.eventId, ...extra },
        });
      if (await attempts.finishOwedRefund(tx, owed.id, n.outcome, n.refundRef)) {
        await audit(`payment.refund_${n.outcome}`, n.outcome === 'failed' ? { why: n.reason ?? 'the provider reported the refund failed' } : {});
        return n.outcome;
      }
      const now = (await attempts.refundOwed(tx, s, owed.id))!;
      if (now.refund_status !== n.outcome) await audit('payment.refund_outcome_ignored', { was: now.refund_status, provider_said: n.outcome });
      return now.refund_status;
    });
  }
}
