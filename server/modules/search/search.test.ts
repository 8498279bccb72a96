import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '#contract/profiles.ts';
import { signupMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

describe('member search', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp();
    cookie = (await signupMember(t.app)).cookie;
  });
  afterAll(() => t.close());

  const search = async (query: string, headers: Record<string, string> = { cookie }) => {
    const response = await t.app.inject({ url: `/api/search.php?${query}`, headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as {
      profiles: Profile[];
      total: number;
      page: number;
      pages: number;
      similar: Profile[];
    };
  };

  it('narrows by each filter', async () => {
    const all = await search('');
    expect(all.total).toBeGreaterThanOrEqual(60);
    const women = await search('gender=female');
    expect(women.total).toBeGreaterThan(0);
    expect(women.total).toBeLessThan(all.total);
    expect(women.profiles.every((profile) => profile.gender === 'female')).toBe(true);

    const german = await search('country=DE');
    expect(german.total).toBeGreaterThan(0);
    expect(german.profiles.every((profile) => profile.country === 'DE')).toBe(true);

    const region = german.profiles[0]!.countryregion!;
    const inRegion = await search(`country=DE&countryregion=${region}`);
    expect(inRegion.profiles.length).toBeGreaterThan(0);
    expect(inRegion.profiles.every((profile) => profile.countryregion === region)).toBe(true);

    const ages = await search('min_age=30&max_age=45');
    expect(ages.total).toBeGreaterThan(0);
    expect(ages.total).toBeLessThan(all.total);
    expect(ages.profiles.every((profile) => profile.age >= 30 && profile.age <= 45)).toBe(true);
  });

  it('pages in a stable order', async () => {
    const first = await search('page=1');
    const second = await search('page=2');
    const again = await search('page=1');
    expect(first.pages).toBe(Math.ceil(first.total / 24));
    expect(first.profiles).toHaveLength(24);
    expect(again.profiles.map((p) => p.id)).toEqual(first.profiles.map((p) => p.id));
    const overlap = second.profiles.filter((profile) =>
      first.profiles.some((other) => other.id === profile.id),
    );
    expect(overlap).toEqual([]);
    const lastActive = [...first.profiles, ...second.profiles].map((profile) => profile.last_active);
    expect(lastActive).toEqual([...lastActive].sort().reverse());
  });

  it('answers a page past the last with no profiles and the real count, with and without filters', async () => {
    for (const filters of ['', 'min_age=20&max_age=30&', 'gender=female&country=DE&']) {
      const first = await search(filters);
      const beyond = await search(`${filters}page=${first.pages + 1}`);
      expect(beyond.profiles, filters).toEqual([]);
      expect(beyond.total, filters).toBe(first.total);
      const far = await search(`${filters}page=99`);
      expect(far.profiles, filters).toEqual([]);
      expect(far.total, filters).toBe(first.total);
    }
  });

  it('adds similar results when few members match', async () => {
    const german = await search('country=DE');
    const region = german.profiles[0]!.countryregion!;
    const narrow = await search(`country=DE&countryregion=${region}&min_age=18&max_age=19&gender=male`);
    expect(narrow.total).toBeLessThan(6);
    expect(narrow.similar.length).toBeGreaterThan(0);
    expect(narrow.similar.some((profile) => narrow.profiles.some((match) => match.id === profile.id))).toBe(
      false,
    );
    const wide = await search('');
    expect(wide.similar).toEqual([]);
  });

  it("keeps to the site's countries and never shows disabled profiles or the member", async () => {
    const dutchSite = await search('', { cookie, host: 'nl.localhost' });
    expect(dutchSite.profiles.every((profile) => ['NL', 'BE'].includes(profile.country))).toBe(true);
    const forced = await search('country=DE', { cookie, host: 'nl.localhost' });
    expect(forced.profiles.every((profile) => ['NL', 'BE'].includes(profile.country))).toBe(true);
    const everyone: Profile[] = [];
    for (let page = 1; page <= (await search('')).pages; page++)
      everyone.push(...(await search(`page=${page}`)).profiles);
    expect(everyone.every((profile) => profile.status === 'active')).toBe(true);
    const own = (await t.app.inject({ url: '/api/profile.php', headers: { cookie } })).json().profile;
    expect(everyone.some((profile) => profile.id === own.id)).toBe(false);
  });

  it('lets visitors search only where the site allows it', async () => {
    const visitor = await t.app.inject({ url: '/api/search.php' });
    expect(visitor.statusCode).toBe(403);
    expect(visitor.json().error).toBe('authentication_required');
    const site = await t.app.deps.sites.resolve('localhost');
    await t.app.deps.sites.update(site.id, { loggedOutSearchTrafficsource: true });
    try {
      expect((await t.app.inject({ url: '/api/search.php' })).statusCode).toBe(403);
      const tracked = await t.app.inject({
        url: '/api/search.php',
        headers: { cookie: 'tracking=%7B%22network%22%3A%22x%22%7D' },
      });
      expect(tracked.statusCode).toBe(200);
      await t.app.deps.sites.update(site.id, { loggedOutSearch: true });
      expect((await t.app.inject({ url: '/api/search.php' })).statusCode).toBe(200);
    } finally {
      await t.app.deps.sites.update(site.id, { loggedOutSearch: false, loggedOutSearchTrafficsource: false });
    }
  });

  it('answers bad filters with validation_failed', async () => {
    const response = await t.app.inject({
      url: '/api/search.php?min_age=12&gender=robot',
      headers: { cookie },
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().fields).sort()).toEqual(['gender', 'min_age']);
  });
});
