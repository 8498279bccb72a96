import { z } from 'zod';
import { imageSchema } from './users.ts';

/** Option keys of the profile attributes (spec §3); their labels are translated in the profile catalog. */
export const genderOptions = ['male', 'female'] as const;
export const sexualityOptions = ['hetero', 'gay', 'lesbian', 'bi'] as const;
export const bodyTypeOptions = ['slim', 'athletic', 'average', 'curvy', 'full'] as const;
export const hairOptions = ['blonde', 'brown', 'black', 'red', 'grey', 'bald'] as const;
export const eyeColourOptions = ['blue', 'brown', 'green', 'grey', 'hazel'] as const;
export const relationshipStatusOptions = [
  'single',
  'divorced',
  'widowed',
  'separated',
  'open_relationship',
] as const;
export const tattooOptions = ['none', 'some', 'many'] as const;
export const interestOptions = [
  'travelling',
  'music',
  'sports',
  'wine',
  'cooking',
  'movies',
  'reading',
  'nature',
  'dancing',
  'fitness',
  'art',
  'gaming',
  'romance',
  'cuddling',
  'adventure',
  'roleplay',
] as const;

const optionOf = <T extends readonly [string, ...string[]]>(options: T) =>
  z.enum(options, { error: 'invalid' });

/** A profile as others see it (api-contract.md Objects: Profile). */
export const profileSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  age: z.number().int(),
  gender: z.enum(genderOptions).nullable(),
  seeking: z.enum(['male', 'female', 'both']).nullable(),
  sexuality: z.enum(sexualityOptions),
  country: z.string(),
  countryregion: z.string().nullable(),
  region_label: z.string().nullable(),
  status: z.enum(['active', 'disabled']),
  fictional: z.boolean(),
  main_image: imageSchema.nullable(),
  body_type: z.enum(bodyTypeOptions).nullable(),
  hair: z.enum(hairOptions).nullable(),
  eye_colour: z.enum(eyeColourOptions).nullable(),
  relationship_status: z.enum(relationshipStatusOptions).nullable(),
  tattoos: z.enum(tattooOptions).nullable(),
  interests: z.array(z.string()),
  about: z.string().nullable(),
  last_active: z.string().describe('ISO 8601'),
  online: z
    .boolean()
    .describe(
      "decided by the server: a member active in the last few minutes; a fictional profile only while its site's team is on shift and has just answered as it",
    ),
});
export type Profile = z.infer<typeof profileSchema>;

/** A photo; `locked` photos are server-made blurred copies for a viewer who is not premium. */
/** A member's new photo is screened before others see it (api-contract.md, Photos under screening). */
export const photoStatusOptions = ['screening', 'approved', 'held'] as const;
export const photoHoldReasonOptions = ['explicit', 'no_face', 'apparent_minor', 'check_failed'] as const;

export const photoSchema = z.object({
  id: z.number().int(),
  filename: z.string(),
  thumb_filename: z.string(),
  premium: z.boolean().describe('a photo after the first one'),
  locked: z.boolean().describe('true when the URLs are of the blurred copy'),
  status: z
    .enum(photoStatusOptions)
    .describe('screening until checked, then approved or held; others only ever see approved photos'),
  hold_reason: z
    .enum(photoHoldReasonOptions)
    .nullable()
    .describe('why a held photo waits for a moderator; null otherwise'),
});
export type Photo = z.infer<typeof photoSchema>;

export const ownProfileSchema = profileSchema.extend({
  birthdate: z.string(),
  photos: z.array(photoSchema),
  photo_limit: z.number().int(),
  public_profile: z.boolean().describe('shown to visitors and on ad pages (opt-in, off by default)'),
  browse_invisibly: z
    .boolean()
    .describe('premium: the member\'s visits are not recorded in others\' "who viewed me"'),
});
export type OwnProfile = z.infer<typeof ownProfileSchema>;

export const profileUpdateSchema = z.object({
  name: z.string().trim().min(2, { error: 'too_short' }).max(30, { error: 'too_long' }).optional(),
  gender: optionOf(genderOptions).optional(),
  seeking: optionOf(['male', 'female', 'both'] as const).optional(),
  body_type: optionOf(bodyTypeOptions).nullable().optional(),
  hair: optionOf(hairOptions).nullable().optional(),
  eye_colour: optionOf(eyeColourOptions).nullable().optional(),
  relationship_status: optionOf(relationshipStatusOptions).nullable().optional(),
  tattoos: optionOf(tattooOptions).nullable().optional(),
  interests: z.array(optionOf(interestOptions)).max(interestOptions.length).optional(),
  about: z.string().trim().max(2000, { error: 'too_long' }).nullable().optional(),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, { error: 'invalid' })
    .optional(),
  countryregion: z.string().max(10).nullable().optional(),
  public_profile: z.boolean().optional(),
  browse_invisibly: z.boolean().optional().describe('premium only (403 premium_required)'),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export const memberResponseSchema = z.object({
  profile: profileSchema,
  photos: z.array(photoSchema),
  liked: z.boolean(),
  blocked: z.boolean().describe('the viewer blocked this member'),
});

export const searchQuerySchema = z.object({
  gender: z
    .enum([...genderOptions, 'any'])
    .optional()
    .describe("absent: the gender the member seeks (from the profile); 'any': everyone"),
  country: z
    .string()
    .regex(/^([A-Z]{2}|any)$/)
    .optional()
    .describe(
      "absent: the member's own country when they have said whom they seek; 'any': all the site's countries",
    ),
  countryregion: z.string().max(10).optional(),
  min_age: z.coerce.number().int().min(18).max(99).optional(),
  max_age: z.coerce.number().int().min(18).max(99).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  cursor: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/)
    .optional()
    .describe(
      'the next_cursor of the previous page: the page after it, read from the index (keyset); page numbers work too',
    ),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

export const searchResponseSchema = z.object({
  profiles: z.array(profileSchema),
  /** Matches counted up to 1,000: with total_capped there are more than `total` ("1,000+"). */
  total: z.number().int().describe('Number of matches, counted up to 1,000 (see total_capped)'),
  /** True when there are more matches than `total`; `pages` then covers the first 1,000 only. */
  total_capped: z
    .boolean()
    .describe('More than `total` matches: show "1,000+"; `pages` covers the first 1,000')
    .optional(),
  page: z.number().int(),
  pages: z.number().int(),
  next_cursor: z
    .string()
    .nullable()
    .optional()
    .describe('pass as `cursor` for the next page (null: no more matches)'),
  similar: z.array(profileSchema),
  applied: z
    .object({
      gender: z.enum(genderOptions).nullable(),
      country: z.string().nullable(),
      mutual: z.boolean().describe("only profiles that seek the member's gender (or everyone)"),
    })
    .describe('the filters used, defaults from the profile included (the form shows these)'),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;

export const photoLimits = { free: 3, premium: 25 } as const;

/** PUT /api/photo-order.php: all the member's photo ids in the new order (the first is the main photo). */
export const photoOrderBodySchema = z.object({
  photos: z.array(z.number().int().positive()).min(1).max(photoLimits.premium),
});
