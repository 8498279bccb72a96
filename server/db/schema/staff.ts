import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { conversations } from './chats.ts';
import { profiles } from './members.ts';
import { sites } from './sites.ts';

/** Back-office roles (api-contract.md, Staff calls); members are never staff. */
export const staffRoles = ['operator', 'lead', 'moderator', 'admin'] as const;
export type StaffRole = (typeof staffRoles)[number];

/**
 * The people who run the sites. A table of their own, apart from members: no member query (search,
 * likes, chats) can ever meet a staff account.
 */
export const staff = pgTable(
  'staff',
  {
    id: serial().primaryKey(),
    email: text().notNull(),
    name: text().notNull(),
    role: text({ enum: staffRoles }).notNull(),
    passwordHash: text().notNull(),
    /** The active TOTP secret (base32), null until enrolled. */
    totpSecret: text(),
    /** A secret handed out for enrolment, active only once a code from it is confirmed. */
    totpPendingSecret: text(),
    /** The last accepted TOTP time step: a code is never accepted twice. */
    totpLastStep: integer().notNull().default(0),
    language: text().notNull().default('en'),
    active: boolean().notNull().default(true),
    /** The sites whose members this staff member answers; empty: every site. */
    sites: integer().array().notNull().default(sql`'{}'::integer[]`),
    /** The member languages this staff member answers; empty: every language. */
    languages: text().array().notNull().default(sql`'{}'::text[]`),
    /** How many conversations the staff member may hold at once; null: the default (defaultMaxClaims). */
    maxClaims: integer(),
    /**
     * Set on accounts an admin creates (the admin chose the password): every call but the own
     * password change answers 403 password_change_required until the staff member sets their own.
     */
    passwordChangeRequired: boolean().notNull().default(false),
    /**
     * Granted by an admin to one operator: may start conversations as a fictional profile
     * (POST /api/admin/outbound.php). Leads and admins may without it.
     */
    outbound: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    lastLoginAt: timestamp({ withTimezone: true }),
  },
  (table) => [uniqueIndex('staff_email_unique').on(sql`lower(${table.email})`)],
);

/**
 * Staff sign-in tries per address, known or not (lower(trim(email))): like the members' login_throttles
 * but a key space of its own, so member and staff tries never mix. Each try is counted under this row's
 * lock before the password is checked, and an unknown address locks exactly as a staff one does.
 */
export const staffLoginThrottles = pgTable(
  'staff_login_throttles',
  {
    email: text().primaryKey(),
    /** Tries in the window, counted before the check (refused tries too). */
    attempts: integer().notNull().default(0),
    /** Wrong passwords or codes in the window; the LOGIN_MAX_FAILURES-th locks. */
    failures: integer().notNull().default(0),
    windowStart: timestamp({ withTimezone: true }),
    lockedUntil: timestamp({ withTimezone: true }),
    /** How often the address was locked since its last good sign-in: the lock doubles each time. */
    lockLevel: integer().notNull().default(0),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [index('staff_login_throttles_updated_idx').on(table.updatedAt)],
);

/** A staff sign-in on one device (12 hours). Only the SHA-256 of the cookie's token is kept. */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: serial().primaryKey(),
    tokenHash: text().notNull().unique(),
    staffId: integer()
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    userAgent: text(),
    ip: text(),
  },
  (table) => [index('staff_sessions_staff_idx').on(table.staffId)],
);

/** Who answers a conversation right now: one row per conversation, taken atomically, lapsing at expiresAt. */
export const conversationClaims = pgTable(
  'conversation_claims',
  {
    conversationId: integer()
      .primaryKey()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    staffId: integer()
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
    claimedAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  // An operator's claims, counted against their limit at every claim.
  (table) => [index('conversation_claims_staff_idx').on(table.staffId, table.expiresAt)],
);

export const noteSubjects = ['member', 'profile'] as const;
/** What kind of fact a note keeps, so the console can show warnings first and group the rest. */
export const noteCategories = ['likes', 'dislikes', 'facts', 'warnings'] as const;

/** Staff notes about a member or a fictional profile; they follow the profile into every conversation. */
export const staffNotes = pgTable(
  'staff_notes',
  {
    id: serial().primaryKey(),
    about: text({ enum: noteSubjects }).notNull(),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    staffId: integer()
      .notNull()
      .references(() => staff.id),
    category: text({ enum: noteCategories }).notNull().default('facts'),
    text: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [index('staff_notes_profile_idx').on(table.profileId, table.createdAt)],
);

/**
 * Canned lines and openers for the operator console, per site (null: every site) and member
 * language. The text may hold {member_name}, {profile_name}, {member_city} and {member_age}, which
 * the console fills in from the conversation it is used in.
 */
export const replyTemplates = pgTable(
  'reply_templates',
  {
    id: serial().primaryKey(),
    siteId: integer().references(() => sites.id, { onDelete: 'cascade' }),
    language: text().notNull(),
    title: text().notNull(),
    text: text().notNull(),
    createdBy: integer().references(() => staff.id, { onDelete: 'set null' }),
    updatedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [index('reply_templates_language_idx').on(table.language, table.siteId)],
);

/**
 * A fictional profile's persona sheet: the facts every operator writing as it must keep the same
 * (job, city, family, hobbies, writing style, anything else). One row per profile.
 */
export const personaSheets = pgTable('persona_sheets', {
  profileId: integer()
    .primaryKey()
    .references(() => profiles.id, { onDelete: 'cascade' }),
  facts: jsonb()
    .$type<Partial<Record<'job' | 'city' | 'family' | 'hobbies' | 'style' | 'other', string>>>()
    .notNull(),
  updatedBy: integer().references(() => staff.id, { onDelete: 'set null' }),
  updatedAt: timestamp({ withTimezone: true }).notNull(),
});

/** Every staff read of a conversation and every staff write: who, what, which object, from where, when. */
export const staffAudit = pgTable(
  'staff_audit',
  {
    id: serial().primaryKey(),
    staffId: integer().references(() => staff.id),
    action: text().notNull(),
    object: text(),
    ip: text(),
    detail: jsonb().$type<Record<string, string | number | boolean | null>>(),
    at: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [
    index('staff_audit_at_idx').on(table.at),
    index('staff_audit_staff_idx').on(table.staffId, table.at),
    // Who answered a conversation last (the member dossier): the replies by their object.
    index('staff_audit_replies_idx').on(table.object, table.at).where(sql`${table.action} = 'reply'`),
    // The replies of a range (the operators' numbers and their earnings).
    index('staff_audit_reply_at_idx').on(table.at).where(sql`${table.action} = 'reply'`),
  ],
);

export type StaffRow = typeof staff.$inferSelect;
export type StaffSessionRow = typeof staffSessions.$inferSelect;
export type StaffNoteRow = typeof staffNotes.$inferSelect;
export type ReplyTemplateRow = typeof replyTemplates.$inferSelect;
export type PersonaSheetRow = typeof personaSheets.$inferSelect;
export type StaffAuditRow = typeof staffAudit.$inferSelect;
