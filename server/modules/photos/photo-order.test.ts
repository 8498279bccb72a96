import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeMember } from '../../../tests/setup/members.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

const boundary = '----photo-order-boundary-Q3';

async function photoUpload(seed: number): Promise<Buffer> {
  const file = await sharp({
    create: { width: 300, height: 300, channels: 3, background: { r: 20 + seed * 40, g: 90, b: 160 } },
  })
    .jpeg()
    .toBuffer();
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p${seed}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

describe('photo order', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const own = async (cookie: string): Promise<number[]> =>
    (await t.app.inject({ url: '/api/profile.php', headers: { cookie } }))
      .json()
      .profile.photos.map((photo: { id: number }) => photo.id);
  const reorder = (cookie: string, photos: number[]) =>
    t.app.inject({ method: 'PUT', url: '/api/photo-order.php', headers: { cookie }, payload: { photos } });

  it('puts the photos in the order given; the first becomes the main photo', async () => {
    const member = await activeMember(t.app);
    for (const seed of [1, 2, 3]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/photos.php',
        headers: { cookie: member.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: await photoUpload(seed),
      });
      expect(response.statusCode, response.body).toBeLessThan(300);
    }
    const [a, b, c] = await own(member.cookie);
    expect((await reorder(member.cookie, [c!, a!, b!])).statusCode).toBe(200);
    expect(await own(member.cookie)).toEqual([c, a, b]);
    const profile = (
      await t.app.inject({ url: '/api/profile.php', headers: { cookie: member.cookie } })
    ).json().profile;
    expect(profile.main_image.thumb_filename).toBe(profile.photos[0].thumb_filename);

    // Not all of them, twice the same one, or someone else's: refused, the order stays.
    for (const wrong of [
      [a!, b!],
      [a!, a!, b!],
      [a!, b!, 99_999_999],
    ]) {
      const answer = await reorder(member.cookie, wrong);
      expect(answer.statusCode).toBe(422);
      expect(answer.json().fields).toEqual({ photos: 'invalid' });
    }
    const other = await activeMember(t.app);
    expect((await reorder(other.cookie, [c!, a!, b!])).statusCode).toBe(422);
    expect(await own(member.cookie)).toEqual([c, a, b]);
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/photo-order.php', payload: { photos: [a] } })).json()
        .error,
    ).toBe('authentication_required');
  });
});
