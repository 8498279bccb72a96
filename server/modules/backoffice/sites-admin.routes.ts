import {
  adminCompaniesResponseSchema,
  adminCompanyResponseSchema,
  adminSiteResponseSchema,
  adminSitesResponseSchema,
  createCompanySchema,
  createSiteSchema,
  siteLogoQuerySchema,
  updateCompanySchema,
  updateSiteSchema,
} from '#contract/admin-sites.ts';
import { errorBodySchema } from '#contract/common.ts';
import { AppError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { readUpload } from '#server/modules/photos/photos.routes.ts';
import { requireStaff } from '#server/modules/staff/staff.sessions.ts';
import { SitesAdminService, toAdminSite } from './sites-admin.service.ts';

export const backofficeErrors = {
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  413: errorBodySchema,
  415: errorBodySchema,
  422: errorBodySchema,
  429: errorBodySchema,
};
const tags = ['admin'];

/** Sites and companies in the back office (admins only; api-contract.md, Staff calls). */
export async function sitesAdminRoutes(app: ZodApp): Promise<void> {
  const { deps } = app;
  const service = new SitesAdminService(
    deps.db,
    deps.clock,
    deps.sites,
    deps.staff,
    deps.storage,
    deps.config,
  );

  app.get(
    '/api/admin/sites.php',
    {
      schema: {
        tags,
        summary: 'Every site with all its settings and branding (admin)',
        response: { 200: adminSitesResponseSchema, ...backofficeErrors },
      },
    },
    async (request) => {
      requireStaff(request, 'manage_sites');
      return { sites: (await service.list()).map(toAdminSite) };
    },
  );

  app.post(
    '/api/admin/sites.php',
    {
      schema: {
        tags,
        summary:
          'Creates a site (admin); served by every instance at once. 422 validation_failed with fields (domain taken, unknown company, …)',
        body: createSiteSchema,
        response: { 201: adminSiteResponseSchema, ...backofficeErrors },
      },
    },
    async (request, reply) => {
      const actor = requireStaff(request, 'manage_sites');
      const site = await service.create(actor, request.body, request.ip);
      reply.status(201);
      return { site: toAdminSite(site) };
    },
  );

  app.put(
    '/api/admin/sites.php',
    {
      schema: {
        tags,
        summary: 'Changes a site’s fields (admin); every instance serves the change at once',
        body: updateSiteSchema,
        response: { 200: adminSiteResponseSchema, ...backofficeErrors },
      },
    },
    async (request) => {
      const actor = requireStaff(request, 'manage_sites');
      return { site: toAdminSite(await service.update(actor, request.body, request.ip)) };
    },
  );

  app.post(
    '/api/admin/site-logo.php',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 hour' } },
      schema: {
        tags,
        summary: 'Uploads a site’s logo (multipart field "file"; admin); re-encoded, public, used in mails',
        consumes: ['multipart/form-data'],
        querystring: siteLogoQuerySchema,
        response: { 200: adminSiteResponseSchema, ...backofficeErrors },
      },
    },
    async (request) => {
      const actor = requireStaff(request, 'manage_sites');
      if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type');
      const data = await readUpload(request);
      return { site: toAdminSite(await service.uploadLogo(actor, request.query.site, data, request.ip)) };
    },
  );

  app.get(
    '/api/admin/companies.php',
    {
      schema: {
        tags,
        summary: 'The companies behind the sites (spec §3 Company info; admin)',
        response: { 200: adminCompaniesResponseSchema, ...backofficeErrors },
      },
    },
    async (request) => {
      requireStaff(request, 'manage_sites');
      return { companies: await service.companies() };
    },
  );

  app.post(
    '/api/admin/companies.php',
    {
      schema: {
        tags,
        summary: 'Adds a company (admin)',
        body: createCompanySchema,
        response: { 201: adminCompanyResponseSchema, ...backofficeErrors },
      },
    },
    async (request, reply) => {
      const actor = requireStaff(request, 'manage_sites');
      const company = await service.createCompany(actor, request.body, request.ip);
      reply.status(201);
      return { company };
    },
  );

  app.put(
    '/api/admin/companies.php',
    {
      schema: {
        tags,
        summary: 'Changes a company (admin); footers and legal pages show it at once',
        body: updateCompanySchema,
        response: { 200: adminCompanyResponseSchema, ...backofficeErrors },
      },
    },
    async (request) => {
      const actor = requireStaff(request, 'manage_sites');
      return { company: await service.updateCompany(actor, request.body, request.ip) };
    },
  );
}
