import { index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './members.ts';
import { sites } from './sites.ts';

/** A login on one device. The cookie holds a random token; only its SHA-256 is stored. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text().primaryKey(),
    /** What the member's device list names the session by (the token never leaves the cookie). */
    id: serial().notNull().unique(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    userAgent: text(),
    /** The country of the sign-in's address (offline GeoIP); the address itself is not kept. */
    country: text(),
    /** SHA-256 of the token in the new-device mail's "that was not me" link, which ends this session. */
    endTokenHash: text().unique(),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

export const emailTokenPurposes = ['activation', 'password_reset', 'mail_change', 'reactivation'] as const;
export type EmailTokenPurpose = (typeof emailTokenPurposes)[number];

/** Single-use links sent by e-mail; only the SHA-256 of the token is stored. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text({ enum: emailTokenPurposes }).notNull(),
    tokenHash: text().notNull().unique(),
    newEmail: text(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (table) => [index('email_tokens_user_purpose_idx').on(table.userId, table.purpose, table.createdAt)],
);

/**
 * The login lock of one address on one site, whether or not an account has it, so that an unknown
 * address locks like a known one. The row is locked (FOR UPDATE) while a try is counted, before the
 * password is checked: at most LOGIN_MAX_FAILURES checks per window, whatever runs in parallel.
 */
export const loginThrottles = pgTable(
  'login_throttles',
  {
    siteId: integer()
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    /** lower(trim(address)) */
    email: text().notNull(),
    /** Tries in the window, counted before the check (refused tries too). */
    attempts: integer().notNull().default(0),
    /** Wrong passwords in the window; the LOGIN_MAX_FAILURES-th locks. */
    failures: integer().notNull().default(0),
    windowStart: timestamp({ withTimezone: true }),
    lockedUntil: timestamp({ withTimezone: true }),
    /** How often the address was locked since its last good login: the lock doubles each time. */
    lockLevel: integer().notNull().default(0),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.siteId, table.email] }),
    index('login_throttles_updated_idx').on(table.updatedAt),
  ],
);
