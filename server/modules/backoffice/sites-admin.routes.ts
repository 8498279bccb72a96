import { sitesAdminEndpoints as calls } from '#contract/endpoints/backoffice.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import { AppError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { readUpload } from '#server/modules/photos/photos.routes.ts';
import { requireStaff } from '#server/modules/staff/staff.sessions.ts';
import { SitesAdminService, toAdminSite } from './sites-admin.service.ts';

const right = 'manage_sites';

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

  routeOf(app, calls.getSites, {}, async (request) => {
    requireStaff(request, right);
    return { sites: (await service.list()).map(toAdminSite) };
  });

  routeOf(app, calls.postSites, {}, async (request, reply) => {
    const actor = requireStaff(request, right);
    const site = await service.create(actor, request.body, request.ip);
    reply.status(201);
    return { site: toAdminSite(site) };
  });

  routeOf(app, calls.putSites, {}, async (request) => {
    const actor = requireStaff(request, right);
    return { site: toAdminSite(await service.update(actor, request.body, request.ip)) };
  });

  routeOf(
    app,
    calls.postSiteLogo,
    { config: { rateLimit: { max: 30, timeWindow: '1 hour' } } },
    async (request) => {
      const actor = requireStaff(request, right);
      if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type');
      const data = await readUpload(request);
      return { site: toAdminSite(await service.uploadLogo(actor, request.query.site, data, request.ip)) };
    },
  );

  routeOf(app, calls.getCompanies, {}, async (request) => {
    requireStaff(request, right);
    return { companies: await service.companies() };
  });

  routeOf(app, calls.postCompanies, {}, async (request, reply) => {
    const actor = requireStaff(request, right);
    const company = await service.createCompany(actor, request.body, request.ip);
    reply.status(201);
    return { company };
  });

  routeOf(app, calls.putCompanies, {}, async (request) => {
    const actor = requireStaff(request, right);
    return { company: await service.updateCompany(actor, request.body, request.ip) };
  });
}
