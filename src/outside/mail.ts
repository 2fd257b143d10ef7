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
 * Why a message was not taken. `permanent`: the server refused this message for good (a 5xx to
 * the message, such as a bad address); anything else may pass on a later try.
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
  /** Resolves once the server accepted the message; throws MailRefused otherwise. */
  send(mail: Mail): Promise<void>;
  close(): void;
}

export function smtpMail(settings: SmtpSettings): MailTransport {
  // Connected on first use, so a process that never sends opens nothing.
  const transport = createTransport({ url: settings.url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
  return {
    async send(mail) {
      try {
        await transport.sendMail(mail);
      } catch (e) {
        const code = (e as { responseCode?: number }).responseCode;
        throw new MailRefused(`${code ?? ''} ${(e as Error).message}`.trim(), typeof code === 'number' && code >= 500, code);
      }
    },
    close: () => transport.close(),
  };
}

/** The SMTP address without its credentials, for the start-up log. */
export function smtpTarget(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ''}`;
}
