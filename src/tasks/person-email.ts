import type { SmtpSettings } from '../config.ts';
import { personForNotice } from '../db/people.ts';
import { mintResetToken } from '../db/person-security.ts';
import { QUEUE } from '../domain/jobs.ts';
import { newToken, SIGN_IN_ACCOUNT_FAILURES, SIGN_IN_WINDOW_MS, tokenDigest } from '../domain/people.ts';
import { GiveUp, type Task } from '../jobs/task.ts';
import { MailRefused, type MailTransport } from '../outside/mail.ts';
import { CONFIRMATION_RETRY_DELAYS_MS } from '../services/customer-messages.ts';
import type { ServiceDeps } from '../services/deps.ts';
import type { PersonNotice } from '../services/people.ts';

/**
 * E-mails to the merchant's people about their own account (queue `person.email`), queued in the
 * transaction of what they tell: a sign-in lock after too many wrong passwords, a link to reset a
 * forgotten password. Retried as a customer's confirmation is; a mailbox the server refuses for
 * good ends the job. A reset's token is drawn here, at each try, and only its digest stored: no
 * row (the job's payload included) ever holds a usable link.
 */
export function personEmailTask(deps: ServiceDeps, smtp: SmtpSettings, mail: MailTransport): Task<PersonNotice> {
  const host = new URL(deps.config.publicBaseUrl).hostname;
  return {
    queue: QUEUE.personEmail,
    concurrency: 2,
    leaseMs: 60_000,
    retryDelaysMs: CONFIRMATION_RETRY_DELAYS_MS,

    async run(job) {
      const payload = job.payload;
      if (payload.notice === 'password_reset') {
        const token = newToken();
        const reset = await mintResetToken(deps.db, payload.reset, tokenDigest(token));
        // Used, expired, or its person removed meanwhile: nothing to send.
        if (!reset) return;
        const link = `${deps.config.publicBaseUrl}/dashboard/reset#${token}`;
        await send({
          from: smtp.from,
          to: reset.email,
          subject: 'Reset your zarpay dashboard password',
          text:
            `Someone asked to reset the password of ${reset.email} for ${reset.merchantName}'s zarpay dashboard.\n\n` +
            `Set a new password here (the link works for an hour, once):\n${link}\n\n` +
            `If you did not ask, ignore this message: your password stays as it is.\n`,
          messageId: `<password-reset-${job.id}-${job.attempt}@${host}>`,
        }, job.signal);
        return;
      }
      const person = await personForNotice(deps.db, payload.person);
      // Removed meanwhile: there is nobody to tell.
      if (!person) return;
      const minutes = SIGN_IN_WINDOW_MS / 60_000;
      await send({
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
    },
  };

  async function send(m: Parameters<MailTransport['send']>[0], signal: AbortSignal) {
    try {
      await mail.send(m, signal);
    } catch (e) {
      if (e instanceof MailRefused && e.permanent) throw new GiveUp(e.message);
      throw e;
    }
  }
}
