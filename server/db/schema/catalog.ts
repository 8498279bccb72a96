import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { sites } from './sites.ts';

/** Badges a bundle may carry on the credits page (the words are in the credits catalog). */
export const bundleBadges = ['most_popular', 'best_value'] as const;
export type BundleBadge = (typeof bundleBadges)[number];

/**
 * Credit bundles; their prices differ per country (integer cents in the country's currency). A
 * bundle of a site (`site_id`) is offered there only, and a site with active bundles of its own
 * offers only those; the bundles of no site are every other site's (decision 049).
 */
export const bundles = pgTable(
  'bundles',
  {
    id: serial().primaryKey(),
    siteId: integer().references(() => sites.id, { onDelete: 'cascade' }),
    credits: integer().notNull(),
    position: integer().notNull().default(0),
    active: boolean().notNull().default(true),
    badge: text({ enum: bundleBadges }),
  },
  (table) => [index('bundles_site_idx').on(table.siteId)],
);

export const bundlePrices = pgTable(
  'bundle_prices',
  {
    bundleId: integer()
      .notNull()
      .references(() => bundles.id, { onDelete: 'cascade' }),
    country: text().notNull(),
    amountCents: integer().notNull(),
    currency: text().notNull(),
  },
  (table) => [primaryKey({ columns: [table.bundleId, table.country] })],
);

/**
 * Gifts that can be sent in a chat. The name per language comes from `names`, else from the i18n
 * key `chat:gift.<slug>` (the built-in gifts); the price is `credits`, else the site's gift_credits.
 */
export const gifts = pgTable(
  'gifts',
  {
    id: serial().primaryKey(),
    /** A site's own gift; a site with active gifts of its own offers only those, as with bundles. */
    siteId: integer().references(() => sites.id, { onDelete: 'cascade' }),
    slug: text().notNull().unique(),
    imageKey: text().notNull(),
    position: integer().notNull().default(0),
    active: boolean().notNull().default(true),
    names: jsonb().$type<Partial<Record<string, string>>>().notNull().default({}),
    credits: integer(),
  },
  (table) => [index('gifts_site_idx').on(table.siteId)],
);
