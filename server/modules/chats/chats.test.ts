import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import type { Executor } from '#server/db/client.ts';
import { creditLedger } from '#server/db/schema/credits.ts';
import { users } from '#server/db/schema/members.ts';
import { activeMember, grantCredits, signupMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { testPooler } from '../../../tests/setup/test-database.ts';
import { lockSender, messagesPageWithGifts } from './chats.repository.ts';
import { sharesContactDetails } from './chats.service.ts';

const settingRows = z.object({ rows: z.array(z.object({ value: z.string() })) });

async function balanceAndLedger(t: TestApp, userId: number) {
  const [user] = await t.database.db.select().from(users).where(eq(users.id, userId));
  const [sum] = await t.database.db
    .select({
      total: sql<number>`coalesce(sum(${creditLedger.delta}), 0)::int`,
      rows: sql<number>`count(*)::int`,
    })
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId));
  return { credits: user!.credits, ledgerTotal: sum!.total, ledgerRows: sum!.rows };
}

describe('chats with credits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const send = (cookie: string, payload: Record<string, unknown>, extraCookie = '') =>
    t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: `${cookie}${extraCookie}` },
      payload,
    });

  it('charges per type: free texts first, then message, photo and gift credits through the ledger', async () => {
    const sender = await activeMember(t.app);
    const receiver = await activeMember(t.app);
    // signup_credits of the demo site: 10
    for (let i = 0; i < 3; i++) {
      const free = await send(sender.cookie, { profile: receiver.profileId, text: `free ${i}` });
      expect(free.statusCode).toBe(201);
      expect(free.json()).toMatchObject({ credits: 10, message: { credits: 0, kind: 'text', mine: true } });
    }
    expect((await send(sender.cookie, { profile: receiver.profileId, text: 'paid' })).json()).toMatchObject({
      credits: 9,
      message: { credits: 1 },
    });
    const photoUpload = await t.app.inject({ url: '/api/gifts.php' });
    const gift = photoUpload.json().gifts[0];
    expect(gift).toMatchObject({ credits: 3 });
    expect((await send(sender.cookie, { profile: receiver.profileId, gift: gift.id })).json()).toMatchObject({
      credits: 6,
      message: { kind: 'gift', credits: 3 },
    });
    const state = await balanceAndLedger(t, sender.userId);
    expect(state.credits).toBe(6);
    expect(state.ledgerTotal).toBe(state.credits);
  });

  it("commits a send and a moved read mark without waiting for the WAL's flush, in their transaction only (decision 032)", async () => {
    const sender = await activeMember(t.app);
    const receiver = await activeMember(t.app);
    const synchronousCommit = async (db: Executor) => {
      const result = await db.execute(sql`select current_setting('synchronous_commit') as value`);
      return settingRows.parse(result).rows[0]?.value;
    };
    expect(await synchronousCommit(t.database.db)).toBe('on');
    const inside = await t.database.db.transaction(async (tx) => {
      const before = await synchronousCommit(tx);
      const locked = await lockSender(tx, sender.userId, sender.profileId, receiver.profileId);
      expect(locked?.other?.profile.id).toBe(receiver.profileId);
      // Not a field of the counterpart: the setting's value stays inside the repository.
      expect(locked?.other).not.toHaveProperty('asynchronousCommit');
      return { before, after: await synchronousCommit(tx) };
    });
    expect(inside).toEqual({ before: 'on', after: 'off' });
    // Local to the send's transaction: the connection goes back to the pool committing synchronously.
    expect(await synchronousCommit(t.database.db)).toBe('on');
    expect(
      (await send(sender.cookie, { profile: receiver.profileId, text: 'durable enough' })).statusCode,
    ).toBe(201);
    expect(await synchronousCommit(t.database.db)).toBe('on');

    // A read mark too, when it moves; a page read without a mark commits nothing and changes nothing.
    const sent = (await send(sender.cookie, { profile: receiver.profileId, text: 'read me' })).json();
    const readWith = (markReadUpTo: number | null) =>
      t.database.db.transaction(async (tx) => {
        const page = await messagesPageWithGifts(tx, sent.message.conversation, {
          profileId: receiver.profileId,
          floor: 0,
          limit: 20,
          markReadUpTo,
        });
        return { texts: page.rows.map((row) => row.text), setting: await synchronousCommit(tx) };
      });
    expect(await readWith(null)).toEqual({ texts: ['durable enough', 'read me'], setting: 'on' });
    expect(await readWith(sent.message.id)).toEqual({ texts: ['durable enough', 'read me'], setting: 'off' });
    expect(await synchronousCommit(t.database.db)).toBe('on');
  });

  it('answers 402 with required and credits, and changes nothing', async () => {
    const sender = await activeMember(t.app);
    const receiver = await activeMember(t.app);
    await t.database.db.update(users).set({ paidUser: true }).where(eq(users.id, sender.userId));
    await grantCredits(t.app, sender.userId, -10);
    const before = await balanceAndLedger(t, sender.userId);
    const refused = await send(sender.cookie, { profile: receiver.profileId, text: 'hello' }, '; locale=de');
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toEqual({
      error: 'insufficient_credits',
      required: 1,
      credits: 0,
      message: t.app.deps.translator.t('de', 'errors:insufficient_credits'),
    });
    expect(await balanceAndLedger(t, sender.userId)).toEqual(before);
    expect(
      (await t.app.inject({ url: '/api/chats.php', headers: { cookie: sender.cookie } })).json().chats,
    ).toHaveLength(0);
  });

  it('never overdraws under parallel sends, and the ledger sums to the balance', async () => {
    const sender = await activeMember(t.app);
    const receiver = await activeMember(t.app);
    await t.database.db.update(users).set({ paidUser: true }).where(eq(users.id, sender.userId));
    await grantCredits(t.app, sender.userId, -5);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        send(sender.cookie, { profile: receiver.profileId, text: `race ${i}` }),
      ),
    );
    const statuses = results.map((response) => response.statusCode).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 402)).toHaveLength(5);
    const state = await balanceAndLedger(t, sender.userId);
    expect(state.credits).toBe(0);
    expect(state.ledgerTotal).toBe(0);
  });

  it('lets a member who never paid start only 2 conversations', async () => {
    const sender = await activeMember(t.app);
    const others = [await activeMember(t.app), await activeMember(t.app), await activeMember(t.app)];
    expect((await send(sender.cookie, { profile: others[0]!.profileId, text: 'hi' })).statusCode).toBe(201);
    expect((await send(sender.cookie, { profile: others[1]!.profileId, text: 'hi' })).statusCode).toBe(201);
    const third = await send(sender.cookie, { profile: others[2]!.profileId, text: 'hi' });
    expect(third.statusCode).toBe(403);
    expect(third.json().error).toBe('premium_required');
    expect((await send(others[2]!.cookie, { profile: sender.profileId, text: 'hi there' })).statusCode).toBe(
      201,
    );
    expect(
      (await send(sender.cookie, { profile: others[2]!.profileId, text: 'replying is fine' })).statusCode,
    ).toBe(201);
  });

  it('lets an unconfirmed member send, but nobody can reply until they activate', async () => {
    const unconfirmed = await signupMember(t.app, { name: 'Newbie' });
    const confirmed = await activeMember(t.app);
    expect(
      (await send(unconfirmed.cookie, { profile: confirmed.profileId, text: 'hello!' })).statusCode,
    ).toBe(201);
    const own = (
      await t.app.inject({ url: '/api/profile.php', headers: { cookie: unconfirmed.cookie } })
    ).json().profile;
    const { profiles } = await import('#server/db/schema/members.ts');
    await t.database.db.update(profiles).set({ status: 'active' }).where(eq(profiles.id, own.id));
    const reply = await send(confirmed.cookie, { profile: own.id, text: 'hi back' });
    expect(reply.statusCode).toBe(403);
    expect(reply.json()).toMatchObject({ error: 'not_confirmed', name: 'Newbie' });
    expect(reply.json().message).toContain('Newbie');
  });

  it('refuses messages between blocked members and hides conversations from strangers', async () => {
    const a = await activeMember(t.app, { name: 'Alpha' });
    const b = await activeMember(t.app);
    const stranger = await activeMember(t.app);
    const sent = await send(b.cookie, { profile: a.profileId, text: 'hey' });
    const conversation = sent.json().message.conversation;
    expect(
      (
        await t.app.inject({
          url: `/api/chat.php?conversation=${conversation}`,
          headers: { cookie: stranger.cookie },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: '/api/chat.php',
          headers: { cookie: stranger.cookie },
          payload: { conversation },
        })
      ).statusCode,
    ).toBe(404);
    await t.app.inject({
      method: 'POST',
      url: '/api/block.php',
      headers: { cookie: a.cookie },
      payload: { profile: b.profileId },
    });
    const blocked = await send(b.cookie, { profile: a.profileId, text: 'still there?' });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toMatchObject({
      error: 'blocked',
      name: 'Alpha',
      message: "You're blocked by Alpha",
    });
  });

  it('lists conversations with unread counts, zeroes them on reading and deletes a chat for one side', async () => {
    const a = await activeMember(t.app);
    const b = await activeMember(t.app, { name: 'Bea' });
    await send(b.cookie, { profile: a.profileId, text: 'one' });
    await send(b.cookie, { profile: a.profileId, text: 'two <b>bold</b>' });
    const list = (await t.app.inject({ url: '/api/chats.php', headers: { cookie: a.cookie } })).json().chats;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      profile: { name: 'Bea' },
      num_unread_messages: 2,
      conversation: { last_message: { text: 'two <b>bold</b>', mine: false } },
    });
    const chat = (
      await t.app.inject({
        url: `/api/chat.php?conversation=${list[0].conversation.id}`,
        headers: { cookie: a.cookie },
      })
    ).json();
    expect(chat.messages.map((message: { text: string }) => message.text)).toEqual([
      'one',
      'two <b>bold</b>',
    ]);
    expect(
      (await t.app.inject({ url: '/api/chats.php', headers: { cookie: a.cookie } })).json().chats[0]
        .num_unread_messages,
    ).toBe(0);

    await t.app.inject({
      method: 'DELETE',
      url: '/api/chat.php',
      headers: { cookie: a.cookie },
      payload: { conversation: chat.conversation.id },
    });
    expect(
      (await t.app.inject({ url: '/api/chats.php', headers: { cookie: a.cookie } })).json().chats,
    ).toHaveLength(0);
    expect(
      (await t.app.inject({ url: '/api/chats.php', headers: { cookie: b.cookie } })).json().chats,
    ).toHaveLength(1);
    await send(b.cookie, { profile: a.profileId, text: 'three' });
    const back = (
      await t.app.inject({
        url: `/api/chat.php?conversation=${chat.conversation.id}`,
        headers: { cookie: a.cookie },
      })
    ).json();
    expect(back.messages.map((message: { text: string }) => message.text)).toEqual(['three']);
  });

  it('shows at most the last 200 messages', async () => {
    const a = await activeMember(t.app);
    const b = await activeMember(t.app);
    await grantCredits(t.app, a.userId, 300, true);
    for (let i = 0; i < 205; i++) {
      await t.app.deps.chats.send(
        (await t.app.deps.accounts.reload(a.userId))!,
        await t.app.deps.sites.resolve('localhost'),
        { profile: b.profileId, text: `m${i}` },
      );
    }
    const first = (await t.app.inject({ url: '/api/chats.php', headers: { cookie: b.cookie } })).json()
      .chats[0].conversation.id;
    const seen: string[] = [];
    let page = (
      await t.app.inject({ url: `/api/chat.php?conversation=${first}`, headers: { cookie: b.cookie } })
    ).json();
    seen.unshift(...page.messages.map((message: { text: string }) => message.text));
    while (page.has_older) {
      page = (
        await t.app.inject({
          url: `/api/chat.php?conversation=${first}&before=${page.messages[0].id}`,
          headers: { cookie: b.cookie },
        })
      ).json();
      seen.unshift(...page.messages.map((message: { text: string }) => message.text));
    }
    expect(seen).toHaveLength(200);
    expect(seen[0]).toBe('m5');
    expect(seen.at(-1)).toBe('m204');
    // 205 sends through the one send path, one after another: on PGlite on a busy machine that has
    // taken longer than the default 30 s.
  }, 120_000);

  it('lets a participant, and nobody else, report a message', async () => {
    const a = await activeMember(t.app);
    const b = await activeMember(t.app);
    const stranger = await activeMember(t.app);
    const sent = (await send(a.cookie, { profile: b.profileId, text: 'send me money' })).json().message;
    const report = (cookie: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/report.php',
        headers: { cookie },
        payload: { message: sent.id, reason: 'scam' },
      });
    expect((await report(b.cookie)).json()).toEqual({ ok: true });
    expect((await report(stranger.cookie)).statusCode).toBe(404);
    const { reports } = await import('#server/db/schema/social.ts');
    const [row] = await t.database.db.select().from(reports).where(eq(reports.messageId, sent.id));
    expect(row).toMatchObject({ profileId: a.profileId, reason: 'scam' });
  });

  it('refuses texts over the site length and warns about contact details', async () => {
    const a = await activeMember(t.app);
    const b = await activeMember(t.app);
    const long = await send(a.cookie, { profile: b.profileId, text: 'x'.repeat(1001) });
    expect(long.statusCode).toBe(422);
    expect(long.json().fields).toEqual({ text: 'too_long' });
    const phone = await send(a.cookie, { profile: b.profileId, text: 'call me on +31 6 1234 5678' });
    expect(phone.json().warning).toBe('contact_details');
    expect(sharesContactDetails('mail me at me@example.com')).toBe(true);
    expect(sharesContactDetails('see you at 8 tonight')).toBe(false);
  });
});

