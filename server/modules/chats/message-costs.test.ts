import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

describe('what a spend costs, before spending', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("answers the member's message, photo and gift costs and free messages left, only to members", async () => {
    const member = await activeMember(t.app);
    const costs = await t.app.inject({ url: '/api/message-costs.php', headers: { cookie: member.cookie } });
    expect(costs.statusCode).toBe(200);
    const settings = (await t.app.inject({ url: '/api/settings.php' })).json();
    expect(costs.json()).toMatchObject({
      message: settings.message_credits,
      photo: settings.photo_credits,
      gift: settings.gift_credits,
      free_messages_left: settings.free_messages,
    });
    expect((await t.app.inject({ url: '/api/message-costs.php' })).statusCode).toBe(403);
  });
});
