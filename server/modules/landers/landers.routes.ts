import { mkdirSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import { errorBodySchema } from '#contract/common.ts';
import {
  landerMapResponseSchema,
  landerMediaResponseSchema,
  landerProfilesQuerySchema,
  landerProfilesResponseSchema,
} from '#contract/landers.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { landerMediaDir, landerMediaPrefix, landersServiceOf } from './landers.service.ts';

/** The ad landing pages' API (spec §2): fictional profiles, the region map, the made videos. */
export async function landersRoutes(app: ZodApp): Promise<void> {
  const dir = landerMediaDir(app.deps.config.DATA_DIR);
  mkdirSync(dir, { recursive: true });
  const landers = landersServiceOf(app.deps);

  await app.register(fastifyStatic, {
    root: dir,
    prefix: landerMediaPrefix,
    decorateReply: false,
    maxAge: '1d',
  });

  app.get(
    '/api/landers/profiles.php',
    {
      schema: {
        tags: ['landers'],
        summary: "Fictional profiles with a photo for the ad landing pages, of the visitor's country only",
        querystring: landerProfilesQuerySchema,
        response: { 200: landerProfilesResponseSchema, 422: errorBodySchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, max-age=60');
      return landers.profiles(request.site, request.clientCountry, request.query, request.member);
    },
  );

  app.get(
    '/api/landers/map.php',
    {
      schema: {
        tags: ['landers'],
        summary: "The visitor's country as an SVG map: regions in the reader's language with their singles",
        response: { 200: landerMapResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, max-age=300');
      return landers.map(request.site, request.clientCountry, request.locale);
    },
  );

  app.get(
    '/api/landers/media.php',
    {
      schema: {
        tags: ['landers'],
        summary: "The video landers' files (made once from the demo profiles' photos; null until then)",
        response: { 200: landerMediaResponseSchema },
      },
    },
    async () => landers.media(),
  );
}
