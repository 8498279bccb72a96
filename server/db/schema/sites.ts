import { sql } from 'drizzle-orm';
import { boolean, check, date, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

export type MinimumMessageCost = { costs: number; currency: string };

export const siteTextFields = [
  'index_title',
  'description',
  'fictional_warning',
  'fictional_singular',
  'fictional_plural',
  'manifest_name',
] as const;
export type SiteTextField = (typeof siteTextFields)[number];
/** Per locale (en, nl, …), the site's texts in that language. */
export type SiteTexts = Partial<Record<string, Partial<Record<SiteTextField, string>>>>;

export const companies = pgTable('companies', {
  id: integer().primaryKey(),
  name: text().notNull(),
  address: text().notNull(),
  kvk: text().notNull(),
  city: text().notNull(),
  country: text().notNull(),
  tradenames: jsonb().$type<string[]>().notNull().default([]),
  vatNumbers: jsonb().$type<string[]>().notNull().default([]),
  supportPhone: text().notNull(),
  /** Percentage offered to a member who is about to delete the account. */
  deleteDiscount: integer().notNull().default(0),
  added: date({ mode: 'string' }).notNull(),
});

export const signupModes = ['all', 'with_trafficsource', 'none'] as const;

/** What a click can lead to (attribution_events). */
export const attributionEventKinds = ['signup', 'activation', 'first_purchase'] as const;
export type AttributionEventKind = (typeof attributionEventKinds)[number];
/**
 * An outgoing postback for one ad network: a URL template with {click_id}, {event}, {amount} and
 * {currency}, called for the chosen events of clicks from that network (tracking/postbacks.ts).
 */
export type PostbackConfig = { network: string; url: string; events: AttributionEventKind[] };
/**
 * Photo screening thresholds of a site: `explicit` is the Porn or Hentai score (0–1) from which a photo
 * waits for a moderator; `minorMargin` the years above 18 under which an apparent age holds it;
 * `faceRequired` whether a main photo without a face waits too (the default).
 */
export type PhotoScreeningSettings = { explicit?: number; minorMargin?: number; faceRequired?: boolean };
/**
 * How strikes weigh on a site (moderation/strike-rules.ts): the `suspendAt`-th standing strike
 * suspends posting messages for `suspensionDays`, the one after it bans.
 */
export type StrikeSettings = { suspendAt?: number; suspensionDays?: number };
export type SignupMode = (typeof signupModes)[number];
/** A weekly shift of a site's team in the site's time zone: `day` 1–7 (Monday = 1), "HH:MM" times. */
export type StaffingShift = { day: number; from: string; to: string };

export const sites = pgTable(
  'sites',
  {
    id: serial().primaryKey(),
    domain: text().notNull().unique(),
    isDefault: boolean().notNull().default(false),
    name: text().notNull(),
    indexTitle: text().notNull(),
    description: text().notNull(),
    countries: jsonb().$type<string[]>().notNull(),
    domainLanguage: text().notNull().default('en'),
    timezone: text().notNull().default('Europe/Amsterdam'),
    visibleProfileFields: jsonb().$type<string[]>().notNull().default([]),
    visibleProfileNotes: jsonb().$type<string[]>().notNull().default([]),
    searchFields: jsonb().$type<string[]>().notNull().default([]),
    cdnPrefix: text().notNull().default(''),
    messageCredits: integer().notNull().default(1),
    photoCredits: integer().notNull().default(2),
    giftCredits: integer().notNull().default(3),
    signupCredits: integer().notNull().default(0),
    messageLength: integer().notNull().default(1000),
    /** Conversations a member who never paid may start, and text messages such a member sends for free. */
    freeConversations: integer().notNull().default(2),
    freeMessages: integer().notNull().default(3),
    /** How many of this site's conversations an operator holds at once, unless their account sets its own limit. */
    maxClaims: integer().notNull().default(2),
    /** How long a member may wait for an answer before the supervisor board counts a breach. */
    replyTargetMinutes: integer().notNull().default(15),
    minimumMessageCosts: jsonb().$type<Record<string, MinimumMessageCost>>().notNull().default({}),
    minAge: integer().notNull().default(18),
    supportEmail: text().notNull(),
    supportPhone: text().notNull().default(''),
    enableSiteEntryPopup: boolean().notNull().default(true),
    usFooter: boolean().notNull().default(false),
    fictionalWarning: text().notNull().default(''),
    fictionalSingular: text().notNull().default(''),
    fictionalPlural: text().notNull().default(''),
    refundDays: integer().notNull().default(14),
    /**
     * The welcome time bonus of this site in percent; null: the TIMEBONUS code's own percentage, the
     * default of every site (decision 050). Quote and order both read it.
     */
    timeBonusPercentage: integer(),
    signups: text({ enum: signupModes }).notNull().default('all'),
    loggedOutSearch: boolean().notNull().default(false),
    loggedOutSearchTrafficsource: boolean().notNull().default(false),
    memberResell: boolean().notNull().default(false),
    niche: integer().notNull().default(1),
    /** The sender of this site's mails: `"<mailFromName>" <mailFromAddress>`; null falls back to the site name / MAIL_FROM. */
    mailFromName: text(),
    mailFromAddress: text(),
    /** The brand colour: mail templates, the installed app's manifest and theme-color. */
    themeColor: text().notNull().default('#c2185b'),
    /** An absolute URL of the site's logo for mails; none shows the site name only. */
    logoUrl: text(),
    /**
     * The site's own texts per language (index title, description, fictional wording, app name):
     * `{ de: { index_title: '…' } }`. A text missing for a language falls back to the site's
     * domain_language, then to the columns above (sites/site-texts.ts).
     */
    texts: jsonb().$type<SiteTexts>().notNull().default({}),
    /**
     * When the site's team answers (sites/staffing.ts): its fictional profiles show online only then.
     * Null: always staffed; an empty list: never.
     */
    staffingHours: jsonb().$type<StaffingShift[]>(),
    /** How fast the team usually answers off shift, shown under a fictional profile's name then. */
    typicalReplyMinutes: integer().notNull().default(180),
    /** Postbacks to ad networks, one per network. */
    postbacks: jsonb().$type<PostbackConfig[]>().notNull().default([]),
    /** The photo screening's thresholds; what is not set uses the defaults (photos/screening-rules.ts). */
    photoScreening: jsonb().$type<PhotoScreeningSettings>().notNull().default({}),
    /** Strikes before a suspension and its length; what is not set uses the defaults. */
    strikeRules: jsonb().$type<StrikeSettings>().notNull().default({}),
    companyId: integer()
      .notNull()
      .references(() => companies.id),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('sites_niche_range', sql`${table.niche} between 1 and 7`),
    check('sites_min_age', sql`${table.minAge} >= 18`),
    check('sites_theme_color', sql`${table.themeColor} ~ '^#[0-9a-fA-F]{6}$'`),
  ],
);

export type SiteRow = typeof sites.$inferSelect;
export type CompanyRow = typeof companies.$inferSelect;
