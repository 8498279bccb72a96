import { and, asc, count, desc, eq, gt, inArray, lt, notInArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '#server/db/client.ts';
import { gifts } from '#server/db/schema/catalog.ts';
import {
  conversationParticipants,
  conversations,
  type MessageRow,
  messages,
} from '#server/db/schema/chats.ts';
import { profiles, users } from '#server/db/schema/members.ts';
import { photos } from '#server/db/schema/photos.ts';
import { blocks } from '#server/db/schema/social.ts';
import { mainPhotoLateral } from '#server/modules/profiles/profiles.repository.ts';

export const pairOf = (a: number, b: number) => (a < b ? { low: a, high: b } : { low: b, high: a });

export async function findConversationBetween(db: Executor, a: number, b: number) {
  const { low, high } = pairOf(a, b);
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.lowProfileId, low), eq(conversations.highProfileId, high)))
    .limit(1);
  return row;
}

export async function insertConversation(db: Executor, starter: number, other: number, at: Date) {
  const { low, high } = pairOf(starter, other);
  const [row] = await db
    .insert(conversations)
    .values({ lowProfileId: low, highProfileId: high, startedByProfileId: starter, createdAt: at })
    .onConflictDoNothing()
    .returning();
  const conversation = row ?? (await findConversationBetween(db, starter, other))!;
  await db
    .insert(conversationParticipants)
    .values([
      { conversationId: conversation.id, profileId: low },
      { conversationId: conversation.id, profileId: high },
    ])
    .onConflictDoNothing();
  return conversation;
}

/** A conversation the profile takes part in; undefined for anybody else's. */
export async function findConversationFor(db: Executor, conversationId: number, profileId: number) {
  const [row] = await db
    .select({ conversation: conversations, participant: conversationParticipants })
    .from(conversations)
    .innerJoin(
      conversationParticipants,
      and(
        eq(conversationParticipants.conversationId, conversations.id),
        eq(conversationParticipants.profileId, profileId),
      ),
    )
    .where(eq(conversations.id, conversationId))
    .limit(1);
  return row;
}

/**
 * The conversations the member started: those whose first message the member sent. A conversation
 * opened without writing counts for nobody (spec: a conversation counts once its first message is sent).
 */
export async function countStartedConversations(db: Executor, profileId: number): Promise<number> {
  const firstSender = sql`(select m.sender_profile_id from ${messages} m where m.conversation_id = ${conversations.id} order by m.id limit 1)`;
  const [row] = await db
    .select({ value: count() })
    .from(conversations)
    .where(
      and(
        or(eq(conversations.lowProfileId, profileId), eq(conversations.highProfileId, profileId)),
        sql`${firstSender} = ${profileId}`,
      ),
    );
  return row?.value ?? 0;
}

export async function countFreeMessagesUsed(db: Executor, profileId: number): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(messages)
    .where(and(eq(messages.senderProfileId, profileId), eq(messages.kind, 'text'), eq(messages.credits, 0)));
  return row?.value ?? 0;
}

export async function insertMessage(
  db: Executor,
  message: typeof messages.$inferInsert,
): Promise<MessageRow> {
  const [row] = await db.insert(messages).values(message).returning();
  await db
    .update(conversations)
    .set({ lastMessageAt: message.createdAt })
    .where(eq(conversations.id, message.conversationId));
  return row!;
}

/** The messages of a page, oldest first, after what this side cleared and within the history limit. */
export async function messagesPage(
  db: Executor,
  conversationId: number,
  options: {
    clearedMessageId: number;
    before?: number | undefined;
    after?: number | undefined;
    limit: number;
    oldestAllowedId: number;
  },
): Promise<MessageRow[]> {
  const floor = Math.max(options.clearedMessageId, options.oldestAllowedId - 1);
  const rows = await db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        gt(messages.id, Math.max(floor, options.after ?? 0)),
        options.before ? lt(messages.id, options.before) : undefined,
      ),
    )
    .orderBy(options.after !== undefined ? asc(messages.id) : desc(messages.id))
    .limit(options.limit);
  return options.after !== undefined ? rows : rows.reverse();
}

/** The id of the oldest message still shown when only the last `limit` are kept visible. */
export async function oldestVisibleMessageId(
  db: Executor,
  conversationId: number,
  limit: number,
): Promise<number> {
  const rows = await db
    .select({ id: messages.id })
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(desc(messages.id))
    .limit(1)
    .offset(limit - 1);
  return rows[0]?.id ?? 0;
}

export async function lastMessageId(db: Executor, conversationId: number): Promise<number> {
  const [row] = await db
    .select({ id: sql<number>`coalesce(max(${messages.id}), 0)::int` })
    .from(messages)
    .where(eq(messages.conversationId, conversationId));
  return row?.id ?? 0;
}

export async function markRead(
  db: Executor,
  conversationId: number,
  profileId: number,
  upTo: number,
): Promise<void> {
  await db
    .update(conversationParticipants)
    .set({ lastReadMessageId: sql`greatest(${conversationParticipants.lastReadMessageId}, ${upTo})` })
    .where(
      and(
        eq(conversationParticipants.conversationId, conversationId),
        eq(conversationParticipants.profileId, profileId),
      ),
    );
}

