import { confirmationFacts, type MessagePayload, recordSendings } from '../db/customer-messages.ts';
import { confirmationSms } from '../domain/customer-sms.ts';
import { QUEUE } from '../domain/jobs.ts';
import { toE164 } from '../domain/phone.ts';
import { done, GiveUp, type Task } from '../jobs/task.ts';
import { SmsRefused, type SmsGateway } from '../outside/sms.ts';
import { CONFIRMATION_RETRY_DELAYS_MS, confirmationFactsOf, outcomesToRecord } from '../services/customer-messages.ts';
import type { ServiceDeps } from '../services/deps.ts';

/** A claim lasts this long: well past one submission's time limit (sms.ts). */
const LEASE_MS = 60_000;

/**
 * Customer confirmations by SMS (CONTRACT §10): a job of `customer.sms` sends one captured
 * payment's confirmation to the customer's phone through the SMS port, queued by the capture's
 * transaction when the customer gave a phone and SMS_URL is set, or by an operator's resend.
 *
 * A number the gateway will not send to ends it at once; an unreachable gateway, its 5xx, 429,
 * 401/403 (credentials, credits) are retried with backoff, then the job is `failed` for an
 * operator (`zarpay jobs list --status failed`, `zarpay payment notify`). Nothing here touches
 * the payment: it was captured before the job existed.
 */
export function customerSmsTask(deps: ServiceDeps, sms: SmsGateway): Task<MessagePayload, string> {
  return {
    queue: QUEUE.customerSms,
    concurrency: 4,
    leaseMs: LEASE_MS,
    retryDelaysMs: CONFIRMATION_RETRY_DELAYS_MS,

    async run(job) {
      const row = await confirmationFacts(deps.db, job.payload.payment);
      if (!row?.customer_phone || !row.completed_at) throw new GiveUp('the payment has no customer phone');
      // Payments initiated before phones were checked may hold a local or formatted number.
      const to = toE164(row.customer_phone);
      if (!to) throw new GiveUp('the customer phone is not an international (E.164) number');
      const body = confirmationSms(confirmationFactsOf(deps, row));
      try {
        // The gateway's reports show this beside the message: the payment, never the customer.
        const sent = await sms.send({ to, body, reference: row.id.replaceAll('-', '').slice(0, 20) }, job.signal);
        return done(sent.id);
      } catch (e) {
        if (e instanceof SmsRefused && e.permanent) throw new GiveUp(e.message);
        throw e;
      }
    },

    async record(tx, outcomes) {
      await recordSendings(tx, 'sms', outcomesToRecord(outcomes));
    },
  };
}
