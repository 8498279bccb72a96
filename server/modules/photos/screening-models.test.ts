import { createRequire } from 'node:module';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photos } from '#server/db/schema/photos.ts';
import { activeMember } from '../../../tests/setup/members.ts';
import { screenPhotos } from '../../../tests/setup/screening.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { ThreadScreener } from './screener.ts';
import { defaultScreeningSettings, holdReason, type ScreeningScores } from './screening-rules.ts';

// The real models, loaded once for this file in their thread, on the packages' own sample photos
// (no explicit image is in the repository: the explicit rule is proven in screening.test.ts with the
// classifier's answer set at the boundary). The app runs on PGlite, or PostgreSQL with DATABASE_URL.

const require = createRequire(import.meta.url);
const demo = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo');
const sample = (name: string) => sharp(path.join(demo, name));

/** A crop of demo/sample1.jpg around one of its three faces. */
const oneFace = () =>
  sample('sample1.jpg').extract({ left: 680, top: 300, width: 500, height: 550 }).jpeg().toBuffer();
const solidColour = () =>
  sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 70, g: 140, b: 90 } } })
    .jpeg()
    .toBuffer();

const boundary = '----screening-models-boundary';
async function upload(app: FastifyInstance, cookie: string, file: Buffer): Promise<number> {
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

describe('the screening models', () => {
  const screener = new ThreadScreener();
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({}, { screener });
  });
  afterAll(async () => {
    await t.close();
    await screener.close();
  });

  const photo = async (id: number) =>
    (await t.database.db.select().from(photos).where(eq(photos.id, id)))[0]!;

  it('approves a face photo from the face model package as a main photo', async () => {
    const member = await activeMember(t.app);
    const id = await upload(t.app, member.cookie, await oneFace());
    await screenPhotos(t.app);
    const row = await photo(id);
    expect(row).toMatchObject({ status: 'approved', holdReason: null });
    expect(row.screening?.faces).toBe(1);
    expect(row.screening?.min_age_estimate).toBeGreaterThan(18 + defaultScreeningSettings.minorMargin);
    const [top] = Object.entries(row.screening?.nudity ?? {}).sort(([, a], [, b]) => b - a);
    expect(top?.[0]).toBe('Neutral');
    expect(top?.[1]).toBeGreaterThan(0.6);
  });

  it('holds a solid-colour main photo for having no face', async () => {
    const member = await activeMember(t.app);
    const id = await upload(t.app, member.cookie, await solidColour());
    await screenPhotos(t.app);
    expect(await photo(id)).toMatchObject({ status: 'held', holdReason: 'no_face' });
    expect((await photo(id)).screening?.faces).toBe(0);
  });

  it('finds the faces of a group photo and rates it neutral', async () => {
    const scores: ScreeningScores = await screener.screen(await sample('sample1.jpg').jpeg().toBuffer());
    expect(scores.faces.length).toBeGreaterThanOrEqual(3);
    const [top] = Object.entries(scores.nudity).sort(([, a], [, b]) => b - a);
    expect(top?.[0]).toBe('Neutral');
    expect(holdReason(scores, defaultScreeningSettings, { main: true })).toBeNull();
  });

  it('sends a clothed but suggestive photo to a person', async () => {
    // demo/sample2.jpg: clothed people the classifier rates Porn about 0.5.
    const scores = await screener.screen(await sample('sample2.jpg').jpeg().toBuffer());
    expect(holdReason(scores, defaultScreeningSettings, { main: true })).not.toBeNull();
  });

  it('holds photos when a model fails to load, and counts the failure', async () => {
    const broken = new ThreadScreener({ faceModels: path.join(demo, 'no-such-folder') });
    const app = await createTestApp({}, { screener: broken });
    try {
      const member = await activeMember(app.app);
      const id = await upload(app.app, member.cookie, await oneFace());
      await screenPhotos(app.app);
      const [row] = await app.database.db.select().from(photos).where(eq(photos.id, id));
      expect(row).toMatchObject({ status: 'held', holdReason: 'check_failed' });
      expect(row?.screening?.error).toBeTruthy();
      const failures = await app.app.deps.metrics.photoScreeningFailures.get();
      expect(failures.values[0]?.value).toBe(1);
    } finally {
      await app.close();
      await broken.close();
    }
  });
});
