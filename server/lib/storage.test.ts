import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../tests/setup/fake-clock.ts';
import { activeMember, signupMember } from '../../tests/setup/members.ts';
import { screenPhotos } from '../../tests/setup/screening.ts';
import { createTestApp } from '../../tests/setup/test-app.ts';
import { systemClock } from './clock.ts';
import { createMediaSigner } from './media-signing.ts';
import { createLocalStorage, createS3Storage, type S3Options } from './storage.ts';

async function uploadPhoto(app: FastifyInstance, cookie: string) {
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
  const response = await app.inject({
    method: 'POST',
    url: '/api/photos.php',
    headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  // Screened (the stand-in approves) as the job runner would, so others may see it.
  await screenPhotos(app);
  return response;
}

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
    // S3rver answers every anonymous read; a real bucket set up as docs/decisions/008 says refuses
    // them outside public/ and gifts/. This does the same in front of it.
    server.middleware.unshift(async (ctx, next) => {
      const signed = 'authorization' in ctx.headers || 'X-Amz-Signature' in ctx.query;
      const publicRead = ['GET', 'HEAD'].includes(ctx.method) && /^\/media\/(public|gifts)\//.test(ctx.path);
      // One object that no credentials may read: a refusal that is not "not found".
      const denied = ctx.path === '/media/private/denied.webp';
      if ((!signed && !publicRead) || denied) {
        ctx.status = 403;
        ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code></Error>';
        return;
      }
      await next();
    });
    const { port } = await server.run();
    endpoint = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await server.close();
    await rm(directory, { recursive: true, force: true });
  });

  const s3Env = () => ({
    S3_BUCKET: 'media',
    S3_ENDPOINT: endpoint,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_PUBLIC_URL: `${endpoint}/media`,
  });

  it('stores, reads and removes objects; public keys link through the public URL or the CDN prefix, private ones never', async () => {
    const storage = createS3Storage({
      bucket: 'media',
      region: 'us-east-1',
      endpoint,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      publicUrl: 'https://media.example',
      signer: createMediaSigner('test-secret', systemClock),
      clock: systemClock,
    });
    await storage.put('public/a.webp', Buffer.from('webp bytes'));
    expect((await storage.get('public/a.webp'))?.toString()).toBe('webp bytes');
    expect(storage.url('public/a.webp')).toBe('https://media.example/public/a.webp');
    expect(storage.url('public/a.webp', 'https://cdn.example/')).toBe('https://cdn.example/public/a.webp');
    for (const prefix of ['', 'https://cdn.example/'])
      expect(storage.url('private/b.webp', prefix)).toMatch(/^\/media\/private\/b\.webp\?e=\d+&s=[\w-]{43}$/);
    await storage.remove('public/a.webp');
    expect(await storage.get('public/a.webp')).toBeNull();
    await expect(storage.put('../escape.webp', Buffer.from('x'))).rejects.toThrow(/Unsafe/);
  });

  it('reads a missing object as none, and raises every other failure', async () => {
    const options: S3Options = {
      bucket: 'media',
      region: 'us-east-1',
      endpoint,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      publicUrl: 'https://media.example',
      signer: createMediaSigner('test-secret', systemClock),
      clock: systemClock,
    };
    const storage = createS3Storage(options);
    expect(await storage.get('private/never-stored.webp')).toBeNull();
    await expect(storage.get('private/denied.webp')).rejects.toMatchObject({ name: 'AccessDenied' });
    const noBucket = createS3Storage({ ...options, bucket: 'absent' });
    await expect(noBucket.get('private/a.webp')).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });

  it('keeps photos in the bucket: originals by presigned URL only, blurred copies public', async () => {
    const t = await createTestApp(s3Env());
    try {
      const { cookie, profileId } = await activeMember(t.app);
      const upload = await uploadPhoto(t.app, cookie);
      expect(upload.statusCode).toBe(201);
      const link: string = upload.json().photo.filename;
      expect(link).toMatch(/^\/media\/private\/[\w-]{22}\.webp\?e=\d+&s=[\w-]{43}$/);

      const redirect = await t.app.inject({ url: link });
      expect(redirect.statusCode).toBe(302);
      expect(redirect.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
      const presigned = new URL(String(redirect.headers.location));
      expect(presigned.origin).toBe(endpoint);
      expect(presigned.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
      expect(Number(presigned.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(3600);
      const stored = await fetch(presigned);
      expect(stored.status).toBe(200);
      expect(stored.headers.get('content-type')).toBe('image/webp');
      expect(stored.headers.get('cache-control')).toMatch(/^private/);

      // The same object without the signature: refused, by its path and through the public URL.
      const unsigned = await fetch(`${presigned.origin}${presigned.pathname}`);
      expect(unsigned.status).toBe(403);
      expect(presigned.pathname).toMatch(/^\/media\/private\//);
      const key = presigned.pathname.replace('/media/', '');
      expect((await fetch(`${endpoint}/media/${key}`)).status).toBe(403);

      // A tampered app link gets no presigned URL at all.
      const tampered = link.replace(/s=([\w-])/, (_, first: string) => `s=${first === 'A' ? 'B' : 'A'}`);
      expect((await t.app.inject({ url: tampered })).statusCode).toBe(404);

      // A free member gets the blurred copy of a premium photo straight from the public URL.
      expect((await uploadPhoto(t.app, cookie)).statusCode).toBe(201);
      const free = await signupMember(t.app);
      const view = await t.app.inject({
        url: `/api/member.php?id=${profileId}`,
        headers: { cookie: free.cookie },
      });
      expect(view.statusCode).toBe(200);
      const locked = view.json().photos[1];
      expect(locked).toMatchObject({ premium: true, locked: true });
      expect(locked.filename).toMatch(new RegExp(`^${endpoint}/media/public/[\\w-]{22}\\.webp$`));
      expect((await fetch(locked.filename)).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('hands out presigned URLs that expire', async () => {
    // The app's clock stands two hours back: its presigned URL expired an hour ago by S3's clock.
    const clock = createFakeClock(new Date(Date.now() - 2 * 3_600_000));
    const t = await createTestApp(s3Env(), { clock });
    try {
      const { cookie } = await signupMember(t.app);
      const upload = await uploadPhoto(t.app, cookie);
      expect(upload.statusCode).toBe(201);
      const redirect = await t.app.inject({ url: upload.json().photo.filename });
      expect(redirect.statusCode).toBe(302);
      const expired = await fetch(String(redirect.headers.location));
      expect(expired.status).toBe(403);
      expect(await expired.text()).toContain('Request has expired');
      clock.advanceMinutes(2 * 60);
      const fresh = await t.app.inject({
        url: (await t.app.inject({ url: '/api/profile.php', headers: { cookie } })).json().profile.photos[0]
          .filename,
      });
      expect((await fetch(String(fresh.headers.location))).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('local media storage', () => {
  it('reads a missing object as none, and raises when the object cannot be read', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'media-'));
    try {
      const storage = createLocalStorage({
        publicRoot: path.join(root, 'public-root'),
        privateRoot: path.join(root, 'private-root'),
        signer: createMediaSigner('test-secret', systemClock),
      });
      await storage.put('public/a.webp', Buffer.from('webp bytes'));
      expect((await storage.get('public/a.webp'))?.toString()).toBe('webp bytes');
      expect(await storage.get('public/missing.webp')).toBeNull();
      expect(await storage.get('private/missing.webp')).toBeNull();
      // A folder where the object should be is no missing object: the folder is wrong, and that is raised.
      await mkdir(path.join(root, 'public-root', 'public', 'folder.webp'));
      await expect(storage.get('public/folder.webp')).rejects.toMatchObject({ code: 'EISDIR' });
      await expect(storage.get('../escape.webp')).rejects.toThrow(/Unsafe/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
