import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '#server/db/schema/members.ts';
import { photos } from '#server/db/schema/photos.ts';
import { signupMember } from '../../../tests/setup/members.ts';
import { screenPhotos } from '../../../tests/setup/screening.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

/** A small JPEG with EXIF and GPS data, as a phone would send it. */
async function photoWithExif(seed = 0): Promise<Buffer> {
  return sharp({
    create: { width: 320, height: 240, channels: 3, background: { r: 200, g: 40 + seed, b: 90 } },
  })
    .jpeg()
    .withExif({
      IFD0: { Copyright: 'Secret Owner', Make: 'PhoneMaker' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 22/1 0/1' },
    })
    .toBuffer();
}

function multipart(file: Buffer, filename = 'photo.jpg', type = 'image/jpeg') {
  const boundary = '----test-boundary-7MA4YWxkTrZu0gW';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(app: FastifyInstance, cookie: string, file: Buffer, filename?: string) {
  const body = multipart(file, filename);
  return app.inject({
    method: 'POST',
    url: '/api/photos.php',
    headers: { ...body.headers, cookie },
    payload: body.payload,
  });
}

async function makePremium(t: TestApp, userId: number) {
  await t.database.db.update(users).set({ paidUser: true }).where(eq(users.id, userId));
}

describe('photos', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lets a free member add 3 photos, then asks for premium', async () => {
    const { cookie } = await signupMember(t.app);
    for (let i = 0; i < 3; i++)
      expect((await upload(t.app, cookie, await photoWithExif(i))).statusCode).toBe(201);
    const fourth = await upload(t.app, cookie, await photoWithExif(3));
    expect(fourth.statusCode).toBe(403);
    expect(fourth.json()).toEqual({
      error: 'premium_required',
      message: 'This feature is only available for premium members',
    });
    const german = await t.app.inject({
      ...multipartRequest(cookie, await photoWithExif(4)),
      headers: {
        ...multipartRequest(cookie, await photoWithExif(4)).headers,
        cookie: `${cookie}; locale=de`,
      },
    });
    expect(german.json().message).toBe(t.app.deps.translator.t('de', 'errors:premium_required'));
  });

  it('lets a premium member add 25 photos and no more', async () => {
    const { cookie, userId } = await signupMember(t.app);
    await makePremium(t, userId);
    const photo = await photoWithExif();
    for (let i = 0; i < 25; i++) expect((await upload(t.app, cookie, photo)).statusCode).toBe(201);
    const extra = await upload(t.app, cookie, photo);
    expect(extra.statusCode).toBe(422);
    expect(extra.json()).toMatchObject({ error: 'photo_limit', limit: 25 });
    const own = (await t.app.inject({ url: '/api/profile.php', headers: { cookie } })).json().profile;
    expect(own.photos).toHaveLength(25);
    expect(own.photo_limit).toBe(25);
  });

  it('strips EXIF and GPS from every stored variant', async () => {
    const { cookie } = await signupMember(t.app);
    const original = await photoWithExif();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const response = await upload(t.app, cookie, original);
    expect(response.statusCode).toBe(201);
    const own = (await t.app.inject({ url: '/api/profile.php', headers: { cookie } })).json().profile;
    const [row] = await t.database.db.select().from(photos).where(eq(photos.id, own.photos[0].id));
    const files = {
      main: path.join(t.config.DATA_DIR, 'media-private', row!.mainKey.replace('private/', '')),
      thumb: path.join(t.config.DATA_DIR, 'media-private', row!.thumbKey.replace('private/', '')),
      blurred: path.join(t.config.DATA_DIR, 'media', row!.blurredKey),
      blurredThumb: path.join(t.config.DATA_DIR, 'media', row!.blurredThumbKey),
    };
    for (const [variant, name] of Object.entries(files)) {
      const file = await readFile(name);
      const metadata = await sharp(file).metadata();
      expect(metadata.format).toBe('webp');
      expect(metadata.exif, variant).toBeUndefined();
      expect(file.includes(Buffer.from('Secret Owner'))).toBe(false);
    }
    // The original through its signed link, the blurred copy on the public route.
    const served = await t.app.inject({ url: own.photos[0].filename });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    const blurred = await t.app.inject({ url: `/media/${row!.blurredKey}` });
    expect(blurred.statusCode).toBe(200);
    expect(blurred.headers['cache-control']).toContain('immutable');
  });

  it('refuses a file that is not an image', async () => {
    const { cookie } = await signupMember(t.app);
    const response = await upload(t.app, cookie, Buffer.from('%PDF-1.4 not a photo'), 'doc.pdf');
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toBe('unsupported_image');
  });

  it('never gives a viewer who is not premium the original of a premium photo', async () => {
    const owner = await signupMember(t.app);
    await upload(t.app, owner.cookie, await photoWithExif(1));
    await upload(t.app, owner.cookie, await photoWithExif(2));
    // Screened (the stand-in approves): others see photos only then.
    await screenPhotos(t.app);
    await activate(t, owner.userId);
    const own = (await t.app.inject({ url: '/api/profile.php', headers: { cookie: owner.cookie } })).json()
      .profile;
    const premiumOriginal = own.photos[1].filename;

    const free = await signupMember(t.app);
    const seenByFree = await t.app.inject({
      url: `/api/member.php?id=${own.id}`,
      headers: { cookie: free.cookie },
    });
    expect(seenByFree.statusCode).toBe(200);
    const freeView = seenByFree.json();
    expect(freeView.photos[0]).toMatchObject({
      premium: false,
      locked: false,
      filename: own.photos[0].filename,
    });
    expect(freeView.photos[1]).toMatchObject({ premium: true, locked: true });
    expect(freeView.photos[1].filename).toMatch(/^\/media\/public\/[\w-]+\.webp$/);
    expect(seenByFree.body).not.toContain(premiumOriginal.split('?')[0]);
    expect(seenByFree.body).not.toContain(own.photos[1].thumb_filename.split('?')[0]);

    const paying = await signupMember(t.app);
    await makePremium(t, paying.userId);
    const premiumView = (
      await t.app.inject({ url: `/api/member.php?id=${own.id}`, headers: { cookie: paying.cookie } })
    ).json();
    // The same original by a signed link (the signature may differ across a 10-minute step).
    expect(premiumView.photos[1]).toMatchObject({ locked: false });
    expect(premiumView.photos[1].filename.split('?')[0]).toBe(premiumOriginal.split('?')[0]);
  });

  it('makes another photo the main one and deletes photos', async () => {
    const { cookie } = await signupMember(t.app);
    await upload(t.app, cookie, await photoWithExif(1));
    await upload(t.app, cookie, await photoWithExif(2));
    const before = (await t.app.inject({ url: '/api/profile.php', headers: { cookie } })).json().profile;
    const second = before.photos[1].id;
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/api/photos.php',
          headers: { cookie },
          payload: { photo: second, main: true },
        })
      ).statusCode,
    ).toBe(200);
    const after = (await t.app.inject({ url: '/api/profile.php', headers: { cookie } })).json().profile;
    expect(after.photos.map((photo: { id: number }) => photo.id)).toEqual([second, before.photos[0].id]);
    expect(after.main_image.filename).toBe(after.photos[0].filename);
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: '/api/photos.php',
          headers: { cookie },
          payload: { photo: second },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ url: '/api/profile.php', headers: { cookie } })).json().profile.photos,
    ).toHaveLength(1);
    const stranger = await signupMember(t.app);
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: '/api/photos.php',
      headers: { cookie: stranger.cookie },
      payload: { photo: before.photos[0].id },
    });
    expect(foreign.statusCode).toBe(404);
  });

  function multipartRequest(cookie: string, file: Buffer) {
    const body = multipart(file);
    return {
      method: 'POST' as const,
      url: '/api/photos.php',
      headers: { ...body.headers, cookie },
      payload: body.payload,
    };
  }
});