describe('free conversations and unconfirmed recipients', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const send = (cookie: string, profile: number, text: string, locale = '') =>
    t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: `${cookie}${locale}` },
      payload: { profile, text },
    });
  const open = (cookie: string, profile: number) =>
    t.app.inject({ method: 'POST', url: '/api/conversation.php', headers: { cookie }, payload: { profile } });
  const chatsOf = async (cookie: string) =>
    (await t.app.inject({ url: '/api/chats.php', headers: { cookie } })).json().chats as {
      profile: { id: number };
    }[];

  it('uses up no free conversation by opening chats without writing', async () => {
    const member = await activeMember(t.app);
    const others = await Promise.all([1, 2, 3, 4].map(() => activeMember(t.app)));
    for (const other of others.slice(0, 3))
      expect((await open(member.cookie, other.profileId)).statusCode).toBe(200);
    expect((await send(member.cookie, others[0]!.profileId, 'first')).statusCode).toBe(201);
    expect((await send(member.cookie, others[1]!.profileId, 'second')).statusCode).toBe(201);
    // Both free conversations (site setting free_conversations: 2) are started now.
    const third = await send(member.cookie, others[2]!.profileId, 'third');
    expect(third.statusCode).toBe(403);
    expect(third.json().error).toBe('premium_required');
    expect((await open(member.cookie, others[3]!.profileId)).json().error).toBe('premium_required');
    // Opening a conversation already started stays possible.
    expect((await open(member.cookie, others[0]!.profileId)).statusCode).toBe(200);
  });

  it('counts a conversation for the member who sent its first message only', async () => {
    const member = await activeMember(t.app);
    const [writer, a, b] = await Promise.all([1, 2, 3].map(() => activeMember(t.app)));
    expect((await open(member.cookie, writer!.profileId)).statusCode).toBe(200);
    expect((await send(writer!.cookie, member.profileId, 'you opened my chat')).statusCode).toBe(201);
    expect((await send(member.cookie, writer!.profileId, 'I did')).statusCode).toBe(201);
    expect((await send(member.cookie, a!.profileId, 'one')).statusCode).toBe(201);
    expect((await send(member.cookie, b!.profileId, 'two')).statusCode).toBe(201);
  });

  it('never lists an empty conversation, for either side', async () => {
    const member = await activeMember(t.app);
    const other = await activeMember(t.app);
    const opened = await open(member.cookie, other.profileId);
    expect(opened.statusCode).toBe(200);
    expect(await chatsOf(member.cookie)).toEqual([]);
    expect(await chatsOf(other.cookie)).toEqual([]);
    // It can still be opened as a page, and shows once a message is in it.
    const page = await t.app.inject({
      url: `/api/chat.php?conversation=${opened.json().conversation}`,
      headers: { cookie: member.cookie },
    });
    expect(page.statusCode).toBe(200);
    expect(page.json().messages).toEqual([]);
    await send(member.cookie, other.profileId, 'now it counts');
    expect((await chatsOf(other.cookie)).map((chat) => chat.profile.id)).toEqual([member.profileId]);
  });

  it('starts exactly the free conversations when first messages to new members race', async () => {
    const member = await activeMember(t.app);
    const others = await Promise.all([1, 2, 3].map(() => activeMember(t.app)));
    const site = await t.app.deps.sites.resolve('localhost');
    expect(site.freeConversations).toBe(2);
    const results = await Promise.all(
      others.map((other, index) => send(member.cookie, other.profileId, `race ${index}`)),
    );
    const statuses = results.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([201, 201, 403]);
    expect(results.find((response) => response.statusCode === 403)!.json().error).toBe('premium_required');
    expect(await chatsOf(member.cookie)).toHaveLength(2);
  });

  it('makes one conversation when two members write each other first at the same moment', async () => {
    for (let round = 0; round < 5; round++) {
      const [one, two] = await Promise.all([activeMember(t.app), activeMember(t.app)]);
      const results = await Promise.all([
        send(one!.cookie, two!.profileId, 'hello'),
        send(two!.cookie, one!.profileId, 'hi'),
      ]);
      expect(results.map((response) => response.statusCode)).toEqual([201, 201]);
      const [first, second] = results.map((response) => response.json().message.conversation as number);
      expect(first).toBe(second);
      const [mine, theirs] = await Promise.all([chatsOf(one!.cookie), chatsOf(two!.cookie)]);
      expect(mine.map((chat) => chat.profile.id)).toEqual([two!.profileId]);
      expect(theirs.map((chat) => chat.profile.id)).toEqual([one!.profileId]);
    }
  });

  it('answers a reply to a member whose e-mail is not confirmed with 403 not_confirmed, translated', async () => {
    const unconfirmed = await signupMember(t.app, { name: 'Fresh' });
    const confirmed = await activeMember(t.app);
    expect((await send(unconfirmed.cookie, confirmed.profileId, 'hello there')).statusCode).toBe(201);
    const [chat] = await chatsOf(confirmed.cookie);
    // The profile stays disabled until the address is confirmed.
    const { profiles } = await import('#server/db/schema/members.ts');
    const [row] = await t.database.db.select().from(profiles).where(eq(profiles.id, chat!.profile.id));
    expect(row!.status).toBe('disabled');
    const reply = await send(confirmed.cookie, chat!.profile.id, 'hi back', '; locale=de');
    expect(reply.statusCode).toBe(403);
    expect(reply.json()).toEqual({
      error: 'not_confirmed',
      name: 'Fresh',
      message: t.app.deps.translator.t('de', 'errors:recipient_not_confirmed', { name: 'Fresh' }),
    });
    expect(reply.json().message).toContain('Fresh');
    // Anybody who never talked with that member learns nothing about the profile.
    const stranger = await activeMember(t.app);
    const probe = await send(stranger.cookie, chat!.profile.id, 'who are you?');
    expect(probe.statusCode).toBe(404);
    expect(probe.body).not.toContain('Fresh');
  });
});

