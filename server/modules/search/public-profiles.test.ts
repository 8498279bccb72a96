import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '#contract/profiles.ts';
import { profiles } from '#server/db/schema/members.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

/** Real members are never public content: visitors and ad pages see fictional profiles, or members who opted in. */
describe('public profiles', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const { generateDemoMedia } = await import('#server/modules/demo/demo.media.ts');
    await generateDemoMedia(t.app.deps.db, t.app.deps.storage, { maxProfiles: 16 });
  });
  afterAll(() => t.close());

  /** A confirmed member with a photo, active just now in the site's first country: first in any list. */
  async function realMember(name: string) {
    const member = await activeMember(t.app, { name });
    const site = await t.app.deps.sites.resolve('localhost');
    const boundary = '----public-profiles-test';
    const jpeg = await sharp({
      create: { width: 64, height: 64, channels: 3, background: { r: 10, g: 120, b: 200 } },
    })
      .jpeg()
      .toBuffer();
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/photos.php',
      headers: { cookie: member.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="me.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
        jpeg,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(upload.statusCode, upload.body).toBe(201);
    await t.database.db
      .update(profiles)
      .set({ country: site.countries[0]!, lastActiveAt: new Date(Date.now() + 3600_000) })
      .where(eq(profiles.id, member.profileId));
    return member;
  }

  const featured = async (cookie?: string) => {
    const response = await t.app.inject({
      url: '/api/featured.php?limit=24',
      headers: cookie ? { cookie } : {},
    });
    expect(response.statusCode).toBe(200);
    return response.json().profiles as Profile[];
  };
  const featuredOne = (id: number, cookie?: string) =>
    t.app.inject({ url: `/api/featured.php?profile=${id}`, headers: cookie ? { cookie } : {} });
  /** Real members who opted in by now (earlier tests leave some). */
  const optedIn = new Set<number>();
  const setPublic = async (cookie: string, on: boolean) => {
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/profile.php',
      headers: { cookie },
      payload: { public_profile: on },
    });
    const id = response.json().profile.id as number;
    if (on) optedIn.add(id);
    else optedIn.delete(id);
    return response;
  };

  it('keeps a new real member off the home page, the landers and the member landing pages', async () => {
    const real = await realMember('Realperson');
    const listed = await featured();
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((profile) => profile.fictional)).toBe(true);
    expect(listed.some((profile) => profile.id === real.profileId)).toBe(false);

    const landing = await featuredOne(real.profileId);
    expect(landing.statusCode).toBe(404);
    expect(landing.json().error).toBe('not_found');
    expect(landing.body).not.toContain('Realperson');
    expect((await featuredOne(listed[0]!.id)).json().profiles[0].id).toBe(listed[0]!.id);
    expect((await featuredOne(99_999_999)).statusCode).toBe(404);

    // The first matches right after signup come from the same public pool.
    const newcomer = await activeMember(t.app);
    expect((await featured(newcomer.cookie)).some((profile) => profile.id === real.profileId)).toBe(false);
  });

  it('shows a member who opted in from the settings, and only while the setting is on', async () => {
    const real = await realMember('Optin');
    const own = async () =>
      (await t.app.inject({ url: '/api/profile.php', headers: { cookie: real.cookie } })).json().profile;
    expect((await own()).public_profile).toBe(false);

    expect((await setPublic(real.cookie, true)).json().profile.public_profile).toBe(true);
    expect((await featured()).some((profile) => profile.id === real.profileId)).toBe(true);
    expect((await featuredOne(real.profileId)).json().profiles[0]).toMatchObject({ name: 'Optin' });

    await setPublic(real.cookie, false);
    expect((await own()).public_profile).toBe(false);
    expect((await featured()).some((profile) => profile.id === real.profileId)).toBe(false);
    expect((await featuredOne(real.profileId)).statusCode).toBe(404);
  });

  it('honours blocks both ways on the landing pages', async () => {
    const owner = await realMember('Owner');
    await setPublic(owner.cookie, true);
    const blocked = await activeMember(t.app);
    const block = (cookie: string, profile: number) =>
      t.app.inject({ method: 'POST', url: '/api/block.php', headers: { cookie }, payload: { profile } });
    expect((await featuredOne(owner.profileId, blocked.cookie)).statusCode).toBe(200);
    expect((await block(owner.cookie, blocked.profileId)).statusCode).toBe(200);
    expect((await featuredOne(owner.profileId, blocked.cookie)).statusCode).toBe(404);
    expect((await featured(blocked.cookie)).some((profile) => profile.id === owner.profileId)).toBe(false);
    expect((await featuredOne(owner.profileId)).statusCode).toBe(200);

    // The viewer blocked a fictional profile: it is gone from that viewer's landing pages too.
    const fictional = (await featured(blocked.cookie))[0]!;
    expect((await block(blocked.cookie, fictional.id)).statusCode).toBe(200);
    expect((await featuredOne(fictional.id, blocked.cookie)).statusCode).toBe(404);
    expect((await featured(blocked.cookie)).some((profile) => profile.id === fictional.id)).toBe(false);
  });

  it('lets visitors search and open only public profiles where the site allows visitors to search', async () => {
    const real = await realMember('Hidden');
    const fictional = (await featured())[0]!;
    const site = await t.app.deps.sites.resolve('localhost');
    expect((await t.app.inject({ url: `/api/member.php?id=${fictional.id}` })).statusCode).toBe(403);
    await t.app.deps.sites.update(site.id, { loggedOutSearch: true });
    try {
      const results: Profile[] = [];
      const first = (await t.app.inject({ url: '/api/search.php' })).json();
      results.push(...first.profiles, ...first.similar);
      expect(results.length).toBeGreaterThan(0);
      expect(results.some((profile) => profile.id === real.profileId)).toBe(false);
      expect(results.every((profile) => profile.fictional || optedIn.has(profile.id))).toBe(true);
      const visitorView = await t.app.inject({ url: `/api/member.php?id=${real.profileId}` });
      expect(visitorView.statusCode).toBe(404);
      expect(visitorView.body).not.toContain('Hidden');
      expect((await t.app.inject({ url: `/api/member.php?id=${fictional.id}` })).statusCode).toBe(200);
      // Members still find and open real members.
      const member = await activeMember(t.app);
      expect(
        (
          await t.app.inject({
            url: `/api/member.php?id=${real.profileId}`,
            headers: { cookie: member.cookie },
          })
        ).statusCode,
      ).toBe(200);
      const memberSearch = (
        await t.app.inject({ url: '/api/search.php', headers: { cookie: member.cookie } })
      ).json().profiles as Profile[];
      expect(memberSearch.some((profile) => profile.id === real.profileId)).toBe(true);
    } finally {
      await t.app.deps.sites.update(site.id, { loggedOutSearch: false });
    }
  });
});
