import type { AddressInfo } from 'node:net';
import { and, desc, eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mailJobs } from '#server/db/schema/mail.ts';
import { users } from '#server/db/schema/members.ts';
import { emailBans, webauthnChallenges } from '#server/db/schema/security.ts';
import { siteOrigin } from '#server/modules/sites/site-origin.ts';
import {
  activeMember,
  goodPassword,
  nextIp,
  sessionCookie,
  signupMember,
  uniqueEmail,
} from '../../../tests/setup/members.ts';
import { SoftAuthenticator } from '../../../tests/setup/soft-authenticator.ts';
import { signedInStaff, staffCookie, staffPassword } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { normalizeEmail } from './email-bans.ts';

describe('passkeys, signed-in devices and address bans', () => {
  let t: TestApp;
  let origin: string;

  beforeAll(async () => {
    t = await createTestApp();
    const site = await t.app.deps.sites.resolve('localhost');
    origin = siteOrigin(site, t.app.deps.config);
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (options: InjectOptions) => t.app.inject({ remoteAddress: nextIp(), ...options });
  const me = async (cookie: string) =>
    (await inject({ url: '/api/user.php', headers: { cookie } })).json().user as { id: number } | null;
  const cookiesOf = (response: LightMyRequestResponse) => {
    const header = response.headers['set-cookie'];
    return (Array.isArray(header) ? header : header ? [header] : []).map((c) => c.split(';')[0]!);
  };

  async function registerPasskey(
    cookie: string,
    authenticator = new SoftAuthenticator(),
    url = '/api/passkeys.php',
  ) {
    const options = await inject({
      method: 'POST',
      url: `${url}?step=options`,
      headers: { cookie },
      payload: {},
    });
    expect(options.statusCode, options.body).toBe(201);
    const credential = authenticator.create(options.json().options, origin);
    const registered = await inject({
      method: 'POST',
      url,
      headers: { cookie },
      payload: { name: 'Laptop', credential },
    });
    return { authenticator, registered };
  }

  async function passkeyLogin(authenticator: SoftAuthenticator, at = origin, extra: InjectOptions = {}) {
    const options = await inject({ method: 'POST', url: '/api/passkey-login.php?step=options' });
    expect(options.statusCode).toBe(200);
    const credential = authenticator.get(options.json().options, at);
    return {
      credential,
      response: await inject({
        method: 'POST',
        url: '/api/passkey-login.php',
        payload: { credential },
        ...extra,
      }),
    };
  }

  it('registers a passkey from a real attestation, lists it and signs in with it as a password does', async () => {
    const member = await activeMember(t.app);
    const { authenticator, registered } = await registerPasskey(member.cookie);
    expect(registered.statusCode).toBe(201);
    expect(registered.json().passkey).toMatchObject({ name: 'Laptop', last_used_at: null });

    const list = await inject({ url: '/api/passkeys.php', headers: { cookie: member.cookie } });
    expect(list.json().passkeys).toHaveLength(1);

    const { response } = await passkeyLogin(authenticator);
    expect(response.statusCode).toBe(200);
    expect(response.json().user.id).toBe(member.userId);
    const cookie = sessionCookie(response);
    expect(response.headers['set-cookie']?.toString()).toMatch(/sid=[^;]+;.*HttpOnly/i);
    expect((await me(cookie))?.id).toBe(member.userId);

    // The same credential again is refused; another account cannot take it either.
    const again = authenticator.create(
      (
        await inject({
          method: 'POST',
          url: '/api/passkeys.php?step=options',
          headers: { cookie: member.cookie },
        })
      ).json().options,
      origin,
    );
    const twice = await inject({
      method: 'POST',
      url: '/api/passkeys.php',
      headers: { cookie: member.cookie },
      payload: { credential: again },
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe('passkey_exists');

    // Removed, it signs in no more.
    const id = list.json().passkeys[0].id;
    const other = await activeMember(t.app);
    expect(
      (
        await inject({
          method: 'DELETE',
          url: '/api/passkeys.php',
          headers: { cookie: other.cookie },
          payload: { id },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await inject({
          method: 'DELETE',
          url: '/api/passkeys.php',
          headers: { cookie: member.cookie },
          payload: { id },
        })
      ).json(),
    ).toEqual({ ok: true });
    expect((await passkeyLogin(authenticator)).response.statusCode).toBe(401);
  });

  it('uses a challenge once, also when two answers carry it at the same moment', async () => {
    const member = await activeMember(t.app);
    const { authenticator } = await registerPasskey(member.cookie);
    const { credential, response } = await passkeyLogin(authenticator);
    expect(response.statusCode).toBe(200);
    const replay = await inject({ method: 'POST', url: '/api/passkey-login.php', payload: { credential } });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error).toBe('passkey_failed');

    const options = (await inject({ method: 'POST', url: '/api/passkey-login.php?step=options' })).json()
      .options;
    const answer = authenticator.get(options, origin);
    const both = await Promise.all(
      [0, 1, 2].map(() =>
        inject({ method: 'POST', url: '/api/passkey-login.php', payload: { credential: answer } }),
      ),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 401, 401]);
    const left = await t.database.db
      .select()
      .from(webauthnChallenges)
      .where(eq(webauthnChallenges.challenge, options.challenge));
    expect(left).toEqual([]);
  });

  it('never takes an expired challenge, and the sweep forgets it', async () => {
    const member = await activeMember(t.app);
    const { authenticator } = await registerPasskey(member.cookie);
    const options = (await inject({ method: 'POST', url: '/api/passkey-login.php?step=options' })).json()
      .options;
    await t.database.db
      .update(webauthnChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(webauthnChallenges.challenge, options.challenge));
    const late = authenticator.get(options, origin);
    expect(
      (await inject({ method: 'POST', url: '/api/passkey-login.php', payload: { credential: late } }))
        .statusCode,
    ).toBe(401);
    expect(await t.app.deps.security.pruneChallenges()).toBeGreaterThanOrEqual(1);
    const left = await t.database.db
      .select()
      .from(webauthnChallenges)
      .where(eq(webauthnChallenges.challenge, options.challenge));
    expect(left).toEqual([]);
  });

  it('refuses an answer for another origin, a wrong signature and a counter that went back', async () => {
    const member = await activeMember(t.app);
    const { authenticator } = await registerPasskey(member.cookie);
    expect((await passkeyLogin(authenticator, 'https://evil.example')).response.statusCode).toBe(401);

    const options = (await inject({ method: 'POST', url: '/api/passkey-login.php?step=options' })).json()
      .options;
    const forged = authenticator.get(options, origin, SoftAuthenticator.otherKey());
    expect(
      (await inject({ method: 'POST', url: '/api/passkey-login.php', payload: { credential: forged } }))
        .statusCode,
    ).toBe(401);

    expect((await passkeyLogin(authenticator)).response.statusCode).toBe(200);
    authenticator.counter -= 2; // a cloned authenticator: its next count is one already seen
    expect((await passkeyLogin(authenticator)).response.statusCode).toBe(401);
  });

  it('lists the signed-in devices and ends one or all others; the device is signed out at once', async () => {
    const member = await activeMember(t.app);
    const firefox = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:132.0) Gecko/20100101 Firefox/132.0';
    const login = await inject({
      method: 'POST',
      url: '/api/user.php',
      headers: { 'user-agent': firefox },
      payload: { email: member.email, password: goodPassword },
    });
    const phone = sessionCookie(login);
    const listed = await inject({ url: '/api/sessions.php', headers: { cookie: member.cookie } });
    const sessions = listed.json().sessions;
    expect(sessions).toHaveLength(2);
    const other = sessions.find((s: { current: boolean }) => !s.current);
    expect(other.device).toEqual({ browser: 'Firefox', os: 'macOS' });
    expect(sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);

    const stranger = await activeMember(t.app);
    expect(
      (
        await inject({
          method: 'DELETE',
          url: '/api/sessions.php',
          headers: { cookie: stranger.cookie },
          payload: { id: other.id },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await inject({
          method: 'DELETE',
          url: '/api/sessions.php',
          headers: { cookie: member.cookie },
          payload: { id: other.id },
        })
      ).json(),
    ).toEqual({ ok: true });
    expect(await me(phone)).toBeNull();
    expect((await me(member.cookie))?.id).toBe(member.userId);

    const third = sessionCookie(
      await inject({
        method: 'POST',
        url: '/api/user.php',
        payload: { email: member.email, password: goodPassword },
      }),
    );
    await inject({
      method: 'DELETE',
      url: '/api/sessions.php',
      headers: { cookie: member.cookie },
      payload: { others: true },
    });
    expect(await me(third)).toBeNull();
    expect((await me(member.cookie))?.id).toBe(member.userId);
  });

  it('mails a sign-in from a new device in the member’s language, with a link that ends that session', async () => {
    const member = await signupMember(t.app, {}, { 'accept-language': 'de-DE' });
    const device = cookiesOf(member.response).find((c) => c.startsWith('did='))!;
    const mailsOfMember = () =>
      t.database.db
        .select()
        .from(mailJobs)
        .where(and(eq(mailJobs.to, member.email), eq(mailJobs.kind, 'newDevice')))
        .orderBy(desc(mailJobs.id));
    const sameDevice = await inject({
      method: 'POST',
      url: '/api/user.php',
      headers: { cookie: device },
      payload: { email: member.email, password: goodPassword },
    });
    expect(sameDevice.statusCode).toBe(200);
    expect(await mailsOfMember()).toEqual([]);

    const login = await inject({
      method: 'POST',
      url: '/api/user.php',
      headers: {
        'user-agent':
          'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
        'accept-language': 'en',
      },
      payload: { email: member.email, password: goodPassword },
    });
    const newDevice = sessionCookie(login);
    const [mail] = await mailsOfMember();
    expect(mail?.subject).toBe(t.app.deps.translator.t('de', 'mail:newDevice.subject', { site: 'Amora' }));
    expect(mail?.html).toContain('<html lang="de">');
    expect(mail?.text).toContain('Chrome · Android');
    const link = /https?:\/\/\S+\/api\/end-session\.php\?token=[\w-]+/.exec(mail!.text)?.[0];
    expect(link).toBeDefined();
    const url = new URL(link!);
    const ended = await inject({ url: url.pathname + url.search });
    expect(ended.headers.location).toBe('/login?session_ended=1');
    expect(await me(newDevice)).toBeNull();
    expect((await me(member.cookie))?.id).toBe(member.userId);
    expect((await inject({ url: url.pathname + url.search })).headers.location).toBe(
      '/login?session_ended=0',
    );
  });

  it('normalises addresses for bans: case, spaces, and Gmail’s dots and plus', () => {
    expect(normalizeEmail('  Jane.Doe+dating@GoogleMail.com ')).toBe('janedoe@gmail.com');
    expect(normalizeEmail('J.Doe+x@example.org')).toBe('j.doe+x@example.org');
  });

  it('keeps a banned address from signing up again, also after erasure, until the ban is lifted', async () => {
    const moderator = await signedInStaff(t.app, 'moderator');
    const local = `ban.${Date.now().toString(36)}`;
    const member = await activeMember(t.app, { email: `${local}@gmail.com` });
    const ban = await inject({
      method: 'PUT',
      url: '/api/admin/member.php',
      headers: { cookie: moderator.cookie },
      payload: { id: member.profileId, status: 'banned', reason: 'scam' },
    });
    expect(ban.statusCode).toBe(200);
    const [stored] = await t.database.db.select().from(emailBans).where(eq(emailBans.userId, member.userId));
    expect(stored?.hash).not.toContain(local);

    const signUp = (email: string, headers: Record<string, string> = {}) =>
      inject({
        method: 'POST',
        url: '/api/signup.php',
        headers,
        payload: { email, name: 'Robin', password: goodPassword, date_of_birth: '1990-05-17' },
      });
    const variant = `${local.replace('.', '.')}+again@googlemail.com`.replace('ban.', 'b.an.');
    const refused = await signUp(variant, { 'accept-language': 'fr' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      error: 'address_refused',
      message: t.app.deps.translator.t('fr', 'errors:address_refused'),
    });

    // Parallel sign-ups with the address: every one refused, none creates an account.
    const parallel = await Promise.all([0, 1, 2, 3].map((n) => signUp(`${local}+${n}@gmail.com`)));
    expect(parallel.map((r) => r.statusCode)).toEqual([422, 422, 422, 422]);

    // Another member cannot change their address to it either.
    const other = await activeMember(t.app);
    const change = await inject({
      method: 'POST',
      url: '/api/mail-change.php',
      headers: { cookie: other.cookie },
      payload: { email: `${local}@gmail.com`, password: goodPassword },
    });
    expect(change.json().error).toBe('address_refused');

    // Erased: the address is gone from the account, the ban is not.
    await t.database.db
      .update(users)
      .set({ email: null, status: 'deleted' })
      .where(eq(users.id, member.userId));
    expect((await signUp(`${local}@gmail.com`)).statusCode).toBe(422);

    // Lifted (the unban of the member page), the address may sign up again.
    await t.database.db.update(users).set({ status: 'banned' }).where(eq(users.id, member.userId));
    const unban = await inject({
      method: 'PUT',
      url: '/api/admin/member.php',
      headers: { cookie: moderator.cookie },
      payload: { id: member.profileId, status: 'active', reason: 'appeal upheld' },
    });
    expect(unban.statusCode).toBe(200);
    expect((await signUp(uniqueEmail()).then(() => signUp(`${local}@gmail.com`))).statusCode).toBe(201);
  });

  it('signs staff in with password and passkey in place of the TOTP code; a wrong passkey counts as a failure', async () => {
    const admin = await signedInStaff(t.app, 'admin');
    const { authenticator, registered } = await registerPasskey(
      admin.cookie,
      new SoftAuthenticator(),
      '/api/admin/passkeys.php',
    );
    expect(registered.statusCode).toBe(201);
    const list = await inject({ url: '/api/admin/passkeys.php', headers: { cookie: admin.cookie } });
    expect(list.json().passkeys).toHaveLength(1);

    const signIn = async (password: string, signWith?: ReturnType<typeof SoftAuthenticator.otherKey>) => {
      const options = await inject({ method: 'POST', url: '/api/admin/passkey-login.php?step=options' });
      expect(options.statusCode).toBe(200);
      const credential = authenticator.get(options.json().options, origin, signWith);
      return inject({
        method: 'POST',
        url: '/api/admin/passkey-login.php',
        payload: { email: admin.email, password, credential },
      });
    };
    const ok = await signIn(staffPassword);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().staff.id).toBe(admin.id);
    const cookie = staffCookie(ok);
    expect((await inject({ url: '/api/admin/session.php', headers: { cookie } })).json().staff.id).toBe(
      admin.id,
    );

    const wrongKey = await signIn(staffPassword, SoftAuthenticator.otherKey());
    expect(wrongKey.statusCode).toBe(401);
    expect(wrongKey.json().error).toBe('passkey_failed');
    const wrongPassword = await signIn('not-the-password');
    expect(wrongPassword.json().error).toBe('login_failed');
    // A member's passkey is no staff passkey.
    const member = await activeMember(t.app);
    const memberKey = (await registerPasskey(member.cookie)).authenticator;
    const options = await inject({ method: 'POST', url: '/api/admin/passkey-login.php?step=options' });
    const credential = memberKey.get(options.json().options, origin);
    const crossed = await inject({
      method: 'POST',
      url: '/api/admin/passkey-login.php',
      payload: { email: admin.email, password: staffPassword, credential },
    });
    expect(crossed.statusCode).toBe(401);
  });
});

if (process.env.DATABASE_URL && process.env.REDIS_URL) {
  describe('signed-in devices on two instances sharing PostgreSQL and Redis', () => {
    it('ends a session on one instance and the other refuses it at once, its cache notwithstanding', async () => {
      const first = await createTestApp({ SESSION_CACHE_MS: '60000' });
      const { buildApp } = await import('#server/app.ts');
      const { connectPostgres } = await import('#server/db/client.ts');
      const second = await buildApp(first.config, {
        database: await connectPostgres(first.databaseUrl!, 3),
        web: false,
        redisPrefix: first.redisPrefix,
      });
      try {
        await second.listen({ port: 0, host: '127.0.0.1' });
        expect((second.server.address() as AddressInfo).port).toBeGreaterThan(0);
        const member = await activeMember(first.app);
        const login = await second.inject({
          method: 'POST',
          url: '/api/user.php',
          remoteAddress: nextIp(),
          payload: { email: member.email, password: goodPassword },
        });
        const phone = sessionCookie(login);
        const onSecond = async () =>
          (await second.inject({ url: '/api/user.php', headers: { cookie: phone } })).json().user?.id ?? null;
        expect(await onSecond()).toBe(member.userId); // now cached on the second instance
        const sessions = (
          await first.app.inject({ url: '/api/sessions.php', headers: { cookie: member.cookie } })
        ).json().sessions;
        const other = sessions.find((s: { current: boolean }) => !s.current);
        const ended = await first.app.inject({
          method: 'DELETE',
          url: '/api/sessions.php',
          headers: { cookie: member.cookie },
          payload: { id: other.id },
        });
        expect(ended.json()).toEqual({ ok: true });
        await vi.waitFor(async () => expect(await onSecond()).toBeNull(), { timeout: 2_000, interval: 10 });
      } finally {
        await second.close();
        await first.close();
      }
    });
  });
}
