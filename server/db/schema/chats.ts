import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { gifts } from './catalog.ts';
import { profiles, users } from './members.ts';
import { type PhotoHoldReason, type PhotoScreening, photoHoldReasons } from './photos.ts';

/** One conversation between two profiles (the lower id first, so a pair has one conversation). */
export const conversations = pgTable(
  'conversations',
  {
    id: serial().primaryKey(),
    lowProfileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    highProfileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    startedByProfileId: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    lastMessageAt: timestamp({ withTimezone: true }),
    /**
     * Since when a member waits for a fictional profile's answer: the first of the member's messages
     * after the profile's last one, null when nobody waits (or both sides are members). Kept by the
     * message write itself, so the operators' queue reads an index instead of every conversation.
     */
    waitingSince: timestamp({ withTimezone: true }),
    /**
     * The member who waits (their user id), set and cleared with waiting_since: the queue's keys read
     * the member straight from here instead of through both profiles of every waiting pair
     * (docs/decisions/063-operator-queue-reads.md). No foreign key: the member's profile cascades
     * the conversation away first.
     */
    waitingUserId: integer(),
  },
  (table) => [
    uniqueIndex('conversations_pair_unique').on(table.lowProfileId, table.highProfileId),
    index('conversations_high_idx').on(table.highProfileId),
    // The operators' queue: only the waiting conversations, oldest first.
    index('conversations_waiting_idx')
      .on(table.waitingSince, table.id)
      .where(sql`${table.waitingSince} is not null`),
    check('conversations_ordered_pair', sql`${table.lowProfileId} < ${table.highProfileId}`),
  ],
);

/** What each side of a conversation has read, and whether that side deleted it. */
export const conversationParticipants = pgTable(
  'conversation_participants',
  {
    conversationId: integer()
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    lastReadMessageId: integer().notNull().default(0),
    /** Messages up to this one are gone for this side (the chat was deleted). */
    clearedMessageId: integer().notNull().default(0),
    /** The message this side was last told about by mail; one mail per conversation while away. */
    notifiedMessageId: integer().notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.conversationId, table.profileId] }),
    index('participants_profile_idx').on(table.profileId),
  ],
);

export const messageKinds = ['text', 'photo', 'gift'] as const;

export const messages = pgTable(
  'messages',
  {
    id: serial().primaryKey(),
    conversationId: integer()
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    senderProfileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    kind: text({ enum: messageKinds }).notNull(),
    text: text(),
    photoKey: text(),
    photoThumbKey: text(),
    giftId: integer().references(() => gifts.id),
    credits: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    /** The sender's idempotency key (POST /api/chat.php client_id): a repeat returns this message. */
    clientId: text(),
    /** Sent by an opener script or a mass message, not typed by anyone: marked in the staff views. */
    automated: boolean().notNull().default(false),
  },
  (table) => [
    index('messages_conversation_idx').on(table.conversationId, table.id),
    uniqueIndex('messages_sender_client_id_idx').on(table.senderProfileId, table.clientId),
    index('messages_sender_idx').on(table.senderProfileId, table.kind, table.credits),
    // The dashboard's messages per day.
    index('messages_created_idx').on(table.createdAt),
  ],
);

/**
 * `withdrawn`: approved after the two members blocked each other, or after the recipient left — not
 * delivered, its price given back (decision 060).
 */
export const chatPhotoReviewStatuses = ['held', 'delivered', 'rejected', 'withdrawn'] as const;
export type ChatPhotoReviewStatus = (typeof chatPhotoReviewStatuses)[number];

/**
 * A photo from the device that the screening held (decision 060): no message yet, so the recipient
 * sees nothing until a moderator approves it (a message is written then) or rejects it. The price is
 * taken at the send (reference `chat-photo:<id>`) and given back on a rejection.
 */
export const chatPhotoReviews = pgTable(
  'chat_photo_reviews',
  {
    id: serial().primaryKey(),
    conversationId: integer()
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    senderUserId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    senderProfileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    recipientProfileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    photoKey: text().notNull(),
    photoThumbKey: text().notNull(),
    /** What the sender paid at the send. */
    credits: integer().notNull(),
    clientId: text(),
    status: text({ enum: chatPhotoReviewStatuses }).notNull().default('held'),
    holdReason: text({ enum: photoHoldReasons }).$type<PhotoHoldReason>().notNull(),
    screening: jsonb().$type<PhotoScreening>().notNull(),
    /** The message written when it was approved. */
    messageId: integer().references(() => messages.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    decidedAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    index('chat_photo_reviews_status_idx').on(table.status, table.createdAt),
    index('chat_photo_reviews_conversation_idx').on(table.conversationId, table.senderProfileId),
    uniqueIndex('chat_photo_reviews_sender_client_id_idx').on(table.senderProfileId, table.clientId),
  ],
);

export type ChatPhotoReviewRow = typeof chatPhotoReviews.$inferSelect;
export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
