import { mkdirSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import { landersEndpoints } from '#contract/endpoints/landers.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
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

  routeOf(app, landersEndpoints.getLandersProfiles, {}, async (request, reply) => {
    reply.header('cache-control', 'private, max-age=60');
    return landers.profiles(request.site, request.clientCountry, request.query, request.member);
  });

  routeOf(app, landersEndpoints.getLandersMap, {}, async (request, reply) => {
    reply.header('cache-control', 'private, max-age=300');
    return landers.map(request.site, request.clientCountry, request.locale);
  });

  routeOf(app, landersEndpoints.getLandersMedia, {}, async () => landers.media());
}
