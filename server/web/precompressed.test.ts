import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM build script without type declarations
import { compressDir } from '../../scripts/compress-assets.mjs';
import { registerClientBuild } from './ssr.ts';

describe('hashed assets served pre-compressed', () => {
  let dir: string;
  let app: FastifyInstance;
  // Repetitive, like real bundles: compresses well, and well past the 1 KiB threshold.
  const script = Array.from({ length: 400 }, (_, i) => `export const value${i} = "chunk-${i % 7}";`).join(
    '\n',
  );

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'client-build-'));
    await mkdir(path.join(dir, 'assets'));
    await writeFile(path.join(dir, 'assets', 'root-AbC123.js'), script);
    await writeFile(path.join(dir, 'assets', 'tiny-XyZ789.js'), 'export {};');
    await writeFile(path.join(dir, 'assets', 'logo-Q1w2E3.png'), Buffer.alloc(4096, 1));
    await writeFile(path.join(dir, 'sw.js'), script);
    await compressDir(dir);
    app = Fastify();
    // As in server/app.ts: compression of every response above 1 KiB.
    await app.register(fastifyCompress, { global: true, threshold: 1024 });
    await registerClientBuild(app, dir);
  });
  afterAll(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('makes brotli and gzip copies at build time, only for compressible files worth it', async () => {
    const files = (await readdir(path.join(dir, 'assets'))).sort();
    expect(files).toEqual([
      'logo-Q1w2E3.png',
      'root-AbC123.js',
      'root-AbC123.js.br',
      'root-AbC123.js.gz',
      'tiny-XyZ789.js',
    ]);
    const br = await readFile(path.join(dir, 'assets', 'root-AbC123.js.br'));
    const gz = await readFile(path.join(dir, 'assets', 'root-AbC123.js.gz'));
    expect(zlib.brotliDecompressSync(br).toString()).toBe(script);
    expect(zlib.gunzipSync(gz).toString()).toBe(script);
    expect(br.length).toBeLessThan(gz.length);
  });

  it('sends the .br file as it is for Accept-Encoding: br, with the right headers, not compressed again', async () => {
    const answer = await app.inject({
      url: '/assets/root-AbC123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.headers.vary).toMatch(/accept-encoding/i);
    const onDisk = await readFile(path.join(dir, 'assets', 'root-AbC123.js.br'));
    expect(answer.rawPayload.equals(onDisk)).toBe(true);
    expect(Number(answer.headers['content-length'])).toBe(onDisk.length);
  });

  it('sends the .gz file for gzip-only clients and the plain file otherwise', async () => {
    const gzip = await app.inject({ url: '/assets/root-AbC123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.rawPayload.equals(await readFile(path.join(dir, 'assets', 'root-AbC123.js.gz')))).toBe(true);
    const plain = await app.inject({
      url: '/assets/root-AbC123.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('serves the assets folder through one route, and an unknown asset is a plain 404', async () => {
    // One wildcard route, not one per file: a file added after the start is served too.
    await writeFile(path.join(dir, 'assets', 'late-Zz9.js'), 'export {};');
    const late = await app.inject({ url: '/assets/late-Zz9.js' });
    expect(late.statusCode).toBe(200);
    expect(late.body).toBe('export {};');
    const missing = await app.inject({ url: '/assets/gone-Aa1.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).not.toMatch(/html/);
    const outside = await app.inject({ url: '/assets/..%2fsw.js' });
    expect(outside.statusCode).toBeGreaterThanOrEqual(400);
  });

  it('serves the files at the top of the build (the service worker) with an hour of caching', async () => {
    const answer = await app.inject({ url: '/sw.js', headers: { 'accept-encoding': 'br' } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['cache-control']).toBe('public, max-age=3600');
    expect(zlib.brotliDecompressSync(answer.rawPayload).toString()).toBe(script);
  });
});
