import { z } from 'zod';
import { photoScreeningSchema } from './admin-members.ts';
import { formIdField, idField, idParam } from './common.ts';
import { locales } from './locales.ts';
import {
  bodyTypeOptions,
  eyeColourOptions,
  genderOptions,
  hairOptions,
  interestOptions,
  profileSchema,
  relationshipStatusOptions,
  sexualityOptions,
  tattooOptions,
} from './profiles.ts';

/**
 * The back office's sites, companies and fictional profiles (api-contract.md, Staff calls).
 * Every field error is a code (`required`, `invalid`, `taken`, …) the pages show at the field.
 */

export const siteProfileFieldOptions = [
  'gender',
  'sexuality',
  'body_type',
  'hair',
  'eye_colour',
  'relationship_status',
  'tattoos',
  'interests',
] as const;
export const siteProfileNoteOptions = ['about'] as const;
export const siteSearchFieldOptions = ['gender', 'country', 'countryregion', 'age'] as const;
export const signupRuleOptions = ['all', 'with_trafficsource', 'none'] as const;
/** A site's own texts per language (sites.texts; a missing one falls back to the domain language). */
export const siteTextFieldOptions = [
  'index_title',
  'description',
  'fictional_warning',
  'fictional_singular',
  'fictional_plural',
  'manifest_name',
] as const;

const text = (max: number) => z.string({ error: 'invalid' }).trim().max(max, { error: 'too_long' });
const requiredText = (max: number) => text(max).min(1, { error: 'required' });
const count = (max: number) =>
  z
    .number({ error: 'invalid' })
    .int({ error: 'invalid' })
    .min(0, { error: 'out_of_range' })
    .max(max, { error: 'out_of_range' });
const country = z.string({ error: 'invalid' }).regex(/^[A-Z]{2}$/, { error: 'invalid' });
const email = z.email({ error: 'invalid_email' }).max(254, { error: 'too_long' });

/** A host name: lower-case labels of letters, digits and hyphens (`amora.nl`, `de.localhost`). */
export const domainPattern =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const minimumMessageCostInputSchema = z.object({
  costs: count(100_000),
  currency: z.string({ error: 'invalid' }).regex(/^[A-Z]{3}$/, { error: 'invalid' }),
});

/** What a landing click can lead to, each a postback to the click's network. */
export const postbackEventOptions = ['signup', 'activation', 'first_purchase'] as const;
/** The placeholders a postback URL template may hold. */
export const postbackPlaceholders = ['{click_id}', '{event}', '{amount}', '{currency}'] as const;

/**
 * One ad network's postback: a GET of the URL with {click_id}, {event}, {amount} (decimal, e.g.
 * 12.99; empty for signup and activation) and {currency} filled in, for the chosen events.
 */
export const postbackSchema = z.object({
  network: z
    .string({ error: 'required' })
    .trim()
    .min(1, { error: 'required' })
    .max(100, { error: 'too_long' }),
  url: z
    .string({ error: 'required' })
    .trim()
    .max(1000, { error: 'too_long' })
    .refine(
      (value) => {
        const sample = value.replace(/\{(click_id|event|amount|currency)\}/g, 'x');
        return /^https?:\/\/[^\s{}]+$/i.test(sample) && URL.canParse(sample);
      },
      { error: 'invalid_url' },
    ),
  events: z
    .array(z.enum(postbackEventOptions, { error: 'invalid' }))
    .min(1, { error: 'required' })
    .refine((list) => new Set(list).size === list.length, { error: 'duplicate' }),
});
export type PostbackInput = z.infer<typeof postbackSchema>;

const clockTime = z.string({ error: 'invalid' }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'invalid' });

/**
 * A weekly shift of the site's team in the site's time zone (day 1–7, Monday = 1). An end not after
 * the start runs past midnight into the next day.
 */
export const staffingShiftSchema = z
  .object({
    day: z.number({ error: 'invalid' }).int({ error: 'invalid' }).min(1, { error: 'out_of_range' }).max(7, {
      error: 'out_of_range',
    }),
    from: clockTime,
    to: clockTime,
  })
  .refine((shift) => shift.from !== shift.to, { error: 'invalid', path: ['to'] });

