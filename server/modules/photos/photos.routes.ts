import type { FastifyRequest } from 'fastify';
import { errorBodySchema, okSchema } from '#contract/common.ts';
import { mainPhotoBodySchema, photoRefSchema, photoUploadResponseSchema } from '#contract/endpoints.ts';
import { photoOrderBodySchema } from '#contract/profiles.ts';
import { AppError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireMember } from '#server/modules/accounts/sessions.ts';
import { toPhotos } from '#server/modules/profiles/profile-view.ts';
import { UnsupportedImageAppError } from './photos.service.ts';

const errors = {
  403: errorBodySchema,
  404: errorBodySchema,
  413: errorBodySchema,
  415: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
};
export const maxUploadBytes = 15 * 1024 * 1024;

/** Multipart limits the error handler answers itself (413, 415): everything else is the form's fault. */
const multipartLimitCodes = new Set([
  'FST_REQ_FILE_TOO_LARGE',
  'FST_FILES_LIMIT',
  'FST_PARTS_LIMIT',
  'FST_FIELDS_LIMIT',
  'FST_INVALID_MULTIPART_CONTENT_TYPE',
]);

/**
 * The bytes of the form's file. A form that cannot be read (cut off, wrong boundary, broken part
 * headers) or has no file answers 422 unsupported_image, as a file that is not a photo does.
 */
export async function readUpload(request: FastifyRequest): Promise<Buffer> {
  try {
    const file = await request.file({ limits: { fileSize: maxUploadBytes, files: 1 } });
    if (!file) throw new UnsupportedImageAppError();
    return await file.toBuffer();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = error instanceof Error && 'code' in error ? error.code : undefined;
    if (typeof code === 'string' && multipartLimitCodes.has(code)) throw error;
    throw new UnsupportedImageAppError();
  }
}

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
        response: { 201: photoUploadResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const member = requireMember(request);
      if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type');
      const data = await readUpload(request);
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
        body: photoRefSchema,
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
        body: mainPhotoBodySchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await app.deps.photos.makeMain(requireMember(request), request.body.photo);
      return { ok: true as const };
    },
  );

  app.put(
    '/api/photo-order.php',
    {
      schema: {
        tags: ['photos'],
        summary: 'Puts the own photos in a new order (all their ids); the first becomes the main photo',
        body: photoOrderBodySchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await app.deps.photos.reorder(requireMember(request), request.body.photos);
      return { ok: true as const };
    },
  );
}
