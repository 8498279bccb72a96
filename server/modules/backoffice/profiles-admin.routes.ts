import type { FastifyRequest } from 'fastify';
import { profilesAdminEndpoints as calls } from '#contract/endpoints/backoffice.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import { AppError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { maxUploadBytes } from '#server/modules/photos/photos.routes.ts';
import { UnsupportedImageAppError } from '#server/modules/photos/photos.service.ts';
import { requireStaff } from '#server/modules/staff/staff.sessions.ts';
import { ProfilesAdminService } from './profiles-admin.service.ts';

const right = 'manage_profiles';
const truthy = new Set(['1', 'true', 'on', 'yes']);

/** The upload's bytes and its `premium` field (before or after the file, or in the query). */
async function readPhotoForm(
  request: FastifyRequest,
): Promise<{ data: Buffer; premium: boolean | undefined }> {
  let data: Buffer | undefined;
  let premium: boolean | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: maxUploadBytes, files: 1 } })) {
      if (part.type === 'file') {
        if (part.fieldname === 'file' && data === undefined) data = await part.toBuffer();
        else await part.toBuffer();
      } else if (part.fieldname === 'premium') {
        premium = truthy.has(String(part.value).toLowerCase());
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = error instanceof Error && 'code' in error ? error.code : undefined;
    if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT') throw error;
    throw new UnsupportedImageAppError();
  }
  if (!data) throw new UnsupportedImageAppError();
  return { data, premium };
}

/** Fictional profiles in the back office (moderators and admins; api-contract.md, Staff calls). */
export async function profilesAdminRoutes(app: ZodApp): Promise<void> {
  const { deps } = app;
  const service = new ProfilesAdminService(
    deps.db,
    deps.clock,
    deps.storage,
    deps.sites,
    deps.staff,
    deps.profiles,
    deps.screening,
  );

  routeOf(app, calls.getProfiles, {}, async (request) => {
    requireStaff(request, right);
    return service.list(request.query);
  });

  routeOf(app, calls.getProfileSites, {}, async (request) => {
    requireStaff(request, right);
    return { sites: await service.siteChoices() };
  });

  routeOf(app, calls.postProfiles, {}, async (request, reply) => {
    const actor = requireStaff(request, right);
    const profile = await service.create(actor, request.body, request.ip);
    reply.status(201);
    return { profile };
  });

  routeOf(app, calls.putProfiles, {}, async (request) => ({
    profile: await service.update(requireStaff(request, right), request.body, request.ip),
  }));

  routeOf(app, calls.getProfile, {}, async (request) => {
    requireStaff(request, right);
    return { profile: await service.get(request.query.id) };
  });

  routeOf(app, calls.postProfilesBulk, {}, async (request) => ({
    updated: await service.bulk(requireStaff(request, right), request.body, request.ip),
  }));

  routeOf(
    app,
    calls.postPhotos,
    { config: { rateLimit: { max: 300, timeWindow: '1 hour' } } },
    async (request, reply) => {
      const actor = requireStaff(request, right);
      if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type');
      const form = await readPhotoForm(request);
      const fromQuery = request.query.premium === undefined ? undefined : truthy.has(request.query.premium);
      const photo = await service.addPhoto(
        actor,
        request.query.profile,
        form.data,
        form.premium ?? fromQuery,
        request.ip,
      );
      reply.status(201);
      return { photo };
    },
  );

  routeOf(app, calls.deleteProfilePhoto, {}, async (request) => {
    await service.removePhoto(
      requireStaff(request, right),
      request.body.profile,
      request.body.photo,
      request.ip,
    );
    return { ok: true as const };
  });
}
