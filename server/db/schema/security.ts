import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './members.ts';
import { staff } from './staff.ts';

// Passkeys, WebAuthn challenges, known devices and address bans: the sign-in's safety rails.

/** The columns every passkey row has, a member's or a staff member's. */
const passkeyColumns = () => ({
  id: serial().primaryKey(),
  /** The credential id, base64url; unique: one authenticator credential belongs to one account. */
  credentialId: text().notNull().unique(),
  /** COSE public key bytes, base64url. */
  publicKey: text().notNull(),
  /** The authenticator's signature counter: a later sign-in must show a larger one (or 0, not counting). */
  counter: integer().notNull().default(0),
  transports: text().array().notNull().default(sql`'{}'::text[]`),
  name: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull(),
  lastUsedAt: timestamp({ withTimezone: true }),
});

/**
 * A member's passkey (WebAuthn credential); a clone of an authenticator that counts shows up as a
 * counter that does not grow.
 */
export const memberPasskeys = pgTable(
  'member_passkeys',
  {
    ...passkeyColumns(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (table) => [index('member_passkeys_user_idx').on(table.userId)],
);

/** A staff member's passkey: a sign-in factor of its own (api-contract.md, staff passkeys). */
export const staffPasskeys = pgTable(
  'staff_passkeys',
  {
    ...passkeyColumns(),
    staffId: integer()
      .notNull()
      .references(() => staff.id, { onDelete: 'cascade' }),
  },
  (table) => [index('staff_passkeys_staff_idx').on(table.staffId)],
);

export const webauthnPurposes = ['member_register', 'member_login', 'staff_register', 'staff_login'] as const;
export type WebauthnPurpose = (typeof webauthnPurposes)[number];

/**
 * A WebAuthn challenge handed out and not yet answered. The challenge itself is the key (the
 * browser signs it into clientDataJSON, so the answer names its row); it is deleted as it is used,
 * in one statement, so it can be used once whichever instance the answer reaches.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challenge: text().primaryKey(),
    purpose: text({ enum: webauthnPurposes }).notNull(),
    /** The member or staff member registering; null for a sign-in (anyone may answer it). */
    subjectId: integer(),
    siteId: integer().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [index('webauthn_challenges_expires_idx').on(table.expiresAt)],
);

/**
 * Devices a member has signed in from: the SHA-256 of a long-lived device cookie. A sign-in from a
 * device not in this list mails the member.
 */
export const knownDevices = pgTable(
  'known_devices',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceHash: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.deviceHash] })],
);

/**
 * Addresses that may not sign up again: an HMAC (server secret) of the normalised address, never
 * the address itself, so the ban outlives the account's erasure without keeping personal data.
 * `userId` says whose ban it is (lifted with the member's unban); it stays after erasure.
 */
export const emailBans = pgTable('email_bans', {
  hash: text().primaryKey(),
  userId: integer().references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp({ withTimezone: true }).notNull(),
});
