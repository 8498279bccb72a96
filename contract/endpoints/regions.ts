import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';

export const interestsResponseSchema = z.object({
  interests: z.array(z.object({ id: z.string(), icon: z.string() })),
});

export const regionsQuerySchema = z.object({ country: z.string().regex(/^[A-Z]{2}$/) });

export const regionSchema = z.object({ code: z.string(), name: z.string() });

export type Region = z.infer<typeof regionSchema>;

export const regionsResponseSchema = z.object({ regions: z.array(regionSchema) });

export const geocodeQuerySchema = z.object({
  lat: z.coerce.number().min(-90).max(90),
  lon: z.coerce.number().min(-180).max(180),
});

export const geocodeResponseSchema = z.object({
  country: z.string().nullable(),
  countryregion: z.string().nullable(),
  region_label: z.string().nullable(),
});

/** The regions calls: each route is registered from its declaration and the web client typed by it. */
export const regionsEndpoints = {
  getInterests: defineEndpoint({
    method: 'GET',
    path: '/api/interests.php',
    tags: ['profiles'],
    summary: 'The interests a profile can list, with icon names',
    responses: { 200: interestsResponseSchema },
  }),
  getRegions: defineEndpoint({
    method: 'GET',
    path: '/api/regions.php',
    tags: ['profiles'],
    summary:
      "The administrative regions of a country (provinces, states, counties), named in the request's language",
    query: regionsQuerySchema,
    responses: { 200: regionsResponseSchema },
  }),
  getGeocode: defineEndpoint({
    method: 'GET',
    path: '/api/geocode.php',
    tags: ['profiles'],
    summary: 'Country and region of a position, from data shipped with the server',
    query: geocodeQuerySchema,
    responses: { 200: geocodeResponseSchema },
  }),
};