async function activate(t: TestApp, userId: number) {
  const { profiles } = await import('#server/db/schema/members.ts');
  await t.database.db.update(users).set({ status: 'active' }).where(eq(users.id, userId));
  await t.database.db.update(profiles).set({ status: 'active' }).where(eq(profiles.userId, userId));
}

describe('profiles, blocking and reports', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('edits the own profile and refuses a country the site does not serve', async () => {
    const { cookie } = await signupMember(t.app);
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/profile.php',
      headers: { cookie },
      payload: {
        gender: 'female',
        seeking: 'male',
        hair: 'red',
        interests: ['music', 'wine', 'music'],
        about: 'Hi there',
        country: 'DE',
        countryregion: 'BE',
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().profile).toMatchObject({
      gender: 'female',
      sexuality: 'hetero',
      hair: 'red',
      interests: ['music', 'wine'],
      about: 'Hi there',
      country: 'DE',
      countryregion: 'BE',
      region_label: 'Berlin',
    });
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/profile.php',
      headers: { cookie },
      payload: { country: 'FR' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fields).toEqual({ country: 'invalid' });
    const badOption = await t.app.inject({
      method: 'PUT',
      url: '/api/profile.php',
      headers: { cookie },
      payload: { hair: 'purple' },
    });
    expect(badOption.json().fields).toEqual({ hair: 'invalid' });
  });

  it('blocks both ways: the blocked member gets the blocker name and neither finds the other', async () => {
    const blocker = await signupMember(t.app, { name: 'Blocker' });
    const blocked = await signupMember(t.app, { name: 'Blocked' });
    await activate(t, blocker.userId);
    await activate(t, blocked.userId);
    const blockerProfile = (
      await t.app.inject({ url: '/api/profile.php', headers: { cookie: blocker.cookie } })
    ).json().profile;
    const blockedProfile = (
      await t.app.inject({ url: '/api/profile.php', headers: { cookie: blocked.cookie } })
    ).json().profile;

    const before = await t.app.inject({
      url: `/api/member.php?id=${blockerProfile.id}`,
      headers: { cookie: blocked.cookie },
    });
    expect(before.statusCode).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/block.php',
          headers: { cookie: blocker.cookie },
          payload: { profile: blockedProfile.id },
        })
      ).statusCode,
    ).toBe(200);

    const denied = await t.app.inject({
      url: `/api/member.php?id=${blockerProfile.id}`,
      headers: { cookie: blocked.cookie },
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({
      error: 'blocked',
      name: 'Blocker',
      message: "You're blocked by Blocker",
    });
    const dutch = await t.app.inject({
      url: `/api/member.php?id=${blockerProfile.id}`,
      headers: { cookie: `${blocked.cookie}; locale=nl` },
    });
    expect(dutch.json().message).toBe(t.app.deps.translator.t('nl', 'errors:blocked', { name: 'Blocker' }));
    expect(dutch.json().message).toContain('Blocker');

    const blockerView = (
      await t.app.inject({
        url: `/api/member.php?id=${blockedProfile.id}`,
        headers: { cookie: blocker.cookie },
      })
    ).json();
    expect(blockerView.blocked).toBe(true);

    const country = blockerProfile.country;
    const idsFor = async (cookie: string) => {
      const ids: number[] = [];
      for (let page = 1; ; page++) {
        const body = (
          await t.app.inject({ url: `/api/search.php?country=${country}&page=${page}`, headers: { cookie } })
        ).json();
        if (!body.profiles) throw new Error(JSON.stringify(body));
        ids.push(...body.profiles.map((profile: { id: number }) => profile.id));
        if (page >= body.pages) break;
      }
      return ids;
    };
    expect(await idsFor(blocker.cookie)).not.toContain(blockedProfile.id);
    expect(await idsFor(blocked.cookie)).not.toContain(blockerProfile.id);
    expect(await idsFor(blocker.cookie)).not.toContain(blockerProfile.id);

    const list = (await t.app.inject({ url: '/api/blocks.php', headers: { cookie: blocker.cookie } })).json();
    expect(list.profiles.map((profile: { id: number }) => profile.id)).toEqual([blockedProfile.id]);
    await t.app.inject({
      method: 'DELETE',
      url: '/api/block.php',
      headers: { cookie: blocker.cookie },
      payload: { profile: blockedProfile.id },
    });
    expect(
      (
        await t.app.inject({
          url: `/api/member.php?id=${blockerProfile.id}`,
          headers: { cookie: blocked.cookie },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('stores a report and limits how many a member sends', async () => {
    const reporter = await signupMember(t.app);
    const target = await signupMember(t.app);
    const targetProfile = (
      await t.app.inject({ url: '/api/profile.php', headers: { cookie: target.cookie } })
    ).json().profile;
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/report.php',
        headers: { cookie: reporter.cookie },
        payload: { profile: targetProfile.id, reason: 'scam', text: 'asked for money' },
      });
    expect((await send()).json()).toEqual({ ok: true });
    for (let i = 0; i < 9; i++) await send();
    expect((await send()).statusCode).toBe(429);
    const invalid = await t.app.inject({
      method: 'POST',
      url: '/api/report.php',
      headers: { cookie: target.cookie },
      payload: { profile: 1, reason: 'because' },
    });
    expect(invalid.statusCode).toBe(422);
  });

  it('hides a profile that does not exist or is not active yet', async () => {
    const viewer = await signupMember(t.app);
    const hidden = await signupMember(t.app);
    const hiddenProfile = (
      await t.app.inject({ url: '/api/profile.php', headers: { cookie: hidden.cookie } })
    ).json().profile;
    expect(
      (
        await t.app.inject({
          url: `/api/member.php?id=${hiddenProfile.id}`,
          headers: { cookie: viewer.cookie },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ url: '/api/member.php?id=99999999', headers: { cookie: viewer.cookie } }))
        .statusCode,
    ).toBe(404);
    const visitor = await t.app.inject({ url: `/api/member.php?id=${hiddenProfile.id}` });
    expect(visitor.json().error).toBe('authentication_required');
  });
});

describe('regions, interests and geocoding', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('places Amsterdam in the Netherlands and Berlin in Germany', async () => {
    const amsterdam = (await t.app.inject({ url: '/api/geocode.php?lat=52.3676&lon=4.9041' })).json();
    expect(amsterdam).toMatchObject({ country: 'NL', countryregion: 'NH', region_label: 'North Holland' });
    const berlin = (await t.app.inject({ url: '/api/geocode.php?lat=52.52&lon=13.405' })).json();
    expect(berlin).toMatchObject({ country: 'DE', countryregion: 'BE' });
    expect((await t.app.inject({ url: '/api/geocode.php?lat=999&lon=0' })).statusCode).toBe(422);
  });

  it('lists the regions of a country without overseas parts, and the interests with icons', async () => {
    const regions = (await t.app.inject({ url: '/api/regions.php?country=NL' })).json().regions;
    expect(regions).toHaveLength(12);
    expect(regions.map((region: { code: string }) => region.code)).not.toContain('BQ1');
    const interests = (await t.app.inject({ url: '/api/interests.php' })).json().interests;
    expect(interests).toEqual(
      expect.arrayContaining([
        { id: 'travelling', icon: 'airplane' },
        { id: 'wine', icon: 'cup-straw' },
      ]),
    );
  });
});
