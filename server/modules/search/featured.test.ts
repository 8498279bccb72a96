import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goodPassword, nextIp, sessionCookie, uniqueEmail } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

describe('landing pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const { generateDemoMedia } = await import('#server/modules/demo/demo.media.ts');
    await generateDemoMedia(t.app.deps.db, t.app.deps.storage, { maxProfiles: 16 });
  });
  afterAll(() => t.close());

  it('shows public profiles with photos, of the visitor country first', async () => {
    const german = (
      await t.app.inject({ url: '/api/featured.php?limit=6', remoteAddress: '85.214.132.117', headers: {} })
    ).json().profiles;
    expect(german.length).toBeGreaterThan(0);
    expect(german.every((profile: { main_image: unknown }) => profile.main_image !== null)).toBe(true);
    const one = (await t.app.inject({ url: `/api/featured.php?profile=${german[0].id}` })).json().profiles;
    expect(one).toHaveLength(1);
    expect((await t.app.inject({ url: '/api/featured.php?profile=99999999' })).statusCode).toBe(404);
  });

  it('keeps the tracking parameters of a lander URL and stores them on signup', async () => {
    const visit = await t.app.inject({
      url: '/landers/gallery?network=adnet&ref=r7&sub1=blue&utm_source=ignored',
    });
    const cookie = String(visit.headers['set-cookie']);
    expect(cookie).toMatch(/^tracking=/);
    expect(cookie).toMatch(/Max-Age=2592000/);
    const tracking = cookie.split(';')[0]!;
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/signup.php',
      remoteAddress: nextIp(),
      headers: { cookie: tracking },
      payload: { email: uniqueEmail(), name: 'Lander', password: goodPassword, date_of_birth: '1990-01-01' },
    });
    expect(signup.statusCode).toBe(201);
    expect(signup.json().user.trafficsource).toEqual({ network: 'adnet', ref: 'r7', sub1: 'blue' });
  });

  it('sends the first message to the member the visitor signed up from', async () => {
    const [target] = (await t.app.inject({ url: '/api/featured.php?limit=1' })).json().profiles;
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/signup.php',
      remoteAddress: nextIp(),
      payload: {
        email: uniqueEmail(),
        name: 'Visitor',
        password: goodPassword,
        date_of_birth: '1990-01-01',
        profile: target.id,
        signup_message: 'Hi from your landing page!',
      },
    });
    const cookie = sessionCookie(signup);
    const chats = (await t.app.inject({ url: '/api/chats.php', headers: { cookie } })).json().chats;
    expect(chats).toHaveLength(1);
    expect(chats[0]).toMatchObject({
      profile: { id: target.id },
      conversation: { last_message: { text: 'Hi from your landing page!' } },
    });
  });
});
