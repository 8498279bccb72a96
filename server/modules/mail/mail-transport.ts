import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadNodemailer } from '#server/lib/lazy-packages.ts';

export type OutgoingMail = {
  id: number;
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
};

export type MailTransport = { send(mail: OutgoingMail): Promise<void>; close(): void };

/**
 * DKIM signing: one private key (DKIM_PRIVATE_KEY) and selector (DKIM_SELECTOR) for every site; each
 * mail is signed for the domain of its own From address, so every brand publishes the same public
 * key at `<selector>._domainkey.<its domain>`. The key is never logged.
 */
export type DkimKey = { selector: string; privateKey: string };

function dkimFor(from: string, key: DkimKey | undefined) {
  if (!key) return undefined;
  const domain = /@([^@>\s]+)>?\s*$/.exec(from)?.[1]?.toLowerCase();
  return domain ? { domainName: domain, keySelector: key.selector, privateKey: key.privateKey } : undefined;
}

/** Real SMTP delivery (nodemailer), for SMTP_URL. */
export function createSmtpTransport(url: string, dkim?: DkimKey): MailTransport {
  // nodemailer loads with the first mail, not with the start: a start does not pay for it.
  const connect = async () => (await loadNodemailer()).createTransport(url);
  let transporter: ReturnType<typeof connect> | undefined;
  return {
    async send(mail) {
      const signing = dkimFor(mail.from, dkim);
      transporter ??= connect();
      await (await transporter).sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        headers: mail.headers,
        ...(signing ? { dkim: signing } : {}),
      });
    },
    close: () => {
      void transporter?.then((opened) => opened.close());
    },
  };
}

/**
 * Without SMTP_URL every mail is written to the outbox folder: the full message as .eml, and its
 * parts as .json for people and tests to read.
 */
export function createOutboxTransport(dir: string, dkim?: DkimKey): MailTransport {
  const connect = async () =>
    (await loadNodemailer()).createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let builder: ReturnType<typeof connect> | undefined;
  return {
    async send(mail) {
      await mkdir(dir, { recursive: true });
      const signing = dkimFor(mail.from, dkim);
      builder ??= connect();
      const info = await (await builder).sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        headers: mail.headers,
        ...(signing ? { dkim: signing } : {}),
      });
      const base = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.id}`);
      await writeFile(`${base}.eml`, info.message as Buffer);
      await writeFile(
        `${base}.json`,
        JSON.stringify(
          {
            id: mail.id,
            from: mail.from,
            to: mail.to,
            subject: mail.subject,
            text: mail.text,
            html: mail.html,
          },
          null,
          2,
        ),
      );
    },
    close: () => {
      void builder?.then((opened) => opened.close());
    },
  };
}
