import { errorBodySchema } from '#contract/common.ts';
import { searchQuerySchema, searchResponseSchema } from '#contract/profiles.ts';
import type { ZodApp } from '#server/lib/zod-app.ts';

export async function searchRoutes(app: ZodApp): Promise<void> {
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
