import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Map<string, unknown>;
};

/** A real SMTP server on loopback that keeps what it receives, for tests that follow mailed links. */
export async function startSmtpServer(port = 0): Promise<{
  url: string;
  mails: ReceivedMail[];
  waitFor(predicate: (mail: ReceivedMail) => boolean): ReceivedMail;
  close(): Promise<void>;
}> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const to = Array.isArray(parsed.to) ? parsed.to[0]?.text : parsed.to?.text;
          mails.push({
            to: to ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            headers: parsed.headers,
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    mails,
    waitFor(predicate) {
      const mail = mails.find(predicate);
      if (!mail)
        throw new Error(`No such mail among: ${mails.map((m) => `${m.to}: ${m.subject}`).join('; ')}`);
      return mail;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's text that contains the given path. */
export function linkIn(mail: ReceivedMail, path: string): string {
  const match = mail.text.match(new RegExp(`https?://\\S*${path.replace(/[.?]/g, '\\$&')}\\S*`));
  if (!match) throw new Error(`No link with ${path} in: ${mail.text}`);
  return match[0];
}
