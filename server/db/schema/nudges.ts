import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './members.ts';
import { discountCodes } from './payments.ts';
import { sites } from './sites.ts';

export const nudgeKinds = ['visitors', 'unread', 'likes_digest'] as const;
export type NudgeKind = (typeof nudgeKinds)[number];

/**
 * One nudge told to a member (by mail and/or push), at most one per member and local day of the
 * site: the unique (user, local_date) is the daily cap, so two instances or two nudges of the same
 * day cannot both send. `latest_event_at` is the newest visit, like or message the nudge told of —
 * the next nudge of the kind only goes when something newer happened.
 */
export const nudgeSends = pgTable(
  'nudge_sends',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text({ enum: nudgeKinds }).notNull(),
    localDate: text().notNull(),
    count: integer().notNull(),
    latestEventAt: timestamp({ withTimezone: true }).notNull(),
    mailed: boolean().notNull(),
    pushed: boolean().notNull(),
    sentAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('nudge_sends_one_a_day').on(table.userId, table.localDate),
    index('nudge_sends_user_kind_idx').on(table.userId, table.kind, table.latestEventAt),
  ],
);

/** A site's win-back offer: a member inactive `inactiveDays` gets a personal code, again after `repeatAfterDays`. */
export const winbackRules = pgTable(
  'winback_rules',
  {
    siteId: integer()
      .primaryKey()
      .references(() => sites.id, { onDelete: 'cascade' }),
    active: boolean().notNull().default(false),
    inactiveDays: integer().notNull(),
    valuePercentage: integer().notNull(),
    validityDays: integer().notNull(),
    repeatAfterDays: integer().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [check('winback_rules_percentage', sql`${table.valuePercentage} between 1 and 100`)],
);

/**
 * A win-back offer sent: the member's n-th (`round`). The unique (user, round) makes a second
 * instance's insert of the same round a no-op, so a member gets each offer once.
 */
export const winbackOffers = pgTable(
  'winback_offers',
  {
    id: serial().primaryKey(),
    siteId: integer()
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    round: integer().notNull(),
    discountCodeId: integer().references(() => discountCodes.id),
    sentAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('winback_offers_user_round').on(table.userId, table.round),
    index('winback_offers_site_idx').on(table.siteId, table.sentAt),
  ],
);
