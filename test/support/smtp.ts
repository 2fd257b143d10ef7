import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  messageId: string | undefined;
}

const smtpError = (message: string, responseCode: number) => Object.assign(new Error(message), { responseCode });

export interface SmtpServerOptions {
  /** `user:password` the server requires (AUTH PLAIN/LOGIN, answered 535 5.7.8 otherwise); none: no login. */
  login?: string;
}

/**
 * A local SMTP server (the `smtp-server` package, the one nodemailer's own tests use) that keeps
 * every message it accepts, parsed with mailparser. It fails as real servers do, on demand:
 * `refuse(n)` answers the next n messages with a temporary 451, as a busy server does;
 * `refuseGreeting(on)` greets with 554 and hangs up (RFC 5321 §3.1: "no SMTP service here");
 * `refuseLogin(on)` answers every login 535 5.7.8 (credentials the server no longer takes);
 * `rejectRecipient(address)` answers RCPT TO for it 550 5.1.1 (no such mailbox);
 * `stall(on)` takes connections and never greets them, as a server that hangs does.
 */
export async function startSmtpServer(port = 0, options: SmtpServerOptions = {}) {
  const received: ReceivedMail[] = [];
  let refusals = 0;
  let greetingRefused = false;
  let loginRefused = false;
  let stalled = false;
  const rejected = new Set<string>();
  const counts = { connections: 0, logins: 0, failedLogins: 0 };
  const server = new SMTPServer({
    authOptional: options.login === undefined,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      counts.connections++;
      // Never answered: the client waits for a greeting that does not come.
      if (stalled) return;
      if (greetingRefused) return callback(smtpError('no SMTP service here', 554));
      callback();
    },
    onAuth(auth, _session, callback) {
      counts.logins++;
      if (loginRefused || `${auth.username}:${auth.password}` !== options.login) {
        counts.failedLogins++;
        return callback(smtpError('5.7.8 Authentication credentials invalid', 535));
      }
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      if (rejected.has(address.address)) return callback(smtpError('5.1.1 No such user here', 550));
      callback();
    },
    onData(stream, _session, callback) {
      if (refusals > 0) {
        refusals--;
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error('try again later'), { responseCode: 451 })));
        return;
      }
      simpleParser(stream)
        .then((mail: ParsedMail) => {
          const address = (a: ParsedMail['to']) => (Array.isArray(a) ? a.map((x) => x.text).join(', ') : (a?.text ?? ''));
          received.push({ to: address(mail.to), from: mail.from?.text ?? '', subject: mail.subject ?? '', text: mail.text ?? '', messageId: mail.messageId });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const { port: bound } = server.server.address() as AddressInfo;
  return {
    url: options.login ? `smtp://${options.login.split(':').map(encodeURIComponent).join(':')}@127.0.0.1:${bound}` : `smtp://127.0.0.1:${bound}`,
    port: bound,
    received,
    counts,
    refuse(n: number) {
      refusals += n;
    },
    refuseGreeting(on = true) {
      greetingRefused = on;
    },
    refuseLogin(on = true) {
      loginRefused = on;
    },
    rejectRecipient(address: string) {
      rejected.add(address);
    },
    stall(on = true) {
      stalled = on;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
