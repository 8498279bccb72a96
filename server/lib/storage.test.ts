import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signupMember } from '../../tests/setup/members.ts';
import { createTestApp } from '../../tests/setup/test-app.ts';
import { createS3Storage } from './storage.ts';

describe('S3-compatible media storage', () => {
  let server: S3rver;
  let directory: string;
  let endpoint: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 's3-'));
    server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory,
      configureBuckets: [{ name: 'media' }],
    });
    const { port } = await server.run();
    endpoint = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await server.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('stores, reads and removes objects, and links them through the public URL or the CDN prefix', async () => {
    const storage = createS3Storage({
      bucket: 'media',
      region: 'us-east-1',
      endpoint,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      publicUrl: 'https://media.example',
    });
    await storage.put('photos/1/a.webp', Buffer.from('webp bytes'));
    expect((await storage.get('photos/1/a.webp'))?.toString()).toBe('webp bytes');
    expect(storage.url('photos/1/a.webp')).toBe('https://media.example/photos/1/a.webp');
    expect(storage.url('photos/1/a.webp', 'https://cdn.example/')).toBe(
      'https://cdn.example/photos/1/a.webp',
    );
    await storage.remove('photos/1/a.webp');
    expect(await storage.get('photos/1/a.webp')).toBeNull();
    await expect(storage.put('../escape.webp', Buffer.from('x'))).rejects.toThrow(/Unsafe/);
  });

  it('keeps uploaded photos in the bucket when configured', async () => {
    const t = await createTestApp({
      S3_BUCKET: 'media',
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_PUBLIC_URL: 'https://media.example',
    });
    try {
      const { cookie } = await signupMember(t.app);
      const image = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#336699' } })
        .png()
        .toBuffer();
      const boundary = '----s3-boundary';
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        image,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const upload = await t.app.inject({
        method: 'POST',
        url: '/api/photos.php',
        headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(upload.statusCode).toBe(201);
      const url: string = upload.json().photo.filename;
      expect(url).toMatch(/^https:\/\/media\.example\/photos\/\d+\/.+\.webp$/);
      const stored = await fetch(`${endpoint}/media/${url.replace('https://media.example/', '')}`);
      expect(stored.status).toBe(200);
      expect(stored.headers.get('content-type')).toBe('image/webp');
    } finally {
      await t.close();
    }
  });
});
