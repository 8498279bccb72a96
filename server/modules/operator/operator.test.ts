import type { AddressInfo } from 'node:net';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { mailJobs } from '#server/db/schema/mail.ts';
import { users } from '#server/db/schema/members.ts';
import { photos } from '#server/db/schema/photos.ts';
import { staff } from '#server/db/schema/staff.ts';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { freshFictionalProfile, signedInStaff, type TestStaff } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { testPooler } from '../../../tests/setup/test-database.ts';

type Frame = { type: string; [key: string]: unknown };

function connect(url: string, cookie: string) {
  const socket = new WebSocket(url, { headers: { cookie } });
  const frames: Frame[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      frames.push(frame);
      if (frame.type === 'ready') resolve();
    });
    socket.on('error', reject);
  });
  return { socket, frames, ready };
}

/** What `check` finds (a frame), once it finds something: vi.waitFor polls it. */
const eventually = <T>(check: () => T | undefined, timeout = 3000): Promise<T> =>
  vi.waitFor(
    () => {
      const value = check();
      expect(value, 'not there yet').toBeDefined();
      return value as T;
    },
    { timeout, interval: 20 },
  );

/** A member who wrote to a fresh fictional profile: the conversation now waits for an operator. */
async function memberWrites(app: FastifyInstance, text = 'Hi Zoe, are you there?') {
  const member = await activeMember(app);
  const profile = await freshFictionalProfile(app);
  const sent = await app.inject({
    method: 'POST',
    url: '/api/chat.php',
    headers: { cookie: member.cookie },
    payload: { profile: profile.id, text },
  });
  if (sent.statusCode !== 201) throw new Error(`send failed: ${sent.body}`);
  return { member, profile, conversation: sent.json().message.conversation as number };
}

type Row = { id: number; member: { id: number }; profile: { id: number }; claimed_by: unknown };
/** The first page of the queue the staff member sees, the claimed rows included. */
const inboxOf = async (app: FastifyInstance, who: TestStaff, query = ''): Promise<Row[]> => {
  const page = (
    await app.inject({ url: `/api/admin/inbox.php${query}`, headers: { cookie: who.cookie } })
  ).json();
  return [...page.conversations, ...page.claimed];
};

/** An inbox frame about the conversation (its row, or its id when it left the queue). */
const inboxFrame = (frame: Frame, conversation: number) =>
  frame.type === 'inbox' && (frame.conversation as { id: number }).id === conversation;

