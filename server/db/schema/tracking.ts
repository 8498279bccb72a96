import { sql } from 'drizzle-orm';
import {
  bigint,
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { profiles, users } from './members.ts';
import { type AttributionEventKind, attributionEventKinds, sites } from './sites.ts';
import { staff } from './staff.ts';

/**
 * One landing click: an entry with tracking parameters or on a lander or a member's
 * landing page. A reload with the same parameters keeps its visit (the visitor's cookie holds the
 * click id); no IP address, user agent or other personal data is stored.
 */
export const visits = pgTable(
  'visits',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: integer()
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    /** Ours (generated) or the network's own (`click_id` / `clickid` of the landing URL). */
    clickId: text().notNull(),
    network: text(),
    ref: text(),
    sub1: text(),
    sub2: text(),
    sub3: text(),
    /** The lander's name (`tinderswipe`, …, `member-landing2`) when the entry was one. */
    lander: text(),
    slug: text(),
    /** The path the visitor landed on, without its query. */
    path: text().notNull(),
    firstSeenAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('visits_site_click_unique').on(table.siteId, table.clickId),
    index('visits_site_seen_idx').on(table.siteId, table.firstSeenAt),
    index('visits_seen_idx').on(table.firstSeenAt),
  ],
);

export const postbackStatuses = ['none', 'pending', 'sent', 'failed'] as const;

/**
 * A postback-ready record of what a click led to: signup, activation, first purchase. Written in the
 * transaction of the event itself; one per click and event (the unique index), whatever runs in
 * parallel. postbackUrl is the site's webhook for the click's network, filled in when recorded.
 */
export const attributionEvents = pgTable(
  'attribution_events',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    siteId: integer()
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    clickId: text().notNull(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    event: text({ enum: attributionEventKinds }).notNull(),
    network: text(),
    amountCents: integer(),
    currency: text(),
    occurredAt: timestamp({ withTimezone: true }).notNull(),
    postbackUrl: text(),
    postbackStatus: text({ enum: postbackStatuses }).notNull().default('none'),
    postbackAttempts: integer().notNull().default(0),
    postbackNextAt: timestamp({ withTimezone: true }),
    postbackSentAt: timestamp({ withTimezone: true }),
    postbackError: text(),
  },
  (table) => [
    uniqueIndex('attribution_events_click_event_unique').on(table.siteId, table.clickId, table.event),
    index('attribution_events_postback_due_idx')
      .on(table.postbackNextAt)
      .where(sql`${table.postbackStatus} = 'pending'`),
    index('attribution_events_user_idx').on(table.userId),
  ],
);

/** The days a member was signed in (a session used that day): the dashboard's active members. */
export const memberActiveDays = pgTable(
  'member_active_days',
  {
    siteId: integer()
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    day: date({ mode: 'string' }).notNull(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.siteId, table.day, table.userId] }),
    // A member's own days: whether someone active on an open day was already active earlier in a
    // span (the stats module's active members, decision 065).
    index('member_active_days_user_idx').on(table.userId, table.day),
  ],
);

/**
 * Members active at least once from `firstDay` to `lastDay` (both closed days) on a site: the
 * dashboard's range totals and its weeks and months, filled the first time a span is asked for and
 * read back after (decision 065). A count(distinct) over a year of active days was the largest part
 * of a year's numbers.
 */
export const statsActiveSpans = pgTable(
  'stats_active_spans',
  {
    siteId: integer()
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    firstDay: date({ mode: 'string' }).notNull(),
    lastDay: date({ mode: 'string' }).notNull(),
    members: integer().notNull(),
  },
  (table) => [primaryKey({ columns: [table.siteId, table.firstDay, table.lastDay] })],
);

/**
 * The dashboard's slow figures of a closed UTC day per site (docs/decisions/018): members' messages to
 * fictional profiles, the profiles' replies and every reply's wait in seconds (sorted), and the
 * active members, so that a year reads ~365 rows a site instead of windows over every message. Filled
 * by the stats module the first time a closed day is asked for; `median` is the site's own, `waits`
 * give the median of several sites together.
 */
export const statsSiteDays = pgTable(
  'stats_site_days',
  {
    siteId: integer()
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    day: date({ mode: 'string' }).notNull(),
    messagesIn: integer().notNull(),
    repliesOut: integer().notNull(),
    median: doublePrecision(),
    waits: doublePrecision().array().notNull(),
    activeMembers: integer().notNull(),
  },
  (table) => [primaryKey({ columns: [table.siteId, table.day] })],
);

/**
 * The UTC days whose staff replies are stored in stats_staff_reply_days and stats_profile_reply_days
 * (every site at once; docs/decisions/061). Claiming a day here first, `on conflict do nothing`,
 * is what lets two instances fill the same day without storing it twice. Deleting a day here
 * deletes its stored rows (cascade): the next look computes it again.
 */
export const statsReplyDays = pgTable('stats_reply_days', {
  day: date({ mode: 'string' }).primaryKey(),
});

/**
 * A closed day's replies of one staff member to one site's members (docs/decisions/061): how many,
 * the credits they earned, every reply's wait in seconds (sorted) and, per conversation replied in
 * that day, the last earlier day this staff member replied in it (sorted; -infinity: none), so that
 * a range counts each conversation once, on its first day in the range.
 */
export const statsStaffReplyDays = pgTable(
  'stats_staff_reply_days',
  {
    day: date({ mode: 'string' })
      .notNull()
      .references(() => statsReplyDays.day, { onDelete: 'cascade' }),
    siteId: integer()
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    staffId: integer()
      .notNull()
      .references(() => staff.id),
    replies: integer().notNull(),
    earned: integer().notNull(),
    waits: doublePrecision().array().notNull(),
    earlierDays: date({ mode: 'string' }).array().notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.siteId, table.staffId] })],
);

/** A closed day's staff replies as one fictional profile to one site's members, and what they earned. */
export const statsProfileReplyDays = pgTable(
  'stats_profile_reply_days',
  {
    day: date({ mode: 'string' })
      .notNull()
      .references(() => statsReplyDays.day, { onDelete: 'cascade' }),
    siteId: integer()
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    replies: integer().notNull(),
    earned: integer().notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.siteId, table.profileId] })],
);

export type VisitRow = typeof visits.$inferSelect;
export type AttributionEventRow = typeof attributionEvents.$inferSelect;
export type { AttributionEventKind };

/**
 * What an admin spent on a traffic network over a period (both days included), for one site or
 * every site (null): the numbers spread it evenly over its days and set the part inside a range
 * against that range's revenue of the network's members.
 */
export const trafficCosts = pgTable(
  'traffic_costs',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    siteId: integer().references(() => sites.id, { onDelete: 'cascade' }),
    network: text().notNull(),
    fromDay: date({ mode: 'string' }).notNull(),
    toDay: date({ mode: 'string' }).notNull(),
    currency: text().notNull(),
    amountCents: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [index('traffic_costs_period_idx').on(table.fromDay, table.toDay)],
);

export type TrafficCostRow = typeof trafficCosts.$inferSelect;
