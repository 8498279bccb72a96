import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger } from '#server/db/schema/credits.ts';
import { profiles, users } from '#server/db/schema/members.ts';
import { createSmtpTransport } from '#server/modules/mail/mail-transport.ts';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import {
  goodPassword,
  nextIp,
  sessionCookie,
  signupMember,
  uniqueEmail,
} from '../../../tests/setup/members.ts';
import { linkIn, startSmtpServer } from '../../../tests/setup/smtp-server.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

describe('accounts, with mail delivered over real SMTP', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  const clock = createFakeClock();

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({}, { clock, mailTransport: createSmtpTransport(smtp.url) });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const inject = (options: InjectOptions) => t.app.inject(options);
  const me = async (cookie: string) =>
    (await inject({ url: '/api/user.php', headers: { cookie } })).json().user;
  const deliver = () => t.app.deps.mail.processDue();
  const followApiLink = async (link: string, cookie?: string) => {
    const url = new URL(link);
    return inject({ url: url.pathname + url.search, ...(cookie ? { headers: { cookie } } : {}) });
  };

  it('signs up, mails the activation link, activates once, logs out and in', async () => {
    const { cookie, email, response } = await signupMember(t.app, {}, { 'accept-language': 'de-DE' });
    const user = response.json().user;
    expect(user).toMatchObject({
      email,
      status: 'not_confirmed',
      credits: 10,
      paid_user: false,
      language: 'de',
    });
    const sid = [response.headers['set-cookie'] ?? []].flat().find((cookie) => cookie.startsWith('sid='));
    expect(sid).toMatch(/HttpOnly/i);
    expect(sid).toMatch(/SameSite=Lax/i);

    const ledger = await t.database.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(ledger).toMatchObject([{ delta: 10, balanceAfter: 10, reason: 'signup' }]);

    await deliver();
    const mail = smtp.waitFor((m) => m.to === email);
    expect(mail.subject).toBe(t.app.deps.translator.t('de', 'mail:activation.subject', { site: 'Amora' }));
    expect(mail.subject).toContain('Amora');
    expect(mail.subject).not.toBe(
      t.app.deps.translator.t('en', 'mail:activation.subject', { site: 'Amora' }),
    );
    expect(mail.html).toContain('<html lang="de">');

    const activation = await followApiLink(linkIn(mail, '/api/activate.php'));
    expect(activation.statusCode).toBe(302);
    expect(activation.headers.location).toBe('/activate/done');
    expect((await me(cookie)).status).toBe('active');
    const [profile] = await t.database.db.select().from(profiles).where(eq(profiles.userId, user.id));
    expect(profile?.status).toBe('active');

    const again = await followApiLink(linkIn(mail, '/api/activate.php'));
    expect(again.headers.location).toBe('/activate/error');

    const logout = await inject({ method: 'POST', url: '/api/logout.php', headers: { cookie } });
    expect(logout.json()).toEqual({ ok: true });
    expect(await me(cookie)).toBeNull();

    const login = await inject({
      method: 'POST',
      url: '/api/user.php',
      remoteAddress: nextIp(),
      payload: { email: email.toUpperCase(), password: goodPassword },
    });
    expect(login.statusCode).toBe(200);
    const newCookie = sessionCookie(login);
    expect(newCookie).not.toBe(cookie);
    expect((await me(newCookie)).email).toBe(email);
  });

  it('rotates the session id on login', async () => {
    const { cookie, email } = await signupMember(t.app);
    const login = await inject({
      method: 'POST',
      url: '/api/user.php',
      remoteAddress: nextIp(),
      headers: { cookie },
      payload: { email, password: goodPassword },
    });
    expect(sessionCookie(login)).not.toBe(cookie);
    expect(await me(cookie)).toBeNull();
  });

  it('answers a wrong password with login_failed in the visitor language', async () => {
    const { email } = await signupMember(t.app);
    for (const [locale, message] of [
      ['en', 'Login failed, please try again'],
      ['nl', t.app.deps.translator.t('nl', 'errors:login_failed')],
    ] as const) {
      const response = await inject({
        method: 'POST',
        url: '/api/user.php',
        remoteAddress: nextIp(),
        headers: { cookie: `locale=${locale}` },
        payload: { email, password: 'wrong-password-1' },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'login_failed', message });
    }
    expect(t.app.deps.translator.t('nl', 'errors:login_failed')).not.toBe('Login failed, please try again');
  });

  it('locks an account for 15 minutes after 5 wrong passwords, doubling the next time', async () => {
    const { email } = await signupMember(t.app);
    const attempt = (password: string) =>
      inject({ method: 'POST', url: '/api/user.php', remoteAddress: nextIp(), payload: { email, password } });
    for (let i = 0; i < 4; i++) expect((await attempt('wrong-password-1')).statusCode).toBe(401);
    const fifth = await attempt('wrong-password-1');
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json()).toEqual({
      error: 'account_locked',
      minutes: 15,
      message: 'Too many incorrect attempts, account blocked for 15 min',
    });
    const whileLocked = await inject({
      method: 'POST',
      url: '/api/user.php',
      remoteAddress: nextIp(),
      headers: { cookie: 'locale=de' },
      payload: { email, password: goodPassword },
    });
    expect(whileLocked.statusCode).toBe(429);
    expect(whileLocked.json().message).toBe(
      t.app.deps.translator.t('de', 'errors:account_locked', { minutes: 15 }),
    );
    expect(whileLocked.json().message).toContain('15');

    clock.advanceMinutes(16);
    for (let i = 0; i < 5; i++) await attempt('wrong-password-1');
    const second = await attempt(goodPassword);
    expect(second.json()).toMatchObject({ error: 'account_locked', minutes: 30 });
    clock.advanceMinutes(31);
    expect((await attempt(goodPassword)).statusCode).toBe(200);
  });

  it('resets a password with a single-use link that expires after an hour', async () => {
    const { email, cookie: otherDevice } = await signupMember(t.app);
    const unknown = await inject({
      method: 'POST',
      url: '/api/password-reset.php',
      remoteAddress: nextIp(),
      headers: { cookie: 'locale=de' },
      payload: { email: uniqueEmail('nobody') },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      error: 'email_not_found',
      message: t.app.deps.translator.t('de', 'errors:email_not_found'),
    });
    expect(unknown.json().message).not.toBe('E-mail address not found');

    const request = await inject({
      method: 'POST',
      url: '/api/password-reset.php',
      remoteAddress: nextIp(),
      payload: { email },
    });
    expect(request.json()).toEqual({ ok: true });
    await deliver();
    const mail = smtp.mails.filter((m) => m.to === email && m.text.includes('/reset-password/do')).at(-1)!;
    const token = new URL(linkIn(mail, '/reset-password/do')).searchParams.get('token')!;

    const mismatch = await inject({
      method: 'PUT',
      url: '/api/password-reset.php',
      remoteAddress: nextIp(),
      payload: { token, password: 'new-Secret-passw0rd', password_confirmation: 'other-Secret-passw0rd' },
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json()).toMatchObject({
      error: 'validation_failed',
      fields: { password_confirmation: 'passwords_mismatch' },
      message: 'The new passwords do not match.',
    });

    const reset = await inject({
      method: 'PUT',
      url: '/api/password-reset.php',
      remoteAddress: nextIp(),
      payload: { token, password: 'new-Secret-passw0rd', password_confirmation: 'new-Secret-passw0rd' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await me(sessionCookie(reset))).email).toBe(email);
    expect(await me(otherDevice)).toBeNull();

    const reused = await inject({
      method: 'PUT',
      url: '/api/password-reset.php',
      remoteAddress: nextIp(),
      payload: { token, password: 'another-Secret-1', password_confirmation: 'another-Secret-1' },
    });
    expect(reused.statusCode).toBe(410);
    expect(reused.json()).toEqual({ error: 'link_invalid', message: 'Link expired or invalid' });

    const oldPassword = await inject({
      method: 'POST',
      url: '/api/user.php',
      remoteAddress: nextIp(),
      payload: { email, password: goodPassword },
    });
    expect(oldPassword.statusCode).toBe(401);

    await inject({
      method: 'POST',
      url: '/api/password-reset.php',
      remoteAddress: nextIp(),
      payload: { email },
    });
    await deliver();
    const lateMail = smtp.mails
      .filter((m) => m.to === email && m.text.includes('/reset-password/do'))
      .at(-1)!;
    expect(lateMail).not.toBe(mail);
    const late = new URL(linkIn(lateMail, '/reset-password/do')).searchParams.get('token')!;
    clock.advanceMinutes(61);
    const expired = await inject({
      method: 'PUT',
      url: '/api/password-reset.php',
      remoteAddress: nextIp(),
      payload: {
        token: late,
        password: 'late-Secret-passw0rd',
        password_confirmation: 'late-Secret-passw0rd',
      },
    });
    expect(expired.statusCode).toBe(410);
  });

  it('sends at most 3 reset mails a day per account', async () => {
    const { email } = await signupMember(t.app);
    const ask = () =>
      inject({
        method: 'POST',
        url: '/api/password-reset.php',
        remoteAddress: nextIp(),
        headers: { cookie: 'locale=fr' },
        payload: { email },
      });
    for (let i = 0; i < 3; i++) expect((await ask()).statusCode).toBe(200);
    const fourth = await ask();
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual({
      error: 'reset_limit',
      message: t.app.deps.translator.t('fr', 'errors:reset_limit'),
    });
    clock.advanceDays(1);
    expect((await ask()).statusCode).toBe(200);
  });

  it('changes the password only with the old one', async () => {
    const { cookie } = await signupMember(t.app);
    const wrong = await inject({
      method: 'PUT',
      url: '/api/password.php',
      headers: { cookie },
      payload: {
        old_password: 'not-my-password',
        password: 'Fresh-passw0rd-9',
        password_confirmation: 'Fresh-passw0rd-9',
      },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({
      fields: { old_password: 'old_password_wrong' },
      message: 'Check your old password',
    });
    const right = await inject({
      method: 'PUT',
      url: '/api/password.php',
      headers: { cookie },
      payload: {
        old_password: goodPassword,
        password: 'Fresh-passw0rd-9',
        password_confirmation: 'Fresh-passw0rd-9',
      },
    });
    expect(right.json()).toEqual({ ok: true });
    expect(await me(cookie)).not.toBeNull();
  });

  it('changes the e-mail address after the new mailbox confirms it, and tells the old one', async () => {
    const { cookie, email } = await signupMember(t.app);
    const { email: taken } = await signupMember(t.app);
    const inUse = await inject({
      method: 'POST',
      url: '/api/mail-change.php',
      headers: { cookie },
      payload: { email: taken, password: goodPassword },
    });
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json()).toEqual({
      error: 'email_exists',
      message: 'An account with this e-mail already exists',
    });
    const invalid = await inject({
      method: 'POST',
      url: '/api/mail-change.php',
      headers: { cookie, 'accept-language': 'sv' },
      payload: { email: 'not-an-address', password: goodPassword },
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json()).toMatchObject({
      fields: { email: 'invalid_email' },
      message: t.app.deps.translator.t('sv', 'errors:field.invalid_email'),
    });

    const fresh = uniqueEmail('new');
    expect(
      (
        await inject({
          method: 'POST',
          url: '/api/mail-change.php',
          headers: { cookie },
          payload: { email: fresh, password: goodPassword },
        })
      ).statusCode,
    ).toBe(200);
    await deliver();
    const notice = smtp.waitFor((m) => m.to === email && m.text.includes(fresh));
    expect(notice.subject).toContain('Amora');
    const token = new URL(
      linkIn(
        smtp.waitFor((m) => m.to === fresh),
        '/mail-change/do',
      ),
    ).searchParams.get('token')!;
    expect((await inject({ method: 'PUT', url: '/api/mail-change.php', payload: { token } })).json()).toEqual(
      { ok: true },
    );
    expect((await me(cookie)).email).toBe(fresh);
    expect(
      (await inject({ method: 'PUT', url: '/api/mail-change.php', payload: { token } })).statusCode,
    ).toBe(410);
  });

  it('deletes an account after 14 days, with a reactivation link that works until then', async () => {
    const { cookie, email, userId } = await signupMember(t.app);
    const wrong = await inject({
      method: 'DELETE',
      url: '/api/user.php',
      headers: { cookie },
      payload: { password: 'nope-nope-nope' },
    });
    expect(wrong.statusCode).toBe(422);
    const deleted = await inject({
      method: 'DELETE',
      url: '/api/user.php',
      headers: { cookie },
      payload: { password: goodPassword },
    });
    expect(deleted.json().user.status).toBe('pending_deletion');
    expect(await me(cookie)).toBeNull();

    const login = await inject({
      method: 'POST',
      url: '/api/user.php',
      remoteAddress: nextIp(),
      payload: { email, password: goodPassword },
    });
    expect(login.statusCode).toBe(403);
    expect(login.json().error).toBe('pending_deletion');
    const signupAgain = await inject({
      method: 'POST',
      url: '/api/signup.php',
      remoteAddress: nextIp(),
      payload: { email, name: 'Again', password: goodPassword, date_of_birth: '1990-01-01' },
    });
    expect(signupAgain.statusCode).toBe(409);
    expect(signupAgain.json().error).toBe('pending_deletion');

    await deliver();
    const link = linkIn(
      smtp.waitFor((m) => m.to === email && m.text.includes('/api/reactivate.php')),
      '/api/reactivate.php',
    );
    clock.advanceDays(13);
    const reactivated = await followApiLink(link);
    expect(reactivated.statusCode).toBe(302);
    expect(reactivated.headers.location).toBe('/members?reactivated=1');
    expect((await me(sessionCookie(reactivated))).status).toBe('not_confirmed');

    const again = await inject({
      method: 'DELETE',
      url: '/api/user.php',
      headers: { cookie: sessionCookie(reactivated) },
      payload: { password: goodPassword },
    });
    expect(again.statusCode).toBe(200);
    await deliver();
    const secondLink = linkIn(
      smtp.mails.filter((m) => m.to === email && m.text.includes('/api/reactivate.php')).at(-1)!,
      '/api/reactivate.php',
    );
    clock.advanceDays(15);
    expect(await t.app.deps.accounts.eraseExpiredDeletions()).toBeGreaterThanOrEqual(1);
    expect((await followApiLink(secondLink)).headers.location).toBe('/activate/error?reason=reactivation');
    const [row] = await t.database.db.select().from(users).where(eq(users.id, userId));
    expect(row).toMatchObject({ status: 'deleted', email: null, passwordHash: null });
    expect(await t.database.db.select().from(profiles).where(eq(profiles.userId, userId))).toEqual([]);
    expect(
      (
        await inject({
          method: 'POST',
          url: '/api/user.php',
          remoteAddress: nextIp(),
          payload: { email, password: goodPassword },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('lets a member keep an account pending deletion by logging in', async () => {
    const { cookie, email } = await signupMember(t.app);
    await inject({
      method: 'DELETE',
      url: '/api/user.php',
      headers: { cookie },
      payload: { password: goodPassword },
    });
    const kept = await inject({
      method: 'POST',
      url: '/api/reactivate.php',
      remoteAddress: nextIp(),
      payload: { email, password: goodPassword },
    });
    expect(kept.statusCode).toBe(200);
    expect(kept.json().user.status).toBe('not_confirmed');
  });

  it('sets the language and mails in it', async () => {
    const { cookie } = await signupMember(t.app);
    const response = await inject({
      method: 'PUT',
      url: '/api/user.php',
      headers: { cookie },
      payload: { language: 'fi' },
    });
    expect(response.json().user.language).toBe('fi');
    const bad = await inject({
      method: 'PUT',
      url: '/api/user.php',
      headers: { cookie },
      payload: { language: 'xx' },
    });
    expect(bad.statusCode).toBe(422);
    const anonymous = await inject({ method: 'PUT', url: '/api/user.php', payload: { language: 'fi' } });
    expect(anonymous.statusCode).toBe(403);
    expect(anonymous.json().error).toBe('authentication_required');
  });
});

describe('signup rules', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const signup = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/signup.php',
      remoteAddress: nextIp(),
      headers,
      payload: {
        email: uniqueEmail(),
        name: 'Robin',
        password: goodPassword,
        date_of_birth: '1990-05-17',
        ...payload,
      },
    });

  it('refuses a username equal to the e-mail address or starting with @', async () => {
    const email = `r${Date.now() % 100000}@x.io`;
    const same = await signup({ email, name: email.toUpperCase() });
    expect(same.statusCode).toBe(422);
    expect(same.json()).toMatchObject({
      fields: { name: 'name_is_email' },
      message: 'Your username may not be your e-mail address.',
    });
    const at = await signup({ name: '@robin' }, { cookie: 'locale=it' });
    expect(at.json()).toMatchObject({
      fields: { name: 'name_starts_with_at' },
      message: t.app.deps.translator.t('it', 'errors:field.name_starts_with_at'),
    });
  });

  it('requires the minimum age and a real date', async () => {
    const now = new Date();
    const seventeen = `${now.getUTCFullYear() - 17}-01-01`;
    const young = await signup({ date_of_birth: seventeen });
    expect(young.statusCode).toBe(422);
    expect(young.json()).toEqual({
      error: 'validation_failed',
      fields: { date_of_birth: 'min_age' },
      min_age: 18,
      message: 'Enter your date of birth (18+)',
    });
    const dutch = await signup({ date_of_birth: seventeen }, { cookie: 'locale=nl' });
    expect(dutch.json().message).toBe(t.app.deps.translator.t('nl', 'errors:min_age', { min_age: 18 }));
    expect(dutch.json().message).toContain('18+');
    const impossible = await signup({ date_of_birth: '1990-02-30' });
    expect(impossible.json()).toMatchObject({ fields: { date_of_birth: 'invalid_date' } });
  });

  it('refuses common and too short passwords', async () => {
    expect((await signup({ password: 'password123' })).json()).toMatchObject({
      fields: { password: 'common_password' },
    });
    expect((await signup({ password: 'short' })).json()).toMatchObject({ fields: { password: 'too_short' } });
  });

  it('refuses an address that has an account, in the member language', async () => {
    const email = uniqueEmail();
    expect((await signup({ email })).statusCode).toBe(201);
    const again = await signup({ email: email.toUpperCase() }, { 'accept-language': 'es' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: 'email_exists',
      message: t.app.deps.translator.t('es', 'errors:email_exists'),
    });
  });

  it('opens signups to traffic-source visitors only when the site says so, and keeps the source', async () => {
    const site = await t.app.deps.sites.resolve('localhost');
    await t.app.deps.sites.update(site.id, { signups: 'with_trafficsource' });
    try {
      const closed = await signup({});
      expect(closed.statusCode).toBe(403);
      expect(closed.json().error).toBe('signups_closed');
      const open = await signup({
        tracking: { network: 'adnet', ref: 'r1', sub1: 'a', sub2: '', sub3: 'c' },
      });
      expect(open.statusCode).toBe(201);
      expect(open.json().user.trafficsource).toEqual({ network: 'adnet', ref: 'r1', sub1: 'a', sub3: 'c' });
      const viaCookie = await signup(
        {},
        { cookie: `tracking=${encodeURIComponent(JSON.stringify({ network: 'cookie-net' }))}` },
      );
      expect(viaCookie.json().user.trafficsource).toEqual({ network: 'cookie-net' });
    } finally {
      await t.app.deps.sites.update(site.id, { signups: 'all' });
    }
  });

  it('answers each rule in the member language', async () => {
    const { cookie } = await signupMember(t.app);
    const cases: { response: Promise<{ json(): { message: string; error: string } }>; key: string }[] = [
      {
        response: signup({ password: 'password123' }, { cookie: 'locale=pl' }),
        key: 'errors:field.common_password',
      },
      {
        response: t.app.inject({
          method: 'PUT',
          url: '/api/password.php',
          headers: { cookie: `${cookie}; locale=pl` },
          payload: {
            old_password: 'not-mine-at-all',
            password: 'Fresh-passw0rd-9',
            password_confirmation: 'Fresh-passw0rd-9',
          },
        }),
        key: 'errors:field.old_password_wrong',
      },
      {
        response: t.app.inject({
          method: 'PUT',
          url: '/api/password.php',
          headers: { cookie: `${cookie}; locale=pl` },
          payload: {
            old_password: goodPassword,
            password: 'Fresh-passw0rd-9',
            password_confirmation: 'Other-passw0rd-9',
          },
        }),
        key: 'errors:field.passwords_mismatch',
      },
      {
        response: t.app.inject({
          method: 'PUT',
          url: '/api/password-reset.php',
          remoteAddress: nextIp(),
          headers: { cookie: 'locale=pl' },
          payload: {
            token: 'no-such-token-at-all',
            password: 'Fresh-passw0rd-9',
            password_confirmation: 'Fresh-passw0rd-9',
          },
        }),
        key: 'errors:link_invalid',
      },
    ];
    for (const { response, key } of cases) {
      const body = (await response).json();
      expect(body.message, key).toBe(t.app.deps.translator.t('pl', key));
      expect(body.message, key).not.toBe(t.app.deps.translator.t('en', key));
    }
  });

  it('limits signups per address', async () => {
    const ip = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/signup.php',
        remoteAddress: ip,
        payload: { email: uniqueEmail(), name: 'Robin', password: 'short', date_of_birth: '1990-05-17' },
      });
      statuses.push(response.statusCode);
      if (response.statusCode === 429) {
        expect(response.json().error).toBe('rate_limited');
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses.slice(0, 10).every((status) => status === 422)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
