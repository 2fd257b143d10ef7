import type { SmtpSettings } from '../config.ts';
import { personForNotice } from '../db/people.ts';
import { QUEUE } from '../domain/jobs.ts';
import { SIGN_IN_ACCOUNT_FAILURES, SIGN_IN_WINDOW_MS } from '../domain/people.ts';
import { GiveUp, type Task } from '../jobs/task.ts';
import { MailRefused, type MailTransport } from '../outside/mail.ts';
import { CONFIRMATION_RETRY_DELAYS_MS } from '../services/customer-messages.ts';
import type { ServiceDeps } from '../services/deps.ts';
import type { PersonNotice } from '../services/people.ts';

/**
 * E-mails to the merchant's people about their own account (queue `person.email`), queued in the
 * transaction of what they tell: a sign-in lock after too many wrong passwords. Retried as a
 * customer's confirmation is; a mailbox the server refuses for good ends the job.
 */
export function personEmailTask(deps: ServiceDeps, smtp: SmtpSettings, mail: MailTransport): Task<PersonNotice> {
  const host = new URL(deps.config.publicBaseUrl).hostname;
  return {
    queue: QUEUE.personEmail,
    concurrency: 2,
    leaseMs: 60_000,
    retryDelaysMs: CONFIRMATION_RETRY_DELAYS_MS,

    async run(job) {
      const person = await personForNotice(deps.db, job.payload.person);
      // Removed meanwhile: there is nobody to tell.
      if (!person) return;
      const minutes = SIGN_IN_WINDOW_MS / 60_000;
      try {
        await mail.send({
          from: smtp.from,
          to: person.email,
          subject: 'Your zarpay dashboard sign-in is locked for now',
          text:
            `Someone entered a wrong password for ${person.email} ${SIGN_IN_ACCOUNT_FAILURES} times in ${minutes} minutes, ` +
            `so signing in to ${person.merchantName}'s zarpay dashboard is locked for up to ${minutes} minutes, even with the right password.\n\n` +
            `If that was you, wait and try again. If it was not, your password is being guessed: once you can sign in, ` +
            `ask an owner to check the people and API keys of the dashboard.\n`,
          messageId: `<sign-in-locked-${job.id}@${host}>`,
        }, job.signal);
      } catch (e) {
        if (e instanceof MailRefused && e.permanent) throw new GiveUp(e.message);
        throw e;
      }
    },
  };
}
