import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailJobs } from '#server/db/schema/mail.ts';
import { testPayments } from '#server/db/schema/payments.ts';
import { activeMember, goodPassword, nextIp, uniqueEmail } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { siteOrigin } from './site-origin.ts';

describe('siteOrigin', () => {
  const site = (domain: string, isDefault = false) => ({ domain, isDefault });

  it('is https://<domain> for a real domain, whatever PUBLIC_URL says for the default site', () => {
    expect(siteOrigin(site('amora.example'), { PORT: 3000, PUBLIC_URL: undefined })).toBe(
      'https://amora.example',
    );
    expect(siteOrigin(site('amora.nl'), { PORT: 8080, PUBLIC_URL: 'https://www.amora.example/' })).toBe(
      'https://amora.nl',
    );
  });

  it('is PUBLIC_URL (its origin) for the default site when set', () => {
    expect(
      siteOrigin(site('localhost', true), { PORT: 3000, PUBLIC_URL: 'https://www.amora.example/' }),
    ).toBe('https://www.amora.example');
  });

  it('is http on the configured port for *.localhost development domains (not always :3000)', () => {
    expect(siteOrigin(site('localhost', true), { PORT: 4123, PUBLIC_URL: undefined })).toBe(
      'http://localhost:4123',
    );
    expect(siteOrigin(site('nl.localhost'), { PORT: 3000, PUBLIC_URL: undefined })).toBe(
      'http://nl.localhost:3000',
    );
    expect(siteOrigin(site('nl.localhost'), { PORT: 80, PUBLIC_URL: undefined })).toBe('http://nl.localhost');
    // A domain merely ending in "localhost" is a real domain.
    expect(siteOrigin(site('evillocalhost'), { PORT: 3000, PUBLIC_URL: undefined })).toBe(
      'https://evillocalhost',
    );
  });
});

/** Every URL in a mail (text, HTML and headers such as List-Unsubscribe). */
function urlsIn(mail: { text: string; html: string; headers: Record<string, string> }): string[] {
  const all = [mail.text, mail.html, ...Object.values(mail.headers)].join('\n');
  return [...all.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((match) => match[0]);
}

describe('links in mails and provider URLs come from the site, never from request headers', () => {
  let t: TestApp;
  // Behind one trusted proxy, on a port other than 3000: the default site is "localhost".
  const origin = 'http://localhost:4123';
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: '1', PORT: '4123' });
  });
  afterAll(() => t.close());

  const poisoned = [
    { name: 'Host: evil.test', headers: { host: 'evil.test' } },
    {
      name: 'X-Forwarded-Host: evil.test behind TRUST_PROXY',
      headers: { host: 'localhost', 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'https' },
    },
  ];

  const mailsTo = async (to: string, kind?: string) =>
    (await t.database.db.select().from(mailJobs).where(eq(mailJobs.to, to))).filter(
      (mail) => kind === undefined || mail.kind === kind,
    );

  async function expectOnlySiteLinks(to: string, kind: string) {
    const mails = await mailsTo(to, kind);
    expect(mails.length).toBeGreaterThan(0);
    for (const mail of mails) {
      const urls = urlsIn(mail);
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) expect(new URL(url).origin).toBe(origin);
      expect(JSON.stringify(mail)).not.toContain('evil.test');
    }
  }

  for (const { name, headers } of poisoned) {
    it(`activation and password-reset mails (${name})`, async () => {
      const email = uniqueEmail('poison');
      const signup = await t.app.inject({
        method: 'POST',
        url: '/api/signup.php',
        remoteAddress: nextIp(),
        headers,
        payload: { email, name: 'Robin', password: goodPassword, date_of_birth: '1990-05-17' },
      });
      expect(signup.statusCode).toBe(201);
      await expectOnlySiteLinks(email, 'activation');

      const reset = await t.app.inject({
        method: 'POST',
        url: '/api/password-reset.php',
        remoteAddress: nextIp(),
        headers,
        payload: { email },
      });
      expect(reset.statusCode).toBe(200);
      const resetMails = await mailsTo(email, 'passwordReset');
      expect(
        resetMails.map((mail) => urlsIn(mail).find((url) => url.includes('/reset-password/do'))),
      ).toEqual([expect.stringMatching(new RegExp(`^${origin}/reset-password/do\\?token=`))]);
      await expectOnlySiteLinks(email, 'passwordReset');
    });

    it(`mail-change and deletion (reactivation) mails (${name})`, async () => {
      const member = await activeMember(t.app);
      const newEmail = uniqueEmail('moved');
      const change = await t.app.inject({
        method: 'POST',
        url: '/api/mail-change.php',
        remoteAddress: nextIp(),
        headers: { ...headers, cookie: member.cookie },
        payload: { email: newEmail, password: goodPassword },
      });
      expect(change.statusCode).toBe(200);
      await expectOnlySiteLinks(newEmail, 'mailChange');

      const deletion = await t.app.inject({
        method: 'DELETE',
        url: '/api/user.php',
        remoteAddress: nextIp(),
        headers: { ...headers, cookie: member.cookie },
        payload: { password: goodPassword },
      });
      expect(deletion.statusCode).toBe(200);
      await expectOnlySiteLinks(member.email, 'deletion');
      const [deletionMail] = await mailsTo(member.email, 'deletion');
      expect(urlsIn(deletionMail!).some((url) => url.startsWith(`${origin}/api/reactivate.php?token=`))).toBe(
        true,
      );
    });

    it(`notification mails, their unsubscribe link and List-Unsubscribe header (${name})`, async () => {
      const sender = await activeMember(t.app, { name: 'Sender' });
      const receiver = await activeMember(t.app, { name: 'Receiver' });
      const sent = await t.app.inject({
        method: 'POST',
        url: '/api/chat.php',
        remoteAddress: nextIp(),
        headers: { ...headers, cookie: sender.cookie },
        payload: { profile: receiver.profileId, text: 'Hello there' },
      });
      expect(sent.statusCode).toBeLessThan(300);
      await expectOnlySiteLinks(receiver.email, 'newMessage');
      const [mail] = await mailsTo(receiver.email, 'newMessage');
      expect(mail?.headers['List-Unsubscribe']).toMatch(
        new RegExp(`^<${origin}/api/unsubscribe\\.php\\?token=`),
      );
    });

    it(`the payment provider's redirect URL (${name})`, async () => {
      const member = await activeMember(t.app);
      const bundles = (
        await t.app.inject({ url: '/api/bundles.php', headers: { ...headers, cookie: member.cookie } })
      ).json();
      const order = await t.app.inject({
        method: 'POST',
        url: '/api/order.php',
        remoteAddress: nextIp(),
        headers: { ...headers, cookie: member.cookie },
        payload: { bundle: bundles.bundles[0].id, paymentmethod: bundles.paymentmethods[0] },
      });
      expect(order.statusCode).toBe(201);
      const paymentId = String(order.json().checkout_url).split('/').at(-1) ?? '';
      const [payment] = await t.database.db.select().from(testPayments).where(eq(testPayments.id, paymentId));
      expect(payment?.redirectUrl).toBe(`${origin}/transactions/${order.json().order.id}`);
    });
  }
});
