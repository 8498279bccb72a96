import { errorBodySchema } from '#contract/common.ts';
import { featuredQuerySchema, profilesResponseSchema } from '#contract/endpoints.ts';
import { searchQuerySchema, searchResponseSchema } from '#contract/profiles.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { selectedCountry } from '#server/modules/sites/sites.service.ts';

export async function searchRoutes(app: ZodApp): Promise<void> {
  app.get(
    '/api/featured.php',
    {
      schema: {
        tags: ['search'],
        summary:
          "Public profiles (fictional, or members who opted in) for landing pages, the visitor's country first; or one by id (404 for any other)",
        querystring: featuredQuerySchema,
        response: { 200: profilesResponseSchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, max-age=60');
      if (request.query.profile) {
        return {
          profiles: [
            await app.deps.search.publicProfile(request.site, request.query.profile, request.member),
          ],
        };
      }
      const country = selectedCountry(request.site, request.clientCountry);
      return {
        profiles: await app.deps.search.featured(request.site, country, request.query.limit, request.member),
      };
    },
  );

  app.get(
    '/api/search.php',
    {
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: {
        tags: ['search'],
        summary:
          'Members by gender, country, region and age, recently active first, with similar results when few match',
        querystring: searchQuerySchema,
        response: { 200: searchResponseSchema, 403: errorBodySchema, 422: errorBodySchema },
      },
    },
    async (request) =>
      app.deps.search.search(request.member, request.site, request.query, {
        hasTrafficSource: Boolean(request.cookies.tracking),
      }),
  );
}
