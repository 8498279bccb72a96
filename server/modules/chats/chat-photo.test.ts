import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '#server/db/schema/chats.ts';
import { users } from '#server/db/schema/members.ts';
import { photos } from '#server/db/schema/photos.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

const boundary = '----chat-photo-boundary-Q3';

function multipart(file: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="camera.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

async function cameraJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 200, g: 90, b: 40 } } })
    .withExif({ IFD0: { Copyright: 'Secret Owner', Artist: 'Home address' } })
    .jpeg()
    .toBuffer();
}

describe('a chat photo from the device', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const sendPhoto = (cookie: string, query: string, payload: Buffer) =>
    t.app.inject({
      method: 'POST',
      url: `/api/chat-photo.php?${query}`,
      headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });

  /** The private objects behind a message's photo. */
  async function storedOf(messageId: number) {
    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, messageId));
    return [row!.photoKey!, row!.photoThumbKey!];
  }

  it('sends it without EXIF, at the photo price, and never adds it to the profile', async () => {
    const sender = await activeMember(t.app);
    const receiver = await activeMember(t.app);
    const response = await sendPhoto(
      sender.cookie,
      `profile=${receiver.profileId}&client_id=device-photo-1`,
      multipart(await cameraJpeg()),
    );
    expect(response.statusCode).toBe(201);
    // signup_credits 10, photo_credits 2 (demo site defaults)
    expect(response.json()).toMatchObject({ credits: 8, message: { kind: 'photo', credits: 2, mine: true } });
    for (const key of await storedOf(response.json().message.id)) {
      const data = await t.app.deps.storage.get(key);
      expect(data, key).not.toBeNull();
      expect((await sharp(data!).metadata()).exif, key).toBeUndefined();
      expect(data!.includes(Buffer.from('Secret Owner')), key).toBe(false);
    }
    expect(await t.database.db.select().from(photos).where(eq(photos.profileId, sender.profileId))).toEqual(
      [],
    );

    // The receiver sees it in the conversation.
    const chat = await t.app.inject({
      url: `/api/chat.php?conversation=${response.json().message.conversation}`,
      headers: { cookie: receiver.cookie },
    });
    expect(chat.json().messages.at(-1)).toMatchObject({ kind: 'photo', mine: false });
    expect(chat.json().messages.at(-1).photo.thumb_filename).toMatch(/^\/media\/private\//);

    // A repeat (retry after a lost answer) returns the first message, charges nothing, stores nothing.
    const again = await sendPhoto(
      sender.cookie,
      `profile=${receiver.profileId}&client_id=device-photo-1`,
      multipart(await cameraJpeg()),
    );
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ credits: 8, message: { id: response.json().message.id } });
  });

  it('is erased with the account of its sender, like the profile photos', async () => {
    const sender = await activeMember(t.app);
    const receiver = await activeMember(t.app);
    const response = await sendPhoto(
      sender.cookie,
      `profile=${receiver.profileId}&client_id=erased-photo`,
      multipart(await cameraJpeg()),
    );
    expect(response.statusCode).toBe(201);
    const keys = await storedOf(response.json().message.id);
    for (const key of keys) expect(await t.app.deps.storage.get(key), key).not.toBeNull();
    await t.database.db
      .update(users)
      .set({ status: 'pending_deletion', deletionRequestedAt: new Date('2020-01-01T00:00:00Z') })
      .where(eq(users.id, sender.userId));
    expect(await t.app.deps.accounts.eraseExpiredDeletions()).toBeGreaterThanOrEqual(1);
    for (const key of keys) expect(await t.app.deps.storage.get(key), key).toBeNull();
  });

  it('answers 402 without enough credits, and removes what it stored', async () => {
    const sender = await activeMember(t.app);
    const receiver = await activeMember(t.app);
    await t.database.db.update(users).set({ credits: 1 }).where(eq(users.id, sender.userId));
    const puts: string[] = [];
    const removed: string[] = [];
    const storage = t.app.deps.storage;
    const originalPut = storage.put.bind(storage);
    const originalRemove = storage.remove.bind(storage);
    storage.put = async (key, data) => {
      puts.push(key);
      return originalPut(key, data);
    };
    storage.remove = async (key) => {
      removed.push(key);
      return originalRemove(key);
    };
    try {
      const response = await sendPhoto(
        sender.cookie,
        `profile=${receiver.profileId}`,
        multipart(await cameraJpeg()),
      );
      expect(response.statusCode).toBe(402);
      expect(response.json()).toMatchObject({ error: 'insufficient_credits' });
    } finally {
      storage.put = originalPut;
      storage.remove = originalRemove;
    }
    expect(puts).toHaveLength(2);
    expect(removed.sort()).toEqual([...puts].sort());
    for (const key of puts) expect(await storage.get(key)).toBeNull();
    const [user] = await t.database.db.select().from(users).where(eq(users.id, sender.userId));
    expect(user!.credits).toBe(1);
  });

  it('refuses what is not a photo, a malformed recipient, oneself and a visitor without a session', async () => {
    const sender = await activeMember(t.app);
    const receiver = await activeMember(t.app);
    const notPhoto = await sendPhoto(
      sender.cookie,
      `profile=${receiver.profileId}`,
      multipart(Buffer.from('not an image at all')),
    );
    expect(notPhoto.statusCode).toBe(422);
    expect(notPhoto.json()).toMatchObject({ error: 'unsupported_image' });
    const noProfile = await sendPhoto(sender.cookie, 'profile=abc', multipart(await cameraJpeg()));
    expect(noProfile.statusCode).toBe(422);
    expect(noProfile.json()).toMatchObject({ error: 'validation_failed' });
    const self = await sendPhoto(sender.cookie, `profile=${sender.profileId}`, multipart(await cameraJpeg()));
    expect(self.statusCode).toBe(422);
    const anonymous = await sendPhoto('', `profile=${receiver.profileId}`, multipart(await cameraJpeg()));
    expect(anonymous.json()).toMatchObject({ error: 'authentication_required' });
    const sent = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.senderProfileId, sender.profileId));
    expect(sent).toEqual([]);
  });
});
