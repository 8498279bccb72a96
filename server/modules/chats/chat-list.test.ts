import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles } from '#server/db/schema/members.ts';
import { createLocalBus } from '#server/lib/event-bus.ts';
import { announceSessionsChanged } from '#server/modules/accounts/session-cache.ts';
import { activeMember, grantCredits } from '../../../tests/setup/members.ts';
import { injectCounted, installStatementCounter } from '../../../tests/setup/statement-count.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { ChatListCache, chatListChangedChannel } from './chat-list-cache.ts';

type Member = Awaited<ReturnType<typeof activeMember>>;

const isMarker = (payload: unknown) => typeof payload === 'object' && payload !== null && 'marker' in payload;

/**
 * Resolves when a marker published now on the list channel has come back: on Redis the app's
 * announcements published before it (one connection, delivered in order) have all arrived by then.
 * Its user id is nobody's, so dropping it drops nothing.
 */
async function busCaughtUp(t: TestApp): Promise<void> {
  const marker = { userId: -1, marker: randomUUID() };
  let stop = () => {};
  const back = new Promise<void>((resolve) => {
    stop = t.app.deps.bus.subscribe(chatListChangedChannel, (payload) => {
      if (isMarker(payload) && (payload as typeof marker).marker === marker.marker) resolve();
    });
  });
  try {
    await t.app.deps.bus.publish(chatListChangedChannel, marker);
    await back;
  } finally {
    stop();
  }
}

const send = (t: TestApp, from: Member, to: Member, text: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/chat.php',
    headers: { cookie: from.cookie },
    payload: { profile: to.profileId, text },
  });

