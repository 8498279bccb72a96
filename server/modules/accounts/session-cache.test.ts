import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mailJobs } from '#server/db/schema/mail.ts';
import type { ProfileRow, UserRow } from '#server/db/schema/members.ts';
import { createLocalBus } from '#server/lib/event-bus.ts';
import {
  activeMember,
  goodPassword,
  grantCredits,
  nextIp,
  signupMember,
} from '../../../tests/setup/members.ts';
import { signedInStaff } from '../../../tests/setup/staff.ts';
import { injectCounted, installStatementCounter } from '../../../tests/setup/statement-count.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { testPooler } from '../../../tests/setup/test-database.ts';
import { announceCreditsChanged, announceSessionsChanged, SessionCache } from './session-cache.ts';

const user = (id: number) => ({ id }) as UserRow;
const profile = null as ProfileRow | null;

describe('session cache', () => {
  it('keeps an entry for its TTL, drops a member at once, and never refills from a lookup older than a drop', async () => {
    let now = 1_000;
    const cache = new SessionCache(2_000, () => now);
    cache.set('a', user(1), { profile, mainPhoto: null }, cache.mark());
    cache.set('b', user(1), { profile, mainPhoto: null }, cache.mark());
    cache.set('c', user(2), { profile, mainPhoto: null }, cache.mark());
    expect(cache.get('a')?.user.id).toBe(1);
    now += 2_001;
    expect(cache.get('a')).toBeUndefined();

    cache.set('a', user(1), { profile, mainPhoto: null }, cache.mark());
    cache.set('b', user(1), { profile, mainPhoto: null }, cache.mark());
    cache.set('c', user(2), { profile, mainPhoto: null }, cache.mark());
    const lookupStarted = cache.mark();
    cache.dropUser(1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')?.user.id).toBe(2);
    // A lookup that read the row before the drop must not put it back.
    cache.set('a', user(1), { profile, mainPhoto: null }, lookupStarted);
    expect(cache.get('a')).toBeUndefined();

    const bus = createLocalBus();
    const stop = cache.listen(bus);
    await announceSessionsChanged(bus, 2);
    expect(cache.get('c')).toBeUndefined();
    stop();
  });

  it('takes a new balance in place: in new objects, from other instances, never its own echo', async () => {
    const cache = new SessionCache(60_000);
    const before = { id: 1, credits: 50 } as UserRow;
    cache.set('a', before, { profile, mainPhoto: null }, cache.mark());
    cache.set('b', before, { profile, mainPhoto: null }, cache.mark());
    const lookupStarted = cache.mark();
    cache.updateCredits(1, 40);
    expect(cache.get('a')?.user.credits).toBe(40);
    expect(cache.get('b')?.user.credits).toBe(40);
    // A request in flight keeps the row it read.
    expect(before.credits).toBe(50);
    // A lookup that read the row before the spend must not put the old balance back.
    cache.set('a', before, { profile, mainPhoto: null }, lookupStarted);
    expect(cache.get('a')?.user.credits).toBe(40);

    const bus = createLocalBus();
    const stop = cache.listen(bus);
    await announceCreditsChanged(bus, { userId: 1, credits: 30, origin: 'another-instance' });
    expect(cache.get('a')?.user.credits).toBe(30);
    // Its own announcement comes back over Redis after it was applied, maybe after a newer one.
    await announceCreditsChanged(bus, { userId: 1, credits: 45, origin: cache.origin });
    expect(cache.get('a')?.user.credits).toBe(30);
    // A drop is applied whoever announced it (some callers only announce).
    await announceSessionsChanged(bus, 1);
    expect(cache.get('a')).toBeUndefined();
    stop();
  });

  it('is off with a TTL of 0 and never grows past its cap', () => {
    const off = new SessionCache(0);
    off.set('a', user(1), { profile, mainPhoto: null }, off.mark());
    expect(off.get('a')).toBeUndefined();
    const small = new SessionCache(60_000, Date.now, 10);
    for (let id = 0; id < 100; id++)
      small.set(`t${id}`, user(id), { profile, mainPhoto: null }, small.mark());
    expect(small.size).toBeLessThanOrEqual(10);
  });

  it('lets expired sessions go as new ones come, so it holds only the last TTL’s sessions', () => {
    let now = 1_000;
    const cache = new SessionCache(2_000, () => now);
    for (let id = 0; id < 1_000; id++)
      cache.set(`t${id}`, user(id), { profile, mainPhoto: null }, cache.mark());
    // Seen again a second later: it now lives to 4,000 and moves behind the others.
    now = 2_000;
    cache.set('t0', user(0), { profile, mainPhoto: null }, cache.mark());
    now = 3_500;
    cache.set('late', user(5_000), { profile, mainPhoto: null }, cache.mark());
    expect(cache.size).toBe(2);
    expect(cache.get('t0')?.user.id).toBe(0);
    expect(cache.get('late')?.user.id).toBe(5_000);
  });
});

describe('session cache in the app', () => {
  let t: TestApp;
  beforeAll(async () => {
    installStatementCounter();
    t = await createTestApp({ SESSION_CACHE_MS: '60000' });
    await t.app.ready();
  });
  afterAll(() => t.close());

  const whoAmI = async (cookie: string) =>
    injectCounted(t.app, { url: '/api/user.php', headers: { cookie } });

  it('skips the session lookup on a hit, and shows the member’s own changes at once', async () => {
    const member = await activeMember(t.app);
    const other = await activeMember(t.app);
    await grantCredits(t.app, member.userId, 20, true);
    const first = await whoAmI(member.cookie);
    const second = await whoAmI(member.cookie);
    expect(second.response.json()).toEqual(first.response.json());
    expect(second.statements.length).toBe(first.statements.length - 1);
    const credits = first.response.json().user.credits;

    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: member.cookie },
      payload: { profile: other.profileId, text: 'hello' },
    });
    expect(sent.statusCode).toBe(201);
    // The send kept the cached session with its new balance: no lookup after it.
    const afterSend = await whoAmI(member.cookie);
    expect(afterSend.response.json().user.credits).toBe(sent.json().credits);
    expect(afterSend.statements.length).toBe(second.statements.length);
    expect(sent.json().credits).toBeLessThan(credits);

    // Any other write of the member's own drops the cached session.
    const liked = await t.app.inject({
      method: 'POST',
      url: '/api/like.php',
      headers: { cookie: member.cookie },
      payload: { profile: other.profileId },
    });
    expect(liked.statusCode, liked.body).toBeLessThan(300);
    expect((await whoAmI(member.cookie)).statements.length).toBe(first.statements.length);
  });

  it('shows the activation at once, however the link is opened', async () => {
    for (const withCookie of [false, true]) {
      const { email, cookie, userId } = await signupMember(t.app);
      expect((await whoAmI(cookie)).response.json().user.status).toBe('not_confirmed');
      const mails = await t.database.db.select().from(mailJobs).where(eq(mailJobs.to, email));
      const link = mails
        .find((mail) => mail.kind === 'activation')
        ?.text.match(/\/api\/activate\.php\?token=[^\s&]+/)?.[0];
      expect(link).toBeDefined();
      // From the mail app (no session) or in the browser the member is signed in with.
      const opened = await t.app.inject({ url: link!, headers: withCookie ? { cookie } : {} });
      expect(opened.statusCode).toBe(302);
      const after = (await whoAmI(cookie)).response.json().user;
      expect([after.id, after.status]).toEqual([userId, 'active']);
    }
  });

  it('refuses a cached session at once after logout, a password change elsewhere, and a ban', async () => {
    const member = await activeMember(t.app);
    expect((await whoAmI(member.cookie)).response.statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: '/api/logout.php', headers: { cookie: member.cookie } });
    expect((await whoAmI(member.cookie)).response.json().user).toBeNull();

    const other = await activeMember(t.app);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/user.php',
      remoteAddress: nextIp(),
      payload: { email: other.email, password: goodPassword },
    });
    const secondDevice = login.headers['set-cookie']?.toString().match(/sid=[^;]+/)?.[0];
    expect(secondDevice).toBeDefined();
    expect((await whoAmI(secondDevice!)).response.json().user?.id).toBe(other.userId);
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/password.php',
      headers: { cookie: other.cookie },
      payload: {
        old_password: goodPassword,
        password: 'new-Harbor-42x',
        password_confirmation: 'new-Harbor-42x',
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await whoAmI(secondDevice!)).response.json().user).toBeNull();

    const banned = await activeMember(t.app);
    expect((await whoAmI(banned.cookie)).response.json().user?.id).toBe(banned.userId);
    const moderator = await signedInStaff(t.app, 'moderator');
    const ban = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/member.php',
      headers: { cookie: moderator.cookie },
      payload: { id: banned.profileId, status: 'banned', reason: 'spam' },
    });
    expect(ban.statusCode, ban.body).toBe(200);
    expect((await whoAmI(banned.cookie)).response.json().user).toBeNull();
  });
});

