import { sitesEndpoints } from '#contract/endpoints/sites.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import { NotFoundError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { toCompanyInfo, toSettings } from './sites.service.ts';

export async function sitesRoutes(app: ZodApp): Promise<void> {
  routeOf(app, sitesEndpoints.getSettings, {}, async (request) => {
    const site = request.query.domain ? await app.deps.sites.resolve(request.query.domain) : request.site;
    return toSettings(site, {
      geoipCountry: request.clientCountry,
      pushPublicKey: app.deps.secrets.vapid.publicKey,
      locale: request.locale,
    });
  });

  routeOf(app, sitesEndpoints.getCompanyinfo, {}, async (request) => {
    const company = await app.deps.sites.company(request.site);
    if (!company) throw new NotFoundError();
    return toCompanyInfo(company);
  });
}
