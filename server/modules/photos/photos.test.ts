import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, messages } from '#server/db/schema/chats.ts';
import { users } from '#server/db/schema/members.ts';
import { photos } from '#server/db/schema/photos.ts';
import { createFakeClock } from '../../../tests/setup/fake-clock.ts';
import { activeMember, signupMember } from '../../../tests/setup/members.ts';
import { screenPhotos } from '../../../tests/setup/screening.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

async function jpeg(seed = 0): Promise<Buffer> {
  return sharp({
    create: { width: 400, height: 300, channels: 3, background: { r: 30 + seed, g: 120, b: 200 } },
  })
    .jpeg()
    .toBuffer();
}

const boundary = '----photos-test-boundary-Xy7';

function multipart(file: Buffer, filename = 'photo.jpg', type = 'image/jpeg'): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

async function upload(app: FastifyInstance, cookie: string, payload: Buffer, contentType?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/photos.php',
    headers: { cookie, 'content-type': contentType ?? `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

type PhotoView = { id: number; filename: string; thumb_filename: string; premium: boolean; locked: boolean };

/** The random name of a media URL (no folder, no extension, no query). */
function nameOf(url: string): string {
  return url
    .split('?')[0]!
    .split('/')
    .pop()!
    .replace(/\.webp$/, '');
}

function sharesFiveCharacters(a: string, b: string): boolean {
  for (let i = 0; i + 5 <= a.length; i++) if (b.includes(a.slice(i, i + 5))) return true;
  return false;
}

describe('photo originals are private', () => {
  let t: TestApp;
  const clock = createFakeClock();
  let owner: Awaited<ReturnType<typeof activeMember>>;
  let ownPhotos: PhotoView[];

  beforeAll(async () => {
    t = await createTestApp({}, { clock });
    owner = await activeMember(t.app);
    for (const seed of [1, 2]) {
      const response = await upload(t.app, owner.cookie, multipart(await jpeg(seed)));
      expect(response.statusCode).toBe(201);
    }
    // Screened (the stand-in approves), as the job runner does after the uploads answered.
    await screenPhotos(t.app);
    ownPhotos = (await t.app.inject({ url: '/api/profile.php', headers: { cookie: owner.cookie } })).json()
      .profile.photos;
  });
  afterAll(() => t.close());

  const memberView = async (cookie?: string) =>
    t.app.inject({ url: `/api/member.php?id=${owner.profileId}`, headers: cookie ? { cookie } : {} });

  it('serves a premium original to the owner and a premium viewer through their link, to nobody else', async () => {
    const original = ownPhotos[1]!;
    expect(original).toMatchObject({ premium: true, locked: false });
    expect(original.filename).toMatch(/^\/media\/private\/[\w-]{22}\.webp\?e=\d+&s=[\w-]{43}$/);
    const forOwner = await t.app.inject({ url: original.filename });
    expect(forOwner.statusCode).toBe(200);
    expect(forOwner.headers['content-type']).toBe('image/webp');
    expect(forOwner.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect((await t.app.inject({ url: original.thumb_filename })).statusCode).toBe(200);

    const paying = await signupMember(t.app);
    await t.database.db.update(users).set({ paidUser: true }).where(eq(users.id, paying.userId));
    const premiumView = (await memberView(paying.cookie)).json();
    expect(premiumView.photos[1]).toMatchObject({ premium: true, locked: false });
    const forPremium = await t.app.inject({ url: premiumView.photos[1].filename });
    expect(forPremium.statusCode).toBe(200);
    expect(forPremium.rawPayload.equals(forOwner.rawPayload)).toBe(true);

    // A free member and a visitor get the blurred copy; no URL they can build reaches the original.
    const free = await signupMember(t.app);
    const freeView = await memberView(free.cookie);
    expect(freeView.json().photos[1]).toMatchObject({ premium: true, locked: true });
    expect(freeView.body).not.toContain(nameOf(original.filename));
    expect(freeView.body).not.toContain(nameOf(original.thumb_filename));
    const [path] = original.filename.split('?');
    const name = nameOf(original.filename);
    for (const guess of [
      path!,
      `${path}?e=9999999999&s=${'A'.repeat(43)}`,
      `/media/private/${name}.webp`,
      `/media/${name}.webp`,
      `/media/public/${name}.webp`,
      `/media/photos/${owner.profileId}/${name}.webp`,
      freeView.json().photos[1].filename.replace(/\/public\/[^/]+$/, `/private/${name}.webp`),
    ]) {
      const answer = await t.app.inject({ url: guess });
      expect(answer.statusCode, guess).toBe(404);
      expect(answer.rawPayload.equals(forOwner.rawPayload), guess).toBe(false);
    }
  });

  it('gives blurred copies names that share nothing with the originals, on a public route', async () => {
    const free = await signupMember(t.app);
    const locked: PhotoView = (await memberView(free.cookie)).json().photos[1];
    const original = ownPhotos[1]!;
    expect(locked.filename).toMatch(/^\/media\/public\/[\w-]{22}\.webp$/);
    expect(locked.thumb_filename).toMatch(/^\/media\/public\/[\w-]{22}\.webp$/);
    const names = [original.filename, original.thumb_filename, locked.filename, locked.thumb_filename].map(
      nameOf,
    );
    for (const [i, a] of names.entries())
      for (const b of names.slice(i + 1)) expect(sharesFiveCharacters(a, b), `${a} / ${b}`).toBe(false);
    // No part of the address names the owner (a random name may hold the id's digits by chance).
    for (const url of [...names, locked.filename])
      expect(url.split(/[/.]/), url).not.toContain(String(owner.profileId));

    const blurred = await t.app.inject({ url: locked.filename });
    expect(blurred.statusCode).toBe(200);
    expect(blurred.headers['cache-control']).toContain('immutable');
  });

  it('shows the first photo to everyone through a signed link, visitors included', async () => {
    const visitorView = await memberView();
    if (visitorView.statusCode === 200) {
      expect(visitorView.json().photos[1].locked).toBe(true);
      expect(visitorView.body).not.toContain(nameOf(ownPhotos[1]!.filename));
    } else {
      expect([403, 404]).toContain(visitorView.statusCode);
    }
    const free = await signupMember(t.app);
    const first: PhotoView = (await memberView(free.cookie)).json().photos[0];
    expect(first).toMatchObject({ premium: false, locked: false });
    expect(first.filename).toMatch(/^\/media\/private\//);
    expect((await t.app.inject({ url: first.filename })).statusCode).toBe(200);
  });

  it('stops a link working once it expired', async () => {
    const link = (await t.app.inject({ url: '/api/profile.php', headers: { cookie: owner.cookie } })).json()
      .profile.photos[1].filename as string;
    clock.advanceMinutes(59);
    expect((await t.app.inject({ url: link })).statusCode).toBe(200);
    clock.advanceMinutes(12);
    const expired = await t.app.inject({ url: link });
    expect(expired.statusCode).toBe(404);
    expect(expired.json()).toMatchObject({ error: 'not_found' });
    // The API hands out a fresh link that works.
    const fresh = (await t.app.inject({ url: '/api/profile.php', headers: { cookie: owner.cookie } })).json()
      .profile.photos[1].filename as string;
    expect(fresh).not.toBe(link);
    expect((await t.app.inject({ url: fresh })).statusCode).toBe(200);
  });

  it('refuses a tampered link', async () => {
    const own: PhotoView[] = (
      await t.app.inject({ url: '/api/profile.php', headers: { cookie: owner.cookie } })
    ).json().profile.photos;
    const link = new URL(own[1]!.filename, 'http://site.test');
    const signature = link.searchParams.get('s')!;
    const expires = Number(link.searchParams.get('e'));
    const flip = (text: string, at: number) =>
      `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;
    const otherName = nameOf(own[0]!.filename);
    const tampered = [
      `${link.pathname}?e=${expires}&s=${flip(signature, 0)}`,
      `${link.pathname}?e=${expires}&s=${flip(signature, signature.length - 1)}`,
      `${link.pathname}?e=${expires}&s=${signature}=`,
      `${link.pathname}?e=${expires}&s=${signature.slice(0, -1)}`,
      `${link.pathname}?e=${expires + 600}&s=${signature}`,
      `${link.pathname}?e=${expires}`,
      `/media/private/${otherName}.webp?e=${expires}&s=${signature}`,
    ];
    expect((await t.app.inject({ url: `${link.pathname}${link.search}` })).statusCode).toBe(200);
    for (const url of tampered) expect((await t.app.inject({ url })).statusCode, url).toBe(404);
  });
});