describe('operator console', () => {
  let t: TestApp;
  let operator: TestStaff;
  let colleague: TestStaff;
  let admin: TestStaff;
  const clock = createFakeClock();
  beforeAll(async () => {
    t = await createTestApp({}, { clock });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    operator = await signedInStaff(t.app, 'operator', { name: 'Olivia', now: clock.now });
    colleague = await signedInStaff(t.app, 'operator', { name: 'Oscar', now: clock.now });
    admin = await signedInStaff(t.app, 'admin', { now: clock.now });
    // These two collect claims from test to test; the claim limit has tests of its own (workbench.test.ts).
    await t.database.db
      .update(staff)
      .set({ maxClaims: 1000 })
      .where(inArray(staff.id, [operator.id, colleague.id]));
  });
  afterAll(() => t.close());
  const wsBase = () => `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;

  const post = (who: TestStaff, url: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url, headers: { cookie: who.cookie }, payload });

  it('lists a member’s message to a fictional profile, filters it, and drops it once answered', async () => {
    const { member, profile, conversation } = await memberWrites(t.app, 'Anyone home?');
    const [memberUser] = await t.database.db.select().from(users).where(eq(users.id, member.userId));
    const item = (await inboxOf(t.app, operator)).find((entry) => entry.id === conversation);
    expect(item).toMatchObject({
      member: { id: member.profileId, fictional: false },
      profile: { id: profile.id, fictional: true },
      last_message: { text: 'Anyone home?', mine: false },
      claimed_by: null,
      member_language: memberUser!.language,
      site: { id: memberUser!.siteId },
    });
    expect(
      (await inboxOf(t.app, operator, `?site=${memberUser!.siteId}&language=${memberUser!.language}`)).some(
        (entry) => entry.id === conversation,
      ),
    ).toBe(true);
    const otherLanguage = memberUser!.language === 'fi' ? 'sv' : 'fi';
    expect(
      (await inboxOf(t.app, operator, `?language=${otherLanguage}`)).some(
        (entry) => entry.id === conversation,
      ),
    ).toBe(false);
    expect(
      (await inboxOf(t.app, operator, `?site=${memberUser!.siteId + 1000}`)).some(
        (entry) => entry.id === conversation,
      ),
    ).toBe(false);

    const creditsBefore = memberUser!.credits;
    const reply = await post(operator, '/api/admin/reply.php', {
      conversation,
      text: 'Hi! Yes, here I am 😊',
    });
    expect(reply.statusCode).toBe(201);
    expect(reply.json().message).toMatchObject({ mine: true, credits: 0, text: 'Hi! Yes, here I am 😊' });
    expect((await inboxOf(t.app, operator)).some((entry) => entry.id === conversation)).toBe(false);

    const chat = (
      await t.app.inject({
        url: `/api/chat.php?conversation=${conversation}`,
        headers: { cookie: member.cookie },
      })
    ).json();
    expect(chat.messages.at(-1)).toMatchObject({ text: 'Hi! Yes, here I am 😊', mine: false, credits: 0 });
    const [after] = await t.database.db.select().from(users).where(eq(users.id, member.userId));
    expect(after!.credits).toBe(creditsBefore);

    // The member writes again: back in the queue, waiting since the new message.
    await t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: member.cookie },
      payload: { profile: profile.id, text: 'Great!' },
    });
    expect((await inboxOf(t.app, operator)).find((entry) => entry.id === conversation)).toMatchObject({
      last_message: { text: 'Great!' },
    });
  });

  it('never shows a conversation between two members', async () => {
    const a = await activeMember(t.app);
    const b = await activeMember(t.app);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: a.cookie },
      payload: { profile: b.profileId, text: 'private' },
    });
    const conversation = sent.json().message.conversation;
    expect((await inboxOf(t.app, operator)).some((entry) => entry.id === conversation)).toBe(false);
    for (const [method, url, payload] of [
      ['GET', `/api/admin/conversation.php?id=${conversation}`, undefined],
      ['POST', '/api/admin/claim.php', { conversation }],
      ['POST', '/api/admin/reply.php', { conversation, text: 'hello' }],
      ['POST', '/api/admin/notes.php', { conversation, about: 'member', text: 'x' }],
    ] as const) {
      const response = await t.app.inject({
        method,
        url,
        headers: { cookie: operator.cookie },
        ...(payload ? { payload } : {}),
      });
      expect([url, response.statusCode]).toEqual([url, 404]);
    }
  });

  it('gives a conversation to one operator at a time; a claim ends with the reply or lapses after 5 minutes', async () => {
    const { conversation } = await memberWrites(t.app);
    const first = await post(operator, '/api/admin/claim.php', { conversation });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ conversation, claimed_by: { id: operator.id, name: 'Olivia' } });
    const taken = await post(colleague, '/api/admin/claim.php', { conversation });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error: 'claimed', name: 'Olivia' });
    expect(taken.json().message).toContain('Olivia');
    expect((await post(colleague, '/api/admin/reply.php', { conversation, text: 'me too' })).statusCode).toBe(
      409,
    );
    expect((await inboxOf(t.app, colleague)).find((entry) => entry.id === conversation)?.claimed_by).toEqual({
      id: operator.id,
      name: 'Olivia',
    });

    // Typing renews the claim; without a reply or renewal it lapses after 5 minutes.
    clock.advanceMinutes(4);
    expect((await post(operator, '/api/admin/typing.php', { conversation })).statusCode).toBe(200);
    clock.advanceMinutes(4);
    expect((await post(colleague, '/api/admin/claim.php', { conversation })).statusCode).toBe(409);
    clock.advanceMinutes(2);
    const lapsed = await post(colleague, '/api/admin/claim.php', { conversation });
    expect(lapsed.statusCode).toBe(200);
    expect(
      (await post(colleague, '/api/admin/reply.php', { conversation, text: 'Hello from me' })).statusCode,
    ).toBe(201);
    // The reply ended the claim.
    expect((await post(operator, '/api/admin/claim.php', { conversation })).statusCode).toBe(200);
  });

  it('notifies an offline member of a reply as of any message: one mail per conversation until read', async () => {
    const { member, profile, conversation } = await memberWrites(t.app, 'Will you write back?');
    const newMessageMails = async () =>
      (await t.database.db.select().from(mailJobs).where(eq(mailJobs.to, member.email))).filter(
        (mail) => mail.kind === 'newMessage',
      );
    expect(await newMessageMails()).toHaveLength(0);
    expect((await post(operator, '/api/admin/claim.php', { conversation })).statusCode).toBe(200);
    expect(
      (await post(operator, '/api/admin/reply.php', { conversation, text: 'Of course!' })).statusCode,
    ).toBe(201);
    expect((await post(operator, '/api/admin/claim.php', { conversation })).statusCode).toBe(200);
    expect(
      (await post(operator, '/api/admin/reply.php', { conversation, text: 'Still there?' })).statusCode,
    ).toBe(201);
    const mails = await newMessageMails();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain(profile.name);
    expect(mails[0]!.text).toContain('Of course!');
  });

  it('gives a claim back to the queue when its holder leaves it; nobody else can release it', async () => {
    const { conversation } = await memberWrites(t.app);
    expect((await post(operator, '/api/admin/claim.php', { conversation })).statusCode).toBe(200);
    const release = (who: TestStaff) =>
      t.app.inject({
        method: 'DELETE',
        url: '/api/admin/claim.php',
        headers: { cookie: who.cookie },
        payload: { conversation },
      });
    expect((await release(colleague)).statusCode).toBe(200);
    expect((await post(colleague, '/api/admin/claim.php', { conversation })).statusCode).toBe(409);
    expect((await release(operator)).statusCode).toBe(200);
    expect((await post(colleague, '/api/admin/claim.php', { conversation })).statusCode).toBe(200);
    const log = (
      await t.app.inject({
        url: `/api/admin/audit.php?staff=${operator.id}`,
        headers: { cookie: admin.cookie },
      })
    ).json();
    expect(log.entries[0]).toMatchObject({ action: 'claim.release', object: `conversation:${conversation}` });
  });

  it('cannot answer a member who blocked the profile', async () => {
    const { member, profile, conversation } = await memberWrites(t.app);
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/api/block.php',
      headers: { cookie: member.cookie },
      payload: { profile: profile.id },
    });
    expect(blocked.statusCode).toBe(200);
    const reply = await post(operator, '/api/admin/reply.php', { conversation, text: 'still there?' });
    expect(reply.statusCode).toBe(403);
    expect(reply.json().error).toBe('blocked');
  });

  it("answers through the chat module's one send path; a failing notification is logged and counted, the reply stands", async () => {
    const { conversation } = await memberWrites(t.app);
    const send = vi.spyOn(t.app.deps.chats, 'sendMessage');
    const notify = vi
      .spyOn(t.app.deps.notifications, 'onMessage')
      .mockRejectedValueOnce(new Error('push service down'));
    const failures = async () =>
      (await t.app.deps.metrics.caughtErrors.get()).values.find(
        (value) => value.labels.where === 'chats.notify-recipient',
      )?.value ?? 0;
    const before = await failures();
    try {
      const reply = await post(operator, '/api/admin/reply.php', { conversation, text: 'Yes, I am here!' });
      expect(reply.statusCode).toBe(201);
      expect(send).toHaveBeenCalledTimes(1);
      expect(send.mock.calls[0]![0].kind).toBe('staff');
      expect(notify).toHaveBeenCalledTimes(1);
      expect((await failures()) - before).toBe(1);
      // The site's text rules are the send path's: the same limit and error as for members.
      const long = await post(operator, '/api/admin/reply.php', { conversation, text: 'x'.repeat(5000) });
      expect(long.statusCode).toBe(422);
      expect(long.json().fields).toEqual({ text: 'too_long' });
    } finally {
      send.mockRestore();
      notify.mockRestore();
    }
  });

  it('lets exactly one of two operators win a claim made at the same moment', async () => {
    for (let round = 0; round < 5; round++) {
      const { conversation } = await memberWrites(t.app);
      const results = await Promise.all([
        post(operator, '/api/admin/claim.php', { conversation }),
        post(colleague, '/api/admin/claim.php', { conversation }),
      ]);
      expect(results.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    }
  });

  it('keeps notes about the member and the profile, and they follow them into other conversations', async () => {
    const { member, profile, conversation } = await memberWrites(t.app);
    const aboutMember = await post(operator, '/api/admin/notes.php', {
      conversation,
      about: 'member',
      text: 'Loves sailing, has a dog called Rex',
    });
    expect(aboutMember.statusCode).toBe(201);
    expect(aboutMember.json().note).toMatchObject({
      about: 'member',
      by: { id: operator.id, name: 'Olivia' },
    });
    await post(operator, '/api/admin/notes.php', {
      conversation,
      about: 'profile',
      text: 'Zoe is a nurse in Leeds',
    });

    // The same member writes to another fictional profile: the member note is there, the profile note is not.
    const other = await freshFictionalProfile(t.app);
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: member.cookie },
      payload: { profile: other.id, text: 'Hello you' },
    });
    const view = (
      await t.app.inject({
        url: `/api/admin/conversation.php?id=${second.json().message.conversation}`,
        headers: { cookie: colleague.cookie },
      })
    ).json();
    expect(view.notes.map((note: { text: string }) => note.text)).toEqual([
      'Loves sailing, has a dog called Rex',
    ]);
    expect(view.member.user).toMatchObject({ id: member.userId, paid_user: false });
    expect(view.profile.id).toBe(other.id);

    // Another member writing to the first profile sees the profile's note, not the first member's.
    const stranger = await activeMember(t.app);
    const third = await t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: stranger.cookie },
      payload: { profile: profile.id, text: 'Hey' },
    });
    const strangerView = (
      await t.app.inject({
        url: `/api/admin/conversation.php?id=${third.json().message.conversation}`,
        headers: { cookie: operator.cookie },
      })
    ).json();
    expect(strangerView.notes.map((note: { text: string }) => note.text)).toEqual([
      'Zoe is a nurse in Leeds',
    ]);
  });

  it('writes audit entries for reading a conversation and replying, readable by admins', async () => {
    const { conversation } = await memberWrites(t.app);
    const view = await t.app.inject({
      url: `/api/admin/conversation.php?id=${conversation}`,
      headers: { cookie: operator.cookie },
      remoteAddress: '10.9.8.7',
    });
    expect(view.statusCode).toBe(200);
    expect(view.json().messages).toHaveLength(1);
    const reply = await t.app.inject({
      method: 'POST',
      url: '/api/admin/reply.php',
      headers: { cookie: operator.cookie },
      remoteAddress: '10.9.8.7',
      payload: { conversation, text: 'Nice to hear from you' },
    });
    expect(reply.statusCode).toBe(201);
    const log = (
      await t.app.inject({
        url: `/api/admin/audit.php?staff=${operator.id}`,
        headers: { cookie: admin.cookie },
      })
    ).json();
    const about = log.entries.filter(
      (entry: { object: string }) => entry.object === `conversation:${conversation}`,
    );
    expect(about.map((entry: { action: string }) => entry.action)).toEqual(['reply', 'conversation.read']);
    for (const entry of about) {
      expect(entry).toMatchObject({ staff: { id: operator.id, name: 'Olivia' }, ip: '10.9.8.7' });
      expect(Date.parse(entry.at)).not.toBeNaN();
    }
  });

  it('replies with one of the profile’s own photos only', async () => {
    const { conversation, profile } = await memberWrites(t.app);
    const other = await freshFictionalProfile(t.app);
    const keys = (id: number) => ({
      mainKey: `photos/${id}/main.webp`,
      thumbKey: `photos/${id}/thumb.webp`,
      blurredKey: `photos/${id}/blur.webp`,
      blurredThumbKey: `photos/${id}/blur-thumb.webp`,
      width: 600,
      height: 800,
    });
    await t.database.db.insert(photos).values([
      { profileId: profile.id, ...keys(profile.id) },
      { profileId: other.id, ...keys(other.id) },
    ]);
    const view = (
      await t.app.inject({
        url: `/api/admin/conversation.php?id=${conversation}`,
        headers: { cookie: operator.cookie },
      })
    ).json();
    expect(view.profile_photos).toHaveLength(1);
    const sent = await post(operator, '/api/admin/reply.php', {
      conversation,
      photo: view.profile_photos[0].id,
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().message).toMatchObject({ kind: 'photo', credits: 0 });
    expect(sent.json().message.photo.filename).toContain(`photos/${profile.id}/main.webp`);
    const [foreignPhoto] = await t.database.db.select().from(photos).where(eq(photos.profileId, other.id));
    const foreign = await post(operator, '/api/admin/reply.php', { conversation, photo: foreignPhoto!.id });
    expect(foreign.statusCode).toBe(404);
    const both = await post(operator, '/api/admin/reply.php', { conversation, text: 'x', photo: 1 });
    expect(both.statusCode).toBe(422);
  });

  const memberProfileOf = async (conversation: number) =>
    (
      await t.app.inject({
        url: `/api/admin/conversation.php?id=${conversation}`,
        headers: { cookie: admin.cookie },
      })
    ).json().profile.id as number;

  it('delivers the reply live to the member, shows typing, and tells staff sockets about the queue', async () => {
    const staffSocket = connect(`${wsBase()}/api/admin/ws`, operator.cookie);
    await staffSocket.ready;
    const { member, conversation } = await memberWrites(t.app, 'Live?');
    expect(
      await eventually(() => staffSocket.frames.find((frame) => inboxFrame(frame, conversation))),
    ).toMatchObject({ op: 'add', conversation: { id: conversation, last_message: { text: 'Live?' } } });

    const memberSocket = connect(`${wsBase()}/api/ws`, member.cookie);
    await memberSocket.ready;
    expect((await post(operator, '/api/admin/claim.php', { conversation })).statusCode).toBe(200);
    await eventually(() =>
      staffSocket.frames.find(
        (frame) => frame.type === 'claim' && frame.conversation === conversation && frame.claimed_by !== null,
      ),
    );
    // A message in a claimed conversation goes live to the operator holding it, and to nobody else.
    const otherStaff = connect(`${wsBase()}/api/admin/ws`, colleague.cookie);
    await otherStaff.ready;
    await t.app.inject({
      method: 'POST',
      url: '/api/chat.php',
      headers: { cookie: member.cookie },
      payload: { profile: await memberProfileOf(conversation), text: 'Still there?' },
    });
    expect(
      await eventually(() =>
        staffSocket.frames.find((frame) => frame.type === 'message' && frame.conversation === conversation),
      ),
    ).toMatchObject({ message: { text: 'Still there?', mine: false } });
    expect(
      await eventually(() => otherStaff.frames.find((frame) => inboxFrame(frame, conversation))),
    ).toMatchObject({ op: 'update', conversation: { last_message: { text: 'Still there?' } } });
    expect(otherStaff.frames.some((frame) => frame.type === 'message')).toBe(false);
    otherStaff.socket.close();
    await post(operator, '/api/admin/typing.php', { conversation });
    await eventually(() =>
      memberSocket.frames.find((frame) => frame.type === 'typing' && frame.conversation === conversation),
    );
    await post(operator, '/api/admin/reply.php', { conversation, text: 'Live!' });
    const delivered = await eventually(() =>
      memberSocket.frames.find(
        (frame) => frame.type === 'message' && (frame.message as { text: string }).text === 'Live!',
      ),
    );
    expect(delivered).toMatchObject({ conversation, message: { text: 'Live!', mine: false } });
    expect(
      await eventually(() =>
        staffSocket.frames.find((frame) => inboxFrame(frame, conversation) && frame.op === 'remove'),
      ),
    ).toBeTruthy();
    const unread = (await t.app.inject({ url: '/api/chats.php', headers: { cookie: member.cookie } })).json();
    expect(
      unread.chats.find((chat: { conversation: { id: number } }) => chat.conversation.id === conversation)
        .num_unread_messages,
    ).toBe(1);
    staffSocket.socket.close();
    memberSocket.socket.close();
  });

  it('refuses the staff socket to members', async () => {
    const member = await activeMember(t.app);
    const socket = new WebSocket(`${wsBase()}/api/admin/ws`, { headers: { cookie: member.cookie } });
    const status = await new Promise<number>((resolve) => {
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.on('close', (code) => resolve(code));
    });
    expect(status).toBe(403);
  });

  it('counts replies today with their median waiting time, and the queue per site', async () => {
    const stats = (
      await t.app.inject({ url: '/api/admin/operator-stats.php', headers: { cookie: operator.cookie } })
    ).json();
    expect(stats.replies_today).toBeGreaterThanOrEqual(2);
    expect(stats.median_reply_seconds).toEqual(expect.any(Number));
    expect(stats.waiting.reduce((total: number, site: { count: number }) => total + site.count, 0)).toBe(
      (await inboxOf(t.app, operator)).length,
    );
    // An operator sees their own row only; an admin everyone's, today's replies the same figure.
    expect(stats.operators.map((entry: { staff: { id: number } }) => entry.staff.id)).toEqual([operator.id]);
    expect(stats.operators[0].replies).toBe(stats.replies_today);
    const forAdmin = (
      await t.app.inject({ url: '/api/admin/operator-stats.php', headers: { cookie: admin.cookie } })
    ).json();
    expect(
      forAdmin.operators.find((entry: { staff: { id: number } }) => entry.staff.id === operator.id).replies,
    ).toBe(stats.replies_today);
  });
});

if (process.env.DATABASE_URL && process.env.REDIS_URL) {
  describe('operator console on two instances sharing PostgreSQL and Redis', () => {
    it('delivers a reply sent through instance one to the member’s socket on instance two', async () => {
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
        const base = `ws://127.0.0.1:${(second.server.address() as AddressInfo).port}`;
        const operator = await signedInStaff(first.app, 'operator');
        const staffSocket = connect(`${base}/api/admin/ws`, operator.cookie);
        await staffSocket.ready;
        const { member, conversation } = await memberWrites(first.app, 'Across?');
        await eventually(() => staffSocket.frames.find((frame) => inboxFrame(frame, conversation)));
        const memberSocket = connect(`${base}/api/ws`, member.cookie);
        await memberSocket.ready;
        const reply = await first.app.inject({
          method: 'POST',
          url: '/api/admin/reply.php',
          headers: { cookie: operator.cookie },
          payload: { conversation, text: 'Across instances' },
        });
        expect(reply.statusCode).toBe(201);
        const delivered = await eventually(() =>
          memberSocket.frames.find((frame) => frame.type === 'message'),
        );
        expect(delivered).toMatchObject({ conversation, message: { text: 'Across instances', mine: false } });
        staffSocket.socket.close();
        memberSocket.socket.close();
      } finally {
        await second.close();
        await first.close();
      }
    });
  });
}
