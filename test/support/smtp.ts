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

/**
 * A local SMTP server (the `smtp-server` package, the one nodemailer's own tests use) that keeps
 * every message it accepts, parsed with mailparser. `refuse(n)` answers the next n messages with a
 * temporary 451, as a busy server does.
 */
export async function startSmtpServer(port = 0) {
  const received: ReceivedMail[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
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
    url: `smtp://127.0.0.1:${bound}`,
    port: bound,
    received,
    refuse(n: number) {
      refusals += n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