describe('live delivery over WebSocket', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/ws`;
  });
  afterAll(() => t.close());

  function connect(cookie: string) {
    const socket = new WebSocket(base, { headers: { cookie } });
    const frames: { type: string; [key: string]: unknown }[] = [];
    socket.on('message', (data) => frames.push(JSON.parse(String(data))));
    const ready = new Promise<void>((resolve, reject) => {
      socket.on('message', (data) => {
        if (JSON.parse(String(data)).type === 'ready') resolve();
      });
      socket.on('error', reject);
    });
    return { socket, frames, ready };
  }

  /** The first frame of `type` the socket got, once one has come. */
  const frameOf = (frames: { type: string; [key: string]: unknown }[], type: string) =>
    vi.waitFor(
      () => {
        const frame = frames.find((candidate) => candidate.type === type);
        expect(frame, `a ${type} frame`).toBeDefined();
        return frame!;
      },
      { timeout: 3000, interval: 20 },
    );

  it('refuses a socket without a session', async () => {
    const socket = new WebSocket(base);
    const code = await new Promise<number>((resolve) =>
      socket.on('close', (closeCode) => resolve(closeCode)),
    );
    expect(code).toBe(4401);
  });

  it('delivers a message to the receiver as it is sent, and after a reconnect nothing is lost', async () => {
    const a = await activeMember(t.app);
    const b = await activeMember(t.app);
    const live = connect(b.cookie);
    await live.ready;
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: a.cookie },
      payload: { profile: b.profileId, text: 'live one' },
    });
    const delivered = await frameOf(live.frames, 'message');
    expect(delivered).toMatchObject({
      conversation: first.json().message.conversation,
      message: { text: 'live one', mine: false },
    });
    const lastSeen = (delivered.message as { id: number }).id;

    live.socket.close();
    await t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: a.cookie },
      payload: { profile: b.profileId, text: 'missed one' },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: a.cookie },
      payload: { profile: b.profileId, text: 'missed two' },
    });

    const again = connect(b.cookie);
    await again.ready;
    const missed = (
      await t.app.inject({
        url: `/api/chat.php?conversation=${first.json().message.conversation}&after=${lastSeen}`,
        headers: { cookie: b.cookie },
      })
    ).json();
    expect(missed.messages.map((message: { text: string }) => message.text)).toEqual([
      'missed one',
      'missed two',
    ]);
    await t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: a.cookie },
      payload: { profile: b.profileId, text: 'after' },
    });
    // The first message frame after the reconnect: had a missed one been replayed, it would come first.
    await frameOf(again.frames, 'message');
    expect(
      again.frames
        .filter((frame) => frame.type === 'message')
        .map((frame) => (frame.message as { text: string }).text),
    ).toEqual(['after']);
    again.socket.close();
  });
});

if (process.env.DATABASE_URL && process.env.REDIS_URL) {
  describe('two instances on one PostgreSQL and one Redis', () => {
    it('shares sessions and delivers a message sent through one instance to a socket on the other', async () => {
      const first = await createTestApp();
      const { buildApp } = await import('#server/app.ts');
      const second = await buildApp(first.config, {
        database: await (await import('#server/db/client.ts')).connectPostgres(
          first.databaseUrl!,
          3,
          testPooler,
        ),
        web: false,
        redisPrefix: first.redisPrefix,
      });
      try {
        await second.listen({ port: 0, host: '127.0.0.1' });
        const a = await activeMember(first.app);
        const b = await activeMember(first.app);
        expect(
          (await second.inject({ url: '/api/user.php', headers: { cookie: b.cookie } })).json().user.id,
        ).toBe(b.userId);
        const socket = new WebSocket(
          `ws://127.0.0.1:${(second.server.address() as AddressInfo).port}/api/ws`,
          { headers: { cookie: b.cookie } },
        );
        const frames: { type: string; message?: { text: string } }[] = [];
        await new Promise<void>((resolve) =>
          socket.on('message', (data) => {
            const frame = JSON.parse(String(data));
            frames.push(frame);
            if (frame.type === 'ready') resolve();
          }),
        );
        await first.app.inject({
          method: 'POST',
          url: '/api/chat.php',
          headers: { cookie: a.cookie },
          payload: { profile: b.profileId, text: 'across instances' },
        });
        await vi.waitFor(
          () =>
            expect(frames.find((frame) => frame.type === 'message')?.message?.text).toBe('across instances'),
          { timeout: 3000, interval: 20 },
        );
        socket.close();
      } finally {
        await second.close();
        await first.close();
      }
    });
  });
}
