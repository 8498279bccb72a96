import { searchEndpoints } from '#contract/endpoints/search.ts';
import { routeOf } from '#server/lib/endpoint-route.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';
import { selectedCountry } from '#server/modules/sites/sites.service.ts';

export async function searchRoutes(app: ZodApp): Promise<void> {
  routeOf(app, searchEndpoints.getFeatured, {}, async (request, reply) => {
    reply.header('cache-control', 'private, max-age=60');
    if (request.query.profile) {
      return {
        profiles: [await app.deps.search.publicProfile(request.site, request.query.profile, request.member)],
      };
    }
    const country = selectedCountry(request.site, request.clientCountry);
    return {
      profiles: await app.deps.search.featured(request.site, country, request.query.limit, request.member),
    };
  });

  routeOf(
    app,
    searchEndpoints.getSearch,
    { config: { rateLimit: { max: 120, timeWindow: '1 minute' } } },
    async (request) =>
      app.deps.search.search(request.member, request.site, request.query, {
        hasTrafficSource: Boolean(request.cookies.tracking),
      }),
  );
}
