import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailJobs } from '#server/db/schema/mail.ts';
import { users } from '#server/db/schema/members.ts';
import { activeMember, grantCredits } from '../../../tests/setup/members.ts';
import { signedInStaff, type TestStaff } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

// Strikes and appeals with the default rules (decision 054): the 3rd standing strike suspends posting
// for 7 days, the 4th bans.
type TestMember = Awaited<ReturnType<typeof activeMember>>;

describe('strikes and appeals', () => {
  let t: TestApp;
  let moderator: TestStaff;
  beforeAll(async () => {
    t = await createTestApp();
    moderator = await signedInStaff(t.app, 'moderator', { name: 'Mia Moderator' });
  });
  afterAll(() => t.close());

  const staffCall = (method: 'GET' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie: moderator.cookie }, ...(payload ? { payload } : {}) });

  /** A fresh report about the offender (by a fresh reporter), its id. */
  async function reportAbout(offender: TestMember): Promise<number> {
    const reporter = await activeMember(t.app);
    const before = new Set(await openReportIds(offender));
    const reported = await t.app.inject({
      method: 'POST',
      url: '/api/report.php',
      headers: { cookie: reporter.cookie },
      payload: { profile: offender.profileId, reason: 'spam' },
    });
    expect(reported.statusCode).toBe(200);
    const id = (await openReportIds(offender)).find((one) => !before.has(one));
    if (!id) throw new Error('no report');
    return id;
  }
  async function openReportIds(offender: TestMember): Promise<number[]> {
    const reports = (await staffCall('GET', '/api/admin/reports.php?status=open')).json().reports as {
      id: number;
      reported: { profile_id: number } | null;
    }[];
    return reports.filter((r) => r.reported?.profile_id === offender.profileId).map((r) => r.id);
  }
  const warn = (id: number) =>
    staffCall('PUT', '/api/admin/reports.php', { id, action: 'warn', reason: 'house rules' });
  const standing = async (member: TestMember) =>
    (await t.app.inject({ url: '/api/standing.php', headers: { cookie: member.cookie } })).json();
  const send = (from: TestMember, to: TestMember, text: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: from.cookie },
      payload: { profile: to.profileId, text },
    });
  const appeal = (member: TestMember, strike: number, text = 'That was not me') =>
    t.app.inject({
      method: 'POST',
      url: '/api/appeal.php',
      headers: { cookie: member.cookie },
      payload: { strike, text },
    });

  it('counts warnings as strikes: the third suspends posting, an appeal lifts it, the fourth bans', async () => {
    const offender = await activeMember(t.app, { name: 'Otto' });
    const friend = await activeMember(t.app);
    await grantCredits(t.app, offender.userId, 50, true);
    await t.database.db.update(users).set({ language: 'fr' }).where(eq(users.id, offender.userId));
    expect(await standing(offender)).toMatchObject({ strikes: [], standing_strikes: 0, suspend_at: 3 });

    for (const _ of [1, 2]) expect((await warn(await reportAbout(offender))).statusCode).toBe(200);
    expect((await send(offender, friend, 'still allowed')).statusCode).toBe(201);
    expect((await warn(await reportAbout(offender))).statusCode).toBe(200);

    const suspended = await standing(offender);
    expect(suspended.standing_strikes).toBe(3);
    expect(suspended.strikes.map((s: { consequence: string }) => s.consequence)).toEqual([
      'suspension',
      'strike',
      'strike',
    ]);
    expect(suspended.posting_suspended_until).not.toBeNull();
    const refused = await send(offender, friend, 'now refused');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('posting_suspended');
    const mails = await t.database.db.select().from(mailJobs).where(eq(mailJobs.to, offender.email));
    expect(mails.find((mail) => mail.kind === 'postingSuspended')?.subject).toMatch(/suspendus/);
    expect(mails.filter((mail) => mail.kind === 'moderationWarning')).toHaveLength(2);

    // One appeal per action; another member cannot appeal it.
    const suspension = suspended.strikes[0].id as number;
    expect((await appeal(friend, suspension)).statusCode).toBe(404);
    const first = await appeal(offender, suspension);
    expect(first.statusCode).toBe(201);
    expect(first.json().appeal.status).toBe('open');
    const again = await appeal(offender, suspension, 'once more');
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('appeal_exists');

    const queue = (await staffCall('GET', '/api/admin/appeals.php')).json().appeals as {
      id: number;
      strike: { id: number };
      member: { profile_id: number };
    }[];
    const mine = queue.find((item) => item.strike.id === suspension);
    expect(mine).toMatchObject({ member: { profile_id: offender.profileId }, status: 'open' });
    const granted = await staffCall('PUT', '/api/admin/appeals.php', {
      id: mine?.id,
      decision: 'grant',
      reason: 'wrong member',
    });
    expect(granted.statusCode).toBe(200);
    expect(granted.json().appeal).toMatchObject({
      status: 'granted',
      strike: { lifted: true },
      decided_by: { id: moderator.id },
    });
    const twice = await staffCall('PUT', '/api/admin/appeals.php', {
      id: mine?.id,
      decision: 'refuse',
      reason: 'changed my mind',
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe('appeal_decided');
    expect((await send(offender, friend, 'allowed again')).statusCode).toBe(201);
    const after = await standing(offender);
    expect(after).toMatchObject({ standing_strikes: 2, posting_suspended_until: null });
    expect(after.strikes[0]).toMatchObject({ lifted: true, appeal: { status: 'granted' } });

    // The lifted strike no longer counts: the next warning is the third standing one again.
    expect((await warn(await reportAbout(offender))).statusCode).toBe(200);
    expect((await standing(offender)).strikes[0]).toMatchObject({ number: 3, consequence: 'suspension' });
    expect((await warn(await reportAbout(offender))).statusCode).toBe(200);
    const [banned] = await t.database.db.select().from(users).where(eq(users.id, offender.userId));
    expect(banned?.status).toBe('banned');
    // Many members and reports: generous on a loaded machine.
  }, 240_000);

  it('counts parallel warnings under the member’s lock and takes one appeal of parallel ones', async () => {
    const offender = await activeMember(t.app);
    const reports: number[] = [];
    for (const _ of [1, 2, 3]) reports.push(await reportAbout(offender));
    const answers = await Promise.all(reports.map((id) => warn(id)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    const now = await standing(offender);
    // Without the lock, parallel warnings each count the strikes before them as 0: no suspension.
    expect(now.strikes.map((s: { number: number }) => s.number).sort()).toEqual([1, 2, 3]);
    expect(now.strikes.filter((s: { consequence: string }) => s.consequence === 'suspension')).toHaveLength(
      1,
    );
    expect(now.posting_suspended_until).not.toBeNull();

    const strike = now.strikes[2].id as number;
    const appeals = await Promise.all([1, 2, 3, 4].map((n) => appeal(offender, strike, `appeal ${n}`)));
    expect(appeals.map((answer) => answer.statusCode).sort()).toEqual([201, 409, 409, 409]);
  }, 240_000);
});
