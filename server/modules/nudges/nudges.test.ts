import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailJobs } from '#server/db/schema/mail.ts';
import { profiles, users } from '#server/db/schema/members.ts';
import { pushSubscriptions } from '#server/db/schema/notifications.ts';
import { nudgeSends } from '#server/db/schema/nudges.ts';
import type { PushSender } from '#server/modules/notifications/notifications.service.ts';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { activeMember, grantCredits } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { NudgesService } from './nudges.service.ts';

type Member = Awaited<ReturnType<typeof activeMember>>;

// 10:00 in Amsterdam (the sites' time zone), a Monday.
const morning = new Date('2026-11-30T09:00:00Z');

describe('nudges', () => {
  let t: TestApp;
  const clock = createFakeClock(morning);
  const pushes: { endpoint: string; payload: { title: string; body: string; tag: string } }[] = [];
  const pushSender: PushSender = async (subscription, payload) => {
    pushes.push({ endpoint: subscription.endpoint, payload: JSON.parse(payload) });
  };
  beforeAll(async () => {
    t = await createTestApp({}, { clock, pushSender });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    pushes.length = 0;
  });

  const visit = async (visitor: Member, visited: Member) => {
    const page = await t.app.inject({
      url: `/api/member.php?id=${visited.profileId}`,
      headers: { cookie: visitor.cookie },
    });
    expect(page.statusCode).toBe(200);
  };
  const likeOf = async (liker: Member, liked: Member) => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/like.php',
      headers: { cookie: liker.cookie },
      payload: { profile: liked.profileId },
    });
    expect(answer.statusCode, answer.body).toBeLessThan(300);
  };
  /** The member was last here two days ago: what happened since is news to them. */
  const away = (member: Member) =>
    t.database.db
      .update(profiles)
      .set({ lastActiveAt: new Date(clock.now().getTime() - 2 * 86_400_000) })
      .where(eq(profiles.id, member.profileId));
  const nudgeMails = (member: Member) =>
    t.database.db
      .select()
      .from(mailJobs)
      .where(and(eq(mailJobs.to, member.email), like(mailJobs.kind, 'nudge.%')));
  /** A member with two fresh visitors, away since. */
  const visitedMember = async (overrides: Record<string, unknown> = {}) => {
    const member = await activeMember(t.app, overrides);
    await visit(await activeMember(t.app, { name: 'Alex' }), member);
    await visit(await activeMember(t.app, { name: 'Sam' }), member);
    await away(member);
    return member;
  };
  const settings = (member: Member, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/notifications.php',
      headers: { cookie: member.cookie },
      payload: body,
    });

  it('mails "2 people viewed your profile" once, in the member’s language, with its own unsubscribe link', async () => {
    const member = await visitedMember();
    await t.database.db.update(users).set({ language: 'de' }).where(eq(users.id, member.userId));
    await t.app.deps.nudges.run('visitors');
    const [mail, ...more] = await nudgeMails(member);
    expect(more).toEqual([]);
    expect(mail?.kind).toBe('nudge.visitors');
    expect(mail?.subject).toMatch(/^2 Personen haben dein Profil auf .+ angesehen$/);
    expect(mail?.text).toContain('/likes/visitors');
    expect(mail?.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    // Nothing new since: the next run tells nothing, even on another day.
    clock.advanceDays(1);
    await t.app.deps.nudges.run('visitors');
    expect(await nudgeMails(member)).toHaveLength(1);
    clock.advanceDays(-1);

    // One click (RFC 8058) stops this nudge's mails only: the other mails stay on.
    const link = /<([^>]+)>/.exec(mail?.headers['List-Unsubscribe'] ?? '')?.[1] ?? '';
    const url = new URL(link);
    const click = await t.app.inject({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(click.json()).toEqual({ ok: true, stopped: 'visitors' });
    const after = (
      await t.app.inject({ url: '/api/notifications.php', headers: { cookie: member.cookie } })
    ).json();
    expect(after.email).toMatchObject({ visitors: false, unread: true, likes_digest: true, messages: true });
    expect(after.notifications_disabled).toEqual([]);
    // A scope the signature was not made for is refused.
    const forged = url.searchParams.get('token')!.replace('.visitors.', '.unread.');
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/unsubscribe.php?token=${encodeURIComponent(forged)}`,
    });
    expect(refused.statusCode).toBe(404);
  });

  it('sends at most one nudge a day across all nudges', async () => {
    const member = await visitedMember();
    await likeOf(await activeMember(t.app), member);
    await away(member);
    await t.app.deps.nudges.run('visitors');
    await t.app.deps.nudges.run('likes_digest');
    expect((await nudgeMails(member)).map((mail) => mail.kind)).toEqual(['nudge.visitors']);
    // The next local day the likes get their turn.
    clock.advanceDays(1);
    await t.app.deps.nudges.run('likes_digest');
    expect((await nudgeMails(member)).map((mail) => mail.kind)).toEqual([
      'nudge.visitors',
      'nudge.likes_digest',
    ]);
    clock.advanceDays(-1);
  });

  it('sends one mail when runs overlap (the unique key per member and day decides)', async () => {
    const member = await visitedMember();
    await Promise.all([
      t.app.deps.nudges.run('visitors'),
      t.app.deps.nudges.run('visitors'),
      t.app.deps.nudges.run('visitors'),
    ]);
    expect(await nudgeMails(member)).toHaveLength(1);
    expect(
      await t.database.db.select().from(nudgeSends).where(eq(nudgeSends.userId, member.userId)),
    ).toHaveLength(1);
  });

  it('waits for the morning in the site’s time zone', async () => {
    const night = createFakeClock(new Date('2026-11-30T22:30:00Z'));
    const member = await visitedMember();
    // The same service on a clock of its own (the injectable clock of server/lib/clock.ts).
    const { deps } = t.app;
    const service = new NudgesService(
      deps.db,
      night,
      deps.sites,
      deps.likes,
      deps.chats,
      deps.notifications,
      deps.mail,
      deps.translator,
      deps.config,
    );
    // 23:30 in Amsterdam: nothing goes.
    await service.run('visitors');
    expect(await nudgeMails(member)).toEqual([]);
    night.advanceMinutes(7 * 60); // 06:30
    await service.run('visitors');
    expect(await nudgeMails(member)).toEqual([]);
    night.advanceMinutes(90); // 08:00
    await service.run('visitors');
    expect(await nudgeMails(member)).toHaveLength(1);
  });

  it('sends nothing when the member switched the nudge off', async () => {
    const member = await visitedMember();
    expect(
      (await settings(member, { email: { visitors: false }, push: { visitors: false } })).statusCode,
    ).toBe(200);
    await away(member);
    await t.database.db.insert(pushSubscriptions).values({
      userId: member.userId,
      endpoint: `http://127.0.0.1:9/push/${member.userId}`,
      p256dh: 'p'.repeat(30),
      auth: 'a'.repeat(16),
      createdAt: clock.now(),
    });
    await t.app.deps.nudges.run('visitors');
    expect(await nudgeMails(member)).toEqual([]);
    expect(pushes).toEqual([]);
    // Push on again, mail still off: the push goes, no mail.
    await settings(member, { push: { visitors: true } });
    await away(member);
    await t.app.deps.nudges.run('visitors');
    expect(await nudgeMails(member)).toEqual([]);
    expect(pushes.map((push) => push.payload.tag)).toEqual(['nudge-visitors']);
    expect(pushes[0]?.payload.title).toMatch(/^2 people viewed your profile on /);
  });

  it('mails no unconfirmed or bounced address', async () => {
    const unconfirmed = await visitedMember();
    await t.database.db
      .update(users)
      .set({ status: 'not_confirmed', emailConfirmedAt: null })
      .where(eq(users.id, unconfirmed.userId));
    const bounced = await visitedMember();
    await t.database.db
      .update(users)
      .set({ notificationsDisabled: ['bounce'] })
      .where(eq(users.id, bounced.userId));
    await t.app.deps.nudges.run('visitors');
    expect(await nudgeMails(unconfirmed)).toEqual([]);
    expect(await nudgeMails(bounced)).toEqual([]);
  });

  it('tells of unread messages, and not of those the member has read', async () => {
    const member = await activeMember(t.app);
    const sender = await activeMember(t.app, { name: 'Noa' });
    await grantCredits(t.app, sender.userId, 100);
    for (const text of ['Hi there', 'Still around?']) {
      const sent = await t.app.inject({
        method: 'POST',
        url: '/api/chat.php',
        headers: { cookie: sender.cookie },
        payload: { profile: member.profileId, text },
      });
      expect(sent.statusCode, sent.body).toBeLessThan(300);
    }
    await away(member);
    await t.app.deps.nudges.run('unread');
    const [mail, ...more] = await nudgeMails(member);
    expect(more).toEqual([]);
    expect(mail?.subject).toMatch(/^You have 2 unread messages on /);
    expect(mail?.text).toContain('/chats');
  });

  it('puts the visits in the member’s data export: whom they visited, and only how many visited them', async () => {
    const member = await activeMember(t.app);
    const other = await activeMember(t.app, { name: 'Kim' });
    await visit(member, other);
    await visit(other, member);
    const data = (await t.app.inject({ url: '/api/export.php', headers: { cookie: member.cookie } })).json();
    expect(data.visits.made).toEqual([
      { profile: other.profileId, name: 'Kim', visited_at: clock.now().toISOString() },
    ]);
    expect(data.visits.received_per_day).toEqual([{ day: clock.now().toISOString().slice(0, 10), count: 1 }]);
    expect(JSON.stringify(data.visits.received_per_day)).not.toContain(String(other.profileId));
  });

  it('counts the nudges on /metrics', async () => {
    const metrics = await t.app.deps.metrics.registry.getSingleMetricAsString('nudges_total');
    expect(metrics).toMatch(/nudges_total\{kind="visitors",outcome="mailed"\} [1-9]/);
    expect(metrics).toMatch(/nudges_total\{kind="likes_digest",outcome="capped"\} [1-9]/);
  });
});