export async function clearConversation(
  db: Executor,
  conversationId: number,
  profileId: number,
  upTo: number,
): Promise<void> {
  await db
    .update(conversationParticipants)
    .set({
      clearedMessageId: upTo,
      lastReadMessageId: sql`greatest(${conversationParticipants.lastReadMessageId}, ${upTo})`,
    })
    .where(
      and(
        eq(conversationParticipants.conversationId, conversationId),
        eq(conversationParticipants.profileId, profileId),
      ),
    );
}

/**
 * The member's conversations, most recent activity first, leaving out those with a member blocked
 * either way (a block removes the pair's conversation from both lists and counts).
 */
export async function conversationsOf(db: Executor, profileId: number) {
  return db
    .select({
      conversation: conversations,
      participant: conversationParticipants,
      lastMessageId: sql<number>`(select coalesce(max(m.id), 0) from ${messages} m where m.conversation_id = ${conversations.id})::int`,
      unread: sql<number>`(select count(*) from ${messages} m where m.conversation_id = ${conversations.id} and m.id > ${conversationParticipants.lastReadMessageId} and m.sender_profile_id <> ${profileId})::int`,
    })
    .from(conversationParticipants)
    .innerJoin(conversations, eq(conversations.id, conversationParticipants.conversationId))
    .where(
      and(
        eq(conversationParticipants.profileId, profileId),
        sql`not exists (select 1 from ${blocks} b where (b.blocker_profile_id = ${conversations.lowProfileId} and b.blocked_profile_id = ${conversations.highProfileId}) or (b.blocker_profile_id = ${conversations.highProfileId} and b.blocked_profile_id = ${conversations.lowProfileId}))`,
      ),
    )
    .orderBy(desc(sql`coalesce(${conversations.lastMessageAt}, ${conversations.createdAt})`));
}

/**
 * The chat list in one statement: per conversation the other profile (with its owner's status and
 * main photo), the last message and this side's unread count. Left out: conversations with a block
 * either way, those with nothing left to show (never written in, or deleted by this side up to the
 * last message), and those whose other member is deleted or banned.
 */
export async function chatListOf(db: Executor, profileId: number) {
  const other = alias(profiles, 'other');
  const owner = alias(users, 'owner');
  const lastMessage = db
    .select()
    .from(messages)
    .where(eq(messages.conversationId, conversations.id))
    .orderBy(desc(messages.id))
    .limit(1)
    .as('last_message');
  const mainPhoto = mainPhotoLateral(db, other.id);
  return db
    .select({
      conversation: conversations,
      participant: conversationParticipants,
      profile: other,
      lastMessage: {
        id: lastMessage.id,
        conversationId: lastMessage.conversationId,
        senderProfileId: lastMessage.senderProfileId,
        kind: lastMessage.kind,
        text: lastMessage.text,
        photoKey: lastMessage.photoKey,
        photoThumbKey: lastMessage.photoThumbKey,
        giftId: lastMessage.giftId,
        credits: lastMessage.credits,
        createdAt: lastMessage.createdAt,
      },
      mainPhoto: mainPhoto.fields,
      unread: sql<number>`(select count(*) from ${messages} m where m.conversation_id = ${conversations.id} and m.id > ${conversationParticipants.lastReadMessageId} and m.sender_profile_id <> ${profileId})::int`,
    })
    .from(conversationParticipants)
    .innerJoin(conversations, eq(conversations.id, conversationParticipants.conversationId))
    .innerJoin(
      other,
      sql`${other.id} = case when ${conversations.lowProfileId} = ${profileId} then ${conversations.highProfileId} else ${conversations.lowProfileId} end`,
    )
    .innerJoin(owner, eq(owner.id, other.userId))
    .innerJoinLateral(lastMessage, sql`true`)
    .leftJoinLateral(mainPhoto.subquery, sql`true`)
    .where(
      and(
        eq(conversationParticipants.profileId, profileId),
        gt(lastMessage.id, conversationParticipants.clearedMessageId),
        notInArray(owner.status, ['deleted', 'banned']),
        sql`not exists (select 1 from ${blocks} b where (b.blocker_profile_id = ${conversations.lowProfileId} and b.blocked_profile_id = ${conversations.highProfileId}) or (b.blocker_profile_id = ${conversations.highProfileId} and b.blocked_profile_id = ${conversations.lowProfileId}))`,
      ),
    )
    .orderBy(desc(sql`coalesce(${conversations.lastMessageAt}, ${conversations.createdAt})`));
}

export async function messagesByIds(db: Executor, ids: number[]): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(messages).where(inArray(messages.id, ids));
}

export async function findGift(db: Executor, giftId: number) {
  const [row] = await db
    .select()
    .from(gifts)
    .where(and(eq(gifts.id, giftId), eq(gifts.active, true)))
    .limit(1);
  return row;
}

export async function listGifts(db: Executor) {
  return db.select().from(gifts).where(eq(gifts.active, true)).orderBy(asc(gifts.position));
}

export async function giftsByIds(db: Executor, ids: number[]) {
  if (ids.length === 0) return [];
  return db.select().from(gifts).where(inArray(gifts.id, ids));
}

export async function findOwnPhoto(db: Executor, profileId: number, photoId: number) {
  const [row] = await db
    .select()
    .from(photos)
    .where(and(eq(photos.id, photoId), eq(photos.profileId, profileId)))
    .limit(1);
  return row;
}
