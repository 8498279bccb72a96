import { boolean, integer, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';

/** Credit bundles; their prices differ per country (integer cents in the country's currency). */
export const bundles = pgTable('bundles', {
  id: serial().primaryKey(),
  credits: integer().notNull(),
  position: integer().notNull().default(0),
  active: boolean().notNull().default(true),
});

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

/** Gifts that can be sent in a chat; the price is the site's gift_credits. Names are i18n keys. */
export const gifts = pgTable('gifts', {
  id: serial().primaryKey(),
  slug: text().notNull().unique(),
  imageKey: text().notNull(),
  position: integer().notNull().default(0),
  active: boolean().notNull().default(true),
});
