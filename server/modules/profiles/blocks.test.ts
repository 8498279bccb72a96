import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '#contract/profiles.ts';
import { profiles } from '#server/db/schema/members.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

type Member = Awaited<ReturnType<typeof activeMember>>;
type ChatItem = { profile: { id: number }; conversation: { id: number }; num_unread_messages: number };
type Likes = {
  profiles: Profile[];
  liked_by: { id: number; like_new: boolean }[];
  received: Profile[];
  matches: Profile[];
};

/** A block takes the pair out of both members' lists and counts, whoever blocked whom. */
describe('blocking hides the pair from each other everywhere', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const get = async <T>(url: string, member: Member): Promise<T> => {
    const response = await t.app.inject({ url, headers: { cookie: member.cookie } });
    expect(response.statusCode, `${url} ${response.body}`).toBe(200);
    return response.json() as T;
  };
  const chats = async (member: Member) => (await get<{ chats: ChatItem[] }>('/api/chats.php', member)).chats;
  const unread = async (member: Member) =>
    (await chats(member)).reduce((total, chat) => total + chat.num_unread_messages, 0);
  const likes = (member: Member) => get<Likes>('/api/likes.php', member);
  const newLikes = async (member: Member) =>
    (await likes(member)).liked_by.filter((like) => like.like_new).length;
  const send = (from: Member, to: Member, text: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: from.cookie },
      payload: { profile: to.profileId, text },
    });
  const call = (method: 'POST' | 'DELETE', url: string, from: Member, profile: number) =>
    t.app.inject({ method, url, headers: { cookie: from.cookie }, payload: { profile } });

  /** Two members who wrote to and liked each other, each with a new like; one has unread messages. */
  async function pair(unreadBy: 'a' | 'b') {
    const a = await activeMember(t.app, { name: 'Anna' });
    const b = await activeMember(t.app, { name: 'Bert' });
    // Both recently active, so each is among the other's first swipe cards.
    const soon = new Date(Date.now() + 3600_000);
    for (const id of [a.profileId, b.profileId])
      await t.database.db.update(profiles).set({ lastActiveAt: soon }).where(eq(profiles.id, id));
    const cards = async (member: Member) =>
      (await get<{ profiles: Profile[] }>('/api/swipe.php', member)).profiles.map((profile) => profile.id);
    expect(await cards(a)).toContain(b.profileId);
    expect(await cards(b)).toContain(a.profileId);
    const [reader, writer] = unreadBy === 'a' ? [a, b] : [b, a];
    expect((await send(reader, writer, 'first hello')).statusCode).toBe(201);
    expect((await send(writer, reader, 'second hello')).statusCode).toBe(201);
    expect((await send(writer, reader, 'how are you?')).statusCode).toBe(201);
    expect((await call('POST', '/api/like.php', a, b.profileId)).statusCode).toBe(200);
    expect((await call('POST', '/api/like.php', b, a.profileId)).json()).toEqual({ match: true });
    expect(await unread(reader)).toBe(2);
    expect(await unread(writer)).toBe(0);
    expect(await newLikes(a)).toBe(1);
    expect(await newLikes(b)).toBe(1);
    return { a, b, cards };
  }

  async function expectHiddenFrom(
    viewer: Member,
    other: Member,
    cards: (member: Member) => Promise<number[]>,
  ) {
    const list = await chats(viewer);
    expect(list.some((chat) => chat.profile.id === other.profileId)).toBe(false);
    expect(JSON.stringify(list)).not.toMatch(/first hello|second hello|how are you/);
    expect(await unread(viewer)).toBe(0);
    const own = await likes(viewer);
    expect(own.profiles.some((profile) => profile.id === other.profileId)).toBe(false);
    expect(own.liked_by.some((like) => like.id === other.profileId)).toBe(false);
    expect(own.received.some((profile) => profile.id === other.profileId)).toBe(false);
    expect(own.matches).toEqual([]);
    expect(await newLikes(viewer)).toBe(0);
    const autoLike = await get<{ profile: Profile | null }>('/api/auto-like.php', viewer);
    expect(autoLike.profile?.id).not.toBe(other.profileId);
    expect(await cards(viewer)).not.toContain(other.profileId);
    const search = await get<{ profiles: Profile[] }>('/api/search.php', viewer);
    expect(search.profiles.some((profile) => profile.id === other.profileId)).toBe(false);
  }

  it('takes conversations, unread counts, likes, new-like badges, auto-likes, cards and search from the blocked member', async () => {
    const { a, b, cards } = await pair('b');
    expect((await call('POST', '/api/block.php', a, b.profileId)).statusCode).toBe(200);
    await expectHiddenFrom(b, a, cards);
  });

  it('and from the blocker', async () => {
    const { a, b, cards } = await pair('a');
    expect((await call('POST', '/api/block.php', a, b.profileId)).statusCode).toBe(200);
    await expectHiddenFrom(a, b, cards);
  });

  it('hides a pair blocked before any of this was removed (lists filter blocks either way)', async () => {
    const { a, b } = await pair('a');
    const { blocks } = await import('#server/db/schema/social.ts');
    // A block written straight to the table, as data from before this rule would be.
    await t.database.db
      .insert(blocks)
      .values({ blockerProfileId: b.profileId, blockedProfileId: a.profileId, createdAt: new Date() });
    for (const [viewer, other] of [
      [a, b],
      [b, a],
    ] as const) {
      expect((await chats(viewer)).some((chat) => chat.profile.id === other.profileId)).toBe(false);
      expect(await unread(viewer)).toBe(0);
      const own = await likes(viewer);
      expect(own.profiles.some((profile) => profile.id === other.profileId)).toBe(false);
      expect(own.liked_by).toEqual([]);
      expect(await newLikes(viewer)).toBe(0);
    }
  });

  it('does not bring the conversations or likes back on unblocking; a new message starts afresh', async () => {
    const { a, b } = await pair('a');
    await call('POST', '/api/block.php', b, a.profileId);
    expect((await call('DELETE', '/api/block.php', b, a.profileId)).statusCode).toBe(200);
    for (const member of [a, b]) {
      expect(await chats(member)).toEqual([]);
      expect(await unread(member)).toBe(0);
      const own = await likes(member);
      expect(own.profiles).toEqual([]);
      expect(own.liked_by).toEqual([]);
    }
    expect((await send(a, b, 'sorry about that')).statusCode).toBe(201);
    const [item] = await chats(b);
    expect(item).toMatchObject({ profile: { id: a.profileId }, num_unread_messages: 1 });
    const page = await get<{ messages: { text: string }[] }>(
      `/api/chat.php?conversation=${item!.conversation.id}`,
      b,
    );
    expect(page.messages.map((message) => message.text)).toEqual(['sorry about that']);
  });
});
