import { recordAudit } from '../db/audit.ts';
import { type ConfirmationRow, lockPaymentContacts, requeueConfirmation, type Sending } from '../db/customer-messages.ts';
import { type Actor, actorLabel, paymentScope, requireOperator } from '../domain/actor.ts';
import type { ConfirmationFacts } from '../domain/customer-email.ts';
import { type Channel, CHANNELS } from '../domain/customer-messages.ts';
import { AppError } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';
import type { Recorded } from '../jobs/task.ts';
import { keyringOf, type ServiceDeps, withEvents } from './deps.ts';

/**
 * When a confirmation that was not taken is tried again: after 5 s, 1 min, 10 min, 1 h, 4 h and
 * 12 h (7 tries over about 17 hours), then it has failed for good and waits for an operator.
 * Long enough for an operator to mend a wrong SMTP password or an empty SMS account overnight;
 * bounded, so that a message nobody can deliver ends visibly (`zarpay jobs list --status failed`).
 */
export const CONFIRMATION_RETRY_DELAYS_MS: readonly number[] = [5_000, 60_000, 600_000, 3_600_000, 4 * 3_600_000, 12 * 3_600_000];

/** What a confirmation says, from the payment's row: the voucher code opened only now, to be sent. */
export function confirmationFactsOf(deps: ServiceDeps, row: ConfirmationRow): ConfirmationFacts {
  return {
    paymentId: row.id,
    merchantName: row.merchant_name,
    amountCents: row.amount_cents,
    merchantOrderId: row.merchant_order_id,
    intentType: row.intent_type,
    description: row.description,
    voucherCode: row.code_sealed ? keyringOf(deps).open('voucher-code', row.id, row.code_sealed) : null,
    paidAt: row.completed_at!,
  };
}

/** The runner's outcomes as a channel's record: sent, failed for good, or `pending` (a retry is queued). */
export function outcomesToRecord(outcomes: readonly Recorded<unknown>[]): Sending[] {
  return outcomes
    .filter((o) => o.held && o.kind !== 'released' && o.kind !== 'later' && o.kind !== 'abandoned')
    .map((o) => ({
      paymentId: o.job.key,
      status: o.kind === 'done' ? 'sent' : o.kind === 'failed' ? 'failed' : 'pending',
      error: o.error,
      gatewayId: typeof o.result === 'string' ? o.result : null,
    }));
}

/** What a resend queued: each channel, and whether it is due now or a runner is sending it already. */
export interface Notified {
  paymentId: string;
  channels: { channel: Channel; state: 'queued' | 'sending' }[];
}

/**
 * The operator's "send the confirmation again" (`zarpay payment notify`, GraphQL `notifyPayment`):
 * for a customer who lost the e-mail or SMS (for a `purchase`, it carries the voucher code), or
 * after a confirmation failed for good while the mail server or SMS gateway was misconfigured.
 */
export class CustomerMessageService {
  constructor(private readonly deps: ServiceDeps) {}

  /** The channels this deployment sends on: e-mail with SMTP_URL, SMS with SMS_URL. */
  configured(): Channel[] {
    return CHANNELS.filter((c) => (c === 'email' ? this.deps.config.smtp : this.deps.config.sms) !== null);
  }

  /**
   * Queues the captured payment's confirmation again on `channels` (default: every configured
   * channel the customer gave an address for), due now with its tries counted afresh; audited.
   */
  async notify(actor: Actor, id: string, channels?: readonly Channel[] | null): Promise<Notified> {
    requireOperator(actor);
    if (!isUuid(id)) throw new AppError('PAYMENT_NOT_FOUND', 'payment not found');
    const wanted = channels && channels.length > 0 ? [...new Set(channels)] : null;
    const configured = this.configured();
    for (const c of wanted ?? []) {
      if (!configured.includes(c)) throw new AppError('VALIDATION_FAILED', `channels: ${c === 'email' ? 'e-mail is off (SMTP_URL is not set)' : 'SMS is off (SMS_URL is not set)'}`);
    }
    return withEvents(this.deps, async (tx) => {
      const payment = await lockPaymentContacts(tx, paymentScope(actor), id.toLowerCase());
      if (!payment) throw new AppError('PAYMENT_NOT_FOUND', 'payment not found');
      if (payment.status !== 'captured') {
        throw new AppError('INVALID_STATUS_TRANSITION', `payment is ${payment.status}: only a captured payment has a confirmation to send`);
      }
      const address = (c: Channel) => (c === 'email' ? payment.customer_email : payment.customer_phone);
      for (const c of wanted ?? []) {
        if (!address(c)) throw new AppError('VALIDATION_FAILED', `channels: the payment has no customer ${c === 'email' ? 'e-mail' : 'phone'}`);
      }
      const chosen = wanted ?? configured.filter((c) => address(c));
      if (chosen.length === 0) {
        throw new AppError(
          'VALIDATION_FAILED',
          `nothing to send: the payment has no customer ${configured.map((c) => (c === 'email' ? 'e-mail' : 'phone')).join(' or ') || 'address'} on a channel that is on (SMTP_URL, SMS_URL)`,
        );
      }
      const notified: Notified = { paymentId: payment.id, channels: [] };
      for (const channel of chosen) notified.channels.push({ channel, state: await requeueConfirmation(tx, payment.id, channel) });
      await recordAudit(tx, { actor: actorLabel(actor), action: 'payment.notify', merchantId: payment.merchant_id, paymentId: payment.id, detail: { channels: chosen } });
      return notified;
    });
  }
}
