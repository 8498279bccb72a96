import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loginThrottles } from '#server/db/schema/accounts.ts';
import { staff, staffLoginThrottles } from '#server/db/schema/staff.ts';
import { activeMember, nextIp, uniqueEmail } from '../../../tests/setup/members.ts';
import { signedInStaff, staffCookie, staffPassword, totpCode } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { ensureStaffAtStart } from './staff.bootstrap.ts';
import { adminRoutes, passkeySignInPath, signInPath } from './staff.sessions.ts';

/** Every password check the sign-in makes (argon2 verify, or the equal-time hash for no account). */
const verifications = vi.hoisted(() => ({ count: 0 }));
vi.mock('../accounts/passwords.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../accounts/passwords.ts')>();
  return {
    ...original,
    verifyPassword: (passwordHash: string | null, password: string) => {
      verifications.count++;
      return original.verifyPassword(passwordHash, password);
    },
  };
});

const envAdmin = { ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'granite-Orchid-5521' };

describe('staff accounts and sign-in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(envAdmin);
  });
  afterAll(() => t.close());

  const signIn = (payload: Record<string, unknown>, ip = nextIp()) =>
    t.app.inject({ method: 'POST', url: signInPath, remoteAddress: ip, payload });

  it('creates the admin of ADMIN_EMAIL once, and leaves an existing one as it is', async () => {
    expect(t.app.deps.staffStart).toEqual({ adminCreated: true, demoAdmin: null });
    const again = await ensureStaffAtStart(
      { ...t.config, ADMIN_PASSWORD: 'another-Password-9876' },
      t.app.deps.staff,
    );
    expect(again.adminCreated).toBe(false);
    const rows = await t.database.db
      .select()
      .from(staff)
      .where(sql`lower(${staff.email}) = ${envAdmin.ADMIN_EMAIL}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.role).toBe('admin');
    expect(
      (await signIn({ email: envAdmin.ADMIN_EMAIL, password: 'another-Password-9876' })).statusCode,
    ).toBe(401);
    const login = await signIn({ email: envAdmin.ADMIN_EMAIL, password: envAdmin.ADMIN_PASSWORD });
    expect(login.statusCode).toBe(200);
    expect(login.json().staff).toMatchObject({ role: 'admin', totp_enabled: false });
    // An admin who has not enrolled can only enrol.
    const cookie = staffCookie(login);
    const inbox = await t.app.inject({ url: '/api/admin/inbox.php', headers: { cookie } });
    expect(inbox.statusCode).toBe(403);
    expect(inbox.json().error).toBe('otp_enrolment_required');
    expect((await t.app.inject({ url: '/api/admin/session.php', headers: { cookie } })).statusCode).toBe(200);
  });

  it('sets a 12-hour HttpOnly cookie for /admin (and its navigation data) and /api/admin only', async () => {
    const login = await signIn({ email: envAdmin.ADMIN_EMAIL, password: envAdmin.ADMIN_PASSWORD });
    const cookies = [login.headers['set-cookie']].flat().map(String);
    expect(cookies).toHaveLength(3);
    expect(cookies.map((cookie) => /Path=([^;]+)/.exec(cookie)?.[1]).sort()).toEqual([
      '/admin',
      '/admin.data',
      '/api/admin',
    ]);
    for (const cookie of cookies) {
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Strict/);
      expect(cookie).toMatch(/Max-Age=43200/);
    }
  });

  it('enrols in TOTP with a QR code, then asks for a valid, unused code at every sign-in', async () => {
    const admin = await signedInStaff(t.app, 'admin', { enrol: false });
    const setup = await t.app.inject({
      method: 'POST',
      url: '/api/admin/totp.php',
      headers: { cookie: admin.cookie },
    });
    expect(setup.statusCode).toBe(200);
    const { secret, otpauth_url, qr } = setup.json();
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\//);
    expect(otpauth_url).toContain(`secret=${secret}`);
    expect(Buffer.from(qr.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString()).toContain(
      '<svg',
    );
    const wrong = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/totp.php',
      headers: { cookie: admin.cookie },
      payload: { code: (Number(await totpCode(secret)) + 1).toString().padStart(6, '0').slice(-6) },
    });
    expect(wrong.statusCode).toBe(422);
    const enrolled = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/totp.php',
      headers: { cookie: admin.cookie },
      payload: { code: await totpCode(secret) },
    });
    expect(enrolled.statusCode).toBe(200);
    expect(enrolled.json().staff.totp_enabled).toBe(true);
    expect(
      (await t.app.inject({ url: '/api/admin/inbox.php', headers: { cookie: admin.cookie } })).statusCode,
    ).toBe(200);

    const withoutCode = await signIn({ email: admin.email, password: staffPassword });
    expect(withoutCode.statusCode).toBe(401);
    expect(withoutCode.json().error).toBe('otp_required');
    expect(withoutCode.headers['set-cookie']).toBeUndefined();
    const badCode = await signIn({ email: admin.email, password: staffPassword, otp: '000000' });
    expect(badCode.json().error).toBe('otp_required');
    // The enrolment used the current code: it is not accepted a second time.
    const replayed = await signIn({
      email: admin.email,
      password: staffPassword,
      otp: await totpCode(secret),
    });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().error).toBe('otp_used');
    const wrongPassword = await signIn({ email: admin.email, password: 'nope-nope-nope', otp: '123456' });
    expect(wrongPassword.json().error).toBe('login_failed');

    await t.database.db.update(staff).set({ totpLastStep: 0 }).where(eq(staff.id, admin.id));
    const ok = await signIn({ email: admin.email, password: staffPassword, otp: await totpCode(secret) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().staff).toMatchObject({ id: admin.id, totp_enabled: true });

    const audit = (
      await t.app.inject({
        url: `/api/admin/audit.php?staff=${admin.id}`,
        headers: { cookie: staffCookie(ok) },
      })
    ).json();
    const actions = audit.entries.map((entry: { action: string }) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['sign_in', 'totp.enrol', 'sign_in.otp_failed']));
  });

  it('refuses a TOTP code a second time without counting the repeats as failed sign-ins', async () => {
    const moderator = await signedInStaff(t.app, 'moderator');
    // The enrolment used the current step: a fresh start, as on a new day.
    await t.database.db.update(staff).set({ totpLastStep: 0 }).where(eq(staff.id, moderator.id));
    const payload = {
      email: moderator.email,
      password: staffPassword,
      otp: await totpCode(moderator.secret!),
    };
    // A double submit, then someone pressing the button again and again with the same code.
    const burst = await Promise.all([signIn(payload), signIn(payload)]);
    const repeats: LightMyRequestResponse[] = [];
    for (let i = 0; i < 7; i++) repeats.push(await signIn(payload));
    const answers = [...burst, ...repeats];
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    const refused = answers.filter((answer) => answer.statusCode !== 200);
    expect(refused.map((answer) => [answer.statusCode, answer.json().error])).toEqual(
      refused.map(() => [401, 'otp_used']),
    );
    for (const answer of refused) expect(answer.headers['set-cookie']).toBeUndefined();
    const [throttle] = await t.database.db
      .select()
      .from(staffLoginThrottles)
      .where(eq(staffLoginThrottles.email, moderator.email.toLowerCase()));
    expect(throttle?.failures ?? 0).toBe(0);
    expect(throttle?.lockedUntil ?? null).toBeNull();

    // Not locked out: the next code signs in.
    await t.database.db.update(staff).set({ totpLastStep: 0 }).where(eq(staff.id, moderator.id));
    expect((await signIn(payload)).statusCode).toBe(200);
    // A wrong code still counts.
    const wrong = await signIn({ ...payload, otp: payload.otp === '000000' ? '111111' : '000000' });
    expect(wrong.json().error).toBe('otp_required');
    const [after] = await t.database.db
      .select()
      .from(staffLoginThrottles)
      .where(eq(staffLoginThrottles.email, moderator.email.toLowerCase()));
    expect(after?.failures).toBe(1);
  });

  it('locks the account after 5 wrong passwords, even when they arrive at once', async () => {
    const operator = await signedInStaff(t.app, 'operator', { enrol: false });
    const attempts = await Promise.all(
      Array.from({ length: 10 }, () => signIn({ email: operator.email, password: 'wrong-password-123' })),
    );
    const codes = attempts.map((response) => response.json().error).sort();
    expect(codes.filter((code) => code === 'login_failed')).toHaveLength(4);
    expect(codes.filter((code) => code === 'account_locked')).toHaveLength(6);
    const right = await signIn({ email: operator.email, password: staffPassword });
    expect(right.statusCode).toBe(429);
    expect(right.json()).toMatchObject({ error: 'account_locked', minutes: 15 });
  });

  /** Status and error of each answer (with the minutes of a lock), in a stable order. */
  const outcomes = (responses: LightMyRequestResponse[]) =>
    responses
      .map((response) => {
        const body = response.json();
        return `${response.statusCode} ${body.error}${body.minutes ? ` ${body.minutes}` : ''}`;
      })
      .sort();

  it('answers an unknown address exactly as a staff one: 401 login_failed, then locked', async () => {
    const operator = await signedInStaff(t.app, 'operator', { enrol: false });
    const unknown = uniqueEmail('nobody');
    const burst = (email: string) =>
      Promise.all(Array.from({ length: 10 }, (_, i) => signIn({ email, password: `wrong-password-${i}` })));
    const [known, stranger] = await Promise.all([burst(operator.email), burst(` ${unknown.toUpperCase()} `)]);
    const expected = [...Array(4).fill('401 login_failed'), ...Array(6).fill('429 account_locked 15')];
    expect(outcomes(known)).toEqual(expected);
    expect(outcomes(stranger)).toEqual(expected);
    // Locked alike afterwards, whatever the password; the key is the trimmed, lower-case address.
    const [knownAfter, strangerAfter] = await Promise.all([
      signIn({ email: operator.email.toUpperCase(), password: staffPassword }),
      signIn({ email: unknown, password: staffPassword }),
    ]);
    expect(outcomes([knownAfter])).toEqual(['429 account_locked 15']);
    expect(outcomes([strangerAfter])).toEqual(['429 account_locked 15']);
    // Staff tries live in a key space of their own: no member throttle is touched.
    const throttles = await t.database.db
      .select({ email: staffLoginThrottles.email })
      .from(staffLoginThrottles)
      .where(sql`${staffLoginThrottles.email} in (${operator.email.toLowerCase()}, ${unknown})`);
    expect(throttles).toHaveLength(2);
    const memberRows = await t.database.db
      .select({ email: loginThrottles.email })
      .from(loginThrottles)
      .where(sql`${loginThrottles.email} in (${operator.email.toLowerCase()}, ${unknown})`);
    expect(memberRows).toHaveLength(0);
  });

  it('checks at most 5 of 20 wrong passwords sent at once to a staff address', async () => {
    const operator = await signedInStaff(t.app, 'operator', { enrol: false });
    verifications.count = 0;
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        signIn({ email: operator.email, password: `wrong-password-${i}` }),
      ),
    );
    expect(verifications.count).toBe(5);
    expect(outcomes(responses)).toEqual([
      ...Array(4).fill('401 login_failed'),
      ...Array(16).fill('429 account_locked 15'),
    ]);
    expect((await signIn({ email: operator.email, password: staffPassword })).statusCode).toBe(429);
    expect(verifications.count).toBe(5);
  });

  it('gives the try back when the first step of a two-step sign-in has no code', async () => {
    const admin = await signedInStaff(t.app, 'admin');
    for (let i = 0; i < 8; i++) {
      const step = await signIn({ email: admin.email, password: staffPassword });
      expect(step.json().error).toBe('otp_required');
    }
    const [row] = await t.database.db
      .select()
      .from(staffLoginThrottles)
      .where(eq(staffLoginThrottles.email, admin.email.toLowerCase()));
    expect(row).toMatchObject({ attempts: 0, failures: 0, lockedUntil: null });
  });

  it('answers 403 staff_required to members and visitors on every /api/admin/ route', async () => {
    const member = await activeMember(t.app);
    const routes = adminRoutes(t.app).filter(
      (route) => !(route.method === 'POST' && (route.url === signInPath || route.url === passkeySignInPath)),
    );
    expect(routes.length).toBeGreaterThanOrEqual(15);
    expect(routes.map((route) => route.url)).toContain('/api/admin/ws');
    for (const route of routes) {
      for (const cookie of [member.cookie, undefined]) {
        const response = await t.app.inject({
          method: route.method as 'GET',
          url: route.url,
          headers: cookie ? { cookie } : {},
          ...(route.method === 'GET' ? {} : { payload: {} }),
        });
        expect([route.method, route.url, response.statusCode, response.json().error]).toEqual([
          route.method,
          route.url,
          403,
          'staff_required',
        ]);
      }
    }
  });

  it('refuses an operator who tries to create staff or read the audit log; an admin may', async () => {
    const operator = await signedInStaff(t.app, 'operator');
    const admin = await signedInStaff(t.app, 'admin');
    const newStaff = {
      email: 'new.operator@example.com',
      name: 'Nora',
      role: 'operator',
      password: 'sapphire-Kettle-88',
    };
    const create = await t.app.inject({
      method: 'POST',
      url: '/api/admin/staff.php',
      headers: { cookie: operator.cookie },
      payload: newStaff,
    });
    expect(create.statusCode).toBe(403);
    expect(create.json().error).toBe('forbidden');
    const audit = await t.app.inject({ url: '/api/admin/audit.php', headers: { cookie: operator.cookie } });
    expect(audit.statusCode).toBe(403);
    expect(audit.json().error).toBe('forbidden');

    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/staff.php',
      headers: { cookie: admin.cookie },
      payload: newStaff,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().staff).toMatchObject({
      email: newStaff.email,
      role: 'operator',
      totp_enabled: false,
    });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/admin/staff.php',
      headers: { cookie: admin.cookie },
      payload: { ...newStaff, email: 'NEW.operator@example.com' },
    });
    expect(again.statusCode).toBe(409);
    expect((await signIn({ email: newStaff.email, password: newStaff.password })).statusCode).toBe(200);
    const log = (
      await t.app.inject({ url: `/api/admin/audit.php?staff=${admin.id}`, headers: { cookie: admin.cookie } })
    ).json();
    expect(log.entries[0]).toMatchObject({
      staff: { id: admin.id },
      action: 'staff.create',
      object: `staff:${created.json().staff.id}`,
    });
    expect(log.entries[0].ip).toBeTruthy();
  });

  it('lists and ends own sessions; signing out ends the session', async () => {
    const operator = await signedInStaff(t.app, 'operator', { enrol: false });
    const second = staffCookie(await signIn({ email: operator.email, password: staffPassword }));
    const list = (await t.app.inject({ url: '/api/admin/sessions.php', headers: { cookie: second } })).json();
    expect(list.sessions).toHaveLength(2);
    const other = list.sessions.find((session: { current: boolean }) => !session.current);
    const ended = await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/sessions.php',
      headers: { cookie: second },
      payload: { id: other.id },
    });
    expect(ended.statusCode).toBe(200);
    const gone = await t.app.inject({ url: '/api/admin/session.php', headers: { cookie: operator.cookie } });
    expect(gone.json().error).toBe('staff_required');
    const out = await t.app.inject({
      method: 'DELETE',
      url: '/api/admin/session.php',
      headers: { cookie: second },
    });
    expect(out.statusCode).toBe(200);
    expect(
      (await t.app.inject({ url: '/api/admin/session.php', headers: { cookie: second } })).statusCode,
    ).toBe(403);
  });

  it('refuses a back-office call from a foreign origin (CSRF)', async () => {
    const admin = await signedInStaff(t.app, 'admin');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/staff.php',
      headers: { cookie: admin.cookie, origin: 'https://evil.example' },
      payload: { email: 'x@example.com', name: 'X', role: 'admin', password: 'long-enough-pass' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe('csrf_failed');
  });
});

describe('the demo admin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SEED_DEMO: '1', DEMO_PROFILES: '0' });
  });
  afterAll(() => t.close());

  it('gets a generated password, written once to the data folder', async () => {
    const { readFile } = await import('node:fs/promises');
    const demo = t.app.deps.staffStart.demoAdmin;
    expect(demo).not.toBeNull();
    expect(demo!.password.length).toBeGreaterThanOrEqual(16);
    expect(await readFile(demo!.file, 'utf8')).toContain(demo!.password);
    const login = await t.app.inject({
      method: 'POST',
      url: signInPath,
      remoteAddress: nextIp(),
      payload: { email: demo!.email, password: demo!.password },
    });
    expect(login.statusCode).toBe(200);
    expect((await ensureStaffAtStart(t.config, t.app.deps.staff)).demoAdmin).toBeNull();
  });

  it('makes the data folder when nothing else has (PostgreSQL, a new DATA_DIR)', async () => {
    const { mkdtemp, readFile } = await import('node:fs/promises');
    const os = await import('node:os');
    const path = await import('node:path');
    const dataDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'staff-start-')), 'not-yet', 'data');
    // As on a database without the demo admin (its audit entries keep the old row).
    await t.database.db
      .update(staff)
      .set({ email: 'former-demo-admin@demo.localhost' })
      .where(eq(staff.email, t.app.deps.staffStart.demoAdmin!.email));
    const start = await ensureStaffAtStart({ ...t.config, DATA_DIR: dataDir }, t.app.deps.staff);
    expect(start.demoAdmin?.file).toBe(path.join(dataDir, 'admin-password.txt'));
    expect(await readFile(start.demoAdmin!.file, 'utf8')).toContain(start.demoAdmin!.password);
  });
});
