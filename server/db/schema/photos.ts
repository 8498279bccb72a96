import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { profiles } from './members.ts';

export const photoModerationStatuses = ['pending', 'approved'] as const;

/**
 * A photo exists only as re-encoded variants (EXIF stripped); the upload itself is never kept.
 * Photos after the first one (by position) are premium photos: their blurred variants are what
 * a viewer who is not premium gets.
 */
export const photos = pgTable(
  'photos',
  {
    id: serial().primaryKey(),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    position: integer().notNull().default(0),
    mainKey: text().notNull(),
    thumbKey: text().notNull(),
    blurredKey: text().notNull(),
    blurredThumbKey: text().notNull(),
    width: integer().notNull(),
    height: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** A member's new photo waits for a moderator (shown meanwhile); a rejected one is deleted. */
    moderation: text({ enum: photoModerationStatuses }).notNull().default('pending'),
  },
  (table) => [
    index('photos_profile_idx').on(table.profileId, table.position),
    index('photos_moderation_idx').on(table.moderation, table.createdAt),
  ],
);

export type PhotoRow = typeof photos.$inferSelect;
