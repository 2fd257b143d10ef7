import type { SmtpSettings } from '../config.ts';
import { confirmationFacts, recordSendings } from '../db/customer-emails.ts';
import { confirmationEmail } from '../domain/customer-email.ts';
import { QUEUE } from '../domain/jobs.ts';
import { GiveUp, type Task } from '../jobs/task.ts';
import { MailRefused, type MailTransport } from '../outside/mail.ts';
import { keyringOf, type ServiceDeps } from './deps.ts';

/** Retries of a confirmation the mail server did not take; then it has failed for good. */
const RETRY_DELAYS_MS = [5_000, 60_000, 600_000, 3_600_000];
/** A claim lasts this long: well past one sending's time limits (mail.ts). */
const LEASE_MS = 60_000;

interface Payload {
  payment: string;
}

/**
 * Customer confirmations (the specification's "confirmation e-mail"): a job of `customer.email`
 * sends the e-mail of one captured payment through the mail port, queued by the capture's
 * transaction (db/customer-emails.ts).
 *
 * Once per payment, across crashes: the job exists only if the capture committed, and a done job
 * is gone. What no queue can close is the moment between the server's "250 accepted" and the
 * commit of the outcome: a crash exactly then sends it again after the lease, with the same
 * Message-ID, which mail systems use to recognise the repeat.
 */
export function customerEmailTask(deps: ServiceDeps, smtp: SmtpSettings, mail: MailTransport): Task<Payload> {
  const host = new URL(deps.config.publicBaseUrl).hostname;
  return {
    queue: QUEUE.customerEmail,
    concurrency: 4,
    leaseMs: LEASE_MS,
    retryDelaysMs: RETRY_DELAYS_MS,

    async run(job) {
      const facts = await confirmationFacts(deps.db, job.payload.payment);
      if (!facts?.customer_email || !facts.completed_at) throw new GiveUp('the payment has no customer e-mail');
      const { subject, text } = confirmationEmail({
        paymentId: facts.id,
        merchantName: facts.merchant_name,
        amountCents: facts.amount_cents,
        merchantOrderId: facts.merchant_order_id,
        intentType: facts.intent_type,
        description: facts.description,
        voucherCode: facts.code_sealed ? keyringOf(deps).open('voucher-code', facts.id, facts.code_sealed) : null,
        paidAt: facts.completed_at,
      });
      try {
        await mail.send({ from: smtp.from, to: facts.customer_email, subject, text, messageId: `<payment-${facts.id}@${host}>` });
      } catch (e) {
        // 5xx: the server refused this message for good (a bad address); anything else may pass later.
        if (e instanceof MailRefused && e.permanent) throw new GiveUp(e.message);
        throw e;
      }
    },

    async record(tx, outcomes) {
      await recordSendings(
        tx,
        outcomes
          .filter((o) => o.held && o.kind !== 'released' && o.kind !== 'later')
          .map((o) => ({ paymentId: o.job.key, status: o.kind === 'done' ? 'sent' : o.kind === 'failed' ? 'failed' : 'pending', error: o.error })),
      );
    },
  };
}
