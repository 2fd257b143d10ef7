import { createTransport } from 'nodemailer';
import type { SmtpSettings } from '../config.ts';

/** One message to one customer. */
export interface Mail {
  from: string;
  to: string;
  subject: string;
  text: string;
  /** Fixed per message, so a repeat after a crash is recognisable as the same message. */
  messageId: string;
}

/**
 * Why a message was not taken. `permanent`: the server refused this recipient for good (a 5xx
 * to RCPT TO, such as an unknown mailbox); anything else may pass on a later try.
 */
export class MailRefused extends Error {
  override name = 'MailRefused';
  constructor(
    message: string,
    readonly permanent: boolean,
    /** The server's reply code, when it gave one. */
    readonly responseCode?: number,
  ) {
    super(message);
  }
}

/**
 * The mail port: how a customer's confirmation leaves zarpay. In production, SMTP through
 * nodemailer (`smtpMail`); tests run it against a real SMTP server (smtp-server).
 */
export interface MailTransport {
  /**
   * Resolves once the server accepted the message; throws MailRefused otherwise. `signal` (a
   * job's, at shutdown) ends the sending at once, its connection closed, with the signal's own
   * error: the server may or may not have taken the message.
   */
  send(mail: Mail, signal?: AbortSignal): Promise<void>;
  close(): void;
}

export function smtpMail(settings: SmtpSettings): MailTransport {
  // Connected on first use, so a process that never sends opens nothing.
  const transport = createTransport({ url: settings.url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
  return {
    async send(mail, signal) {
      try {
        // nodemailer closes the send's connection on abort (SMTP transport, 10.5+).
        await transport.sendMail(signal ? { ...mail, signal } : mail);
      } catch (e) {
        if (signal?.aborted) throw e;
        const failure = e as SmtpFailure;
        const code = failure.responseCode;
        throw new MailRefused(`${code ?? ''} ${failure.command ? `at ${failure.command}: ` : ''}${failure.message}`.trim(), isPermanent(failure), code);
      }
    },
    close: () => transport.close(),
  };
}

/** What nodemailer tells of a failed sending: the reply (`responseCode`, `response`) and the command it answered. */
export interface SmtpFailure {
  message: string;
  /** nodemailer's kind: ECONNECTION, ETIMEDOUT, EAUTH, EENVELOPE, EMESSAGE… */
  code?: string;
  /** The command in flight: CONN, EHLO, AUTH PLAIN, MAIL FROM, RCPT TO, DATA, or API (refused before sending). */
  command?: string;
  responseCode?: number;
  response?: string;
}

/**
 * Whether a failed sending can never succeed, by SMTP reply class (RFC 5321 §4.2.1) and the
 * command it answered, with the enhanced status code (RFC 3463) where the server gives one:
 *
 * - 5xx to RCPT TO: the server refuses this recipient (5.1.x no such address, 5.2.x mailbox
 *   unavailable, 5.0.x unspecified): permanent. Except 5.7.x (relaying denied, authentication
 *   required) and 5.3–5.5 (the server's own system or protocol), which are about our account
 *   or theirs, not the address.
 * - An address nodemailer will not even send (EENVELOPE before any command): permanent.
 * - Everything else is retried: connection failures and timeouts; every 4xx; and a 5xx at the
 *   greeting, EHLO, AUTH (wrong password), MAIL FROM (a sender the server will not take) or
 *   DATA. Those are configuration faults or the server's state, which an operator fixes: the
 *   confirmation (for `purchase` it carries the voucher code) must still go once they are fixed.
 */
export function isPermanent(f: SmtpFailure): boolean {
  if (f.code === 'EENVELOPE' && f.command === 'API') return true;
  if (f.command !== 'RCPT TO' || typeof f.responseCode !== 'number' || f.responseCode < 500 || f.responseCode > 599) return false;
  const enhanced = /^\d{3}[ -]5\.(\d{1,3})\.\d{1,3}\b/.exec(f.response ?? '');
  if (!enhanced) return true;
  return !['3', '4', '5', '7'].includes(enhanced[1]!);
}

/** The SMTP address without its credentials, for the start-up log. */
export function smtpTarget(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ''}`;
}
