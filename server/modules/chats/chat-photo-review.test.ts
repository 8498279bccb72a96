import { createRequire } from 'node:module';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatPhotoReviews, messages } from '#server/db/schema/chats.ts';
import { users } from '#server/db/schema/members.ts';
import { memberChannel } from '#server/lib/member-events.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { signedInStaff } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { ThreadScreener } from '../photos/screener.ts';

// Chat photos through the real screening models (decision 060), on the face model package's own
// samples: demo/sample2.jpg (clothed people the classifier rates Porn about 0.5) is held, a plain
// colour is sent at once. On PGlite, or PostgreSQL with DATABASE_URL (the parallel approvals).

const require = createRequire(import.meta.url);
const demo = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo');
const flagged = () => sharp(path.join(demo, 'sample2.jpg')).jpeg().toBuffer();
const plain = () =>
  sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 70, g: 140, b: 90 } } })
    .jpeg()
    .toBuffer();

const boundary = '----chat-photo-review-boundary';
const multipart = (file: Buffer) =>
  Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="c.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);

describe('a chat photo the screening flags', () => {
  const screener = new ThreadScreener();
  let t: TestApp;
  let moderator: string;

  beforeAll(async () => {
    t = await createTestApp({}, { screener });
    moderator = (await signedInStaff(t.app, 'moderator')).cookie;
  });
  afterAll(async () => {
    await t.close();
    await screener.close();
  });

  const send = async (cookie: string, profile: number, file: Buffer) =>
    t.app.inject({
      method: 'POST',
      url: `/api/chat-photo.php?profile=${profile}`,
      headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: multipart(file),
    });
  const credits = async (userId: number) =>
    (await t.database.db.select().from(users).where(eq(users.id, userId)))[0]!.credits;
  const chat = async (cookie: string, conversation: number) =>
    (await t.app.inject({ url: `/api/chat.php?conversation=${conversation}`, headers: { cookie } })).json();
  const decide = (id: number, decision: 'approve' | 'reject') =>
    t.app.inject({
      method: 'PUT',
      url: '/api/admin/chat-photo-queue.php',
      headers: { cookie: moderator },
      payload: { id, decision },
    });
  const eventsOf = (userId: number) => {
    const seen: unknown[] = [];
    const stop = t.app.deps.bus.subscribe(memberChannel(userId), (event) => seen.push(event));
    return { seen, stop };
  };

  it('sends an unflagged photo as before', async () => {
    const sender = await activeMember(t.app);
    const receiver = await activeMember(t.app);
    const response = await send(sender.cookie, receiver.profileId, await plain());
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ credits: 8, message: { kind: 'photo', credits: 2 } });
  });

  it('holds a flagged photo unseen, queues it with its scores, and delivers it once on approval', async () => {
    const sender = await activeMember(t.app);
    const receiver = await activeMember(t.app);
    const response = await send(sender.cookie, receiver.profileId, await flagged());
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.message).toBeUndefined();
    // Paid at the send (signup 10, photo 2), given back only if it is rejected.
    expect(body).toMatchObject({ credits: 8, in_review: { credits: 2 } });
    const { id, conversation } = body.in_review;

    // The receiver sees nothing; the sender sees it in review.
    expect((await chat(receiver.cookie, conversation)).messages).toEqual([]);
    expect((await chat(sender.cookie, conversation)).photos_in_review).toMatchObject([{ id }]);
    expect((await chat(receiver.cookie, conversation)).photos_in_review).toEqual([]);

    const queue = await t.app.inject({ url: '/api/admin/photo-queue.php', headers: { cookie: moderator } });
    const item = queue.json().chat_photos.find((entry: { id: number }) => entry.id === id);
    expect(item).toMatchObject({
      sender: { profile_id: sender.profileId },
      recipient: { profile_id: receiver.profileId },
      credits: 2,
    });
    expect(['explicit', 'apparent_minor']).toContain(item.hold_reason);
    expect(Object.keys(item.screening.nudity)).toEqual(expect.arrayContaining(['Porn', 'Neutral']));

    const live = eventsOf(receiver.userId);
    const senderLive = eventsOf(sender.userId);
    // Two moderators at once: one delivers, the other is told it is decided.
    const answers = await Promise.all([decide(id, 'approve'), decide(id, 'approve')]);
    live.stop();
    senderLive.stop();
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.statusCode === 409)?.json().error).toBe('photo_decided');

    const sent = await t.database.db.select().from(messages).where(eq(messages.conversationId, conversation));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ kind: 'photo', credits: 2, senderProfileId: sender.profileId });
    expect((await chat(receiver.cookie, conversation)).messages).toMatchObject([{ kind: 'photo' }]);
    expect((await chat(sender.cookie, conversation)).photos_in_review).toEqual([]);
    expect(await credits(sender.userId)).toBe(8);
    expect(live.seen).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'message', conversation })]),
    );
    expect(senderLive.seen).toEqual(
      expect.arrayContaining([{ type: 'photo_review', conversation, id, status: 'delivered' }]),
    );
    expect(await decide(id, 'reject')).toMatchObject({ statusCode: 409 });
  });

  it('never delivers a rejected photo and charges nothing for it', async () => {
    const sender = await activeMember(t.app);
    const receiver = await activeMember(t.app);
    const { id, conversation } = (await send(sender.cookie, receiver.profileId, await flagged())).json()
      .in_review;
    const [held] = await t.database.db.select().from(chatPhotoReviews).where(eq(chatPhotoReviews.id, id));
    const senderLive = eventsOf(sender.userId);
    const answers = await Promise.all([decide(id, 'reject'), decide(id, 'reject')]);
    senderLive.stop();
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);

    expect(await credits(sender.userId)).toBe(10);
    expect(
      await t.database.db.select().from(messages).where(eq(messages.conversationId, conversation)),
    ).toEqual([]);
    expect((await chat(sender.cookie, conversation)).photos_in_review).toEqual([]);
    expect(await t.app.deps.storage.get(held!.photoKey)).toBeFalsy();
    expect(senderLive.seen).toEqual(
      expect.arrayContaining([
        { type: 'photo_review', conversation, id, status: 'rejected' },
        { type: 'credits', credits: 10 },
      ]),
    );
    expect(await decide(id, 'approve')).toMatchObject({ statusCode: 409 });
  });

  it.each([
    ['the recipient', 'receiver'],
    ['the sender', 'sender'],
  ] as const)(
    'withdraws an approved photo when %s blocked the other since it was sent: not delivered, refunded',
    async (_, who) => {
      const sender = await activeMember(t.app);
      const receiver = await activeMember(t.app);
      const { id, conversation } = (await send(sender.cookie, receiver.profileId, await flagged())).json()
        .in_review;
      expect(await credits(sender.userId)).toBe(8);
      const [blocker, blocked] = who === 'receiver' ? [receiver, sender] : [sender, receiver];
      const block = await t.app.inject({
        method: 'POST',
        url: '/api/block.php',
        headers: { cookie: blocker.cookie },
        payload: { profile: blocked.profileId },
      });
      expect(block.statusCode).toBe(200);
      const [held] = await t.database.db.select().from(chatPhotoReviews).where(eq(chatPhotoReviews.id, id));
      const senderLive = eventsOf(sender.userId);

      const approved = await decide(id, 'approve');
      senderLive.stop();
      expect(approved.statusCode).toBe(200);
      expect(approved.json()).toEqual({ ok: true, status: 'withdrawn' });
      expect(
        await t.database.db.select().from(messages).where(eq(messages.conversationId, conversation)),
      ).toEqual([]);
      expect(await credits(sender.userId)).toBe(10);
      const [after] = await t.database.db.select().from(chatPhotoReviews).where(eq(chatPhotoReviews.id, id));
      expect(after).toMatchObject({ status: 'withdrawn' });
      expect(await t.app.deps.storage.get(held!.photoKey)).toBeFalsy();
      expect(senderLive.seen).toEqual(
        expect.arrayContaining([
          { type: 'photo_review', conversation, id, status: 'withdrawn' },
          { type: 'credits', credits: 10 },
        ]),
      );
      // Decided once: neither a second approval nor a rejection gives anything back again.
      expect(await decide(id, 'approve')).toMatchObject({ statusCode: 409 });
      expect(await credits(sender.userId)).toBe(10);
    },
  );
});
