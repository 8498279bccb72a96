import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './members.ts';

/** What a member wants to hear about, by mail and by push. A missing row means the defaults below. */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  emailMessages: boolean().notNull().default(true),
  emailLikes: boolean().notNull().default(true),
  emailMatches: boolean().notNull().default(true),
  // The nudges (a digest at most once a day): who viewed me, unread messages, new likes.
  emailVisitors: boolean().notNull().default(true),
  emailUnread: boolean().notNull().default(true),
  emailLikesDigest: boolean().notNull().default(true),
  // Marketing mail (news) is opt-in.
  emailNews: boolean().notNull().default(false),
  pushMessages: boolean().notNull().default(true),
  pushLikes: boolean().notNull().default(true),
  pushMatches: boolean().notNull().default(true),
  pushVisitors: boolean().notNull().default(true),
  pushUnread: boolean().notNull().default(true),
  pushLikesDigest: boolean().notNull().default(true),
  pushNews: boolean().notNull().default(false),
});

/** One Web Push subscription per device; dropped when the push service says it is gone (404/410). */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text().notNull().unique(),
    p256dh: text().notNull(),
    auth: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [index('push_subscriptions_user_idx').on(table.userId)],
);
