import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { photos } from '#server/db/schema/photos.ts';
import { sites } from '#server/db/schema/sites.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { fakeScreener, neutralFace, screenPhotos } from '../../../tests/setup/screening.ts';
import { freshFictionalProfile, signedInStaff, type TestStaff } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

// The screening rules with the models' answer set at their boundary (runs on PGlite and, with
// DATABASE_URL, on PostgreSQL). The models themselves: screening-models.test.ts.

const boundary = '----screening-test-boundary';

async function upload(app: FastifyInstance, cookie: string, seed = 0) {
  const file = await sharp({
    create: { width: 320, height: 240, channels: 3, background: { r: 40 + seed, g: 90, b: 160 } },
  })
    .jpeg()
    .toBuffer();
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await app.inject({
    method: 'POST',
    url: '/api/photos.php',
    headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  expect(response.statusCode).toBe(201);
  return response.json().photo as { id: number; filename: string; thumb_filename: string; status: string };
}

type QueueItem = {
  photo: {
    id: number;
    status: string;
    hold_reason: string | null;
    screening: { nudity: Record<string, number>; faces: number; min_age_estimate: number | null } | null;
  };
};

describe('photo screening', () => {
  let t: TestApp;
  const screener = fakeScreener();
  let moderator: TestStaff;

  beforeAll(async () => {
    t = await createTestApp({}, { screener });
    moderator = await signedInStaff(t.app, 'moderator');
  });
  afterAll(() => t.close());
  beforeEach(() => {
    screener.next = neutralFace;
    screener.failure = undefined;
  });

  const profileAs = (cookie: string, profileId: number) =>
    t.app.inject({ url: `/api/member.php?id=${profileId}`, headers: { cookie } });
  const searchAs = (cookie: string) =>
    t.app.inject({ url: '/api/search.php?gender=any&country=any', headers: { cookie } });
  const queue = async (): Promise<QueueItem[]> =>
    (await t.app.inject({ url: '/api/admin/photo-queue.php', headers: { cookie: moderator.cookie } })).json()
      .photos;
  const statusOf = async (photoId: number) =>
    (await t.database.db.select().from(photos).where(eq(photos.id, photoId)))[0];

  it('keeps a new photo from others until it is screened, then shows it', async () => {
    const owner = await activeMember(t.app);
    const other = await activeMember(t.app);
    const photo = await upload(t.app, owner.cookie, 1);
    expect(photo.status).toBe('screening');
    const ownView = (
      await t.app.inject({ url: '/api/profile.php', headers: { cookie: owner.cookie } })
    ).json();
    expect(ownView.profile.photos[0]).toMatchObject({ id: photo.id, status: 'screening', hold_reason: null });

    const before = await profileAs(other.cookie, owner.profileId);
    expect(before.json()).toMatchObject({ photos: [], profile: { main_image: null } });
    expect(before.body).not.toContain(photo.filename.split('?')[0]!.split('/').pop()!.replace('.webp', ''));

    await screenPhotos(t.app);
    expect(await statusOf(photo.id)).toMatchObject({ status: 'approved', holdReason: null });
    const after = (await profileAs(other.cookie, owner.profileId)).json();
    expect(after.photos).toHaveLength(1);
    expect(after.profile.main_image).not.toBeNull();
  });

  it('holds an explicit photo for a moderator and never serves it to another member', async () => {
    screener.next = {
      nudity: { Porn: 0.82, Sexy: 0.1, Neutral: 0.05, Hentai: 0.02, Drawing: 0.01 },
      faces: neutralFace.faces,
    };
    const owner = await activeMember(t.app);
    const other = await activeMember(t.app);
    const photo = await upload(t.app, owner.cookie, 2);
    await screenPhotos(t.app);
    expect(await statusOf(photo.id)).toMatchObject({ status: 'held', holdReason: 'explicit' });

    const name = photo.filename.split('?')[0]!.split('/').pop()!.replace('.webp', '');
    const thumb = photo.thumb_filename.split('?')[0]!.split('/').pop()!.replace('.webp', '');
    for (const answer of [await profileAs(other.cookie, owner.profileId), await searchAs(other.cookie)]) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body).not.toContain(name);
      expect(answer.body).not.toContain(thumb);
    }
    // The owner sees it, in review.
    const ownView = (
      await t.app.inject({ url: '/api/profile.php', headers: { cookie: owner.cookie } })
    ).json();
    expect(ownView.profile.photos[0]).toMatchObject({ status: 'held', hold_reason: 'explicit' });
    const item = (await queue()).find((entry) => entry.photo.id === photo.id);
    expect(item?.photo).toMatchObject({
      status: 'held',
      hold_reason: 'explicit',
      screening: { faces: 1, min_age_estimate: 31, nudity: { Porn: 0.82 } },
    });
  });

  it('approves a suggestive photo under the threshold the site sets, and holds it under the default', async () => {
    // demo/sample2.jpg's scores: clothed, yet Porn 0.46.
    screener.next = {
      nudity: { Porn: 0.46, Sexy: 0.48, Neutral: 0.04, Hentai: 0.01, Drawing: 0.01 },
      faces: neutralFace.faces,
    };
    const owner = await activeMember(t.app);
    const held = await upload(t.app, owner.cookie, 3);
    await screenPhotos(t.app);
    expect(await statusOf(held.id)).toMatchObject({ status: 'held', holdReason: 'explicit' });

    const [site] = await t.database.db.select().from(sites).limit(1);
    await t.database.db
      .update(sites)
      .set({ photoScreening: { explicit: 0.6 } })
      .where(eq(sites.id, site!.id));
    try {
      const other = await activeMember(t.app);
      const approved = await upload(t.app, other.cookie, 4);
      await screenPhotos(t.app);
      expect(await statusOf(approved.id)).toMatchObject({ status: 'approved', holdReason: null });
    } finally {
      await t.database.db.update(sites).set({ photoScreening: {} }).where(eq(sites.id, site!.id));
    }
  });

  it('holds a main photo without a face, but not a later one', async () => {
    screener.next = { nudity: neutralFace.nudity, faces: [] };
    const owner = await activeMember(t.app);
    const main = await upload(t.app, owner.cookie, 5);
    const second = await upload(t.app, owner.cookie, 6);
    await screenPhotos(t.app);
    expect(await statusOf(main.id)).toMatchObject({ status: 'held', holdReason: 'no_face' });
    expect(await statusOf(second.id)).toMatchObject({ status: 'approved' });
    // A later photo without a face that becomes the main one is held too.
    const owner2 = await activeMember(t.app);
    screener.next = neutralFace;
    const withFace = await upload(t.app, owner2.cookie, 9);
    await screenPhotos(t.app);
    screener.next = { nudity: neutralFace.nudity, faces: [] };
    const faceless = await upload(t.app, owner2.cookie, 10);
    await screenPhotos(t.app);
    expect(await statusOf(faceless.id)).toMatchObject({ status: 'approved' });
    const made = await t.app.inject({
      method: 'PUT',
      url: '/api/photos.php',
      headers: { cookie: owner2.cookie },
      payload: { photo: faceless.id, main: true },
    });
    expect(made.statusCode).toBe(200);
    expect(await statusOf(faceless.id)).toMatchObject({ status: 'held', holdReason: 'no_face' });
    expect(await statusOf(withFace.id)).toMatchObject({ status: 'approved' });
    // The main photo held: others get no photo at all rather than the second in its place.
    const other = await activeMember(t.app);
    expect((await profileAs(other.cookie, owner.profileId)).json()).toMatchObject({
      photos: [],
      profile: { main_image: null },
    });
  });

  it('puts photos held for an apparent minor first in the queue', async () => {
    const owner = await activeMember(t.app);
    screener.next = {
      nudity: neutralFace.nudity,
      faces: [
        { score: 0.9, age: 34 },
        { score: 0.8, age: 19.2 },
      ],
    };
    const minor = await upload(t.app, owner.cookie, 7);
    await screenPhotos(t.app);
    expect(await statusOf(minor.id)).toMatchObject({ status: 'held', holdReason: 'apparent_minor' });
    const items = await queue();
    expect(items[0]?.photo).toMatchObject({ id: minor.id, hold_reason: 'apparent_minor' });
    const firstOther = items.findIndex((item) => item.photo.hold_reason !== 'apparent_minor');
    const lastMinor = items.findLastIndex((item) => item.photo.hold_reason === 'apparent_minor');
    expect(lastMinor).toBeLessThan(firstOther);

    // A moderator's approval lets it out.
    const approve = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/photo-queue.php',
      headers: { cookie: moderator.cookie },
      payload: { photo: minor.id, decision: 'approve' },
    });
    expect(approve.statusCode).toBe(200);
    expect(await statusOf(minor.id)).toMatchObject({ status: 'approved' });
  });

  it('screens a photo staff add to a fictional profile and shows the scores, without holding it', async () => {
    screener.next = { nudity: neutralFace.nudity, faces: [] };
    const admin = await signedInStaff(t.app, 'admin');
    const profile = await freshFictionalProfile(t.app);
    const file = await sharp({
      create: { width: 320, height: 240, channels: 3, background: { r: 10, g: 200, b: 90 } },
    })
      .jpeg()
      .toBuffer();
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/admin/photos.php?profile=${profile.id}`,
      headers: { cookie: admin.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
        file,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(added.statusCode).toBe(201);
    const id: number = added.json().photo.id;
    await screenPhotos(t.app);
    expect(await statusOf(id)).toMatchObject({
      status: 'approved',
      holdReason: null,
      screening: { faces: 0 },
    });
    const detail = (
      await t.app.inject({
        url: `/api/admin/profile.php?id=${profile.id}`,
        headers: { cookie: admin.cookie },
      })
    ).json().profile;
    expect(detail.photos.find((photo: { id: number }) => photo.id === id)).toMatchObject({
      screening: { faces: 0, min_age_estimate: null },
    });
  });

  it('holds a photo the models could not check, and counts it for an alert', async () => {
    screener.failure = new Error('model failed to load');
    const owner = await activeMember(t.app);
    const photo = await upload(t.app, owner.cookie, 8);
    const failures = async () =>
      (await t.app.deps.metrics.photoScreeningFailures.get()).values.reduce(
        (sum, value) => sum + value.value,
        0,
      );
    const before = await failures();
    await screenPhotos(t.app);
    expect(await statusOf(photo.id)).toMatchObject({ status: 'held', holdReason: 'check_failed' });
    expect(await failures()).toBe(before + 1);
    const other = await activeMember(t.app);
    expect((await profileAs(other.cookie, owner.profileId)).json().photos).toEqual([]);
  });
});
