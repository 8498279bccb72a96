import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  adminPhotoQuerySchema,
  adminPhotoResponseSchema,
  bulkProfilesResponseSchema,
  bulkProfilesSchema,
  createFictionalProfileSchema,
  deleteAdminPhotoSchema,
  fictionalProfileQuerySchema,
  fictionalProfileResponseSchema,
  fictionalProfilesQuerySchema,
  fictionalProfilesResponseSchema,
  profileSitesResponseSchema,
  updateFictionalProfileSchema,
} from '#contract/admin-sites.ts';
import { okSchema } from '#contract/common.ts';
import { AppError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { maxUploadBytes } from '#server/modules/photos/photos.routes.ts';
import { UnsupportedImageAppError } from '#server/modules/photos/photos.service.ts';
import { requireStaff } from '#server/modules/staff/staff.sessions.ts';
import { ProfilesAdminService } from './profiles-admin.service.ts';
import { backofficeErrors } from './sites-admin.routes.ts';

const tags = ['admin'];
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

  app.get(
    '/api/admin/profiles.php',
    {
      schema: {
        tags,
        summary:
          'Fictional profiles with their site and numbers (conversations, messages received, replies, credits earned); filters site, q (name or id), gender, country, status',
        querystring: fictionalProfilesQuerySchema,
        response: { 200: fictionalProfilesResponseSchema, ...backofficeErrors },
      },
    },
    async (request) => {
      requireStaff(request, 'manage_profiles');
      return service.list(request.query);
    },
  );

  app.get(
    '/api/admin/profile-sites.php',
    {
      schema: {
        tags,
        summary:
          'The sites a fictional profile can be on, with their countries and minimum age (moderator, admin)',
        response: { 200: profileSitesResponseSchema, ...backofficeErrors },
      },
    },
    async (request) => {
      requireStaff(request, 'manage_profiles');
      return { sites: await service.siteChoices() };
    },
  );

  app.post(
    '/api/admin/profiles.php',
    {
      schema: {
        tags,
        summary:
          'Creates a fictional profile on a site (moderator, admin). 201 {profile} with fictional: true',
        body: createFictionalProfileSchema,
        response: { 201: fictionalProfileResponseSchema, ...backofficeErrors },
      },
    },
    async (request, reply) => {
      const actor = requireStaff(request, 'manage_profiles');
      const profile = await service.create(actor, request.body, request.ip);
      reply.status(201);
      return { profile };
    },
  );

  app.put(
    '/api/admin/profiles.php',
    {
      schema: {
        tags,
        summary: 'Changes a fictional profile: attributes, about, site, status (disable) (moderator, admin)',
        body: updateFictionalProfileSchema,
        response: { 200: fictionalProfileResponseSchema, ...backofficeErrors },
      },
    },
    async (request) => ({
      profile: await service.update(requireStaff(request, 'manage_profiles'), request.body, request.ip),
    }),
  );

  app.get(
    '/api/admin/profile.php',
    {
      schema: {
        tags,
        summary: 'One fictional profile with its photos and numbers (moderator, admin)',
        querystring: fictionalProfileQuerySchema,
        response: { 200: fictionalProfileResponseSchema, ...backofficeErrors },
      },
    },
    async (request) => {
      requireStaff(request, 'manage_profiles');
      return { profile: await service.get(request.query.id) };
    },
  );

  app.post(
    '/api/admin/profiles-bulk.php',
    {
      schema: {
        tags,
        summary: 'Disables, enables or moves to a site many fictional profiles at once (moderator, admin)',
        body: bulkProfilesSchema,
        response: { 200: bulkProfilesResponseSchema, ...backofficeErrors },
      },
    },
    async (request) => ({
      updated: await service.bulk(requireStaff(request, 'manage_profiles'), request.body, request.ip),
    }),
  );

  app.post(
    '/api/admin/photos.php',
    {
      config: { rateLimit: { max: 300, timeWindow: '1 hour' } },
      schema: {
        tags,
        summary:
          'Adds a photo to a fictional profile (multipart "file", "premium"): premium photos go last, premium=false makes it the free main photo',
        consumes: ['multipart/form-data'],
        querystring: adminPhotoQuerySchema.extend({
          premium: z.enum(['0', '1', 'true', 'false']).optional(),
        }),
        response: { 201: adminPhotoResponseSchema, ...backofficeErrors },
      },
    },
    async (request, reply) => {
      const actor = requireStaff(request, 'manage_profiles');
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

  app.delete(
    '/api/admin/profile-photo.php',
    {
      schema: {
        tags,
        summary: 'Removes a photo of a fictional profile (moderator, admin)',
        body: deleteAdminPhotoSchema,
        response: { 200: okSchema, ...backofficeErrors },
      },
    },
    async (request) => {
      await service.removePhoto(
        requireStaff(request, 'manage_profiles'),
        request.body.profile,
        request.body.photo,
        request.ip,
      );
      return { ok: true as const };
    },
  );
}