/** Every field a site has (spec §3 Settings plus the white-label branding), as the editor sends them. */
export const siteFieldsSchema = z.object({
  domain: z
    .string({ error: 'required' })
    .trim()
    .toLowerCase()
    .transform((value) => value.replace(/\.$/, '').replace(/^www\./, ''))
    .pipe(z.string().min(1, { error: 'required' }).regex(domainPattern, { error: 'invalid' })),
  is_default: z.boolean({ error: 'invalid' }),
  name: requiredText(80),
  index_title: text(200),
  description: text(500),
  countries: z
    .array(country, { error: 'required' })
    .min(1, { error: 'required' })
    .max(60, { error: 'too_long' })
    .refine((list) => new Set(list).size === list.length, { error: 'duplicate' }),
  domain_language: z.enum(locales, { error: 'invalid' }),
  timezone: z.string({ error: 'invalid' }).max(60).refine(isTimeZone, { error: 'invalid' }),
  visible_profile_fields: z.array(z.enum(siteProfileFieldOptions, { error: 'invalid' })).max(20),
  visible_profile_notes: z.array(z.enum(siteProfileNoteOptions, { error: 'invalid' })).max(5),
  search_fields: z.array(z.enum(siteSearchFieldOptions, { error: 'invalid' })).max(10),
  cdn_prefix: z
    .string({ error: 'invalid' })
    .trim()
    .max(300, { error: 'too_long' })
    .refine((value) => value === '' || /^https:\/\/[^\s]+$/.test(value), { error: 'invalid_url' }),
  message_credits: count(1000),
  photo_credits: count(1000),
  gift_credits: count(1000),
  time_bonus_percentage: z
    .number({ error: 'invalid' })
    .int({ error: 'invalid' })
    .min(1, { error: 'out_of_range' })
    .max(100, { error: 'out_of_range' })
    .nullable()
    .describe("the welcome time bonus here in percent (null: the TIMEBONUS code's, every site's default)"),
  signup_credits: count(10_000),
  message_length: z
    .number({ error: 'invalid' })
    .int({ error: 'invalid' })
    .min(20, { error: 'out_of_range' })
    .max(10_000, { error: 'out_of_range' }),
  free_conversations: count(100),
  free_messages: count(1000),
  max_claims: z
    .number({ error: 'invalid' })
    .int({ error: 'invalid' })
    .min(1, { error: 'out_of_range' })
    .max(20, { error: 'out_of_range' }),
  reply_target_minutes: z
    .number({ error: 'invalid' })
    .int({ error: 'invalid' })
    .min(1, { error: 'out_of_range' })
    .max(24 * 60, { error: 'out_of_range' })
    .describe('how long a member may wait for an answer before the supervisor board counts a breach'),
  minimum_message_costs: z.record(country, minimumMessageCostInputSchema, { error: 'invalid' }),
  min_age: z
    .number({ error: 'invalid' })
    .int({ error: 'invalid' })
    .min(18, { error: 'out_of_range' })
    .max(99, { error: 'out_of_range' }),
  support_email: email,
  support_phone: text(40),
  enable_site_entry_popup: z.boolean({ error: 'invalid' }),
  us_footer: z.boolean({ error: 'invalid' }),
  fictional_warning: text(2000),
  fictional_singular: text(80),
  fictional_plural: text(80),
  refund_days: count(365),
  signups: z.enum(signupRuleOptions, { error: 'invalid' }),
  logged_out_search: z.boolean({ error: 'invalid' }),
  logged_out_search_trafficsource: z.boolean({ error: 'invalid' }),
  member_resell: z.boolean({ error: 'invalid' }),
  niche: z
    .number({ error: 'invalid' })
    .int({ error: 'invalid' })
    .min(1, { error: 'out_of_range' })
    .max(7, { error: 'out_of_range' }),
  company_id: formIdField,
  mail_from_name: text(80).nullable(),
  mail_from_address: email.nullable(),
  theme_color: z.string({ error: 'invalid' }).regex(/^#[0-9a-fA-F]{6}$/, { error: 'invalid_color' }),
  logo_url: z
    .string({ error: 'invalid' })
    .trim()
    .max(500, { error: 'too_long' })
    .refine((value) => /^https?:\/\/[^\s]+$/.test(value), { error: 'invalid_url' })
    .nullable(),
  texts: z.partialRecord(
    z.enum(locales, { error: 'invalid' }),
    z.partialRecord(
      z.enum(siteTextFieldOptions, { error: 'invalid' }),
      z.string({ error: 'invalid' }).trim().max(2000, { error: 'too_long' }),
    ),
  ),
  staffing_hours: z
    .array(staffingShiftSchema, { error: 'invalid' })
    .max(70, { error: 'too_long' })
    .nullable()
    .describe('when the team answers: its fictional profiles show online only then; null: always, []: never'),
  typical_reply_minutes: z
    .number({ error: 'invalid' })
    .int({ error: 'invalid' })
    .min(1, { error: 'out_of_range' })
    .max(7 * 24 * 60, { error: 'out_of_range' })
    .describe("how fast the team usually answers off shift, shown under a fictional profile's name then"),
  screening_explicit: z
    .number({ error: 'screening_explicit_range' })
    .min(0.05, { error: 'screening_explicit_range' })
    .max(1, { error: 'screening_explicit_range' })
    .describe('photo screening: the Porn or Hentai score (0.05–1) from which a photo waits for a moderator'),
  screening_face_required: z
    .boolean({ error: 'invalid' })
    .describe('photo screening: a main profile photo without a face waits for a moderator'),
  strike_suspend_at: z
    .number({ error: 'strike_suspend_at_range' })
    .int({ error: 'strike_suspend_at_range' })
    .min(1, { error: 'strike_suspend_at_range' })
    .max(20, { error: 'strike_suspend_at_range' })
    .describe('strikes: the standing strike that suspends posting messages; the next one bans'),
  strike_suspension_days: z
    .number({ error: 'strike_suspension_days_range' })
    .int({ error: 'strike_suspension_days_range' })
    .min(1, { error: 'strike_suspension_days_range' })
    .max(365, { error: 'strike_suspension_days_range' })
    .describe('strikes: how many days a suspension lasts'),
  postbacks: z
    .array(postbackSchema)
    .max(20, { error: 'too_long' })
    .refine((list) => new Set(list.map((entry) => entry.network.toLowerCase())).size === list.length, {
      error: 'duplicate',
    }),
});
export type SiteFields = z.infer<typeof siteFieldsSchema>;

/** POST /api/admin/sites.php: domain, name, countries, language, company and support address are required. */
export const createSiteSchema = siteFieldsSchema.partial().required({
  domain: true,
  name: true,
  countries: true,
  domain_language: true,
  company_id: true,
  support_email: true,
});
export type CreateSite = z.infer<typeof createSiteSchema>;

/** PUT /api/admin/sites.php: the site's id and the changed fields. */
export const updateSiteSchema = siteFieldsSchema.partial().extend({ id: formIdField });
export type UpdateSite = z.infer<typeof updateSiteSchema>;

/** A site as the back office shows it: every field of the editor, as stored (no input rules). */
export const adminSiteSchema = z.object({
  id: z.number().int(),
  domain: z.string(),
  is_default: z.boolean(),
  name: z.string(),
  index_title: z.string(),
  description: z.string(),
  countries: z.array(z.string()),
  domain_language: z.string(),
  timezone: z.string(),
  visible_profile_fields: z.array(z.string()),
  visible_profile_notes: z.array(z.string()),
  search_fields: z.array(z.string()),
  cdn_prefix: z.string(),
  message_credits: z.number().int(),
  photo_credits: z.number().int(),
  gift_credits: z.number().int(),
  time_bonus_percentage: z.number().int().nullable(),
  signup_credits: z.number().int(),
  message_length: z.number().int(),
  free_conversations: z.number().int(),
  free_messages: z.number().int(),
  max_claims: z
    .number()
    .int()
    .describe('conversations of this site an operator holds at once (unless their account says otherwise)'),
  reply_target_minutes: z.number().int().describe('the answer time the supervisor board holds waits against'),
  minimum_message_costs: z.record(z.string(), z.object({ costs: z.number().int(), currency: z.string() })),
  min_age: z.number().int(),
  support_email: z.string(),
  support_phone: z.string(),
  enable_site_entry_popup: z.boolean(),
  us_footer: z.boolean(),
  fictional_warning: z.string(),
  fictional_singular: z.string(),
  fictional_plural: z.string(),
  refund_days: z.number().int(),
  signups: z.enum(signupRuleOptions),
  logged_out_search: z.boolean(),
  logged_out_search_trafficsource: z.boolean(),
  member_resell: z.boolean(),
  niche: z.number().int(),
  company_id: z.number().int(),
  mail_from_name: z.string().nullable(),
  mail_from_address: z.string().nullable(),
  theme_color: z.string(),
  logo_url: z.string().nullable(),
  texts: z.record(z.string(), z.record(z.string(), z.string())),
  postbacks: z.array(
    z.object({ network: z.string(), url: z.string(), events: z.array(z.enum(postbackEventOptions)) }),
  ),
  staffing_hours: z.array(z.object({ day: z.number().int(), from: z.string(), to: z.string() })).nullable(),
  typical_reply_minutes: z.number().int(),
  screening_explicit: z.number().describe('as set, or the default'),
  screening_face_required: z.boolean(),
  strike_suspend_at: z.number().int(),
  strike_suspension_days: z.number().int(),
  updated_at: z.string(),
});
export type AdminSite = z.infer<typeof adminSiteSchema>;
export const adminSitesResponseSchema = z.object({ sites: z.array(adminSiteSchema) });
export const adminSiteResponseSchema = z.object({ site: adminSiteSchema });

/** Spec §3 Company info: what the footer and the legal pages show. */
export const companyFieldsSchema = z.object({
  name: requiredText(120),
  address: requiredText(200),
  kvk: requiredText(40),
  city: requiredText(80),
  country: requiredText(80),
  tradenames: z.array(requiredText(120)).max(20, { error: 'too_long' }),
  vat_numbers: z
    .array(
      z
        .string()
        .trim()
        .regex(/^[A-Z]{2}[0-9A-Z]{2,13}$/, { error: 'invalid' }),
    )
    .max(20, { error: 'too_long' }),
  support_phone: text(40),
  delete_discount: z
    .number({ error: 'invalid' })
    .int({ error: 'invalid' })
    .min(0, { error: 'out_of_range' })
    .max(90, { error: 'out_of_range' }),
});
export const createCompanySchema = companyFieldsSchema.partial().required({
  name: true,
  address: true,
  kvk: true,
  city: true,
  country: true,
});
export const updateCompanySchema = companyFieldsSchema.partial().extend({ id: idField });
export const adminCompanySchema = companyFieldsSchema.extend({
  id: z.number().int(),
  added: z.string(),
  sites: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type AdminCompany = z.infer<typeof adminCompanySchema>;
export const adminCompaniesResponseSchema = z.object({ companies: z.array(adminCompanySchema) });
export const adminCompanyResponseSchema = z.object({ company: adminCompanySchema });

export const siteLogoQuerySchema = z.object({ site: idParam });

const optionOf = <T extends readonly [string, ...string[]]>(options: T) =>
  z.enum(options, { error: 'invalid' });

/** Every attribute of a fictional profile the editor sets. */
export const fictionalProfileFieldsSchema = z.object({
  site: formIdField,
  name: z.string({ error: 'required' }).trim().min(2, { error: 'too_short' }).max(30, { error: 'too_long' }),
  gender: optionOf(genderOptions),
  seeking: optionOf(['male', 'female', 'both'] as const),
  sexuality: optionOf(sexualityOptions),
  date_of_birth: z.iso.date({ error: 'invalid_date' }),
  country,
  countryregion: z.string().max(10).nullable(),
  body_type: optionOf(bodyTypeOptions).nullable(),
  hair: optionOf(hairOptions).nullable(),
  eye_colour: optionOf(eyeColourOptions).nullable(),
  relationship_status: optionOf(relationshipStatusOptions).nullable(),
  tattoos: optionOf(tattooOptions).nullable(),
  interests: z.array(optionOf(interestOptions)).max(interestOptions.length),
  about: z.string().trim().max(2000, { error: 'too_long' }).nullable(),
  status: optionOf(['active', 'disabled'] as const),
});
export const createFictionalProfileSchema = fictionalProfileFieldsSchema.partial().required({
  site: true,
  name: true,
  gender: true,
  date_of_birth: true,
  country: true,
});
export const updateFictionalProfileSchema = fictionalProfileFieldsSchema.partial().extend({ id: idField });

export const fictionalProfileStatsSchema = z.object({
  conversations: z.number().int(),
  messages_received: z.number().int(),
  replies: z.number().int(),
  revenue_credits: z.number().int().describe('credits members paid for messages, photos and gifts to it'),
});

export const adminPhotoSchema = z.object({
  id: z.number().int(),
  filename: z.string(),
  thumb_filename: z.string(),
  premium: z.boolean(),
  screening: photoScreeningSchema
    .nullable()
    .describe(
      'what the screening models said (shown, never a hold, for fictional profiles); null until screened',
    ),
});

/** A fictional profile in the back office's list: the profile, its site and its numbers. */
export const adminFictionalProfileSummarySchema = profileSchema.extend({
  site: z.object({ id: z.number().int(), name: z.string() }),
  birthdate: z.string(),
  stats: fictionalProfileStatsSchema,
});
export type AdminFictionalProfileSummary = z.infer<typeof adminFictionalProfileSummarySchema>;
/** One fictional profile in the editor: also every photo (originals, in order; after the first: premium). */
export const adminFictionalProfileSchema = adminFictionalProfileSummarySchema.extend({
  photos: z.array(adminPhotoSchema),
});
export type AdminFictionalProfile = z.infer<typeof adminFictionalProfileSchema>;

export const fictionalProfilesQuerySchema = z.object({
  site: idParam.optional(),
  q: z.string().trim().max(60).optional(),
  gender: z.enum(genderOptions).optional(),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .optional(),
  status: z.enum(['active', 'disabled']).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type FictionalProfilesQuery = z.infer<typeof fictionalProfilesQuerySchema>;
export const fictionalProfilesResponseSchema = z.object({
  profiles: z.array(adminFictionalProfileSummarySchema),
  total: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
});
export const fictionalProfileResponseSchema = z.object({ profile: adminFictionalProfileSchema });
export const fictionalProfileQuerySchema = z.object({ id: idParam });

export const bulkProfilesSchema = z.discriminatedUnion(
  'action',
  [
    z.object({
      action: z.literal('disable'),
      profiles: z.array(idField).min(1, { error: 'required' }).max(500),
    }),
    z.object({
      action: z.literal('enable'),
      profiles: z.array(idField).min(1, { error: 'required' }).max(500),
    }),
    z.object({
      action: z.literal('move'),
      profiles: z.array(idField).min(1, { error: 'required' }).max(500),
      site: formIdField,
    }),
  ],
  { error: 'invalid' },
);
export type BulkProfiles = z.infer<typeof bulkProfilesSchema>;
export const bulkProfilesResponseSchema = z.object({ updated: z.number().int() });

/** The upload's query: the profile, and `premium` when the form does not carry it as a field. */
export const adminPhotoUploadQuerySchema = z.object({
  profile: idParam,
  premium: z.enum(['0', '1', 'true', 'false']).optional(),
});
export const adminPhotoResponseSchema = z.object({ photo: adminPhotoSchema });
export const deleteAdminPhotoSchema = z.object({
  profile: idField,
  photo: idField,
});

/** The sites a fictional profile can be on (for moderators, who may not manage sites). */
export const profileSitesResponseSchema = z.object({
  sites: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      countries: z.array(z.string()),
      min_age: z.number().int(),
    }),
  ),
});
export type ProfileSite = z.infer<typeof profileSitesResponseSchema>['sites'][number];
