import { desc, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loginThrottles } from '#server/db/schema/accounts.ts';
import { mailJobs } from '#server/db/schema/mail.ts';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { goodPassword, nextIp, signupMember, uniqueEmail } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { LoginThrottle, type ThrottleState } from './login-throttle.ts';

/** Every password check the service makes (argon2 verify, or the equal-time hash for no account). */
const verifications = vi.hoisted(() => ({ count: 0 }));
vi.mock('./passwords.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('./passwords.ts')>();
  return {
    ...original,
    verifyPassword: (passwordHash: string | null, password: string) => {
      verifications.count++;
      return original.verifyPassword(passwordHash, password);
    },
  };
});

describe('login lockout under parallel requests', () => {
  let t: TestApp;
  const clock = createFakeClock();
  beforeAll(async () => {
    t = await createTestApp({}, { clock });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    verifications.count = 0;
  });

  const login = (email: string, password: string, path = '/api/user.php') =>
    t.app.inject({ method: 'POST', url: path, remoteAddress: nextIp(), payload: { email, password } });
  const statuses = (responses: LightMyRequestResponse[]) => responses.map((response) => response.statusCode);
  const count = (responses: LightMyRequestResponse[], status: number) =>
    statuses(responses).filter((value) => value === status).length;

  it('checks at most 5 of 20 wrong passwords sent at once; the rest are account_locked', async () => {
    const { email } = await signupMember(t.app);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(email, `wrong-password-${i}`)),
    );
    expect(verifications.count).toBe(5);
    expect(count(responses, 401)).toBe(4);
    expect(count(responses, 429)).toBe(16);
    for (const response of responses.filter((r) => r.statusCode === 429)) {
      expect(response.json()).toMatchObject({ error: 'account_locked', minutes: 15 });
    }
    const right = await login(email, goodPassword);
    expect(right.json()).toMatchObject({ error: 'account_locked', minutes: 15 });
    expect(verifications.count).toBe(5);
    clock.advanceMinutes(16);
  });

  it('with the right password in a burst of 20: locked, or logged in by one of the first 5 checks', async () => {
    const outcomes: string[] = [];
    for (const position of [0, 4, 10, 19]) {
      verifications.count = 0;
      const { email } = await signupMember(t.app);
      const passwords = Array.from({ length: 19 }, (_, i) => `wrong-password-${i}`);
      passwords.splice(position, 0, goodPassword);
      const responses = await Promise.all(passwords.map((password) => login(email, password)));
      expect(verifications.count).toBeLessThanOrEqual(5);
      // One answer per check (401, 200, or the 429 of the check that locks); the rest unchecked 429s.
      expect(count(responses, 401) + count(responses, 200)).toBeLessThanOrEqual(5);
      expect(count(responses, 401) + count(responses, 200) + count(responses, 429)).toBe(20);
      const right = responses[position]!;
      if (right.statusCode === 200) {
        outcomes.push('logged in');
        expect(count(responses, 200)).toBe(1);
      } else {
        outcomes.push('locked');
        expect(right.json().error).toBe('account_locked');
        expect((await login(email, goodPassword)).json().error).toBe('account_locked');
      }
      expect(verifications.count).toBeLessThanOrEqual(5);
      clock.advanceMinutes(16);
    }
    expect(outcomes).toHaveLength(4);
  });

  it('locks an unknown address exactly as an account', async () => {
    const unknown = uniqueEmail('nobody');
    const answers: unknown[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await login(unknown, 'wrong-password-1');
      answers.push({ status: response.statusCode, body: response.json() });
    }
    const { email } = await signupMember(t.app);
    const known: unknown[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await login(email, 'wrong-password-1');
      known.push({ status: response.statusCode, body: response.json() });
    }
    expect(answers).toEqual(known);
    expect(answers.at(-1)).toMatchObject({ status: 429, body: { error: 'account_locked', minutes: 15 } });

    // One throttle per address, whatever its case.
    const other = uniqueEmail('nobody');
    verifications.count = 0;
    const parallel = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(i % 2 ? other : other.toUpperCase(), `wrong-${i}`)),
    );
    expect(verifications.count).toBe(5);
    expect(count(parallel, 401)).toBe(4);
    expect(count(parallel, 429)).toBe(16);
    clock.advanceMinutes(16);
  });

  it('forgets the wrong passwords after a right one, and doubles the next lock', async () => {
    const { email } = await signupMember(t.app);
    for (let i = 0; i < 4; i++) expect((await login(email, 'wrong-password-1')).statusCode).toBe(401);
    expect((await login(email, goodPassword)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(email, 'wrong-password-1')).statusCode).toBe(401);
    expect((await login(email, 'wrong-password-1')).json()).toMatchObject({ minutes: 15 });
    clock.advanceMinutes(16);
    for (let i = 0; i < 4; i++) await login(email, 'wrong-password-1');
    expect((await login(email, 'wrong-password-1')).json()).toMatchObject({ minutes: 30 });
    clock.advanceMinutes(31);
    expect((await login(email, goodPassword)).statusCode).toBe(200);
  });

  it('guards the login of an account pending deletion with the same lock', async () => {
    const { email, cookie } = await signupMember(t.app);
    await t.app.inject({
      method: 'DELETE',
      url: '/api/user.php',
      headers: { cookie },
      payload: { password: goodPassword },
    });
    verifications.count = 0;
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(email, `wrong-password-${i}`, '/api/reactivate.php')),
    );
    expect(verifications.count).toBe(5);
    expect(count(responses, 429)).toBe(16);
    const right = await login(email, goodPassword, '/api/reactivate.php');
    expect(right.json()).toMatchObject({ error: 'account_locked' });
    clock.advanceMinutes(16);
    expect((await login(email, goodPassword, '/api/reactivate.php')).statusCode).toBe(200);
  });

  it('lifts the lock with a password reset link', async () => {
    const { email } = await signupMember(t.app);
    for (let i = 0; i < 5; i++) await login(email, 'wrong-password-1');
    expect((await login(email, goodPassword)).json().error).toBe('account_locked');
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/password-reset.php',
      remoteAddress: nextIp(),
      payload: { email },
    });
    expect(asked.statusCode).toBe(200);
    const [mail] = await t.database.db
      .select()
      .from(mailJobs)
      .where(eq(mailJobs.to, email))
      .orderBy(desc(mailJobs.id))
      .limit(1);
    const token = mail!.text.match(/token=([\w-]+)/)![1]!;
    const reset = await t.app.inject({
      method: 'PUT',
      url: '/api/password-reset.php',
      remoteAddress: nextIp(),
      payload: { token, password: 'Fresh-passw0rd-9', password_confirmation: 'Fresh-passw0rd-9' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await login(email, 'Fresh-passw0rd-9')).statusCode).toBe(200);
  });

  it('forgets throttles a day after their last try, but never one still locked', async () => {
    const quiet = uniqueEmail('quiet');
    await login(quiet, 'wrong-password-1');
    clock.advanceDays(2);
    const locked = uniqueEmail('locked');
    for (let i = 0; i < 5; i++) await login(locked, 'wrong-password-1');
    // Far in the future: the lock of the second address still runs when the job passes.
    await t.database.db
      .update(loginThrottles)
      .set({ lockedUntil: new Date(clock.now().getTime() + 7 * 86_400_000) })
      .where(eq(loginThrottles.email, locked));
    clock.advanceDays(2);
    expect(await t.app.deps.accounts.pruneLoginThrottles()).toBeGreaterThanOrEqual(1);
    const left = (await t.database.db.select().from(loginThrottles)).map((row) => row.email);
    expect(left).not.toContain(quiet);
    expect(left).toContain(locked);
  });
});

