import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeMember, grantCredits } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/counts.php', () => {
  const get = (cookie: string, url: string) => t.app.inject({ url, headers: { cookie } });
  const post = (cookie: string, url: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url, headers: { cookie }, payload });

  /** What the shell showed before, computed from the whole lists. */
  async function fromLists(cookie: string) {
    const chats = (await get(cookie, '/api/chats.php')).json().chats as { num_unread_messages: number }[];
    const likes = (await get(cookie, '/api/likes.php')).json().liked_by as { like_new: boolean }[];
    return {
      unread_messages: chats.reduce((total, chat) => total + chat.num_unread_messages, 0),
      unread_conversations: chats.filter((chat) => chat.num_unread_messages > 0).length,
      new_likes: likes.filter((entry) => entry.like_new).length,
    };
  }

  it('answers the badges the lists would give, through reading, seeing a like and blocking', async () => {
    const me = await activeMember(t.app);
    const writer = await activeMember(t.app);
    const other = await activeMember(t.app);
    const liker = await activeMember(t.app);
    await grantCredits(t.app, writer.userId, 50, true);
    await grantCredits(t.app, other.userId, 50, true);
    await post(writer.cookie, '/api/chat.php', { profile: me.profileId, text: 'one' });
    const second = await post(writer.cookie, '/api/chat.php', { profile: me.profileId, text: 'two' });
    await post(other.cookie, '/api/chat.php', { profile: me.profileId, text: 'hello' });
    await post(liker.cookie, '/api/like.php', { profile: me.profileId });

    const counts = (await get(me.cookie, '/api/counts.php')).json();
    expect(counts).toEqual({ unread_messages: 3, unread_conversations: 2, new_likes: 1, credits: 10 });
    expect(await fromLists(me.cookie)).toEqual({ unread_messages: 3, unread_conversations: 2, new_likes: 1 });

    // Reading a conversation, opening the liker's profile and blocking a writer each lower the badges.
    await get(me.cookie, `/api/chat.php?conversation=${second.json().message.conversation}`);
    await get(me.cookie, `/api/member.php?id=${liker.profileId}`);
    await post(me.cookie, '/api/block.php', { profile: other.profileId });
    const after = (await get(me.cookie, '/api/counts.php')).json();
    expect(after).toEqual({ unread_messages: 0, unread_conversations: 0, new_likes: 0, credits: 10 });
    expect(await fromLists(me.cookie)).toEqual({ unread_messages: 0, unread_conversations: 0, new_likes: 0 });
  });

  it('is for members only', async () => {
    expect((await t.app.inject({ url: '/api/counts.php' })).statusCode).toBe(403);
  });
});
