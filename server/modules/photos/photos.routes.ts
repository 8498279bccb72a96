import { z } from 'zod';
import { errorBodySchema, okSchema } from '#contract/common.ts';
import { photoSchema } from '#contract/profiles.ts';
import { AppError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireMember } from '#server/modules/accounts/sessions.ts';
import { toPhotos } from '#server/modules/profiles/profile-view.ts';

const errors = {
  403: errorBodySchema,
  404: errorBodySchema,
  413: errorBodySchema,
  415: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
};
export const maxUploadBytes = 15 * 1024 * 1024;

export async function photosRoutes(app: ZodApp): Promise<void> {
  app.post(
    '/api/photos.php',
    {
      config: {
        rateLimit: {
          max: 30,
          timeWindow: '1 hour',
          keyGenerator: (request) => `photos:${request.member?.id ?? request.ip}`,
        },
      },
      schema: {
        tags: ['photos'],
        summary:
          'Uploads a photo (multipart field "file"). 403 premium_required past 3 photos (free), 422 photo_limit past 25',
        consumes: ['multipart/form-data'],
        response: { 201: z.object({ photo: photoSchema }), ...errors },
      },
    },
    async (request, reply) => {
      const member = requireMember(request);
      if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type');
      const file = await request.file({ limits: { fileSize: maxUploadBytes, files: 1 } });
      if (!file) throw new AppError(422, 'unsupported_image');
      const data = await file.toBuffer();
      const photo = await app.deps.photos.upload(member, data);
      const [view] = toPhotos([photo], {
        storage: app.deps.storage,
        site: request.site,
        today: app.deps.clock.now(),
        canSeePremium: true,
      });
      reply.status(201);
      return { photo: { ...view!, premium: photo.position > 0 } };
    },
  );

  app.delete(
    '/api/photos.php',
    {
      schema: {
        tags: ['photos'],
        summary: 'Deletes one of the own photos',
        body: z.object({ photo: z.number().int().positive() }),
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await app.deps.photos.remove(requireMember(request), request.body.photo);
      return { ok: true as const };
    },
  );

  app.put(
    '/api/photos.php',
    {
      schema: {
        tags: ['photos'],
        summary: 'Makes one of the own photos the main photo',
        body: z.object({ photo: z.number().int().positive(), main: z.literal(true) }),
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await app.deps.photos.makeMain(requireMember(request), request.body.photo);
      return { ok: true as const };
    },
  );
}
