import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks } from '#server/db/schema/social.ts';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { profilesNextTo } from '../../../tests/setup/search-profiles.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { deductionsSlack, searchCountCap } from './search.repository.ts';

/** Search counts with their general part kept (SEARCH_COUNT_CACHE_MS), as in production. */
describe('kept search counts', () => {
  let t: TestApp;
  const clock = createFakeClock();
  beforeAll(async () => {
    t = await createTestApp({ SEARCH_COUNT_CACHE_MS: '60000' }, { clock });
  });
  afterAll(() => t.close());

  const menNextTo = (viewer: { userId: number; profileId: number }, count: number, label: string) =>
    profilesNextTo(t.database.db, viewer, count, label);

  const countFor = async (cookie: string) => {
    const answer = await t.app.inject({ url: '/api/search.php?gender=male', headers: { cookie } });
    expect(answer.statusCode, answer.body).toBe(200);
    const { total, total_capped } = answer.json() as { total: number; total_capped: boolean };
    return { total, capped: total_capped };
  };

  it('shows a block at once, and a new member once the kept count has expired', async () => {
    const viewer = await activeMember(t.app);
    const other = await activeMember(t.app);
    const men = await menNextTo(viewer, 5, 'kept');
    const before = await countFor(viewer.cookie);
    expect(before.capped).toBe(false);
    expect(before.total).toBeGreaterThanOrEqual(5);

    // The viewer's block comes off the kept count at once; another viewer's count is not touched.
    await t.database.db
      .insert(blocks)
      .values({ blockerProfileId: viewer.profileId, blockedProfileId: men[0]!.id, createdAt: clock.now() });
    expect(await countFor(viewer.cookie)).toEqual({ total: before.total - 1, capped: false });
    // Blocked by a match counts the same.
    await t.database.db
      .insert(blocks)
      .values({ blockerProfileId: men[1]!.id, blockedProfileId: viewer.profileId, createdAt: clock.now() });
    expect(await countFor(viewer.cookie)).toEqual({ total: before.total - 2, capped: false });
    const othersCount = await countFor(other.cookie);

    // A new member is in the counts within the kept time, not at once.
    await menNextTo(viewer, 1, 'newcomer');
    expect((await countFor(viewer.cookie)).total).toBe(before.total - 2);
    clock.advanceMinutes(2);
    expect((await countFor(viewer.cookie)).total).toBe(before.total - 1);
    expect((await countFor(other.cookie)).total).toBe(othersCount.total + 1);
  });

  it('counts exactly when a viewer blocked more matches than the slack among more than 1,000', async () => {
    const viewer = await activeMember(t.app);
    const base = (await countFor(viewer.cookie)).total;
    const many = searchCountCap + deductionsSlack + 60;
    const men = await menNextTo(viewer, many, 'crowd');
    const blocked = deductionsSlack + 150;
    await t.database.db.insert(blocks).values(
      men.slice(0, blocked).map((man) => ({
        blockerProfileId: viewer.profileId,
        blockedProfileId: man.id,
        createdAt: clock.now(),
      })),
    );
    clock.advanceMinutes(2);
    const own = base + many - blocked;
    expect(own).toBeLessThan(searchCountCap);
    expect(await countFor(viewer.cookie)).toEqual({ total: own, capped: false });
    // Another viewer sees more than 1,000.
    const other = await activeMember(t.app);
    expect(await countFor(other.cookie)).toEqual({ total: searchCountCap, capped: true });
  });
});
