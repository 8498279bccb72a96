import { z } from 'zod';

export const countryCode = z.string().regex(/^[A-Z]{2}$/);

export const minimumMessageCostSchema = z.object({
  costs: z.number().int().describe('price of one message, integer cents'),
  currency: z.string().length(3),
});

/** Spec §3 Settings, with the names given there. */
export const settingsSchema = z.object({
  domain: z.string(),
  name: z.string(),
  index_title: z.string(),
  description: z.string(),
  countries: z.array(countryCode),
  domain_language: z.string(),
  timezone: z.string(),
  geoip_country: countryCode.nullable().describe("the visitor's country by IP"),
  geoip_selected_country: countryCode.describe(
    "the country used for prices and search defaults: the visitor's if the site serves it, else the site's first",
  ),
  visible_profile_fields: z.array(z.string()),
  visible_profile_notes: z.array(z.string()),
  search_fields: z.array(z.string()),
  cdn_prefix: z.string(),
  message_credits: z.number().int(),
  photo_credits: z.number().int(),
  gift_credits: z.number().int(),
  signup_credits: z.number().int(),
  message_length: z.number().int(),
  free_conversations: z.number().int().describe('conversations a member who never paid may start'),
  free_messages: z.number().int().describe('text messages such a member sends for free'),
  minimum_message_costs: z.record(z.string(), minimumMessageCostSchema),
  min_age: z.number().int(),
  support_email: z.string(),
  support_phone: z.string(),
  enable_site_entry_popup: z.boolean(),
  us_footer: z.boolean(),
  push_public_key: z.string().describe('VAPID public key for Web Push'),
  fictional_warning: z.string(),
  fictional_singular: z.string(),
  fictional_plural: z.string(),
  refund_days: z.number().int(),
  signups: z.enum(['all', 'with_trafficsource', 'none']),
  logged_out_search: z.boolean(),
  logged_out_search_trafficsource: z.boolean(),
  member_resell: z.boolean(),
  niche: z.number().int().min(1).max(7),
  company_id: z.number().int(),
  theme_color: z.string().describe('the brand colour (#rrggbb): top bar, theme-color, manifest'),
});
export type Settings = z.infer<typeof settingsSchema>;

export const settingsQuerySchema = z
  .object({
    domain: z.string().max(253).optional().describe('forces the site, as the server-side renderer does'),
  })
  .loose();

/** Spec §3 Company info. */
export const companyInfoSchema = z.object({
  name: z.string(),
  address: z.string(),
  kvk: z.string(),
  city: z.string(),
  country: z.string(),
  tradenames: z.array(z.string()),
  vat_numbers: z.array(z.string()),
  support_phone: z.string(),
  delete_discount: z.number().int(),
  added: z.string().describe('YYYY-MM-DD'),
});
export type CompanyInfo = z.infer<typeof companyInfoSchema>;
