import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

describe('marketing mail is opt-in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('is off for a new member, while the other mails are on, until the member ticks it', async () => {
    const member = await activeMember(t.app);
    const settings = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/notifications.php',
          headers: { cookie: member.cookie },
        })
      ).json();
    const fresh = await settings();
    expect(fresh.email).toMatchObject({ messages: true, likes: true, matches: true, news: false });
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/notifications.php',
      headers: { cookie: member.cookie },
      payload: { email: { news: true } },
    });
    expect(saved.statusCode).toBe(200);
    expect((await settings()).email.news).toBe(true);
  });
});
