import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, messages } from '#server/db/schema/chats.ts';
import { campaignRecipients, openerRuns, openerStepRuns } from '#server/db/schema/engagement.ts';
import { jobs } from '#server/db/schema/jobs.ts';
import { profiles, users } from '#server/db/schema/members.ts';
import { sites } from '#server/db/schema/sites.ts';
import { blocks, likes, profileVisits } from '#server/db/schema/social.ts';
import { JobRunner } from '#server/modules/jobs/job-runner.ts';
import type { OutgoingMail } from '#server/modules/mail/mail-transport.ts';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { signupMember } from '../../../tests/setup/members.ts';
import { freshFictionalProfile, signedInStaff, type TestStaff } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { EngagementService } from './engagement.service.ts';

/**
 * Opener scripts and mass messages end to end through the API, the activation and the one job
 * runner, on PGlite and (with DATABASE_URL) on PostgreSQL, where the two runners really race.
 */
describe('engagement: opener scripts and mass messages', () => {
  let t: TestApp;
  let admin: TestStaff;
  let operator: TestStaff;
  let siteId: number;
  const mails: OutgoingMail[] = [];
  const clock = createFakeClock(new Date('2026-12-01T09:00:00Z'));
  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        clock,
        mailTransport: {
          send: async (mail) => {
            mails.push(mail);
          },
          close: () => undefined,
        },
      },
    );
    admin = await signedInStaff(t.app, 'admin', { now: clock.now });
    operator = await signedInStaff(t.app, 'operator', { now: clock.now });
    const [site] = await t.database.db.select().from(sites).where(eq(sites.isDefault, true));
    siteId = site!.id;
  });
  afterAll(() => t.close());

  const asAdmin = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie: admin.cookie }, ...(payload ? { payload } : {}) });
  const tick = (queue: string) => t.app.deps.jobs.runDue([queue]);

  /** A member signed up in English, with the signup completed and the address confirmed by the mailed link. */
  const newMember = async (name = 'Robin') => {
    const member = await signupMember(t.app, { name }, { 'accept-language': 'en-GB' });
    await t.app.inject({
      method: 'POST',
      url: '/api/complete-signup.php',
      headers: { cookie: member.cookie },
      payload: { gender: 'male', seeking: 'female' },
    });
    await t.app.deps.mail.processDue();
    const mail = mails.findLast(
      (entry) => entry.to === member.email && entry.text.includes('/api/activate.php'),
    );
    const link = /\/api\/activate\.php\?token=[\w-]+/.exec(mail?.text ?? '')?.[0];
    if (!link) throw new Error('no activation link');
    expect((await t.app.inject({ url: link })).statusCode).toBe(302);
    const [profile] = await t.database.db.select().from(profiles).where(eq(profiles.userId, member.userId));
    return { ...member, profileId: profile!.id };
  };

  const runOf = async (userId: number) => {
    const [run] = await t.database.db.select().from(openerRuns).where(eq(openerRuns.userId, userId));
    return run!;
  };
  const messagesBetween = (a: number, b: number) =>
    t.database.db
      .select({ message: messages })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(
        and(eq(conversations.lowProfileId, Math.min(a, b)), eq(conversations.highProfileId, Math.max(a, b))),
      )
      .orderBy(messages.id);

  const script = async (steps: object[], active = true) => {
    const created = await asAdmin('POST', '/api/admin/openers.php', {
      site: siteId,
      language: 'en',
      active,
      steps,
      profiles: { same_country: false, matches_seeking: true },
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json().script as { id: number };
  };
  const switchOff = async (id: number, steps: object[]) => {
    const off = await asAdmin('PUT', '/api/admin/openers.php', {
      id,
      site: siteId,
      language: 'en',
      active: false,
      steps,
    });
    expect(off.statusCode, off.body).toBe(200);
  };

  it('gives a new member a like, a visit and a message within one tick, and stops when they answer', async () => {
    const steps = [
      { after_minutes: 0, kind: 'like' },
      { after_minutes: 0, kind: 'visit' },
      { after_minutes: 0, kind: 'message', text: 'Hi {member_name}, I am {profile_name}. Coffee?' },
      { after_minutes: 60, kind: 'message', text: 'Still there, {member_name}?' },
    ];
    const { id } = await script(steps);
    const member = await newMember('Robin');
    await tick('openers.step');

    const run = await runOf(member.userId);
    expect(run.profileId).not.toBeNull();
    const profileId = run.profileId!;
    const [fictional] = await t.database.db.select().from(profiles).where(eq(profiles.id, profileId));
    expect(fictional?.fictional).toBe(true);
    // Whom the member seeks: a woman, who looks for men (or anyone).
    expect(fictional?.gender).toBe('female');

    const likesOf = await t.app.inject({ url: '/api/likes.php', headers: { cookie: member.cookie } });
    expect(JSON.stringify(likesOf.json())).toContain(`"id":${profileId},`);
    const visits = await t.database.db
      .select()
      .from(profileVisits)
      .where(
        and(
          eq(profileVisits.visitedProfileId, member.profileId),
          eq(profileVisits.visitorProfileId, profileId),
        ),
      );
    expect(visits).toHaveLength(1);
    const visitors = await t.app.inject({ url: '/api/visitors.php', headers: { cookie: member.cookie } });
    expect(visitors.json().total).toBe(1);

    const sent = await messagesBetween(member.profileId, profileId);
    expect(sent.map(({ message }) => [message.text, message.automated])).toEqual([
      [`Hi Robin, I am ${fictional?.name}. Coffee?`, true],
    ]);
    // It lands in the member's chats like any message.
    const chats = await t.app.inject({ url: '/api/chats.php', headers: { cookie: member.cookie } });
    expect(JSON.stringify(chats.json())).toContain('Coffee?');

    // The member answers: the conversation waits in the operators' queue, where the opener is marked.
    const reply = await t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: member.cookie },
      payload: { profile: profileId, text: 'Sure, when?' },
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const conversation = reply.json().message.conversation as number;
    const inbox = await t.app.inject({ url: '/api/admin/inbox.php', headers: { cookie: operator.cookie } });
    expect(JSON.stringify(inbox.json())).toContain('Sure, when?');
    const view = await t.app.inject({
      url: `/api/admin/conversation.php?id=${conversation}`,
      headers: { cookie: operator.cookie },
    });
    expect(view.statusCode, view.body).toBe(200);
    expect(
      (view.json().messages as { text: string; automated: boolean }[]).map((m) => [m.text, m.automated]),
    ).toEqual([
      [`Hi Robin, I am ${fictional?.name}. Coffee?`, true],
      ['Sure, when?', false],
    ]);

    // An hour later the second message is due: the member answered, so it is skipped.
    clock.advanceMinutes(61);
    await tick('openers.step');
    expect(await messagesBetween(member.profileId, profileId)).toHaveLength(2);
    expect(await runOf(member.userId)).toMatchObject({ stopReason: 'replied' });

    const listed = await asAdmin('GET', `/api/admin/openers.php?site=${siteId}`);
    expect(listed.json().scripts.find((row: { id: number }) => row.id === id)).toMatchObject({
      active: true,
      results: { sent: 1, replied: 1, paid_within_7d: 0 },
    });
    await switchOff(id, steps);
  });

  it('runs each step once with two runners, even when a job is taken again after its lease', async () => {
    const steps = [
      { after_minutes: 0, kind: 'like' },
      { after_minutes: 0, kind: 'message', text: 'Hello {member_name}' },
    ];
    const { id } = await script(steps);
    const member = await newMember('Sam');
    const { deps } = t.app;
    const second = new JobRunner(deps.db, clock, {
      reportCaught: deps.caught.reportCaught,
      instance: 'second',
    });
    new EngagementService(
      deps.db,
      clock,
      second,
      deps.sites,
      deps.chats,
      deps.likes,
      deps.caught.reportCaught,
    );
    await Promise.all([deps.jobs.runDue(['openers.step']), second.runDue(['openers.step'])]);
    // Both jobs run again, as after an instance died holding them: the step's own record holds.
    await deps.db
      .update(jobs)
      .set({ status: 'queued', runAt: clock.now() })
      .where(and(eq(jobs.queue, 'openers.step'), sql`${jobs.key} like ${`script:${id}:%`}`));
    await Promise.all([deps.jobs.runDue(['openers.step']), second.runDue(['openers.step'])]);

    const run = await runOf(member.userId);
    expect(await messagesBetween(member.profileId, run.profileId!)).toHaveLength(1);
    const liked = await deps.db
      .select()
      .from(likes)
      .where(and(eq(likes.likerProfileId, run.profileId!), eq(likes.likedProfileId, member.profileId)));
    expect(liked).toHaveLength(1);
    const done = await deps.db.select().from(openerStepRuns).where(eq(openerStepRuns.runId, run.id));
    expect(done.map((row) => row.outcome)).toEqual(['done', 'done']);
    await switchOff(id, steps);
  });

  it('sends nothing to a member who opted out, and nothing once a script is switched off', async () => {
    const steps = [{ after_minutes: 5, kind: 'message', text: 'Hi there' }];
    const { id } = await script(steps);
    const optedOut = await newMember('Quiet');
    await t.database.db
      .update(users)
      .set({ notificationsDisabled: ['unsubscribe'] })
      .where(eq(users.id, optedOut.userId));
    clock.advanceMinutes(6);
    await tick('openers.step');
    expect(await runOf(optedOut.userId)).toMatchObject({ stopReason: 'opted_out', firstContactAt: null });
    const later = await newMember('Later');
    await switchOff(id, steps);
    clock.advanceMinutes(6);
    await tick('openers.step');
    const fromScript = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.automated, true), eq(messages.text, 'Hi there')));
    expect(fromScript).toHaveLength(0);
    expect((await runOf(later.userId)).firstContactAt).toBeNull();
  });

  it('sends a mass message to a 500-member segment once each over two runners, skipping blockers and opt-outs', async () => {
    const { deps } = t.app;
    const sender = await freshFictionalProfile(t.app);
    // 500 active members of one country no other test uses.
    const created = await deps.db
      .insert(users)
      .values(
        Array.from({ length: 500 }, (_, index) => ({
          siteId,
          email: `segment.${index}.${process.pid}@example.com`,
          status: 'active' as const,
          language: 'en',
          signupDate: clock.now(),
        })),
      )
      .returning({ id: users.id });
    const memberProfiles = await deps.db
      .insert(profiles)
      .values(
        created.map((user, index) => ({
          userId: user.id,
          name: `Member ${index}`,
          birthdate: '1990-01-01',
          country: 'IS',
          gender: 'male' as const,
        })),
      )
      .returning({ id: profiles.id, userId: profiles.userId });
    const blockers = memberProfiles.slice(0, 10);
    await deps.db.insert(blocks).values(
      blockers.map((row) => ({
        blockerProfileId: row.id,
        blockedProfileId: sender.id,
        createdAt: clock.now(),
      })),
    );
    const optedOut = memberProfiles.slice(10, 20).map((row) => row.userId);
    await deps.db
      .update(users)
      .set({ notificationsDisabled: ['spam_complaint'] })
      .where(inArray(users.id, optedOut));

    const body = { profile: sender.id, text: 'Hi {member_name}!', segment: { site: siteId, country: 'IS' } };
    const preview = await asAdmin('POST', '/api/admin/mass-messages.php', { ...body, preview: true });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toEqual({ count: 500 });
    const queued = await asAdmin('POST', '/api/admin/mass-messages.php', body);
    expect(queued.statusCode, queued.body).toBe(202);
    const { campaign } = queued.json() as { campaign: { id: number; status: string; count: number } };
    expect(campaign).toMatchObject({ status: 'queued', count: 500 });

    const second = new JobRunner(deps.db, clock, {
      reportCaught: deps.caught.reportCaught,
      instance: 'second',
    });
    new EngagementService(
      deps.db,
      clock,
      second,
      deps.sites,
      deps.chats,
      deps.likes,
      deps.caught.reportCaught,
    );
    await Promise.all([deps.jobs.runDue(['campaigns.batch']), second.runDue(['campaigns.batch'])]);

    const received = await deps.db
      .select({
        profile: conversations.lowProfileId,
        high: conversations.highProfileId,
        count: sql<number>`count(*)::int`,
      })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(and(eq(messages.senderProfileId, sender.id), eq(messages.automated, true)))
      .groupBy(conversations.lowProfileId, conversations.highProfileId);
    const perMember = new Map(
      received.map((row) => [row.profile === sender.id ? row.high : row.profile, row.count]),
    );
    const skippedIds = new Set([
      ...blockers.map((row) => row.id),
      ...memberProfiles.slice(10, 20).map((row) => row.id),
    ]);
    for (const row of memberProfiles) expect(perMember.get(row.id) ?? 0).toBe(skippedIds.has(row.id) ? 0 : 1);
    const recipients = await deps.db
      .select({ status: campaignRecipients.status, count: sql<number>`count(*)::int` })
      .from(campaignRecipients)
      .where(eq(campaignRecipients.campaignId, campaign.id))
      .groupBy(campaignRecipients.status);
    expect(Object.fromEntries(recipients.map((row) => [row.status, row.count]))).toEqual({
      sent: 480,
      skipped: 20,
    });

    const listed = await asAdmin('GET', `/api/admin/mass-messages.php?id=${campaign.id}`);
    expect(listed.json().campaigns).toMatchObject([
      { id: campaign.id, status: 'done', count: 500, sent: 480, skipped: 0 + 20, replied: 0 },
    ]);
  }, 120_000);

  it('answers bad input with 422 in the contract shape', async () => {
    const noText = await asAdmin('POST', '/api/admin/openers.php', {
      site: siteId,
      language: 'en',
      active: true,
      steps: [{ after_minutes: 0, kind: 'message' }],
    });
    expect(noText.statusCode).toBe(422);
    expect(noText.json()).toMatchObject({
      error: 'validation_failed',
      fields: { 'steps.0.text': 'required' },
    });
    const unknownVariable = await asAdmin('POST', '/api/admin/openers.php', {
      site: siteId,
      language: 'en',
      active: true,
      steps: [{ after_minutes: -1, kind: 'message', text: 'Hi {name}' }],
    });
    expect(unknownVariable.statusCode).toBe(422);
    expect(unknownVariable.json().fields).toMatchObject({
      'steps.0.after_minutes': 'invalid',
      'steps.0.text': 'unknown_variable',
    });
    const sender = await freshFictionalProfile(t.app);
    const ages = await asAdmin('POST', '/api/admin/mass-messages.php', {
      profile: sender.id,
      text: 'Hi',
      segment: { site: siteId, min_age: 40, max_age: 30 },
      preview: true,
    });
    expect(ages.statusCode).toBe(422);
    expect(ages.json()).toMatchObject({
      error: 'validation_failed',
      fields: { 'segment.max_age': 'invalid' },
    });
    const member = await signupMember(t.app);
    const notFictional = await asAdmin('POST', '/api/admin/mass-messages.php', {
      profile: (await t.database.db.select().from(profiles).where(eq(profiles.userId, member.userId)))[0]!.id,
      text: 'Hi',
      segment: { site: siteId },
      preview: true,
    });
    expect(notFictional.statusCode).toBe(422);
    expect(notFictional.json().fields).toEqual({ profile: 'invalid' });
  });

  it('lets only admins in: members and operators get 403', async () => {
    const member = await signupMember(t.app);
    for (const cookie of [member.cookie, operator.cookie]) {
      for (const [method, url] of [
        ['GET', '/api/admin/openers.php'],
        ['GET', '/api/admin/mass-messages.php'],
      ] as const) {
        const answer = await t.app.inject({ method, url, headers: { cookie } });
        expect(answer.statusCode).toBe(403);
        expect(['staff_required', 'forbidden']).toContain(answer.json().error);
      }
      const send = await t.app.inject({
        method: 'POST',
        url: '/api/admin/mass-messages.php',
        headers: { cookie },
        payload: { profile: 1, text: 'Hi', segment: { site: siteId } },
      });
      expect(send.statusCode).toBe(403);
    }
  });
});
