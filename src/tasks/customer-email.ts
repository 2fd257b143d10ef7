import type { SmtpSettings } from '../config.ts';
import { confirmationFacts, type MessagePayload, recordSendings } from '../db/customer-messages.ts';
import { confirmationEmail } from '../domain/customer-email.ts';
import { QUEUE } from '../domain/jobs.ts';
import { GiveUp, type Task } from '../jobs/task.ts';
import { MailRefused, type MailTransport } from '../outside/mail.ts';
import { CONFIRMATION_RETRY_DELAYS_MS, confirmationFactsOf, outcomesToRecord } from '../services/customer-messages.ts';
import type { ServiceDeps } from '../services/deps.ts';

/** A claim lasts this long: well past one sending's time limits (mail.ts). */
const LEASE_MS = 60_000;

/**
 * Customer confirmations (the specification's "confirmation e-mail"): a job of `customer.email`
 * sends the e-mail of one captured payment through the mail port, queued by the capture's
 * transaction (db/customer-messages.ts) or by an operator's resend.
 *
 * Only a 5xx to RCPT TO for the address ends it at once (mail.ts `isPermanent`); a server that
 * cannot be reached, a 4xx, a wrong password or a refused sender are retried with backoff
 * (CONFIRMATION_RETRY_DELAYS_MS), then the job is `failed` for an operator, who can send it again
 * (`zarpay payment notify`).
 *
 * Once per payment, across crashes: the job exists only if the capture committed, and a done job
 * is gone. What no queue can close is the moment between the server's "250 accepted" and the
 * commit of the outcome: a crash exactly then sends it again after the lease, with the same
 * Message-ID, which mail systems use to recognise the repeat. A resend has a Message-ID of its
 * own: it is meant to arrive.
 */
export function customerEmailTask(deps: ServiceDeps, smtp: SmtpSettings, mail: MailTransport): Task<MessagePayload> {
  const host = new URL(deps.config.publicBaseUrl).hostname;
  return {
    queue: QUEUE.customerEmail,
    concurrency: 4,
    leaseMs: LEASE_MS,
    retryDelaysMs: CONFIRMATION_RETRY_DELAYS_MS,

    async run(job) {
      const row = await confirmationFacts(deps.db, job.payload.payment);
      if (!row?.customer_email || !row.completed_at) throw new GiveUp('the payment has no customer e-mail');
      const { subject, text } = confirmationEmail(confirmationFactsOf(deps, row));
      const resend = job.payload.resend ?? 0;
      const messageId = resend > 0 ? `<payment-${row.id}.${resend}@${host}>` : `<payment-${row.id}@${host}>`;
      try {
        await mail.send({ from: smtp.from, to: row.customer_email, subject, text, messageId }, job.signal);
      } catch (e) {
        if (e instanceof MailRefused && e.permanent) throw new GiveUp(e.message);
        throw e;
      }
    },

    async record(tx, outcomes) {
      await recordSendings(tx, 'email', outcomesToRecord(outcomes));
    },
  };
}