describe('rate limits per address on the calls that say whether an account exists', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const burst = async (url: string, times: number, payload: () => Record<string, unknown>) => {
    const ip = nextIp();
    const responses: LightMyRequestResponse[] = [];
    for (let i = 0; i < times; i++) {
      responses.push(await t.app.inject({ method: 'POST', url, remoteAddress: ip, payload: payload() }));
    }
    return responses;
  };

  it('limits logins, reset requests and signups from one address', async () => {
    const logins = await burst('/api/user.php', 21, () => ({ email: uniqueEmail(), password: 'x' }));
    expect(logins.slice(0, 20).every((response) => response.statusCode === 401)).toBe(true);
    expect(logins[20]!.json().error).toBe('rate_limited');

    const resets = await burst('/api/password-reset.php', 11, () => ({ email: uniqueEmail() }));
    expect(resets.slice(0, 10).every((response) => response.json().error === 'email_not_found')).toBe(true);
    expect(resets[10]!.json().error).toBe('rate_limited');
    expect(Number(resets[10]!.headers['retry-after'])).toBeGreaterThan(0);

    const signups = await burst('/api/signup.php', 11, () => ({
      email: uniqueEmail(),
      name: 'Robin',
      password: 'short',
      date_of_birth: '1990-05-17',
    }));
    expect(signups[10]!.json().error).toBe('rate_limited');
  });
});

describe('the minutes a locked try is told', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('counts from when the row was free, not from before waiting for it', async () => {
    // A parallel try locked the address for 15 minutes while this one waited 30 s for the row.
    const clock = createFakeClock();
    const lockedFrom = new Date(clock.now().getTime() + 30_000);
    const state: ThrottleState = {
      attempts: 0,
      failures: 0,
      windowStart: null,
      lockedUntil: new Date(lockedFrom.getTime() + 15 * 60_000),
      lockLevel: 1,
    };
    const throttle = new LoginThrottle(
      t.database.db,
      clock,
      { maxFailures: 5, windowMinutes: 15, lockMinutes: 15 },
      {
        lock: async () => {
          clock.advanceMinutes(0.5);
          return state;
        },
        update: async () => {},
        remove: async () => {},
      },
    );
    await expect(throttle.countTry('someone@example.com')).rejects.toMatchObject({
      details: { minutes: 15 },
    });
    await expect(throttle.countFailure('someone@example.com')).resolves.toBe(15);
  });
});
