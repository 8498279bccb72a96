import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photos } from '#server/db/schema/photos.ts';
import { sites } from '#server/db/schema/sites.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { fakeScreener, neutralFace, screenPhotos } from '../../../tests/setup/screening.ts';
import { signedInStaff, type TestStaff } from '../../../tests/setup/staff.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

// The screening thresholds and strike rules of the site editor: refused with a field's own code
// when out of range, and once saved what screening and strikes go by.

const boundary = '----site-safety-boundary';
async function upload(app: FastifyInstance, cookie: string, seed: number): Promise<number> {
  const file = await sharp({
    create: { width: 320, height: 240, channels: 3, background: { r: 10 + seed, g: 90, b: 160 } },
  })
    .jpeg()
    .toBuffer();
  const response = await app.inject({
    method: 'POST',
    url: '/api/photos.php',
    headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  });
  expect(response.statusCode).toBe(201);
  return response.json().photo.id;
}

describe('safety settings in the site editor', () => {
  let t: TestApp;
  const screener = fakeScreener();
  let admin: TestStaff;
  let moderator: TestStaff;
  let siteId: number;

  beforeAll(async () => {
    t = await createTestApp({}, { screener });
    admin = await signedInStaff(t.app, 'admin');
    moderator = await signedInStaff(t.app, 'moderator');
    const [site] = await t.database.db.select().from(sites).where(eq(sites.isDefault, true));
    siteId = site!.id;
  });
  afterAll(() => t.close());

  const save = (fields: Record<string, unknown>) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/admin/sites.php',
      headers: { cookie: admin.cookie },
      payload: { id: siteId, ...fields },
    });
  const statusOf = async (photoId: number) =>
    (await t.database.db.select().from(photos).where(eq(photos.id, photoId)))[0];

  it('refuses values out of range with a code per field, and saves nothing', async () => {
    const response = await save({
      screening_explicit: 1.5,
      screening_face_required: 'yes',
      strike_suspend_at: 0,
      strike_suspension_days: 2.5,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      error: 'validation_failed',
      fields: {
        screening_explicit: 'screening_explicit_range',
        screening_face_required: 'invalid',
        strike_suspend_at: 'strike_suspend_at_range',
        strike_suspension_days: 'strike_suspension_days_range',
      },
    });
    expect((await save({ screening_explicit: 0.01 })).json().fields).toEqual({
      screening_explicit: 'screening_explicit_range',
    });
    const [site] = await t.database.db.select().from(sites).where(eq(sites.id, siteId));
    expect(site).toMatchObject({ photoScreening: {}, strikeRules: {} });
  });

  it('shows the defaults, and what is saved is what screening and strikes go by', async () => {
    const list = await t.app.inject({ url: '/api/admin/sites.php', headers: { cookie: admin.cookie } });
    expect(list.json().sites.find((site: { id: number }) => site.id === siteId)).toMatchObject({
      screening_explicit: 0.4,
      screening_face_required: true,
      strike_suspend_at: 3,
      strike_suspension_days: 7,
    });
    // Under the defaults a Porn 0.46 photo and a main photo without a face wait for a moderator.
    const suggestive = { nudity: { Porn: 0.46, Sexy: 0.5, Neutral: 0.04 }, faces: neutralFace.faces };
    screener.next = suggestive;
    const before = await activeMember(t.app);
    const heldBefore = await upload(t.app, before.cookie, 1);
    await screenPhotos(t.app);
    expect(await statusOf(heldBefore)).toMatchObject({ status: 'held', holdReason: 'explicit' });

    const saved = await save({
      screening_explicit: 0.6,
      screening_face_required: false,
      strike_suspend_at: 1,
      strike_suspension_days: 2,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().site).toMatchObject({
      screening_explicit: 0.6,
      screening_face_required: false,
      strike_suspend_at: 1,
      strike_suspension_days: 2,
    });
    try {
      const after = await activeMember(t.app);
      const passed = await upload(t.app, after.cookie, 2);
      await screenPhotos(t.app);
      expect(await statusOf(passed)).toMatchObject({ status: 'approved', holdReason: null });
      screener.next = { nudity: neutralFace.nudity, faces: [] };
      const faceless = await activeMember(t.app);
      const main = await upload(t.app, faceless.cookie, 3);
      await screenPhotos(t.app);
      expect(await statusOf(main)).toMatchObject({ status: 'approved' });

      // The first strike now suspends posting, for two days.
      const offender = await activeMember(t.app);
      const reporter = await activeMember(t.app);
      await t.app.inject({
        method: 'POST',
        url: '/api/report.php',
        headers: { cookie: reporter.cookie },
        payload: { profile: offender.profileId, reason: 'spam' },
      });
      const reports = await t.app.inject({
        url: '/api/admin/reports.php?status=open',
        headers: { cookie: moderator.cookie },
      });
      const report = reports
        .json()
        .reports.find(
          (entry: { reported: { profile_id: number } | null }) =>
            entry.reported?.profile_id === offender.profileId,
        );
      const warned = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/reports.php',
        headers: { cookie: moderator.cookie },
        payload: { id: report.id, action: 'warn', reason: 'house rules' },
      });
      expect(warned.statusCode, warned.body).toBe(200);
      const standing = (
        await t.app.inject({ url: '/api/standing.php', headers: { cookie: offender.cookie } })
      ).json();
      expect(standing).toMatchObject({ suspend_at: 1, suspension_days: 2 });
      expect(standing.strikes[0]).toMatchObject({ number: 1, consequence: 'suspension' });
      const until = new Date(standing.posting_suspended_until).getTime();
      expect(until - Date.now()).toBeGreaterThan(1.9 * 86_400_000);
      expect(until - Date.now()).toBeLessThan(2.1 * 86_400_000);
    } finally {
      await t.database.db
        .update(sites)
        .set({ photoScreening: {}, strikeRules: {} })
        .where(eq(sites.id, siteId));
    }
  });
});
