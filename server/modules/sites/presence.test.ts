import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { freshFictionalProfile, signedInStaff, type TestStaff } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { isOnline, isStaffed } from './staffing.ts';

const amsterdam = (staffingHours: { day: number; from: string; to: string }[] | null) => ({
  staffingHours,
  timezone: 'Europe/Amsterdam',
});

describe('staffing hours', () => {
  it('are always staffed without a schedule and never with an empty one', () => {
    const at = new Date('2026-11-30T12:00:00Z');
    expect(isStaffed(amsterdam(null), at)).toBe(true);
    expect(isStaffed(amsterdam([]), at)).toBe(false);
  });

  it("read the clock in the site's time zone, Monday = 1", () => {
    const weekdays = amsterdam([{ day: 1, from: '09:00', to: '17:00' }]);
    // 2026-11-30 is a Monday; Amsterdam is UTC+1 in winter.
    expect(isStaffed(weekdays, new Date('2026-11-30T08:00:00Z'))).toBe(true); // 09:00 there
    expect(isStaffed(weekdays, new Date('2026-11-30T07:59:00Z'))).toBe(false);
    expect(isStaffed(weekdays, new Date('2026-11-30T16:00:00Z'))).toBe(false); // 17:00: the end is out
    expect(isStaffed(weekdays, new Date('2026-12-01T08:00:00Z'))).toBe(false); // a Tuesday
    expect(isStaffed({ ...weekdays, timezone: 'America/New_York' }, new Date('2026-11-30T14:00:00Z'))).toBe(
      true,
    );
  });

  it('let a shift whose end is before its start run past midnight into the next day', () => {
    const nights = amsterdam([{ day: 5, from: '22:00', to: '02:00' }]);
    expect(isStaffed(nights, new Date('2026-12-04T21:30:00Z'))).toBe(true); // Friday 22:30
    expect(isStaffed(nights, new Date('2026-12-05T00:30:00Z'))).toBe(true); // Saturday 01:30
    expect(isStaffed(nights, new Date('2026-12-05T01:30:00Z'))).toBe(false); // Saturday 02:30
    expect(isStaffed(nights, new Date('2026-12-04T00:30:00Z'))).toBe(false); // Friday 01:30
    const sunday = amsterdam([{ day: 7, from: '20:00', to: '01:00' }]);
    expect(isStaffed(sunday, new Date('2026-11-29T23:30:00Z'))).toBe(true); // Monday 00:30
  });

  it('show a member online after a visit, a fictional profile only on shift', () => {
    const now = new Date('2026-11-30T12:00:00Z');
    const justNow = new Date(now.getTime() - 60_000);
    const offShift = amsterdam([]);
    expect(isOnline({ fictional: false, lastActiveAt: justNow }, offShift, now)).toBe(true);
    expect(isOnline({ fictional: true, lastActiveAt: justNow }, offShift, now)).toBe(false);
    expect(isOnline({ fictional: true, lastActiveAt: justNow }, amsterdam(null), now)).toBe(true);
    expect(
      isOnline({ fictional: true, lastActiveAt: new Date(now.getTime() - 6 * 60_000) }, amsterdam(null), now),
    ).toBe(false);
  });
});

describe('presence of fictional profiles', () => {
  let t: TestApp;
  let operator: TestStaff;
  let admin: TestStaff;
  const clock = createFakeClock();
  beforeAll(async () => {
    t = await createTestApp({}, { clock });
    operator = await signedInStaff(t.app, 'operator', { now: clock.now });
    admin = await signedInStaff(t.app, 'admin', { now: clock.now });
  });
  afterAll(() => t.close());

  async function conversationWith() {
    const member = await activeMember(t.app);
    const profile = await freshFictionalProfile(t.app);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: member.cookie },
      payload: { profile: profile.id, text: 'Hi, are you there?' },
    });
    expect(sent.statusCode).toBe(201);
    const conversation = sent.json().message.conversation as number;
    const partner = async () => {
      const chat = await t.app.inject({
        url: `/api/chat.php?conversation=${conversation}`,
        headers: { cookie: member.cookie },
      });
      expect(chat.statusCode).toBe(200);
      const body = chat.json() as {
        profile: { online: boolean; last_active: string };
        off_shift_reply_minutes: number | null;
      };
      return { ...body.profile, offShift: body.off_shift_reply_minutes };
    };
    const reply = async (text: string) => {
      const answered = await t.app.inject({
        method: 'POST',
        url: '/api/admin/reply.php',
        headers: { cookie: operator.cookie },
        payload: { conversation, text },
      });
      expect(answered.statusCode).toBe(201);
    };
    const claim = async () => {
      const claimed = await t.app.inject({
        method: 'POST',
        url: '/api/admin/claim.php',
        headers: { cookie: operator.cookie },
        payload: { conversation },
      });
      expect(claimed.statusCode, claimed.body).toBe(200);
    };
    return { partner, reply, claim };
  }

  async function setStaffing(staffingHours: { day: number; from: string; to: string }[] | null) {
    const listed = await t.app.inject({ url: '/api/admin/sites.php', headers: { cookie: admin.cookie } });
    const sites = listed.json().sites as { id: number; is_default: boolean }[];
    for (const site of sites) {
      const saved = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/sites.php',
        headers: { cookie: admin.cookie },
        payload: { id: site.id, staffing_hours: staffingHours },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().site.staffing_hours).toEqual(staffingHours);
    }
  }

  it('makes a fictional profile online with a reply and moves its last activity', async () => {
    await setStaffing(null);
    const { partner, reply } = await conversationWith();
    expect((await partner()).online).toBe(false);
    clock.advanceMinutes(1);
    await reply('Yes, I am here!');
    const after = await partner();
    expect(after.online).toBe(true);
    expect(after.last_active).toBe(clock.now().toISOString());
    clock.advanceMinutes(6);
    expect((await partner()).online).toBe(false);
  });

  it('makes it online while an operator holds one of its conversations', async () => {
    await setStaffing(null);
    const { partner, claim } = await conversationWith();
    clock.advanceMinutes(10);
    expect((await partner()).online).toBe(false);
    await claim();
    expect((await partner()).online).toBe(true);
  });

  it('never shows it online outside its team hours, though its last activity still moves', async () => {
    await setStaffing([]);
    const { partner, reply } = await conversationWith();
    clock.advanceMinutes(1);
    await reply('Late answer');
    const after = await partner();
    expect(after.last_active).toBe(clock.now().toISOString());
    expect(after.online).toBe(false);
    // Off shift, the chat tells the member how fast the team usually answers (the site's setting).
    expect(after.offShift).toBe(180);
    await setStaffing(null);
    const staffed = await partner();
    expect(staffed.online).toBe(true);
    expect(staffed.offShift).toBeNull();
  });

  it('refuses team hours that are not clock times', async () => {
    const listed = await t.app.inject({ url: '/api/admin/sites.php', headers: { cookie: admin.cookie } });
    const id = (listed.json().sites as { id: number }[])[0]!.id;
    for (const staffing_hours of [
      [{ day: 8, from: '09:00', to: '17:00' }],
      [{ day: 1, from: '9:00', to: '17:00' }],
      [{ day: 1, from: '24:00', to: '17:00' }],
      [{ day: 1, from: '09:00', to: '09:00' }],
      'always',
    ]) {
      const saved = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/sites.php',
        headers: { cookie: admin.cookie },
        payload: { id, staffing_hours },
      });
      expect(saved.statusCode, JSON.stringify(staffing_hours)).toBe(422);
      expect(saved.json().error).toBe('validation_failed');
    }
  });
});