describe('uploads that are not photos', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp();
    cookie = (await signupMember(t.app)).cookie;
  });
  afterAll(() => t.close());

  it('answers 422 unsupported_image, translated, to a truncated JPEG', async () => {
    const whole = await jpeg();
    for (const cut of [0.5, 0.9]) {
      const truncated = whole.subarray(0, Math.floor(whole.length * cut));
      const response = await upload(t.app, cookie, multipart(truncated));
      expect(response.statusCode, String(cut)).toBe(422);
      expect(response.json()).toEqual({
        error: 'unsupported_image',
        message: t.app.deps.translator.t('en', 'errors:unsupported_image'),
      });
    }
    const german = await t.app.inject({
      method: 'POST',
      url: '/api/photos.php',
      headers: {
        cookie: `${cookie}; locale=de`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: multipart(whole.subarray(0, whole.length - 200)),
    });
    expect(german.statusCode).toBe(422);
    expect(german.json().message).toBe(t.app.deps.translator.t('de', 'errors:unsupported_image'));
    const own = (await t.app.inject({ url: '/api/profile.php', headers: { cookie } })).json().profile;
    expect(own.photos).toHaveLength(0);
  });

  it('answers a clear 4xx in the error shape to malformed multipart, never a 5xx', async () => {
    const image = await jpeg();
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
    const cases: [string, Buffer, string?][] = [
      ['no closing boundary', Buffer.concat([Buffer.from(head), image])],
      ['cut inside the part headers', Buffer.from(head.slice(0, 40))],
      ['other boundary in the body', multipart(image), 'multipart/form-data; boundary=----not-this-one'],
      ['no boundary parameter', multipart(image), 'multipart/form-data'],
      ['empty body', Buffer.alloc(0)],
      ['garbage', Buffer.from('\u0000\u0001 not multipart at all \r\n\r\n--')],
      [
        'part without a name',
        Buffer.from(`--${boundary}\r\nContent-Type: image/jpeg\r\n\r\nxxxx\r\n--${boundary}--\r\n`),
      ],
      [
        'a field, no file',
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--${boundary}--\r\n`,
        ),
      ],
      ['headers that never end', Buffer.from(`--${boundary}\r\n${'X-Long: y\r\n'.repeat(2000)}`)],
    ];
    for (const [label, payload, contentType] of cases) {
      const response = await upload(t.app, cookie, payload, contentType);
      expect(response.statusCode, label).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, label).toBeLessThan(500);
      const body = response.json();
      expect(typeof body.error, label).toBe('string');
      expect(body.message, label).toBe(t.app.deps.translator.t('en', `errors:${body.error}`));
    }
  });

  it('still strips EXIF from a good upload next to the bad ones', async () => {
    const withExif = await sharp(await jpeg(3))
      .withExif({ IFD0: { Copyright: 'Secret Owner' } })
      .jpeg()
      .toBuffer();
    const response = await upload(t.app, cookie, multipart(withExif));
    expect(response.statusCode).toBe(201);
    const [row] = await t.database.db.select().from(photos).where(eq(photos.id, response.json().photo.id));
    for (const key of [row!.mainKey, row!.thumbKey, row!.blurredKey, row!.blurredThumbKey]) {
      const data = await t.app.deps.storage.get(key);
      expect(data, key).not.toBeNull();
      expect((await sharp(data!).metadata()).exif, key).toBeUndefined();
      expect(data!.includes(Buffer.from('Secret Owner')), key).toBe(false);
    }
  });
});

describe('photos stored under the old guessable keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A photo as the old layout stored it: photos/<profile>/<name>.webp, the blurred copy beside it. */
  async function legacyPhoto(profileId: number, name: string, position: number) {
    const base = `photos/${profileId}/${name}`;
    const keys = {
      mainKey: `${base}.webp`,
      thumbKey: `${base}-thumb.webp`,
      blurredKey: `${base}-blur.webp`,
      blurredThumbKey: `${base}-blur-thumb.webp`,
    };
    for (const [field, key] of Object.entries(keys))
      await t.app.deps.storage.put(key, Buffer.from(`${field}:${name}`));
    const [row] = await t.database.db
      .insert(photos)
      .values({ profileId, position, ...keys, width: 10, height: 10 })
      .returning();
    return row!;
  }

  it('moves them once to private and unrelated public keys, chat messages included, and the old URLs stop working', async () => {
    const owner = await activeMember(t.app);
    const other = await activeMember(t.app);
    const first = await legacyPhoto(owner.profileId, 'demo-0', 0);
    const premium = await legacyPhoto(owner.profileId, 'Ab3dE6gH9jK1', 1);
    const [low, high] = [owner.profileId, other.profileId].sort((a, b) => a - b);
    const [conversation] = await t.database.db
      .insert(conversations)
      .values({
        lowProfileId: low!,
        highProfileId: high!,
        startedByProfileId: owner.profileId,
        createdAt: new Date(),
      })
      .returning();
    const [message] = await t.database.db
      .insert(messages)
      .values({
        conversationId: conversation!.id,
        senderProfileId: owner.profileId,
        kind: 'photo',
        photoKey: premium.mainKey,
        photoThumbKey: premium.thumbKey,
        createdAt: new Date(),
      })
      .returning();

    // The repro: the original next to the blurred copy answered 200 to anyone.
    for (const key of [premium.mainKey, premium.blurredKey, first.mainKey])
      expect((await t.app.inject({ url: `/media/${key}` })).statusCode, key).toBe(404);

    expect(await t.app.deps.photos.moveLegacyMedia()).toBe(2);
    const [after] = await t.database.db.select().from(photos).where(eq(photos.id, premium.id));
    expect(after!.mainKey).toMatch(/^private\/[\w-]{22}\.webp$/);
    expect(after!.thumbKey).toMatch(/^private\/[\w-]{22}\.webp$/);
    expect(after!.blurredKey).toMatch(/^public\/[\w-]{22}\.webp$/);
    expect(after!.blurredThumbKey).toMatch(/^public\/[\w-]{22}\.webp$/);
    expect(sharesFiveCharacters(nameOf(after!.mainKey), nameOf(after!.blurredKey))).toBe(false);
    for (const field of ['mainKey', 'thumbKey', 'blurredKey', 'blurredThumbKey'] as const) {
      expect(await t.app.deps.storage.get(premium[field]), field).toBeNull();
      expect((await t.app.deps.storage.get(after![field]))?.toString(), field).toBe(`${field}:Ab3dE6gH9jK1`);
    }
    const [movedMessage] = await t.database.db.select().from(messages).where(eq(messages.id, message!.id));
    expect(movedMessage).toMatchObject({ photoKey: after!.mainKey, photoThumbKey: after!.thumbKey });

    // A free member sees the blurred copy on the public route, the original only by a working link.
    const free = await signupMember(t.app);
    const view = (
      await t.app.inject({ url: `/api/member.php?id=${owner.profileId}`, headers: { cookie: free.cookie } })
    ).json();
    expect(view.photos[1].filename).toBe(`/media/${after!.blurredKey}`);
    expect((await t.app.inject({ url: view.photos[1].filename })).body).toBe('blurredKey:Ab3dE6gH9jK1');
    expect((await t.app.inject({ url: view.photos[0].filename })).body).toBe('mainKey:demo-0');
    expect((await t.app.inject({ url: `/media/${premium.mainKey}` })).statusCode).toBe(404);

    expect(await t.app.deps.photos.moveLegacyMedia()).toBe(0);
  });

  it('finishes a move interrupted after the objects moved, and two instances may move at once', async () => {
    const owner = await activeMember(t.app);
    const photo = await legacyPhoto(owner.profileId, 'crash', 0);
    await t.app.deps.photos.moveLegacyMedia();
    const [moved] = await t.database.db.select().from(photos).where(eq(photos.id, photo.id));
    // As if the process died before the row was updated: the objects are at their new keys already.
    await t.database.db
      .update(photos)
      .set({
        mainKey: photo.mainKey,
        thumbKey: photo.thumbKey,
        blurredKey: photo.blurredKey,
        blurredThumbKey: photo.blurredThumbKey,
      })
      .where(eq(photos.id, photo.id));
    const others = await Promise.all(
      ['p1', 'p2', 'p3'].map((name, position) => legacyPhoto(owner.profileId, name, position + 1)),
    );
    await Promise.all([t.app.deps.photos.moveLegacyMedia(), t.app.deps.photos.moveLegacyMedia()]);
    const [again] = await t.database.db.select().from(photos).where(eq(photos.id, photo.id));
    expect(again).toEqual(moved);
    expect((await t.app.deps.storage.get(again!.mainKey))?.toString()).toBe('mainKey:crash');
    for (const other of others) {
      const [row] = await t.database.db.select().from(photos).where(eq(photos.id, other.id));
      expect(row!.mainKey).toMatch(/^private\//);
      expect(await t.app.deps.storage.get(other.mainKey)).toBeNull();
      expect((await t.app.deps.storage.get(row!.mainKey))?.toString()).toMatch(/^mainKey:p\d$/);
    }
  });
});
