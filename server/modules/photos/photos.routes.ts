import type { FastifyRequest } from 'fastify';
import { photosEndpoints } from '#contract/endpoints/photos.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import { AppError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { requireMember } from '#server/modules/accounts/sessions.ts';
import { toPhotos } from '#server/modules/profiles/profile-view.ts';
import { UnsupportedImageAppError } from './photos.service.ts';

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
  routeOf(
    app,
    photosEndpoints.postPhotos,
    {
      config: {
        rateLimit: {
          max: 30,
          timeWindow: '1 hour',
          keyGenerator: (request) => `photos:${request.member?.id ?? request.ip}`,
        },
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

  routeOf(app, photosEndpoints.deletePhotos, {}, async (request) => {
    await app.deps.photos.remove(requireMember(request), request.body.photo);
    return { ok: true as const };
  });

  routeOf(app, photosEndpoints.putPhotos, {}, async (request) => {
    await app.deps.photos.makeMain(requireMember(request), request.body.photo);
    return { ok: true as const };
  });

  routeOf(app, photosEndpoints.putPhotoOrder, {}, async (request) => {
    await app.deps.photos.reorder(requireMember(request), request.body.photos);
    return { ok: true as const };
  });
}
