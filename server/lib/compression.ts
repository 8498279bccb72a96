import type { FastifyCompressOptions } from '@fastify/compress';

/**
 * Answers of 1 KB and more are compressed (gzip or Brotli, as the client accepts). Up to 64 KB in
 * one synchronous call (~0.1 ms for a 9 KB search page), not through a zlib stream on the thread
 * pool: the plugin's own limit on 2 cores is 8 KB, and a streamed answer arrived ~3 ms later
 * (a search page of 24 profiles is ~9 KB; decision 030). Pages that stream are compressed as streams.
 */
export const compressionOptions: FastifyCompressOptions = {
  global: true,
  threshold: 1024,
  syncThreshold: 64 * 1024,
};
