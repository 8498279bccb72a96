import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sites } from '#server/db/schema/sites.ts';
import { nextIp } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { addressOf, formatSender } from './mail.service.ts';
import { createOutboxTransport } from './mail-transport.ts';

describe('per-site mail identity', () => {
  let t: TestApp;
  let outbox: string;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

  beforeAll(async () => {
    outbox = await mkdtemp(path.join(os.tmpdir(), 'site-mail-'));
    t = await createTestApp(
      { MAIL_FROM: 'Platform <platform@mail.example>' },
      { mailTransport: createOutboxTransport(outbox, { selector: 'brand2026', privateKey: pem }) },
    );
  });
  afterAll(() => t.close());

  async function complaintMail(host: string, email: string) {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/complaint.php',
      headers: { host },
      remoteAddress: nextIp(),
      payload: { name: 'Someone', email, subject: 'Question', message: 'Hello there' },
    });
    expect(answer.statusCode).toBe(201);
    expect(await t.app.deps.mail.processDue()).toBe(1);
    const files = await readdir(outbox);
    for (const file of files.filter((name) => name.endsWith('.eml'))) {
      const raw = await readFile(path.join(outbox, file), 'utf8');
      const parsed = await simpleParser(raw);
      if (parsed.to && !Array.isArray(parsed.to) && parsed.to.value[0]?.address === email)
        return { raw, parsed };
    }
    throw new Error(`no mail to ${email}`);
  }

  it("sends the second demo site's mail from that site's name and address, in its colour, DKIM-signed for its domain", async () => {
    const { raw, parsed } = await complaintMail('nl.localhost', 'second@example.com');
    expect(parsed.from?.value).toEqual([{ name: 'Flirtpunt', address: 'berichten@flirtpunt.localhost' }]);
    expect(parsed.html).toContain('#00796b');
    expect(parsed.html).not.toContain('#c2185b');
    const signature = parsed.headers.get('dkim-signature');
    expect(signature).toBeTruthy();
    expect(raw).toMatch(/DKIM-Signature:[\s\S]*?d=flirtpunt\.localhost;/);
    expect(raw).toMatch(/DKIM-Signature:[\s\S]*?s=brand2026;/);
    expect(raw).not.toContain('PRIVATE KEY');
  });

  it('sends the default site from its own identity, and a site without a sender from its name at MAIL_FROM', async () => {
    const first = await complaintMail('localhost', 'first@example.com');
    expect(first.parsed.from?.value).toEqual([{ name: 'Amora', address: 'no-reply@amora.localhost' }]);
    expect(first.raw).toMatch(/DKIM-Signature:[\s\S]*?d=amora\.localhost;/);

    await t.database.db
      .update(sites)
      .set({ mailFromName: null, mailFromAddress: null, logoUrl: 'https://cdn.example/logo.png' })
      .where(eq(sites.domain, 'nl.localhost'));
    t.app.deps.sites.invalidate();
    const fallback = await complaintMail('nl.localhost', 'fallback@example.com');
    expect(fallback.parsed.from?.value).toEqual([{ name: 'Flirtpunt', address: 'platform@mail.example' }]);
    expect(fallback.raw).toMatch(/DKIM-Signature:[\s\S]*?d=mail\.example;/);
    expect(fallback.parsed.html).toContain('<img src="https://cdn.example/logo.png" alt="Flirtpunt"');
  });

  it("names the site in the reader's language: its own text for that language, else its home language's", async () => {
    await t.database.db
      .update(sites)
      .set({
        mailFromName: null,
        texts: { de: { manifest_name: 'Flirtpunkt' }, nl: { manifest_name: 'Flirtpunt' } },
      })
      .where(eq(sites.domain, 'nl.localhost'));
    t.app.deps.sites.invalidate();
    async function complaintIn(locale: string, email: string) {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/complaint.php',
        headers: { host: 'nl.localhost', cookie: `locale=${locale}` },
        remoteAddress: nextIp(),
        payload: { name: 'Someone', email, subject: 'Question', message: 'Hello there' },
      });
      expect(answer.statusCode).toBe(201);
      expect(await t.app.deps.mail.processDue()).toBe(1);
      for (const file of (await readdir(outbox)).filter((name) => name.endsWith('.eml'))) {
        const parsed = await simpleParser(await readFile(path.join(outbox, file), 'utf8'));
        if (parsed.to && !Array.isArray(parsed.to) && parsed.to.value[0]?.address === email) return parsed;
      }
      throw new Error(`no mail to ${email}`);
    }
    const german = await complaintIn('de', 'leser@example.com');
    expect(german.from?.value[0]?.name).toBe('Flirtpunkt');
    expect(german.text).toContain('Flirtpunkt');
    expect(german.text).not.toContain('Flirtpunt');
    // Finnish has no text of its own: the site's home language (nl) names it.
    const finnish = await complaintIn('fi', 'lukija@example.com');
    expect(finnish.from?.value[0]?.name).toBe('Flirtpunt');
  });

  it('quotes display names and reads the address out of MAIL_FROM', () => {
    expect(addressOf('Brand <no-reply@x.example>')).toBe('no-reply@x.example');
    expect(addressOf('no-reply@x.example')).toBe('no-reply@x.example');
    expect(formatSender('A "B" \\ C', 'a@b.c')).toBe('"A \\"B\\" \\\\ C" <a@b.c>');
    expect(formatSender('Evil\r\nBcc: x@y', 'a@b.c')).toBe('"Evil  Bcc: x@y" <a@b.c>');
  });
});
