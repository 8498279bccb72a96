import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { profiles } from './members.ts';

export const photoModerationStatuses = ['pending', 'approved'] as const;
/** Whether others may see a photo: only once screened and approved (screening/approved/held). */
export const photoStatuses = ['screening', 'approved', 'held'] as const;
export const photoHoldReasons = ['explicit', 'no_face', 'apparent_minor', 'check_failed'] as const;
export type PhotoStatus = (typeof photoStatuses)[number];
export type PhotoHoldReason = (typeof photoHoldReasons)[number];

/** What the screening models said about a photo (stored, shown in the photo queue). */
export type PhotoScreening = {
  /** nsfwjs's five classes (Drawing, Hentai, Neutral, Porn, Sexy), each 0–1. */
  nudity: Record<string, number>;
  faces: number;
  /** The youngest apparent age among the faces; null without a face. */
  min_age_estimate: number | null;
  /** Why the check could not run (a model that failed to load, an unreadable file). */
  error?: string;
};

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
    /** A member's new photo waits for a moderator's look (others see it once screening approved it); a rejected one is deleted. */
    moderation: text({ enum: photoModerationStatuses }).notNull().default('pending'),
    /**
     * A member's new photo is `screening` until the models have looked at it, then `approved` or
     * `held` (with the reason) for a moderator. Rows from before screening, and photos staff add
     * to fictional profiles, are `approved`.
     */
    status: text({ enum: photoStatuses }).notNull().default('approved'),
    holdReason: text({ enum: photoHoldReasons }),
    screening: jsonb().$type<PhotoScreening>(),
    screenedAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    index('photos_profile_idx').on(table.profileId, table.position),
    index('photos_moderation_idx').on(table.moderation, table.createdAt),
  ],
);

export type PhotoRow = typeof photos.$inferSelect;