if (process.env.DATABASE_URL && process.env.REDIS_URL) {
  describe('session cache on two instances sharing PostgreSQL and Redis', () => {
    it('refuses a session on one instance at once when it ends on the other', async () => {
      const first = await createTestApp({ SESSION_CACHE_MS: '60000' });
      const { buildApp } = await import('#server/app.ts');
      const { connectPostgres } = await import('#server/db/client.ts');
      const second = await buildApp(first.config, {
        database: await connectPostgres(first.databaseUrl!, 3, testPooler),
        web: false,
        redisPrefix: first.redisPrefix,
      });
      try {
        await second.listen({ port: 0, host: '127.0.0.1' });
        expect((second.server.address() as AddressInfo).port).toBeGreaterThan(0);
        const onSecond = async (cookie: string) =>
          (await second.inject({ url: '/api/user.php', headers: { cookie } })).json().user?.id ?? null;
        // Pub/sub delivery takes a moment; a TTL of a minute could never explain a refusal.
        const waitForRefusal = (cookie: string) =>
          vi.waitFor(async () => expect(await onSecond(cookie)).toBeNull(), { timeout: 2_000, interval: 10 });

        const leaving = await activeMember(first.app);
        expect(await onSecond(leaving.cookie)).toBe(leaving.userId);
        expect(await onSecond(leaving.cookie)).toBe(leaving.userId);
        await first.app.inject({
          method: 'POST',
          url: '/api/logout.php',
          headers: { cookie: leaving.cookie },
        });
        await waitForRefusal(leaving.cookie);

        // A send on the first instance: the second shows the new balance at once (its cached row
        // lives a minute), without looking the session up again.
        const sender = await activeMember(first.app);
        const recipient = await activeMember(first.app);
        await grantCredits(first.app, sender.userId, 20, true);
        const balanceOnSecond = async () =>
          (await second.inject({ url: '/api/user.php', headers: { cookie: sender.cookie } })).json().user
            ?.credits as number | undefined;
        const granted = await balanceOnSecond();
        const sent = await first.app.inject({
          method: 'POST',
          url: '/api/chat.php',
          headers: { cookie: sender.cookie },
          payload: { profile: recipient.profileId, text: 'hello' },
        });
        expect(sent.statusCode, sent.body).toBe(201);
        expect(sent.json().credits).toBeLessThan(granted ?? 0);
        await vi.waitFor(async () => expect(await balanceOnSecond()).toBe(sent.json().credits), {
          timeout: 2_000,
          interval: 10,
        });

        const bad = await activeMember(first.app);
        expect(await onSecond(bad.cookie)).toBe(bad.userId);
        const moderator = await signedInStaff(first.app, 'moderator');
        const ban = await first.app.inject({
          method: 'PUT',
          url: '/api/admin/member.php',
          headers: { cookie: moderator.cookie },
          payload: { id: bad.profileId, status: 'banned', reason: 'spam' },
        });
        expect(ban.statusCode, ban.body).toBe(200);
        await waitForRefusal(bad.cookie);
      } finally {
        await second.close();
        await first.close();
      }
    });
  });
}
