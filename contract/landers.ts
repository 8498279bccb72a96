import { z } from 'zod';
import { genderOptions, profileSchema } from './profiles.ts';

/** The nine ad landing pages of spec §2, by their URL name. */
export const landerNames = [
  'tinderswipe',
  'alonetonight',
  'collagelanding',
  'gallery',
  'iconslanding',
  'maplanding',
  'socialnetwork',
  'transitionsvideolanding',
  'video',
] as const;
export type LanderName = (typeof landerNames)[number];

export const landerProfilesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(24).default(12),
  gender: z.enum(genderOptions).optional().describe('only profiles of this gender'),
  region: z
    .string()
    .regex(/^[A-Z0-9]{1,3}$/)
    .optional()
    .describe("only profiles of this region of the visitor's country (ISO 3166-2 code without the country)"),
});

export const landerProfilesResponseSchema = z.object({
  country: z.string().describe("the visitor's country (or the site's first one)"),
  profiles: z.array(profileSchema).describe("fictional profiles only, of the visitor's country first"),
});
export type LanderProfilesResponse = z.infer<typeof landerProfilesResponseSchema>;

export const landerMapRegionSchema = z.object({
  code: z.string(),
  name: z.string().describe("in the reader's language"),
  path: z.string().describe('SVG path of the region shape (approximate), to clip with the outline'),
  x: z.number().describe("the region's centre on the map"),
  y: z.number(),
  singles: z.number().int().describe('fictional profiles with a photo in this region'),
});

export const landerMapResponseSchema = z.object({
  country: z.string(),
  country_name: z.string().describe("in the reader's language"),
  view_box: z.string(),
  outline: z.string().describe("SVG path of the country's outline"),
  regions: z.array(landerMapRegionSchema).describe('regions with singles first'),
  focus: z.string().nullable().describe('the region with the most singles'),
});
export type LanderMapResponse = z.infer<typeof landerMapResponseSchema>;

const landerVideoSchema = z
  .object({
    src: z.string().describe("URL of the MP4 (H.264, muted) made from the demo profiles' photos"),
    poster: z.string().describe("URL of the video's first photo as JPEG"),
  })
  .nullable()
  .describe('null until the video has been made (it is made once, in the background)');

export const landerMediaResponseSchema = z.object({
  video: landerVideoSchema.describe('a slow zoom over each photo (the video lander)'),
  transitions: landerVideoSchema.describe('photos that cross-fade (the transitions video lander)'),
});
export type LanderMediaResponse = z.infer<typeof landerMediaResponseSchema>;
