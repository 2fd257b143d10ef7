import type { SmtpSettings } from '../config.ts';
import { confirmationFacts } from '../db/customer-messages.ts';
import { paymentRequestEmail } from '../domain/customer-email.ts';
import { QUEUE } from '../domain/jobs.ts';
import { GiveUp, type Task } from '../jobs/task.ts';
import { MailRefused, type MailTransport } from '../outside/mail.ts';
import { CONFIRMATION_RETRY_DELAYS_MS } from '../services/customer-messages.ts';
import type { ServiceDeps } from '../services/deps.ts';
import type { PaymentLinks } from '../services/payment-links.ts';
import type { PaymentRequestJob } from '../services/payment-requests.ts';

/** Statuses a customer can still pay in: a request for anything else is not sent. */
const PAYABLE = new Set(['created', 'initiated', 'awaiting_webhook']);

/**
 * A payment request's e-mail (queue `payment.request_email`, services/payment-requests.ts): the
 * payment's page sent to the customer's e-mail through the mail port, retried as a confirmation
 * is (CONFIRMATION_RETRY_DELAYS_MS); a mailbox the server refuses for good ends it. A payment
 * paid, failed or expired before the e-mail could go is not asked for any more: nothing is sent.
 * One Message-ID per payment, so a repeat after a crash is recognised as one.
 */
export function paymentRequestEmailTask(deps: ServiceDeps, smtp: SmtpSettings, mail: MailTransport, addresses: PaymentLinks): Task<PaymentRequestJob> {
  const host = new URL(deps.config.publicBaseUrl).hostname;
  return {
    queue: QUEUE.paymentRequestEmail,
    concurrency: 2,
    leaseMs: 60_000,
    retryDelaysMs: CONFIRMATION_RETRY_DELAYS_MS,

    async run(job) {
      const row = await confirmationFacts(deps.db, job.payload.payment);
      if (!row?.customer_email) throw new GiveUp('the payment has no customer e-mail');
      if (!PAYABLE.has(row.status)) return;
      const { subject, text } = paymentRequestEmail({
        merchantName: row.merchant_name,
        amountCents: row.amount_cents,
        description: row.description,
        merchantOrderId: row.merchant_order_id,
        paymentUrl: addresses.paymentUrl(row.id),
      });
      try {
        await mail.send({ from: smtp.from, to: row.customer_email, subject, text, messageId: `<payment-request-${row.id}@${host}>` }, job.signal);
      } catch (e) {
        if (e instanceof MailRefused && e.permanent) throw new GiveUp(e.message);
        throw e;
      }
    },
  };
}
