import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { sites } from './sites.ts';

/**
 * deleted: erased after the 14 days of pending_deletion; the row stays for the payment records.
 * banned: a moderator's ban; no sign-in, the profile is disabled (out of search, likes and chats).
 */
export const userStatuses = ['not_confirmed', 'active', 'pending_deletion', 'deleted', 'banned'] as const;
export const userRoles = ['member', 'moderator', 'admin'] as const;

export type TrafficSource = {
  network?: string;
  ref?: string;
  sub1?: string;
  sub2?: string;
  sub3?: string;
  /** The landing click (visits.click_id) the member came from, and its lander. */
  click_id?: string;
  lander?: string;
  slug?: string;
};

export const users = pgTable(
  'users',
  {
    id: serial().primaryKey(),
    siteId: integer()
      .notNull()
      .references(() => sites.id),
    /** Null for fictional members, who never log in. */
    email: text(),
    passwordHash: text(),
    status: text({ enum: userStatuses }).notNull().default('not_confirmed'),
    role: text({ enum: userRoles }).notNull().default('member'),
    credits: integer().notNull().default(0),
    paidUser: boolean().notNull().default(false),
    trafficsource: jsonb().$type<TrafficSource>(),
    language: text().notNull().default('en'),
    notificationsDisabled: jsonb().$type<string[]>().notNull().default([]),
    signupDate: timestamp({ withTimezone: true }).notNull().defaultNow(),
    signupMessage: text(),
    deletionRequestedAt: timestamp({ withTimezone: true }),
    lastLoginAt: timestamp({ withTimezone: true }),
    emailConfirmedAt: timestamp({ withTimezone: true }),
    /** Set by the live connection while a tab is open: no notification mails while online. */
    onlineUntil: timestamp({ withTimezone: true }),
    /** Operators block members from paying by direct debit (e.g. after reversed debits). */
    directDebitBlocked: boolean().notNull().default(false),
    /** When a payment of the member was charged back (shown to staff beside the member). */
    chargebackAt: timestamp({ withTimezone: true }),
    /** The member as a customer at the payment provider, for recurring charges on a stored mandate. */
    paymentCustomerId: text(),
    /** When the member first confirmed the address and became active (the dashboard's activations). */
    activatedAt: timestamp({ withTimezone: true }),
    /** When the member's first order was paid (the dashboard's first purchases). */
    firstPurchaseAt: timestamp({ withTimezone: true }),
    /** Until when a strike suspended posting messages (the one send path checks it under the row lock). */
    postingSuspendedUntil: timestamp({ withTimezone: true }),
  },
  (table) => [
    uniqueIndex('users_site_email_unique').on(table.siteId, sql`lower(${table.email})`),
    // The dashboard's counts per site and day.
    index('users_site_signup_idx').on(table.siteId, table.signupDate),
    index('users_site_activated_idx')
      .on(table.siteId, table.activatedAt)
      .where(sql`${table.activatedAt} is not null`),
    index('users_site_first_purchase_idx')
      .on(table.siteId, table.firstPurchaseAt)
      .where(sql`${table.firstPurchaseAt} is not null`),
    check('users_credits_not_negative', sql`${table.credits} >= 0`),
  ],
);

export const genders = ['male', 'female'] as const;
export const sexualities = ['hetero', 'gay', 'lesbian', 'bi'] as const;
export const profileStatuses = ['active', 'disabled'] as const;

export const profiles = pgTable(
  'profiles',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** Null until the member completes the signup. */
    gender: text({ enum: genders }),
    /** Whom the member looks for; null until the signup is complete. */
    seeking: text({ enum: ['male', 'female', 'both'] }),
    sexuality: text({ enum: sexualities }).notNull().default('hetero'),
    birthdate: date({ mode: 'string' }).notNull(),
    country: text().notNull(),
    countryregion: text(),
    bodyType: text(),
    hair: text(),
    eyeColour: text(),
    relationshipStatus: text(),
    tattoos: text(),
    interests: jsonb().$type<string[]>().notNull().default([]),
    about: text(),
    /**
     * The about text in other languages, by locale: written for fictional profiles (the demo's bios
     * in every site language), shown to a reader of that language. Emptied when the about changes.
     */
    aboutTranslations: jsonb().$type<Partial<Record<string, string>>>().notNull().default({}),
    status: text({ enum: profileStatuses }).notNull().default('active'),
    fictional: boolean().notNull().default(false),
    /** The member agreed (in the settings) to be shown to visitors and on ad pages; off by default. */
    publicProfile: boolean().notNull().default(false),
    /** A premium member's choice: their visits to profiles are not recorded for the visited ("who viewed me"). */
    browseInvisibly: boolean().notNull().default(false),
    /** When the member last opened their visitors: later visits are new. */
    visitorsSeenAt: timestamp({ withTimezone: true }),
    lastActiveAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('profiles_search_idx').on(
      table.country,
      table.gender,
      table.birthdate,
      table.lastActiveAt.desc(),
      table.id,
    ),
    index('profiles_region_idx').on(table.country, table.countryregion),
    // The search's default order (most recently active first, id as tie-break) read straight from an
    // index, over all the site's countries and per country and gender.
    index('profiles_active_recent_idx')
      .on(table.lastActiveAt.desc().nullsFirst(), table.id.desc().nullsFirst())
      .where(sql`${table.status} = 'active'`),
    index('profiles_country_gender_recent_idx')
      .on(table.country, table.gender, table.lastActiveAt.desc().nullsFirst(), table.id.desc().nullsFirst())
      .where(sql`${table.status} = 'active'`),
    // The few fictional profiles' users: the dashboard's "real member" test without reading every profile.
    index('profiles_fictional_user_idx').on(table.userId).where(sql`${table.fictional}`),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type ProfileRow = typeof profiles.$inferSelect;
