import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Secrets generated on first start (session key, VAPID keys): kept here, never in the repo. */
export const appSecrets = pgTable('app_secrets', {
  key: text().primaryKey(),
  value: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
