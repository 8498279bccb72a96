import { errorBodySchema } from '#contract/common.ts';
import { companyInfoSchema, settingsQuerySchema, settingsSchema } from '#contract/sites.ts';
import { NotFoundError } from '#server/lib/errors.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { toCompanyInfo, toSettings } from './sites.service.ts';

export async function sitesRoutes(app: ZodApp): Promise<void> {
  app.get(
    '/api/settings.php',
    {
      schema: {
        tags: ['sites'],
        summary:
          "The request host's site settings (spec §3), with the visitor's GeoIP country; the site's texts in the request's language",
        querystring: settingsQuerySchema,
        response: { 200: settingsSchema },
      },
    },
    async (request) => {
      const site = request.query.domain ? await app.deps.sites.resolve(request.query.domain) : request.site;
      return toSettings(site, {
        geoipCountry: request.clientCountry,
        pushPublicKey: app.deps.secrets.vapid.publicKey,
        locale: request.locale,
      });
    },
  );

  app.get(
    '/api/companyinfo.php',
    {
      schema: {
        tags: ['sites'],
        summary: 'The company behind the site (spec §3 Company info)',
        response: { 200: companyInfoSchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const company = await app.deps.sites.company(request.site);
      if (!company) throw new NotFoundError();
      return toCompanyInfo(company);
    },
  );
}
