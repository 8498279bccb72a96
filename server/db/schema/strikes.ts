import { index, integer, pgTable, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { users } from './members.ts';
import { reports } from './social.ts';
import { staff } from './staff.ts';

// A member's standing: moderators' warnings as strikes, what they led to, and the member's appeals
// (decision 054).

/** What a strike led to: nothing more, a suspension of posting messages, or a ban. */
export const strikeConsequences = ['strike', 'suspension', 'ban'] as const;
export type StrikeConsequence = (typeof strikeConsequences)[number];

export const memberStrikes = pgTable(
  'member_strikes',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The report the warning answered; unique: a report gives at most one strike. */
    reportId: integer().references(() => reports.id, { onDelete: 'set null' }),
    staffId: integer().references(() => staff.id, { onDelete: 'set null' }),
    /** Which of the member's standing strikes this was (1, 2, …), counted under the member's row lock. */
    number: integer().notNull(),
    consequence: text({ enum: strikeConsequences }).notNull(),
    /** The end of the suspension this strike started; null for a plain strike or a ban. */
    suspendedUntil: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    /** Set when an appeal was granted: the strike no longer counts. */
    liftedAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    unique('member_strikes_report_unique').on(table.reportId),
    index('member_strikes_user_idx').on(table.userId),
  ],
);

export const appealStatuses = ['open', 'granted', 'refused'] as const;
export type AppealStatus = (typeof appealStatuses)[number];

export const strikeAppeals = pgTable(
  'strike_appeals',
  {
    id: serial().primaryKey(),
    /** Unique: one appeal per action, decided by the constraint, not by a read before the insert. */
    strikeId: integer()
      .notNull()
      .references(() => memberStrikes.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text().notNull(),
    status: text({ enum: appealStatuses }).notNull().default('open'),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    decidedAt: timestamp({ withTimezone: true }),
    decidedByStaffId: integer().references(() => staff.id, { onDelete: 'set null' }),
  },
  (table) => [
    unique('strike_appeals_strike_unique').on(table.strikeId),
    index('strike_appeals_open_idx').on(table.status, table.createdAt),
  ],
);

export type MemberStrikeRow = typeof memberStrikes.$inferSelect;
export type StrikeAppealRow = typeof strikeAppeals.$inferSelect;
