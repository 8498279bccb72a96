import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

describe('undo of the last pass in the swipe game', () => {
  let t: TestApp;
  const clock = createFakeClock(new Date('2026-03-10T10:00:00Z'));
  beforeAll(async () => {
    t = await createTestApp({}, { clock });
  });
  afterAll(() => t.close());

  const stack = async (cookie: string): Promise<number[]> =>
    (await t.app.inject({ url: '/api/swipe.php', headers: { cookie } }))
      .json()
      .profiles.map((profile: { id: number }) => profile.id);
  const swipe = (cookie: string, profile: number, like: boolean) =>
    t.app.inject({ method: 'POST', url: '/api/swipe.php', headers: { cookie }, payload: { profile, like } });
  const undo = (cookie: string, profile: number) =>
    t.app.inject({ method: 'POST', url: '/api/swipe-undo.php', headers: { cookie }, payload: { profile } });

  it('brings back the last passed card, and only that one', async () => {
    const a = await activeMember(t.app);
    const [first, second] = await stack(a.cookie);
    await swipe(a.cookie, first!, false);
    clock.advanceMinutes(1);
    await swipe(a.cookie, second!, false);
    expect((await stack(a.cookie)).slice(0, 2)).not.toContain(second);

    // An older pass cannot be taken back.
    const older = await undo(a.cookie, first!);
    expect(older.statusCode).toBe(409);
    expect(older.json().error).toBe('undo_unavailable');

    const back = await undo(a.cookie, second!);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().profile).toMatchObject({ id: second });
    expect(await stack(a.cookie)).toContain(second);
    expect(await stack(a.cookie)).not.toContain(first);
    // Taken back once: asking again finds nothing to undo.
    expect((await undo(a.cookie, second!)).statusCode).toBe(409);
  });

  it('refuses once a like came after the pass, a profile never passed, and visitors', async () => {
    const a = await activeMember(t.app);
    const [passed, liked, other] = await stack(a.cookie);
    await swipe(a.cookie, passed!, false);
    clock.advanceMinutes(1);
    expect((await swipe(a.cookie, liked!, true)).statusCode).toBe(200);
    expect((await undo(a.cookie, passed!)).statusCode).toBe(409);
    expect((await undo(a.cookie, other!)).statusCode).toBe(409);
    expect((await undo(a.cookie, liked!)).statusCode).toBe(409);
    const visitor = await t.app.inject({
      method: 'POST',
      url: '/api/swipe-undo.php',
      payload: { profile: 1 },
    });
    expect(visitor.json().error).toBe('authentication_required');
    const bad = await undo(a.cookie, -3);
    expect(bad.statusCode).toBe(422);
  });

  it('takes a pass back exactly once when undo requests arrive at the same time', async () => {
    const a = await activeMember(t.app);
    const [card] = await stack(a.cookie);
    await swipe(a.cookie, card!, false);
    const answers = await Promise.all(Array.from({ length: 8 }, () => undo(a.cookie, card!)));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.statusCode === 409)).toHaveLength(7);
  });

  it('never offers a like from someone the member just passed on in the auto-like', async () => {
    const a = await activeMember(t.app);
    const b = await activeMember(t.app, { name: 'Passed' });
    await t.app.inject({
      method: 'POST',
      url: '/api/like.php',
      headers: { cookie: b.cookie },
      payload: { profile: a.profileId },
    });
    await swipe(a.cookie, b.profileId, false);
    const offered = (await t.app.inject({ url: '/api/auto-like.php', headers: { cookie: a.cookie } })).json()
      .profile;
    expect(offered?.id).not.toBe(b.profileId);
  });
});
