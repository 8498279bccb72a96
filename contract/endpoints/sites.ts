import { errorBodySchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import { companyInfoSchema, settingsQuerySchema, settingsSchema } from '../sites.ts';

/** The sites calls: each route is registered from its declaration and the web client typed by it. */
export const sitesEndpoints = {
  getSettings: defineEndpoint({
    method: 'GET',
    path: '/api/settings.php',
    tags: ['sites'],
    summary:
      "The request host's site settings (spec §3), with the visitor's GeoIP country; the site's texts in the request's language",
    query: settingsQuerySchema,
    responses: { 200: settingsSchema },
  }),
  getCompanyinfo: defineEndpoint({
    method: 'GET',
    path: '/api/companyinfo.php',
    tags: ['sites'],
    summary: 'The company behind the site (spec §3 Company info)',
    responses: { 200: companyInfoSchema, 404: errorBodySchema },
  }),
};
