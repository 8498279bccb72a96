import { errorBodySchema } from '../common.ts';
import { defineEndpoint } from '../endpoint.ts';
import {
  landerMapResponseSchema,
  landerMediaResponseSchema,
  landerProfilesQuerySchema,
  landerProfilesResponseSchema,
} from '../landers.ts';

/** The landers calls: each route is registered from its declaration and the web client typed by it. */
export const landersEndpoints = {
  getLandersProfiles: defineEndpoint({
    method: 'GET',
    path: '/api/landers/profiles.php',
    tags: ['landers'],
    summary: "Fictional profiles with a photo for the ad landing pages, of the visitor's country only",
    query: landerProfilesQuerySchema,
    responses: { 200: landerProfilesResponseSchema, 422: errorBodySchema },
  }),
  getLandersMap: defineEndpoint({
    method: 'GET',
    path: '/api/landers/map.php',
    tags: ['landers'],
    summary: "The visitor's country as an SVG map: regions in the reader's language with their singles",
    responses: { 200: landerMapResponseSchema },
  }),
  getLandersMedia: defineEndpoint({
    method: 'GET',
    path: '/api/landers/media.php',
    tags: ['landers'],
    summary: "The video landers' files (made once from the demo profiles' photos; null until then)",
    responses: { 200: landerMediaResponseSchema },
  }),
};