describe('chat list pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('comes a page at a time, newest first, every conversation once, with the next cursor', async () => {
    const member = await activeMember(t.app);
    await grantCredits(t.app, member.userId, 100, true);
    const others: Member[] = [];
    for (let i = 0; i < 7; i++) {
      const other = await activeMember(t.app);
      others.push(other);
      expect((await send(t, member, other, `hello ${i}`)).statusCode).toBe(201);
    }
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=3&cursor=${cursor}` : '?limit=3';
      const page = await t.app.inject({ url: `/api/chats.php${query}`, headers: { cookie: member.cookie } });
      expect(page.statusCode).toBe(200);
      const body = page.json();
      seen.push(...body.chats.map((chat: { profile: { id: number } }) => chat.profile.id));
      cursor = body.next;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    // Newest activity first: the last one written to leads.
    expect(seen).toEqual(others.map((other) => other.profileId).reverse());

    const all = await t.app.inject({ url: '/api/chats.php', headers: { cookie: member.cookie } });
    expect(all.json().chats).toHaveLength(7);
    expect(all.json().next).toBeNull();
  });

  it('refuses a malformed cursor or limit, and reads a cursor past every range as the start', async () => {
    const member = await activeMember(t.app);
    for (const query of [
      'cursor=abc',
      'cursor=1.2.3',
      'cursor=99999999999999999999.1',
      'limit=0',
      'limit=101',
    ]) {
      const answer = await t.app.inject({
        url: `/api/chats.php?${query}`,
        headers: { cookie: member.cookie },
      });
      expect(answer.statusCode, query).toBe(422);
      expect(answer.json().error).toBe('validation_failed');
    }
    const huge = await t.app.inject({
      url: '/api/chats.php?cursor=9999999999999999999.9999999999',
      headers: { cookie: member.cookie },
    });
    expect(huge.statusCode).toBe(200);
    expect(huge.json()).toEqual({ chats: [], next: null });
  });
});

describe('chat list cache', () => {
  it('keeps a list for its TTL, drops a member at once, and never keeps a list read before a drop', () => {
    let now = 1_000;
    const cache = new ChatListCache(5_000, 1024 * 1024, () => now);
    cache.set(1, 'a', '{"chats":[]}', cache.mark());
    cache.set(2, 'a', '{"chats":[1]}', cache.mark());
    expect(cache.get(1, 'a')).toBe('{"chats":[]}');
    now += 5_000;
    expect(cache.get(1, 'a')).toBeUndefined();
    const reading = cache.mark();
    cache.dropUser(2);
    expect(cache.get(2, 'a')).toBeUndefined();
    cache.set(2, 'a', 'stale', reading);
    expect(cache.get(2, 'a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('stays within its bytes, and is off with a TTL of 0', () => {
    const small = new ChatListCache(60_000, 80_000);
    for (let user = 0; user < 50; user++) small.set(user, 'k', 'x'.repeat(1_000), small.mark());
    expect(small.size).toBeLessThanOrEqual(80_000);
    expect(small.get(49, 'k')).toBe('x'.repeat(1_000));
    const off = new ChatListCache(0);
    off.set(1, 'k', 'x', off.mark());
    expect(off.get(1, 'k')).toBeUndefined();
  });

  it('lets parallel misses share one read; a drop or a failure during it makes the next one read again', async () => {
    const cache = new ChatListCache(60_000);
    let reads = 0;
    const gates: Array<{ open(body: string): void; fail(error: Error): void }> = [];
    const read = () =>
      new Promise<string>((resolve, reject) => {
        reads++;
        gates.push({ open: resolve, fail: reject });
      });
    const together = Array.from({ length: 8 }, () => cache.getOrRead(1, 'k', read));
    expect(reads).toBe(1);
    gates[0]?.open('{"chats":[1]}');
    expect(await Promise.all(together)).toEqual(Array(8).fill('{"chats":[1]}'));
    expect(await cache.getOrRead(1, 'k', read)).toBe('{"chats":[1]}');
    expect(reads).toBe(1);

    // A message arrives while the list is being read: that read is neither shared nor kept.
    cache.dropUser(1);
    const before = cache.getOrRead(1, 'k', read);
    cache.dropUser(1);
    const after = cache.getOrRead(1, 'k', read);
    expect(reads).toBe(3);
    gates[1]?.open('old');
    gates[2]?.open('new');
    expect([await before, await after]).toEqual(['old', 'new']);
    expect(cache.get(1, 'k')).toBe('new');

    cache.dropUser(1);
    const failing = cache.getOrRead(1, 'k', read);
    const joined = cache.getOrRead(1, 'k', read);
    gates[3]?.fail(new Error('database gone'));
    await expect(failing).rejects.toThrow('database gone');
    await expect(joined).rejects.toThrow('database gone');
    const again = cache.getOrRead(1, 'k', read);
    expect(reads).toBe(5);
    gates[4]?.open('back');
    expect(await again).toBe('back');
  });

  it('drops a member on either announcement', async () => {
    const bus = createLocalBus();
    const cache = new ChatListCache(60_000);
    const stop = cache.listen(bus);
    cache.set(1, 'k', 'one', cache.mark());
    cache.set(2, 'k', 'two', cache.mark());
    await cache.changed(bus, 1);
    expect(cache.get(1, 'k')).toBeUndefined();
    await announceSessionsChanged(bus, 2);
    expect(cache.get(2, 'k')).toBeUndefined();
    stop();
    await bus.close();
  });
});

describe('chat list cache in the app', () => {
  let t: TestApp;
  beforeAll(async () => {
    installStatementCounter();
    t = await createTestApp({ CHAT_LIST_CACHE_MS: '60000', SESSION_CACHE_MS: '60000' });
    await t.app.ready();
  });
  afterAll(() => t.close());

  const list = (member: Member) =>
    injectCounted(t.app, { url: '/api/chats.php', headers: { cookie: member.cookie } });
  const unreadFrom = async (member: Member, from: Member) => {
    const { response } = await list(member);
    const chat = response
      .json()
      .chats.find((item: { profile: { id: number } }) => item.profile.id === from.profileId);
    return chat?.num_unread_messages as number | undefined;
  };

  it('answers a repeated poll without a query, and shows a new message, a read and a block at once', async () => {
    const member = await activeMember(t.app);
    const writer = await activeMember(t.app);
    await grantCredits(t.app, writer.userId, 100);
    await grantCredits(t.app, member.userId, 100);
    expect((await send(t, writer, member, 'hi there')).statusCode).toBe(201);
    // On Redis the send's announcements also come back here a moment later; a list read while one
    // lands is (rightly) not kept, so the counted poll below waits until they have all come.
    await busCaughtUp(t);

    const first = await list(member);
    expect(first.response.json().chats).toHaveLength(1);
    const again = await list(member);
    expect(again.response.body).toBe(first.response.body);
    expect(again.response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(again.statements, again.statements.join('\n')).toHaveLength(0);

    // A message in: the receiver's list shows it on the next poll.
    expect((await send(t, writer, member, 'are you there?')).statusCode).toBe(201);
    expect(await unreadFrom(member, writer)).toBe(2);

    // Reading the conversation (a GET) sets its unread count to zero in the list at once.
    const conversation = first.response.json().chats[0].conversation.id;
    const read = await t.app.inject({
      url: `/api/chat.php?conversation=${conversation}`,
      headers: { cookie: member.cookie },
    });
    expect(read.statusCode).toBe(200);
    expect(await unreadFrom(member, writer)).toBe(0);

    // The writer blocks the member: the conversation leaves the member's list at once.
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/api/block.php',
      headers: { cookie: writer.cookie },
      payload: { profile: member.profileId },
    });
    expect(blocked.statusCode).toBe(200);
    expect((await list(member)).response.json().chats).toHaveLength(0);
  });

  it('tells every instance that both lists changed when a message is sent, free or paid', async () => {
    const announced: unknown[] = [];
    const stop = t.app.deps.bus.subscribe(chatListChangedChannel, (payload) => announced.push(payload));
    try {
      const sender = await activeMember(t.app);
      const receiver = await activeMember(t.app);
      expect((await send(t, sender, receiver, 'a free first text')).statusCode).toBe(201);
      await grantCredits(t.app, sender.userId, 100);
      expect((await send(t, sender, receiver, 'a paid one')).statusCode).toBe(201);
      await busCaughtUp(t);
      // The sender's cached session is kept after a send, so nothing else drops their list elsewhere.
      expect(announced.filter((payload) => !isMarker(payload))).toEqual([
        { userId: receiver.userId },
        { userId: sender.userId },
        { userId: receiver.userId },
        { userId: sender.userId },
      ]);
    } finally {
      stop();
    }
  });

  it('keeps lists apart per member and per language', async () => {
    const member = await activeMember(t.app);
    const writer = await activeMember(t.app);
    await grantCredits(t.app, writer.userId, 100);
    await t.app.deps.db
      .update(profiles)
      .set({ country: 'DE', countryregion: 'BY' })
      .where(eq(profiles.id, writer.profileId));
    expect((await send(t, writer, member, 'hallo')).statusCode).toBe(201);
    const english = await t.app.inject({
      url: '/api/chats.php',
      headers: { cookie: member.cookie, 'accept-language': 'en' },
    });
    const german = await t.app.inject({
      url: '/api/chats.php',
      headers: { cookie: member.cookie, 'accept-language': 'de' },
    });
    expect(german.headers['content-language']).toBe('de');
    expect(english.headers['content-language']).toBe('en');
    const writersList = await t.app.inject({ url: '/api/chats.php', headers: { cookie: writer.cookie } });
    expect(writersList.json().chats[0].profile.id).toBe(member.profileId);
    expect(english.json().chats[0].profile.id).toBe(writer.profileId);
    expect(english.json().chats[0].profile.region_label).toBe('Bavaria');
    expect(german.json().chats[0].profile.region_label).toBe('Bayern');
  });
});
