import {
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { profiles, users } from './members.ts';

/** A blocked member can neither see nor contact the blocker, and neither shows up for the other. */
export const blocks = pgTable(
  'blocks',
  {
    blockerProfileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    blockedProfileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.blockerProfileId, table.blockedProfileId] }),
    index('blocks_blocked_idx').on(table.blockedProfileId),
  ],
);

/**
 * A visit of one profile to another's page ("who viewed me"): one row per visitor per day (UTC),
 * its time the latest visit of that day.
 */
export const profileVisits = pgTable(
  'profile_visits',
  {
    id: serial().primaryKey(),
    visitedProfileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    visitorProfileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    day: date({ mode: 'string' }).notNull(),
    visitedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('profile_visits_once_a_day').on(table.visitedProfileId, table.visitorProfileId, table.day),
    index('profile_visits_newest').on(table.visitedProfileId, table.visitedAt.desc(), table.id.desc()),
    index('profile_visits_visitor_idx').on(table.visitorProfileId),
  ],
);

/** A like from one profile to another; `isNew` until the liked member opens the liker's profile. */
export const likes = pgTable(
  'likes',
  {
    likerProfileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    likedProfileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    isNew: boolean().notNull().default(true),
    /** Where the like was given: a profile, the swipe game (4 a day) or an automatic like of a fictional profile. */
    source: text({ enum: ['profile', 'swipe', 'auto'] })
      .notNull()
      .default('profile'),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.likerProfileId, table.likedProfileId] }),
    index('likes_liked_idx').on(table.likedProfileId, table.createdAt),
    index('likes_liker_source_idx').on(table.likerProfileId, table.source, table.createdAt),
  ],
);

/** Profiles passed in the swipe game: they do not come back in the stack. */
export const passes = pgTable(
  'passes',
  {
    passerProfileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    passedProfileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.passerProfileId, table.passedProfileId] })],
);

export const reportReasons = ['spam', 'scam', 'offensive', 'underage', 'other'] as const;
/** `resolve`: a lead took up a report about a fictional profile with its operator (never a ban). */
export const reportActions = ['dismiss', 'warn', 'remove_photo', 'ban', 'resolve'] as const;

/** Reports of profiles (and later messages) for the operators' moderation queue. */
export const reports = pgTable(
  'reports',
  {
    id: serial().primaryKey(),
    reporterUserId: integer()
      .notNull()
      .references(() => users.id),
    profileId: integer().references(() => profiles.id, { onDelete: 'set null' }),
    messageId: integer(),
    reason: text({ enum: reportReasons }).notNull(),
    text: text(),
    status: text({ enum: ['open', 'handled'] })
      .notNull()
      .default('open'),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    /** What a moderator did about it (dismiss, warn, remove_photo, ban), who and when. */
    action: text({ enum: reportActions }),
    handledByStaffId: integer(),
    handledAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    index('reports_status_idx').on(table.status, table.createdAt),
    index('reports_profile_idx').on(table.profileId),
  ],
);

/** Complaints sent through the complaints page, for the operators; acknowledged by mail. */
export const complaints = pgTable(
  'complaints',
  {
    id: serial().primaryKey(),
    siteId: integer().notNull(),
    userId: integer().references(() => users.id),
    name: text().notNull(),
    email: text().notNull(),
    subject: text().notNull(),
    message: text().notNull(),
    status: text({ enum: ['open', 'handled'] })
      .notNull()
      .default('open'),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [index('complaints_status_idx').on(table.status, table.createdAt)],
);
