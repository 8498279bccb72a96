import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitorsPageSize } from '#contract/likes.ts';
import { users } from '#server/db/schema/members.ts';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

type Member = Awaited<ReturnType<typeof activeMember>>;
type VisitorsBody = {
  visitors: { profile: { id: number; name: string; age: number }; visited_at: string; new: boolean }[];
  total: number;
  new_count: number;
  blurred: boolean;
  next_cursor: string | null;
};

describe('who viewed me', () => {
  let t: TestApp;
  const clock = createFakeClock(new Date('2026-11-30T10:00:00Z'));
  beforeAll(async () => {
    t = await createTestApp({}, { clock });
  });
  afterAll(() => t.close());

  const visit = async (visitor: Member, visited: Member) => {
    const page = await t.app.inject({
      url: `/api/member.php?id=${visited.profileId}`,
      headers: { cookie: visitor.cookie },
    });
    expect(page.statusCode).toBe(200);
  };
  const visitorsOf = async (member: Member, cursor?: string) => {
    const answer = await t.app.inject({
      url: `/api/visitors.php${cursor ? `?cursor=${cursor}` : ''}`,
      headers: { cookie: member.cookie },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as VisitorsBody;
  };
  const makePremium = (member: Member) =>
    t.database.db.update(users).set({ paidUser: true }).where(eq(users.id, member.userId));
  const block = (blocker: Member, blocked: Member) =>
    t.app.inject({
      method: 'POST',
      url: '/api/block.php',
      headers: { cookie: blocker.cookie },
      payload: { profile: blocked.profileId },
    });

  it('lists each visitor once a day, veiled for a free member, and marks them seen', async () => {
    const [me, visitor] = [await activeMember(t.app), await activeMember(t.app, { name: 'Visitor' })];
    await visit(visitor, me);
    clock.advanceMinutes(30);
    await visit(visitor, me);
    const first = await visitorsOf(me);
    expect(first.blurred).toBe(true);
    expect(first.total).toBe(1);
    expect(first.new_count).toBe(1);
    expect(first.visitors).toHaveLength(1);
    const [entry] = first.visitors;
    expect(entry?.new).toBe(true);
    expect(entry?.visited_at).toBe(clock.now().toISOString());
    // Who it is stays hidden until the member goes premium.
    expect(entry?.profile.id).toBe(0);
    expect(entry?.profile.name).toBe('');
    expect(JSON.stringify(first)).not.toContain(`"id":${visitor.profileId},`);
    const again = await visitorsOf(me);
    expect(again.new_count).toBe(0);
    expect(again.visitors[0]?.new).toBe(false);

    await makePremium(me);
    const premium = await visitorsOf(me);
    expect(premium.blurred).toBe(false);
    expect(premium.visitors[0]?.profile).toMatchObject({ id: visitor.profileId, name: 'Visitor' });
    // The next day counts as a new visit.
    clock.advanceDays(1);
    await visit(visitor, me);
    const nextDay = await visitorsOf(me);
    expect(nextDay.total).toBe(2);
    expect(nextDay.visitors.map((row) => row.new)).toEqual([true, false]);
  });

  it('records nothing of a premium member who browses invisibly; free members cannot switch it on', async () => {
    const [me, quiet] = [await activeMember(t.app), await activeMember(t.app)];
    const refused = await t.app.inject({
      method: 'PUT',
      url: '/api/profile.php',
      headers: { cookie: quiet.cookie },
      payload: { browse_invisibly: true },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('premium_required');
    await makePremium(quiet);
    const switched = await t.app.inject({
      method: 'PUT',
      url: '/api/profile.php',
      headers: { cookie: quiet.cookie },
      payload: { browse_invisibly: true },
    });
    expect(switched.statusCode, switched.body).toBe(200);
    expect(switched.json().profile.browse_invisibly).toBe(true);
    await visit(quiet, me);
    expect((await visitorsOf(me)).total).toBe(0);
  });

  it('hides a visit when either side blocked the other', async () => {
    const me = await activeMember(t.app);
    const [blockedByMe, blockedMe, stays] = [
      await activeMember(t.app),
      await activeMember(t.app),
      await activeMember(t.app),
    ];
    for (const visitor of [blockedByMe, blockedMe, stays]) await visit(visitor, me);
    expect((await visitorsOf(me)).total).toBe(3);
    expect((await block(me, blockedByMe)).statusCode).toBe(200);
    expect((await block(blockedMe, me)).statusCode).toBe(200);
    await makePremium(me);
    const listed = await visitorsOf(me);
    expect(listed.total).toBe(1);
    expect(listed.visitors.map((row) => row.profile.id)).toEqual([stays.profileId]);
  });

  it('pages newest first with a cursor, every visit once', async () => {
    const me = await activeMember(t.app);
    const visitor = await activeMember(t.app);
    await makePremium(me);
    for (let day = 0; day < visitorsPageSize + 3; day++) {
      await visit(visitor, me);
      clock.advanceDays(1);
    }
    const first = await visitorsOf(me);
    expect(first.total).toBe(visitorsPageSize + 3);
    expect(first.visitors).toHaveLength(visitorsPageSize);
    expect(first.next_cursor).not.toBeNull();
    const second = await visitorsOf(me, first.next_cursor ?? '');
    expect(second.visitors).toHaveLength(3);
    expect(second.next_cursor).toBeNull();
    const times = [...first.visitors, ...second.visitors].map((row) => row.visited_at);
    expect(new Set(times).size).toBe(visitorsPageSize + 3);
    expect([...times].sort().reverse()).toEqual(times);
    const bad = await t.app.inject({ url: '/api/visitors.php?cursor=x', headers: { cookie: me.cookie } });
    expect(bad.statusCode).toBe(422);
  });

  it('is for signed-in members only', async () => {
    const anonymous = await t.app.inject({ url: '/api/visitors.php' });
    expect(anonymous.statusCode).toBe(403);
    expect(anonymous.json().error).toBe('authentication_required');
  });
});
