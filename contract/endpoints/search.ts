import { z } from 'zod';
import { errorBodySchema, idParam } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import { profileSchema, searchQuerySchema, searchResponseSchema } from '../profiles.ts';

export const featuredQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(24).default(12),
  profile: idParam.optional(),
});

export const profilesResponseSchema = z.object({ profiles: z.array(profileSchema) });

/** The search calls: each route is registered from its declaration and the web client typed by it. */
export const searchEndpoints = {
  getFeatured: defineEndpoint({
    method: 'GET',
    path: '/api/featured.php',
    tags: ['search'],
    summary:
      "Public profiles (fictional, or members who opted in) for landing pages, the visitor's country first; or one by id (404 for any other)",
    query: featuredQuerySchema,
    responses: { 200: profilesResponseSchema, 404: errorBodySchema },
  }),
  getSearch: defineEndpoint({
    method: 'GET',
    path: '/api/search.php',
    tags: ['search'],
    summary:
      'Members by gender, country, region and age, recently active first, with similar results when few match',
    query: searchQuerySchema,
    responses: { 200: searchResponseSchema, 403: errorBodySchema, 422: errorBodySchema },
  }),
};
