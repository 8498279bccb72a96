import { gunzipSync } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressionOptions } from './compression.ts';

/** A JSON answer of about `kilobytes` KB, shaped like a list of profiles. */
function answerOf(kilobytes: number) {
  return {
    profiles: Array.from({ length: Math.ceil((kilobytes * 1024) / 100) }, (_, index) => ({
      id: index,
      name: `Member ${index}`,
      city: `City ${(index * 7919) % 1000}`,
      about: `About ${(index * 104729) % 100000}`,
    })),
  };
}

describe('compressed answers', () => {
  const app = Fastify();
  beforeAll(async () => {
    await app.register(fastifyCompress, compressionOptions);
    app.get('/small', async () => ({ ok: true }));
    app.get('/page', async () => answerOf(20));
    app.get('/large', async () => answerOf(200));
    await app.ready();
  });
  afterAll(() => app.close());

  it('sends an answer of up to 64 KB compressed in one piece, with its length', async () => {
    const answer = await app.inject({ url: '/page', headers: { 'accept-encoding': 'gzip' } });
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers['transfer-encoding']).toBeUndefined();
    expect(Number(answer.headers['content-length'])).toBe(answer.rawPayload.length);
    expect(JSON.parse(gunzipSync(answer.rawPayload).toString())).toEqual(answerOf(20));
  });

  it('streams a larger one, and leaves a small one as it is', async () => {
    const large = await app.inject({ url: '/large', headers: { 'accept-encoding': 'gzip' } });
    expect(large.headers['content-encoding']).toBe('gzip');
    expect(large.headers['transfer-encoding']).toBe('chunked');
    expect(JSON.parse(gunzipSync(large.rawPayload).toString())).toEqual(answerOf(200));
    const small = await app.inject({ url: '/small', headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
