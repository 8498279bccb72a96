import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Board } from '#contract/supervision.ts';
import { conversations } from '#server/db/schema/chats.ts';
import { users } from '#server/db/schema/members.ts';
import { staffPasskeys } from '#server/db/schema/security.ts';
import { sites } from '#server/db/schema/sites.ts';
import { staffAudit } from '#server/db/schema/staff.ts';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import {
  freshFictionalProfile,
  newStaffSession,
  signedInStaff,
  type TestStaff,
} from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

describe('supervisor board, lead and outbound', () => {
  let t: TestApp;
  let admin: TestStaff;
  let lead: TestStaff;
  let operator: TestStaff;
  const clock = createFakeClock();
  beforeAll(async () => {
    t = await createTestApp({}, { clock });
    admin = await signedInStaff(t.app, 'admin', { now: clock.now });
    lead = await signedInStaff(t.app, 'lead', { now: clock.now, name: 'Lena Lead' });
    operator = await signedInStaff(t.app, 'operator', { now: clock.now, name: 'Otto Operator' });
  });
  afterAll(() => t.close());

  const call = (
    who: TestStaff | string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { cookie: typeof who === 'string' ? who : who.cookie },
      ...(payload ? { payload } : {}),
    });
  const board = async (who: TestStaff): Promise<Board> => {
    const response = await call(who, 'GET', '/api/admin/board.php');
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  /** A member (of `language`) who wrote to a fresh fictional profile; the conversation id. */
  async function waitingMember(language: string) {
    const member = await activeMember(t.app);
    const profile = await freshFictionalProfile(t.app);
    await t.app.deps.db.update(users).set({ language }).where(eq(users.id, member.userId));
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: member.cookie },
      payload: { profile: profile.id, text: 'Hello there' },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    return { ...member, profile, conversation: sent.json().message.conversation as number };
  }

  it('gives the lead the board, the engagement pages and every operator’s numbers; operators get 403', async () => {
    expect((await call(operator, 'GET', '/api/admin/board.php')).json()).toMatchObject({
      error: 'forbidden',
    });
    expect((await call(operator, 'GET', '/api/admin/openers.php')).statusCode).toBe(403);
    expect((await call(lead, 'GET', '/api/admin/openers.php')).statusCode).toBe(200);
    expect((await call(lead, 'GET', '/api/admin/mass-messages.php')).statusCode).toBe(200);
    // A lead answers members too, and sees the team's numbers; staff management stays the admin's.
    expect((await call(lead, 'GET', '/api/admin/inbox.php')).statusCode).toBe(200);
    const stats = await call(lead, 'GET', '/api/admin/operator-stats.php');
    expect(stats.json().operators.map((row: { staff: { id: number } }) => row.staff.id)).toContain(
      operator.id,
    );
    expect((await call(lead, 'GET', '/api/admin/staff.php')).statusCode).toBe(403);
    expect((await board(admin)).operators.map((row) => row.staff.id)).toContain(lead.id);
  });

  it('counts waiting per site and language, the oldest wait and the waits past the site’s reply target', async () => {
    const [site] = await t.app.deps.db.select().from(sites).limit(1);
    await call(admin, 'PUT', '/api/admin/sites.php', { id: site!.id, reply_target_minutes: 10 });
    const first = await waitingMember('fi');
    clock.advanceMinutes(12);
    await waitingMember('fi');
    const row = (await board(lead)).queues.find((queue) => queue.language === 'fi');
    expect(row).toMatchObject({ waiting: 2, sla_breaches: 1, reply_target_minutes: 10 });
    const [conversation] = await t.app.deps.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, first.conversation));
    expect(row?.oldest_waiting_since).toBe(conversation!.waitingSince!.toISOString());
    // The message write names the waiting member beside the wait (the queue's keys read it).
    expect(conversation!.waitingUserId).toBe(first.userId);
    await call(admin, 'PUT', '/api/admin/sites.php', { id: site!.id, reply_target_minutes: 15 });
  });

  it('shows who is online with their claims and replies in the last hour', async () => {
    const waiting = await waitingMember('sv');
    expect(
      (await call(operator, 'POST', '/api/admin/claim.php', { conversation: waiting.conversation }))
        .statusCode,
    ).toBe(200);
    const claiming = (await board(lead)).operators.find((row) => row.staff.id === operator.id);
    expect(claiming).toMatchObject({ online: true, claims: 1 });
    const replied = await call(operator, 'POST', '/api/admin/reply.php', {
      conversation: waiting.conversation,
      text: 'Hi!',
    });
    expect(replied.statusCode, replied.body).toBe(201);
    const after = (await board(lead)).operators.find((row) => row.staff.id === operator.id);
    expect(after).toMatchObject({ online: true, claims: 0, replies_last_hour: 1 });
    clock.advanceMinutes(61);
    const later = (await board(lead)).operators.find((row) => row.staff.id === operator.id);
    expect(later).toMatchObject({ online: false, replies_last_hour: 0 });
  });

  it('sends a report about a fictional profile’s message to the board with its operator, never to the moderation queue', async () => {
    const waiting = await waitingMember('da');
    const replied = await call(operator, 'POST', '/api/admin/reply.php', {
      conversation: waiting.conversation,
      text: 'A line someone reports',
    });
    expect(replied.statusCode, replied.body).toBe(201);
    const messageId = replied.json().message.id as number;
    const reported = await t.app.inject({
      method: 'POST',
      url: '/api/report.php',
      headers: { cookie: waiting.cookie },
      payload: { message: messageId, reason: 'offensive' },
    });
    expect(reported.statusCode, reported.body).toBe(200);

    const entry = (await board(lead)).reports.find((row) => row.report.message?.id === messageId);
    expect(entry).toMatchObject({
      operator: { id: operator.id, name: 'Otto Operator' },
      profile: { id: waiting.profile.id },
      report: { reason: 'offensive', conversation: waiting.conversation },
    });
    // The moderation queue never shows it, and a moderator cannot ban through it.
    const queue = await call(admin, 'GET', '/api/admin/reports.php?status=all');
    expect(queue.json().reports.map((report: { id: number }) => report.id)).not.toContain(entry!.report.id);
    const ban = await call(admin, 'PUT', '/api/admin/reports.php', {
      id: entry!.report.id,
      action: 'ban',
      reason: 'test',
    });
    expect(ban.statusCode).toBe(404);
    expect(
      (await call(lead, 'PUT', '/api/admin/board.php', { report: entry!.report.id, action: 'ban' })).json(),
    ).toMatchObject({
      error: 'validation_failed',
    });

    const closed = await call(lead, 'PUT', '/api/admin/board.php', {
      report: entry!.report.id,
      action: 'resolve',
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect((await board(lead)).reports.map((row) => row.report.id)).not.toContain(entry!.report.id);
    const again = await call(lead, 'PUT', '/api/admin/board.php', {
      report: entry!.report.id,
      action: 'dismiss',
    });
    expect(again.json()).toMatchObject({ error: 'report_handled' });
    const audit = await t.app.deps.db
      .select()
      .from(staffAudit)
      .where(
        and(eq(staffAudit.action, 'report.resolve'), eq(staffAudit.object, `report:${entry!.report.id}`)),
      );
    expect(audit.map((row) => row.staffId)).toEqual([lead.id]);
  });

  it('closes a report once when two leads close it at the same moment', async () => {
    const waiting = await waitingMember('nl');
    const replied = await call(operator, 'POST', '/api/admin/reply.php', {
      conversation: waiting.conversation,
      text: 'x',
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/report.php',
      headers: { cookie: waiting.cookie },
      payload: { message: replied.json().message.id, reason: 'spam' },
    });
    const id = (await board(lead)).reports.find(
      (row) => row.report.message?.id === replied.json().message.id,
    )!.report.id;
    const other = await signedInStaff(t.app, 'lead', { now: clock.now });
    const answers = await Promise.all(
      [lead, other, lead, other].map((who) =>
        call(who, 'PUT', '/api/admin/board.php', { report: id, action: 'dismiss' }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409, 409]);
  });

  describe('outbound', () => {
    const outbound = (who: TestStaff, profile: number, member: number, text = 'Hi, I saw your profile') =>
      call(who, 'POST', '/api/admin/outbound.php', { profile, member, text });

    it('lets an operator start a conversation only once an admin gave the right, through the one send path', async () => {
      const member = await activeMember(t.app);
      const profile = await freshFictionalProfile(t.app);
      expect((await outbound(operator, profile.id, member.profileId)).json()).toMatchObject({
        error: 'forbidden',
      });

      const granted = await call(admin, 'PUT', '/api/admin/staff.php', { id: operator.id, outbound: true });
      expect(granted.json().staff).toMatchObject({ outbound: true });
      const sent = await outbound(operator, profile.id, member.profileId);
      expect(sent.statusCode, sent.body).toBe(201);
      const { conversation, message } = sent.json();
      expect(message).toMatchObject({ conversation, text: 'Hi, I saw your profile', credits: 0 });

      // The member has it like any message, unread.
      const chat = await t.app.inject({
        url: `/api/chat.php?conversation=${conversation}`,
        headers: { cookie: member.cookie },
      });
      expect(chat.statusCode, chat.body).toBe(200);
      expect(chat.json().messages.at(-1)).toMatchObject({ id: message.id, mine: false });
      const [entry] = await t.app.deps.db
        .select()
        .from(staffAudit)
        .where(and(eq(staffAudit.action, 'outbound'), eq(staffAudit.object, `conversation:${conversation}`)));
      expect(entry).toMatchObject({ staffId: operator.id, detail: { message: message.id } });
      expect((await board(lead)).operators.find((row) => row.staff.id === operator.id)).toMatchObject({
        started_last_hour: 1,
      });
      // A lead may without a grant.
      const other = await activeMember(t.app);
      expect((await outbound(lead, profile.id, other.profileId)).statusCode).toBe(201);
    });

    it('never writes to a member who blocked the profile or opted out, nor starts over a conversation the member wrote in', async () => {
      const profile = await freshFictionalProfile(t.app);
      const blocker = await activeMember(t.app);
      const blocked = await t.app.inject({
        method: 'POST',
        url: '/api/block.php',
        headers: { cookie: blocker.cookie },
        payload: { profile: profile.id },
      });
      expect(blocked.statusCode, blocked.body).toBe(200);
      expect((await outbound(admin, profile.id, blocker.profileId)).json()).toMatchObject({
        error: 'contact_refused',
      });

      const optedOut = await activeMember(t.app);
      await t.app.deps.db
        .update(users)
        .set({ notificationsDisabled: ['unsubscribe'] })
        .where(eq(users.id, optedOut.userId));
      const refused = await outbound(admin, profile.id, optedOut.profileId);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: 'contact_refused' });

      const writer = await activeMember(t.app);
      await t.app.inject({
        method: 'POST',
        url: '/api/chat.php',
        headers: { cookie: writer.cookie },
        payload: { profile: profile.id, text: 'Me first' },
      });
      expect((await outbound(admin, profile.id, writer.profileId)).json()).toMatchObject({
        error: 'conversation_exists',
      });
      // Nothing was written to the refused members: no conversation with the profile exists.
      for (const member of [blocker, optedOut]) {
        const rows = await t.app.deps.db
          .select()
          .from(conversations)
          .where(
            and(
              eq(conversations.lowProfileId, Math.min(member.profileId, profile.id)),
              eq(conversations.highProfileId, Math.max(member.profileId, profile.id)),
            ),
          );
        expect(rows).toEqual([]);
      }
    });

    it('shows nothing of a profile that a member blocks while an outbound message to them is being sent', async () => {
      for (let round = 0; round < 6; round++) {
        const profile = await freshFictionalProfile(t.app);
        const member = await activeMember(t.app);
        const [sent, blocked] = await Promise.all([
          outbound(admin, profile.id, member.profileId, `Round ${round}`),
          t.app.inject({
            method: 'POST',
            url: '/api/block.php',
            headers: { cookie: member.cookie },
            payload: { profile: profile.id },
          }),
        ]);
        expect(blocked.statusCode, blocked.body).toBe(200);
        // Before the block (sent) or after it (refused), never a failure.
        expect([201, 403], sent.body).toContain(sent.statusCode);
        if (sent.statusCode === 403) expect(sent.json().error).toBe('contact_refused');
        // Whichever came first, the member sees nothing of the blocked profile.
        const chats = await t.app.inject({ url: '/api/chats.php', headers: { cookie: member.cookie } });
        expect(chats.json().chats.map((chat: { profile: { id: number } }) => chat.profile.id)).not.toContain(
          profile.id,
        );
        // And nobody writes to them again as that profile.
        expect((await outbound(admin, profile.id, member.profileId)).json()).toMatchObject({
          error: 'contact_refused',
        });
      }
    });
  });

  describe('second factor and sessions', () => {
    it('takes a passkey as the enrolled second factor: no TOTP needed', async () => {
      const fresh = await signedInStaff(t.app, 'operator', { enrol: false });
      expect((await call(fresh, 'GET', '/api/admin/inbox.php')).json()).toMatchObject({
        error: 'otp_enrolment_required',
      });
      // Registering a passkey is open before enrolment (it is the enrolment).
      expect((await call(fresh, 'GET', '/api/admin/passkeys.php')).statusCode).toBe(200);
      await t.app.deps.db.insert(staffPasskeys).values({
        staffId: fresh.id,
        credentialId: `cred-${fresh.id}`,
        publicKey: 'AA',
        name: 'Laptop',
        createdAt: clock.now(),
      });
      expect((await call(fresh, 'GET', '/api/admin/inbox.php')).statusCode).toBe(200);
      expect((await call(fresh, 'GET', '/api/admin/session.php')).json().staff).toMatchObject({
        totp_enabled: false,
        passkey_enabled: true,
      });
    });

    it('ends all other own sessions, and lets an admin list and end a staff member’s sessions', async () => {
      const member = await signedInStaff(t.app, 'operator', { now: clock.now });
      const second = await newStaffSession(t.app, member.id, clock.now());
      const third = await newStaffSession(t.app, member.id, clock.now());
      const ended = await call(member, 'DELETE', '/api/admin/sessions.php', { others: true });
      expect(ended.json()).toEqual({ ok: true, ended: 2 });
      expect((await call(second, 'GET', '/api/admin/session.php')).json()).toMatchObject({
        error: 'staff_required',
      });
      expect((await call(member, 'GET', '/api/admin/session.php')).statusCode).toBe(200);

      const fourth = await newStaffSession(t.app, member.id, clock.now());
      expect(
        (await call(operator, 'GET', `/api/admin/staff-sessions.php?staff=${member.id}`)).statusCode,
      ).toBe(403);
      const listed = await call(admin, 'GET', `/api/admin/staff-sessions.php?staff=${member.id}`);
      expect(listed.json().sessions).toHaveLength(2);
      expect(listed.json().sessions.every((session: { current: boolean }) => !session.current)).toBe(true);
      const one = listed.json().sessions[0].id as number;
      expect(
        (await call(admin, 'DELETE', '/api/admin/staff-sessions.php', { staff: member.id, id: one })).json(),
      ).toEqual({
        ok: true,
        ended: 1,
      });
      const all = await call(admin, 'DELETE', '/api/admin/staff-sessions.php', { staff: member.id });
      expect(all.json()).toEqual({ ok: true, ended: 1 });
      for (const cookie of [member.cookie, third, fourth])
        expect((await call(cookie, 'GET', '/api/admin/session.php')).json()).toMatchObject({
          error: 'staff_required',
        });
    });
  });
});
