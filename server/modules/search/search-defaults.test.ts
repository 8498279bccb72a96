import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '#contract/profiles.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

type Answer = {
  profiles: Profile[];
  total: number;
  applied: { gender: string | null; country: string | null; mutual: boolean };
};

describe('search defaults from what the member wants', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const setProfile = (cookie: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: '/api/profile.php', headers: { cookie }, payload });
  const search = async (cookie: string, query = '') => {
    const response = await t.app.inject({ url: `/api/search.php?${query}`, headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Answer;
  };
  const everyone = async (cookie: string, query = '') => {
    const found: Profile[] = [];
    for (let page = 1; page <= 60; page++) {
      const answer = (
        await t.app.inject({
          url: `/api/search.php?${query}&page=${page}`,
          headers: { cookie },
        })
      ).json() as Answer & { pages: number };
      found.push(...answer.profiles);
      if (page >= answer.pages) break;
    }
    return found;
  };

  it("shows a straight man women who seek men, of his country, and never a lesbian's profile", async () => {
    const lesbian = await activeMember(t.app, { name: 'Lotte' });
    await setProfile(lesbian.cookie, { gender: 'female', seeking: 'female', country: 'NL' });
    const straightWoman = await activeMember(t.app, { name: 'Sanne' });
    await setProfile(straightWoman.cookie, { gender: 'female', seeking: 'male', country: 'NL' });
    const man = await activeMember(t.app, { name: 'Mark' });
    await setProfile(man.cookie, { gender: 'male', seeking: 'female', country: 'NL' });

    const first = await search(man.cookie);
    expect(first.applied).toEqual({ gender: 'female', country: 'NL', mutual: true });
    const shown = await everyone(man.cookie);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.every((profile) => profile.gender === 'female' && profile.country === 'NL')).toBe(true);
    expect(shown.every((profile) => profile.seeking !== 'female')).toBe(true);
    expect(shown.some((profile) => profile.id === straightWoman.profileId)).toBe(true);
    expect(shown.some((profile) => profile.id === lesbian.profileId)).toBe(false);

    // Chosen filters win over the defaults; the lesbian stays hidden (she does not seek men).
    const anyone = await everyone(man.cookie, 'gender=any&country=any');
    expect(anyone.some((profile) => profile.gender === 'male')).toBe(true);
    expect(anyone.some((profile) => profile.country !== 'NL')).toBe(true);
    expect(anyone.some((profile) => profile.id === lesbian.profileId)).toBe(false);
    expect((await search(man.cookie, 'gender=any&country=any')).applied).toEqual({
      gender: null,
      country: null,
      mutual: true,
    });
  });

  it('shows a lesbian women who seek women, and a bisexual woman both genders', async () => {
    const lesbian = await activeMember(t.app, { name: 'Iris' });
    await setProfile(lesbian.cookie, { gender: 'female', seeking: 'female', country: 'NL' });
    const man = await activeMember(t.app, { name: 'Tom' });
    await setProfile(man.cookie, { gender: 'male', seeking: 'female', country: 'NL' });
    const shown = await everyone(lesbian.cookie);
    expect(shown.every((profile) => profile.gender === 'female' && profile.seeking !== 'male')).toBe(true);
    expect(shown.some((profile) => profile.id === man.profileId)).toBe(false);

    const bi = await activeMember(t.app, { name: 'Bo' });
    await setProfile(bi.cookie, { gender: 'female', seeking: 'both', country: 'NL' });
    const answer = await search(bi.cookie);
    expect(answer.applied).toEqual({ gender: null, country: 'NL', mutual: true });
    const biShown = await everyone(bi.cookie);
    expect(new Set(biShown.map((profile) => profile.gender))).toEqual(new Set(['female', 'male']));
    expect(biShown.some((profile) => profile.id === man.profileId)).toBe(true);
  });

  it('has no defaults until the member has said whom they seek', async () => {
    const fresh = await activeMember(t.app);
    await setProfile(fresh.cookie, { seeking: 'both' });
    const { db } = t.app.deps;
    const { eq } = await import('drizzle-orm');
    const { profiles } = await import('#server/db/schema/members.ts');
    await db.update(profiles).set({ gender: null, seeking: null }).where(eq(profiles.id, fresh.profileId));
    expect((await search(fresh.cookie)).applied).toEqual({ gender: null, country: null, mutual: false });
  });

  it('answers a bad gender or country with validation_failed', async () => {
    const member = await activeMember(t.app);
    const response = await t.app.inject({
      url: '/api/search.php?gender=robot&country=nowhere',
      headers: { cookie: member.cookie },
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().fields).sort()).toEqual(['country', 'gender']);
  });
});