if (process.env.DATABASE_URL) {
  describe('nudges on two instances sharing PostgreSQL', () => {
    it('mails a member once when both instances run the nudge at the same time', async () => {
      const clock = createFakeClock(morning);
      const first = await createTestApp({}, { clock });
      const { buildApp } = await import('#server/app.ts');
      const { connectPostgres } = await import('#server/db/client.ts');
      const second = await buildApp(first.config, {
        database: await connectPostgres(first.databaseUrl!, 3),
        web: false,
        redisPrefix: first.redisPrefix,
        clock,
      });
      try {
        const members = await Promise.all(Array.from({ length: 5 }, () => activeMember(first.app)));
        const visitor = await activeMember(first.app);
        for (const member of members)
          await first.app.inject({
            url: `/api/member.php?id=${member.profileId}`,
            headers: { cookie: visitor.cookie },
          });
        await first.database.db
          .update(profiles)
          .set({ lastActiveAt: new Date(morning.getTime() - 86_400_000) });
        await Promise.all([first.app.deps.nudges.run('visitors'), second.deps.nudges.run('visitors')]);
        const mails = await first.database.db
          .select()
          .from(mailJobs)
          .where(eq(mailJobs.kind, 'nudge.visitors'));
        expect(mails.map((mail) => mail.to).sort()).toEqual(members.map((member) => member.email).sort());
      } finally {
        await second.close();
        await first.close();
      }
    });
  });
}
