import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailJobs } from '#server/db/schema/mail.ts';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { startSmtpServer } from '../../../tests/setup/smtp-server.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { renderMail } from './mail-templates.ts';
import { createOutboxTransport, createSmtpTransport } from './mail-transport.ts';

describe('the mail queue', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  const clock = createFakeClock();
  let port: number;

  beforeAll(async () => {
    // A port where nobody listens yet: the SMTP server is "down" at first.
    const probe = await startSmtpServer();
    port = Number(new URL(probe.url).port);
    await probe.close();
    t = await createTestApp({}, { clock, mailTransport: createSmtpTransport(`smtp://127.0.0.1:${port}`) });
  });
  afterAll(async () => {
    await t.close();
    await smtp?.close();
  });

  it('keeps a mail while the SMTP server is down and delivers it once it is back', async () => {
    const id = await t.app.deps.mail.enqueue(t.database.db, {
      to: 'someone@example.com',
      subject: 'Hello',
      html: '<p>Hello</p>',
      text: 'Hello',
      kind: 'test',
    });
    expect(await t.app.deps.mail.processDue()).toBe(0);
    const [failed] = await t.database.db.select().from(mailJobs).where(eq(mailJobs.id, id));
    expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
    expect(failed?.lastError).toBeTruthy();

    smtp = await startSmtpServer(port);
    expect(await t.app.deps.mail.processDue()).toBe(0);
    clock.advanceMinutes(1);
    expect(await t.app.deps.mail.processDue()).toBe(1);
    expect(smtp.mails.map((mail) => mail.subject)).toEqual(['Hello']);
    const [sent] = await t.database.db.select().from(mailJobs).where(eq(mailJobs.id, id));
    expect(sent).toMatchObject({ status: 'sent', attempts: 2 });
    expect(await t.app.deps.mail.processDue()).toBe(0);
  });
});

describe('the outbox folder', () => {
  it('writes each mail as .eml and .json when no SMTP server is configured', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'outbox-'));
    const transport = createOutboxTransport(dir);
    await transport.send({
      id: 7,
      from: 'a@b.c',
      to: 'd@e.f',
      subject: 'Subject',
      html: '<b>x</b>',
      text: 'x',
      headers: {},
    });
    const files = (await readdir(dir)).sort();
    expect(files.map((file) => path.extname(file))).toEqual(['.eml', '.json']);
    const json = JSON.parse(await readFile(path.join(dir, files[1]!), 'utf8'));
    expect(json).toMatchObject({ id: 7, to: 'd@e.f', subject: 'Subject', text: 'x' });
    expect(await readFile(path.join(dir, files[0]!), 'utf8')).toContain('Subject: Subject');
  });
});

describe('mail templates', () => {
  it('escape what members wrote and keep the site branding', async () => {
    const { createTranslator } = await import('#server/lib/i18n.ts');
    const mail = renderMail(
      createTranslator(),
      'en',
      { name: 'Amora', supportEmail: 'help@x.y', baseUrl: 'http://x' },
      {
        kind: 'activation',
        actionUrl: 'http://x/api/activate.php?token=a&b=<c>',
        recipientName: '<script>alert(1)</script>',
      },
    );
    expect(mail.html).not.toContain('<script>alert(1)</script>');
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.html).toContain('token=a&amp;b=&lt;c&gt;');
    expect(mail.text).toContain('Hi <script>alert(1)</script>,');
    expect(mail.subject).toBe('Confirm your e-mail address for Amora');
    expect(mail.text).toContain('help@x.y');
  });

  it('word the text version for a link where the HTML version has a button', async () => {
    const { createTranslator } = await import('#server/lib/i18n.ts');
    const translator = createTranslator();
    const site = { name: 'Amora', supportEmail: 'help@x.y', baseUrl: 'http://x' };
    for (const kind of ['passwordReset', 'deletion']) {
      const mail = renderMail(translator, 'en', site, { kind, actionUrl: 'http://x/go' });
      expect(mail.html, kind).toContain('with the button below');
      expect(mail.text, kind).not.toContain('button');
      expect(mail.text, kind).toContain('with the link below');
    }
  });

  it('write each link of the text version as the language writes "label: link"', async () => {
    const { createTranslator } = await import('#server/lib/i18n.ts');
    const mail = renderMail(
      createTranslator(),
      'fr',
      { name: 'Amora', supportEmail: 'help@x.y', baseUrl: 'http://x' },
      {
        kind: 'newLike',
        actionUrl: 'http://x/likes',
        footerLinks: [{ key: 'unsubscribe', url: 'http://x/unsubscribe' }],
      },
    );
    expect(mail.text).toMatch(/Voir le profil[\u202f\u00a0 ]: http:\/\/x\/likes/);
    expect(mail.text).toMatch(/e-mails[\u202f\u00a0 ]: http:\/\/x\/unsubscribe/);
    expect(mail.text).not.toMatch(/\S: http/);
  });
});
