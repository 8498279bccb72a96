import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { likes } from '#server/db/schema/social.ts';
import { memberChannel } from '#server/lib/member-events.ts';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

describe('likes and matches', () => {
  let t: TestApp;
  const clock = createFakeClock(new Date('2026-03-10T10:00:00Z'));
  beforeAll(async () => {
    t = await createTestApp({}, { clock });
  });
  afterAll(() => t.close());

  const like = (cookie: string, profile: number) =>
    t.app.inject({ method: 'POST', url: '/api/like.php', headers: { cookie }, payload: { profile } });
  const likesOf = async (cookie: string) =>
    (await t.app.inject({ url: '/api/likes.php', headers: { cookie } })).json();

  it('lists received likes new first, clears the flag on view and makes a match of a mutual like', async () => {
    const a = await activeMember(t.app, { name: 'Anna' });
    const b = await activeMember(t.app, { name: 'Bert' });
    const c = await activeMember(t.app, { name: 'Cas' });
    const events: unknown[] = [];
    const stop = t.app.deps.bus.subscribe(memberChannel(b.userId), (event) => events.push(event));

    expect((await like(b.cookie, a.profileId)).json()).toEqual({ match: false });
    clock.advanceMinutes(1);
    expect((await like(c.cookie, a.profileId)).json()).toEqual({ match: false });

    let list = await likesOf(a.cookie);
    expect(list.liked_by).toEqual([
      { id: c.profileId, like_new: true },
      { id: b.profileId, like_new: true },
    ]);
    expect(list.received.map((profile: { name: string }) => profile.name)).toEqual(['Cas', 'Bert']);

    await t.app.inject({ url: `/api/member.php?id=${b.profileId}`, headers: { cookie: a.cookie } });
    await t.app.inject({ url: `/api/member.php?id=${c.profileId}`, headers: { cookie: a.cookie } });
    list = await likesOf(a.cookie);
    expect(list.liked_by).toEqual([
      { id: c.profileId, like_new: false },
      { id: b.profileId, like_new: false },
    ]);
    const d = await activeMember(t.app, { name: 'Dirk' });
    await like(d.cookie, a.profileId);
    list = await likesOf(a.cookie);
    expect(list.liked_by[0]).toEqual({ id: d.profileId, like_new: true });

    expect((await like(a.cookie, b.profileId)).json()).toEqual({ match: true });
    expect((await likesOf(a.cookie)).matches.map((profile: { id: number }) => profile.id)).toEqual([
      b.profileId,
    ]);
    expect((await likesOf(b.cookie)).matches.map((profile: { id: number }) => profile.id)).toEqual([
      a.profileId,
    ]);
    expect((await likesOf(a.cookie)).profiles.map((profile: { id: number }) => profile.id)).toEqual([
      b.profileId,
    ]);
    // Over Redis the events come back a moment after the answers.
    await vi.waitFor(
      () =>
        expect(events).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ type: 'like', profile: expect.objectContaining({ name: 'Anna' }) }),
            expect.objectContaining({ type: 'match', profile: expect.objectContaining({ name: 'Anna' }) }),
          ]),
        ),
      { timeout: 3000 },
    );
    stop();
  });

  it('names the matches without a conversation as new, whichever page of the chats they would be on', async () => {
    const a = await activeMember(t.app, { name: 'Ada' });
    const talked = await activeMember(t.app, { name: 'Talked' });
    const fresh = await activeMember(t.app, { name: 'Fresh' });
    const onlyLiked = await activeMember(t.app, { name: 'Onesided' });
    for (const other of [talked, fresh]) {
      await like(a.cookie, other.profileId);
      await like(other.cookie, a.profileId);
    }
    await like(onlyLiked.cookie, a.profileId);
    expect((await likesOf(a.cookie)).new_matches.sort()).toEqual([talked.profileId, fresh.profileId].sort());
    const opened = await t.app.inject({
      method: 'POST',
      url: '/api/conversation.php',
      headers: { cookie: talked.cookie },
      payload: { profile: a.profileId },
    });
    expect(opened.statusCode).toBe(200);
    // A conversation either of them opened counts for both sides.
    expect((await likesOf(a.cookie)).new_matches).toEqual([fresh.profileId]);
    expect((await likesOf(talked.cookie)).new_matches).toEqual([]);
    expect((await likesOf(a.cookie)).matches).toHaveLength(2);
  });

  it('refuses liking yourself, a missing profile and a member who blocked you', async () => {
    const a = await activeMember(t.app);
    const b = await activeMember(t.app, { name: 'Blocker' });
    expect((await like(a.cookie, a.profileId)).statusCode).toBe(422);
    expect((await like(a.cookie, 99_999_999)).statusCode).toBe(404);
    await t.app.inject({
      method: 'POST',
      url: '/api/block.php',
      headers: { cookie: b.cookie },
      payload: { profile: a.profileId },
    });
    const blocked = await like(a.cookie, b.profileId);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toMatchObject({ error: 'blocked', name: 'Blocker' });
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/like.php', payload: { profile: b.profileId } }))
        .statusCode,
    ).toBe(403);
  });

  it('allows 4 swipe likes a day, then daily_limit until midnight in the site time zone', async () => {
    const a = await activeMember(t.app);
    const stack = (await t.app.inject({ url: '/api/swipe.php', headers: { cookie: a.cookie } })).json();
    expect(stack.likes_left).toBe(4);
    expect(stack.profiles.length).toBeGreaterThanOrEqual(6);
    const swipe = (profile: number, isLike: boolean, cookie = a.cookie) =>
      t.app.inject({
        method: 'POST',
        url: '/api/swipe.php',
        headers: { cookie },
        payload: { profile, like: isLike },
      });
    for (let i = 0; i < 4; i++) {
      const response = await swipe(stack.profiles[i].id, true);
      expect(response.json()).toEqual({ likes_left: 3 - i, match: false });
    }
    const fifth = await swipe(stack.profiles[4].id, true);
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json()).toMatchObject({
      error: 'daily_limit',
      message: 'You have used all your likes for today.',
    });
    const dutch = await t.app.inject({
      method: 'POST',
      url: '/api/swipe.php',
      headers: { cookie: `${a.cookie}; locale=nl` },
      payload: { profile: stack.profiles[4].id, like: true },
    });
    expect(dutch.json().message).toBe(t.app.deps.translator.t('nl', 'errors:daily_limit'));
    expect((await swipe(stack.profiles[4].id, false)).json()).toEqual({ likes_left: 0, match: false });

    // 10:00 UTC is 11:00 in Amsterdam: 13 hours later it is midnight there.
    clock.advanceMinutes(12 * 60 + 30);
    expect(
      (await t.app.inject({ url: '/api/swipe.php', headers: { cookie: a.cookie } })).json().likes_left,
    ).toBe(0);
    clock.advanceMinutes(60);
    expect(
      (await t.app.inject({ url: '/api/swipe.php', headers: { cookie: a.cookie } })).json().likes_left,
    ).toBe(4);
  });

  it('accepts exactly 4 of 10 swipe likes sent at once', async () => {
    const a = await activeMember(t.app);
    const stack = (await t.app.inject({ url: '/api/swipe.php', headers: { cookie: a.cookie } })).json();
    expect(stack.profiles).toHaveLength(10);
    const responses = await Promise.all(
      stack.profiles.map((profile: { id: number }) =>
        t.app.inject({
          method: 'POST',
          url: '/api/swipe.php',
          headers: { cookie: a.cookie },
          payload: { profile: profile.id, like: true },
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(4);
    expect(statuses.filter((status) => status === 429)).toHaveLength(6);
    for (const response of responses.filter((r) => r.statusCode === 429)) {
      expect(response.json()).toMatchObject({ error: 'daily_limit', likes_left: 0 });
    }
    const given = await t.database.db
      .select()
      .from(likes)
      .where(and(eq(likes.likerProfileId, a.profileId), eq(likes.source, 'swipe')));
    expect(given).toHaveLength(4);
    expect(
      (await t.app.inject({ url: '/api/swipe.php', headers: { cookie: a.cookie } })).json().likes_left,
    ).toBe(0);
  });

  it('keeps liked, passed, blocked and own profiles out of the swipe stack', async () => {
    const a = await activeMember(t.app);
    const first = (await t.app.inject({ url: '/api/swipe.php', headers: { cookie: a.cookie } })).json()
      .profiles;
    const [liked, passed, blocked] = first;
    await t.app.inject({
      method: 'POST',
      url: '/api/swipe.php',
      headers: { cookie: a.cookie },
      payload: { profile: liked.id, like: true },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/swipe.php',
      headers: { cookie: a.cookie },
      payload: { profile: passed.id, like: false },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/block.php',
      headers: { cookie: a.cookie },
      payload: { profile: blocked.id },
    });
    const next = (await t.app.inject({ url: '/api/swipe.php', headers: { cookie: a.cookie } }))
      .json()
      .profiles.map((p: { id: number }) => p.id);
    expect(next).not.toContain(liked.id);
    expect(next).not.toContain(passed.id);
    expect(next).not.toContain(blocked.id);
    expect(next).not.toContain(a.profileId);
  });

  it('auto-likes: a pending like first, else one fictional like a day, else null', async () => {
    const a = await activeMember(t.app);
    const b = await activeMember(t.app, { name: 'Pending' });
    await like(b.cookie, a.profileId);
    const auto = (cookie: string) => t.app.inject({ url: '/api/auto-like.php', headers: { cookie } });
    expect((await auto(a.cookie)).json().profile).toMatchObject({ id: b.profileId, name: 'Pending' });

    const fresh = await activeMember(t.app);
    const fictional = (await auto(fresh.cookie)).json().profile;
    expect(fictional).toMatchObject({ fictional: true });
    await t.app.inject({ url: `/api/member.php?id=${fictional.id}`, headers: { cookie: fresh.cookie } });
    expect((await auto(fresh.cookie)).json().profile).toBeNull();
    expect((await likesOf(fresh.cookie)).liked_by).toEqual([{ id: fictional.id, like_new: false }]);
    expect((await t.app.inject({ url: '/api/auto-like.php' })).json().error).toBe('authentication_required');
  });
});
