import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

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

/** Real SMTP delivery (nodemailer), for SMTP_URL. */
export function createSmtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        headers: mail.headers,
      });
    },
    close: () => transporter.close(),
  };
}

/**
 * Without SMTP_URL every mail is written to the outbox folder: the full message as .eml, and its
 * parts as .json for people and tests to read.
 */
export function createOutboxTransport(dir: string): MailTransport {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      await mkdir(dir, { recursive: true });
      const info = await builder.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        headers: mail.headers,
      });
      const base = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.id}`);
      await writeFile(`${base}.eml`, info.message as Buffer);
      await writeFile(
        `${base}.json`,
        JSON.stringify(
          { id: mail.id, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html },
          null,
          2,
        ),
      );
    },
    close: () => builder.close(),
  };
}
