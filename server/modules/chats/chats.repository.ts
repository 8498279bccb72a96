import { and, asc, count, desc, eq, gt, inArray, lt, notInArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { maxInt32 } from '#contract/common.ts';
import { type Executor, preparedPerConnection } from '#server/db/client.ts';
import { mainPhotoLateral } from '#server/db/fragments.ts';
import { gifts } from '#server/db/schema/catalog.ts';
import {
  chatPhotoReviews,
  conversationParticipants,
  conversations,
  type MessageRow,
  messages,
} from '#server/db/schema/chats.ts';
import { profiles, users } from '#server/db/schema/members.ts';
import { photos } from '#server/db/schema/photos.ts';
import { blocks } from '#server/db/schema/social.ts';

export type GiftRow = typeof gifts.$inferSelect;

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

const startedConversationSchema = z.object({ rows: z.array(z.object({ id: z.number() })) });

/**
 * Starts the pair's conversation with both participants in one statement. When another
 * transaction started it meanwhile, the statement's snapshot does not show that one's row: it falls
 * back to insertConversation, which reads it again.
 */
export async function startConversation(
  db: Executor,
  starter: number,
  other: number,
  at: Date,
): Promise<{ id: number }> {
  const { low, high } = pairOf(starter, other);
  const { rows } = startedConversationSchema.parse(
    await db.execute(sql`with started as (
      insert into ${conversations} (low_profile_id, high_profile_id, started_by_profile_id, created_at)
      values (${low}, ${high}, ${starter}, ${at.toISOString()}::timestamptz)
      on conflict do nothing
      returning id
    ), joined as (
      insert into ${conversationParticipants} (conversation_id, profile_id)
      select id, ${low}::int from started union all select id, ${high}::int from started
      on conflict do nothing
    )
    select id from started`),
  );
  return rows[0] ?? (await insertConversation(db, starter, other, at));
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

/** The sender's message with this idempotency key (POST /api/chat.php client_id), if any. */
export async function messageByClientId(
  db: Executor,
  senderProfileId: number,
  clientId: string,
): Promise<MessageRow | undefined> {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.senderProfileId, senderProfileId), eq(messages.clientId, clientId)))
    .limit(1);
  return row;
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

export async function countFreeMessagesUsed(db: Executor, profileId: number): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(messages)
    .where(and(eq(messages.senderProfileId, profileId), eq(messages.kind, 'text'), eq(messages.credits, 0)));
  return row?.value ?? 0;
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

export async function lastMessageId(db: Executor, conversationId: number): Promise<number> {
  const [row] = await db
    .select({ id: sql<number>`coalesce(max(${messages.id}), 0)::int` })
    .from(messages)
    .where(eq(messages.conversationId, conversationId));
  return row?.id ?? 0;
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
const prepareChatList = preparedPerConnection((db) => {
  const profileId = sql.placeholder('profileId');
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
  // The list's order and its keyset: last activity to the microsecond (exact, as text), then the id.
  const activity = sql`(extract(epoch from coalesce(${conversations.lastMessageAt}, ${conversations.createdAt})) * 1000000)::bigint`;
  return db
    .select({
      conversation: conversations,
      participant: conversationParticipants,
      activityMicros: sql<string>`${activity}::text`,
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
        sql`(${activity}, ${conversations.id}) < (${sql.placeholder('beforeMicros')}::bigint, ${sql.placeholder('beforeId')}::int)`,
      ),
    )
    .orderBy(desc(activity), desc(conversations.id))
    .limit(sql.placeholder('limit'))
    .prepare('chat_list');
});

/** Where a page of the chat list starts: before this activity (microseconds) and conversation id. */
export type ChatListCursor = { activityMicros: string; conversationId: number };

/**
 * A page of the chat list, newest activity first: up to `limit` conversations older than `before`
 * (the first page without it). See prepareChatList: one prepared statement (decision 027).
 */
export async function chatListOf(
  db: Executor,
  profileId: number,
  page: { before: ChatListCursor | undefined; limit: number },
) {
  return prepareChatList(db).execute({
    profileId,
    beforeMicros: page.before?.activityMicros ?? '9223372036854775807',
    beforeId: page.before?.conversationId ?? 2147483647,
    limit: page.limit,
  });
}

export async function messagesByIds(db: Executor, ids: number[]): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(messages).where(inArray(messages.id, ids));
}

/** The gifts a site offers: its own when it has any active, else those of no site (as bundles). */
const offeredOn = (siteId: number) =>
  sql`case when exists (select 1 from ${gifts} as own where own.site_id = ${siteId} and own.active)
    then ${gifts.siteId} = ${siteId} else ${gifts.siteId} is null end`;

export async function findGift(db: Executor, giftId: number, siteId: number) {
  const [row] = await db
    .select()
    .from(gifts)
    .where(and(eq(gifts.id, giftId), eq(gifts.active, true), offeredOn(siteId)))
    .limit(1);
  return row;
}

export async function listGifts(db: Executor, siteId: number) {
  return db
    .select()
    .from(gifts)
    .where(and(eq(gifts.active, true), offeredOn(siteId)))
    .orderBy(asc(gifts.position));
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

/**
 * The other member of a send or an open, in one statement: the profile and its owner, blocks either
 * way, and whether the pair has a conversation yet (a member who has not confirmed the e-mail
 * address is a counterpart only in a conversation they wrote in).
 */
function prepareCounterpart(db: Executor) {
  const meId = sql.placeholder('meId');
  const otherId = sql.placeholder('otherId');
  return db
    .select({
      profile: profiles,
      owner: users,
      aBlockedB: sql<boolean>`exists (select 1 from ${blocks} b where b.blocker_profile_id = ${meId} and b.blocked_profile_id = ${otherId})`,
      bBlockedA: sql<boolean>`exists (select 1 from ${blocks} b where b.blocker_profile_id = ${otherId} and b.blocked_profile_id = ${meId})`,
      hasConversation: sql<boolean>`exists (select 1 from ${conversations} c where c.low_profile_id = ${sql.placeholder('low')} and c.high_profile_id = ${sql.placeholder('high')})`,
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(eq(profiles.id, otherId))
    .limit(1)
    .prepare('chat_counterpart');
}
const counterparts = new WeakMap<Executor, ReturnType<typeof prepareCounterpart>>();

export async function counterpartOf(db: Executor, meId: number, otherId: number) {
  let query = counterparts.get(db);
  if (!query) {
    query = prepareCounterpart(db);
    counterparts.set(db, query);
  }
  const { low, high } = pairOf(meId, otherId);
  const [row] = await query.execute({ meId, otherId, low, high });
  return row;
}

/**
 * Selected in a statement of a chat write, it makes that write's transaction (and only it) commit
 * without waiting for the WAL's flush (decision 032): `true` is set_config's "local to the transaction".
 */
const commitAsynchronously = sql<string>`set_config('synchronous_commit', 'off', true)`;

/**
 * A send's first statement: the sender's row, locked until the transaction ends (every money and
 * limit check reads it here), with the other member as `counterpartOf` reads them — one round trip
 * instead of two. Only the sender's row is locked; the counterpart is read as at the statement's start,
 * as it would be before the transaction.
 *
 * The same statement makes the send's commit asynchronous (`synchronous_commit = off` for this
 * transaction only, set_config's `true`): the commit returns once it is in the WAL's buffers, not
 * after the disk confirmed it. On a virtual disk a WAL flush sometimes took 100–550 ms, and every
 * send committing in that moment (and the live delivery that follows its commit) waited for it —
 * the tail of live delivery (decision 032). The message and its charge stay one atomic transaction:
 * a database crash within the WAL writer's delay (≤ 0.6 s) can lose both together, never one of
 * them; purchases and every other write still commit synchronously, and their flush carries the
 * sends committed before them.
 */
function prepareLockSender(db: Executor) {
  const meId = sql.placeholder('meId');
  const otherId = sql.placeholder('otherId');
  const other = alias(profiles, 'other');
  const owner = alias(users, 'owner');
  return db
    .select({
      sender: users,
      profile: other,
      owner,
      aBlockedB: sql<boolean>`exists (select 1 from ${blocks} b where b.blocker_profile_id = ${meId} and b.blocked_profile_id = ${otherId})`,
      bBlockedA: sql<boolean>`exists (select 1 from ${blocks} b where b.blocker_profile_id = ${otherId} and b.blocked_profile_id = ${meId})`,
      hasConversation: sql<boolean>`exists (select 1 from ${conversations} c where c.low_profile_id = ${sql.placeholder('low')} and c.high_profile_id = ${sql.placeholder('high')})`,
      asynchronousCommit: commitAsynchronously,
    })
    .from(users)
    .leftJoin(other, eq(other.id, otherId))
    .leftJoin(owner, eq(owner.id, other.userId))
    .where(eq(users.id, sql.placeholder('userId')))
    .for('update', { of: users })
    .prepare('lock_sender');
}
const lockSenderStatement = preparedPerConnection(prepareLockSender);

/**
 * The sender's row locked, and the other member (undefined when there is no such profile). Call it
 * first in the send's transaction.
 */
export async function lockSender(tx: Executor, userId: number, meId: number, otherId: number) {
  const [row] = await lockSenderStatement(tx).execute({ userId, meId, otherId, ...pairOf(meId, otherId) });
  if (!row) return undefined;
  const { sender, profile, owner, asynchronousCommit: _setting, ...relation } = row;
  return { sender, other: profile && owner ? { profile, owner, ...relation } : undefined };
}

/**
 * What a send decides on, read in one statement after the sender's row is locked (so parallel sends
 * of one member see each other's messages): the pair's conversation and its newest message id, the
 * free texts used so far (when `countFree`), and the conversations started so far (when
 * `countStarted`, and only while the pair's conversation has no message yet).
 */
function prepareSendState(db: Executor, countFree: boolean, countStarted: boolean) {
  const meId = sql.placeholder('meId');
  const lastMessageId = sql`coalesce((select max(m.id) from ${messages} m where m.conversation_id = ${conversations.id}), 0)`;
  const started = sql`(select count(*) from ${conversations} c where (c.low_profile_id = ${meId} or c.high_profile_id = ${meId}) and (select m.sender_profile_id from ${messages} m where m.conversation_id = c.id order by m.id limit 1) = ${meId})`;
  return db
    .select({
      conversation: conversations,
      // A repeat of a message already sent with this idempotency key (null when none was given).
      earlierId: sql<
        number | null
      >`(select m.id from ${messages} m where m.sender_profile_id = ${meId} and m.client_id = ${sql.placeholder('clientId')}::text limit 1)`,
      lastMessageId: sql<number>`${lastMessageId}::int`,
      freeUsed: countFree
        ? sql<number>`(select count(*) from ${messages} m where m.sender_profile_id = ${meId} and m.kind = 'text' and m.credits = 0)::int`
        : sql<number>`0`,
      started: countStarted
        ? sql<number>`(case when ${lastMessageId} > 0 then 0 else ${started} end)::int`
        : sql<number>`0`,
    })
    .from(profiles)
    .leftJoin(
      conversations,
      and(
        eq(conversations.lowProfileId, sql.placeholder('low')),
        eq(conversations.highProfileId, sql.placeholder('high')),
      ),
    )
    .where(eq(profiles.id, meId))
    .limit(1)
    .prepare(`send_state${countFree ? '_free' : ''}${countStarted ? '_started' : ''}`);
}
const sendStateStatements = preparedPerConnection((db) => ({
  plain: prepareSendState(db, false, false),
  free: prepareSendState(db, true, false),
  started: prepareSendState(db, false, true),
  freeAndStarted: prepareSendState(db, true, true),
}));

/**
 * What a send decides on, read in one statement after the sender's row is locked (so parallel sends
 * of one member see each other's messages): the pair's conversation and its newest message id, the
 * free texts used so far (when `countFree`), and the conversations started so far (when
 * `countStarted`, and only while the pair's conversation has no message yet).
 */
export async function sendState(
  tx: Executor,
  meId: number,
  otherId: number,
  options: { countFree: boolean; countStarted: boolean; clientId?: string | undefined },
) {
  const statements = sendStateStatements(tx);
  const statement = options.countFree
    ? options.countStarted
      ? statements.freeAndStarted
      : statements.free
    : options.countStarted
      ? statements.started
      : statements.plain;
  const [row] = await statement.execute({
    meId,
    clientId: options.clientId ?? null,
    ...pairOf(meId, otherId),
  });
  return {
    conversation: row?.conversation ?? undefined,
    earlierId: row?.earlierId ?? null,
    lastMessageId: row?.lastMessageId ?? 0,
    freeUsed: row?.freeUsed ?? 0,
    started: row?.started ?? 0,
  };
}

type NewMessage = {
  conversationId: number;
  senderProfileId: number;
  kind: MessageRow['kind'];
  text: string | null;
  photoKey: string | null;
  photoThumbKey: string | null;
  giftId: number | null;
  credits: number;
  createdAt: Date;
  clientId: string | null;
  automated: boolean;
};

function prepareWriteMessage(tx: Executor) {
  const value = sql.placeholder;
  const conversationId = value('conversationId');
  const senderProfileId = value('senderProfileId');
  const createdAt = value('createdAt');
  const inserted = tx.$with('inserted').as(
    tx
      .insert(messages)
      .values({
        conversationId,
        senderProfileId,
        kind: value('kind'),
        text: value('text'),
        photoKey: value('photoKey'),
        photoThumbKey: value('photoThumbKey'),
        giftId: value('giftId'),
        credits: value('credits'),
        createdAt,
        clientId: value('clientId'),
        automated: value('automated'),
      })
      .returning(),
  );
  const newId = sql`(select ${inserted.id} from ${inserted})`;
  const touched = tx.$with('touched').as(
    tx
      .update(conversations)
      .set({
        lastMessageAt: sql`(select ${inserted.createdAt} from ${inserted})`,
        // The operators' queue: a member's message to a fictional profile starts the wait (or
        // leaves it as it began), the profile's answer ends it; chats between members never wait.
        waitingSince: sql`case
          when (select p.fictional from ${profiles} p where p.id = ${senderProfileId}) then null
          when exists (select 1 from ${profiles} p where p.id in (${conversations.lowProfileId}, ${conversations.highProfileId}) and p.fictional)
            then coalesce(${conversations.waitingSince}, (select ${inserted.createdAt} from ${inserted}))
          else null end`,
        // The member who waits is the sender of such a message; the same conditions as above.
        waitingUserId: sql`case
          when (select p.fictional from ${profiles} p where p.id = ${senderProfileId}) then null
          when exists (select 1 from ${profiles} p where p.id in (${conversations.lowProfileId}, ${conversations.highProfileId}) and p.fictional)
            then (select p.user_id from ${profiles} p where p.id = ${senderProfileId})
          else null end`,
      })
      .where(eq(conversations.id, conversationId))
      .returning({ id: conversations.id }),
  );
  const seen = tx.$with('seen').as(
    tx
      .update(conversationParticipants)
      .set({ lastReadMessageId: sql`greatest(${conversationParticipants.lastReadMessageId}, ${newId})` })
      .where(
        and(
          eq(conversationParticipants.conversationId, conversationId),
          eq(conversationParticipants.profileId, senderProfileId),
        ),
      )
      .returning({ id: conversationParticipants.conversationId }),
  );
  return tx.with(inserted, touched, seen).select().from(inserted).prepare('write_message');
}
const writeMessageStatement = preparedPerConnection(prepareWriteMessage);

/** A fictional profile's team answered as it: its "last active" moves, as a member's does on a visit. */
export async function markProfileActive(tx: Executor, profileId: number, at: Date): Promise<void> {
  await tx.update(profiles).set({ lastActiveAt: at }).where(eq(profiles.id, profileId));
}

/**
 * Writes a message in one statement: the message, the conversation's last activity (and whether a
 * member now waits for a fictional profile) and the sender's read mark. What it costs is booked by the caller through the credits module, in the same
 * transaction (the ledger's reference is the new message).
 */
export async function writeMessage(tx: Executor, message: NewMessage): Promise<MessageRow> {
  const [row] = await writeMessageStatement(tx).execute(message);
  return row!;
}

function prepareConversationView(db: Executor, countFree: boolean) {
  const meId = sql.placeholder('meId');
  const other = alias(profiles, 'other');
  const owner = alias(users, 'owner');
  const mainPhoto = mainPhotoLateral(db, other.id);
  // The list's order and its keyset: last activity to the microsecond (exact, as text), then the id.
  const activity = sql`(extract(epoch from coalesce(${conversations.lastMessageAt}, ${conversations.createdAt})) * 1000000)::bigint`;
  return db
    .select({
      conversation: conversations,
      participant: conversationParticipants,
      activityMicros: sql<string>`${activity}::text`,
      profile: other,
      owner,
      mainPhoto: mainPhoto.fields,
      aBlockedB: sql<boolean>`exists (select 1 from ${blocks} b where b.blocker_profile_id = ${meId} and b.blocked_profile_id = ${other.id})`,
      bBlockedA: sql<boolean>`exists (select 1 from ${blocks} b where b.blocker_profile_id = ${other.id} and b.blocked_profile_id = ${meId})`,
      oldestAllowedId: sql<number>`coalesce((select m.id from ${messages} m where m.conversation_id = ${conversations.id} order by m.id desc limit 1 offset ${sql.placeholder('historyOffset')}), 0)::int`,
      newestId: sql<number>`coalesce((select max(m.id) from ${messages} m where m.conversation_id = ${conversations.id}), 0)::int`,
      /** How far the other side has read (read receipts). */
      otherReadId: sql<number>`coalesce((select p.last_read_message_id from ${conversationParticipants} p where p.conversation_id = ${conversations.id} and p.profile_id = ${other.id}), 0)::int`,
      freeUsed: countFree
        ? sql<number>`(select count(*) from ${messages} m where m.sender_profile_id = ${meId} and m.kind = 'text' and m.credits = 0)::int`
        : sql<number>`0`,
      /** This side's photos the screening held (decision 060), in the same statement. */
      inReview: sql<unknown>`(select coalesce(json_agg(json_build_object('id', r.id, 'thumbKey', r.photo_thumb_key, 'credits', r.credits, 'createdAt', r.created_at) order by r.id), '[]'::json) from ${chatPhotoReviews} r where r.conversation_id = ${conversations.id} and r.sender_profile_id = ${meId} and r.status = 'held')`,
    })
    .from(conversations)
    .innerJoin(
      conversationParticipants,
      and(
        eq(conversationParticipants.conversationId, conversations.id),
        eq(conversationParticipants.profileId, meId),
      ),
    )
    .innerJoin(
      other,
      sql`${other.id} = case when ${conversations.lowProfileId} = ${meId} then ${conversations.highProfileId} else ${conversations.lowProfileId} end`,
    )
    .innerJoin(owner, eq(owner.id, other.userId))
    .leftJoinLateral(mainPhoto.subquery, sql`true`)
    .where(eq(conversations.id, sql.placeholder('conversationId')))
    .limit(1)
    .prepare(countFree ? 'conversation_view_free' : 'conversation_view');
}
const conversationViews = new WeakMap<
  Executor,
  { free: ReturnType<typeof prepareConversationView>; paid: ReturnType<typeof prepareConversationView> }
>();

/**
 * A conversation as its participant opens it, in one (prepared) statement: the conversation and
 * this side's participation, the other profile with its owner and main photo, blocks either way,
 * the history floor (the oldest of the last `historyLimit` messages), the newest message id and,
 * when `countFree`, the free texts this side used (for the costs shown).
 */
export async function conversationView(
  db: Executor,
  conversationId: number,
  meId: number,
  options: { historyLimit: number; countFree: boolean },
) {
  let views = conversationViews.get(db);
  if (!views) {
    views = { free: prepareConversationView(db, true), paid: prepareConversationView(db, false) };
    conversationViews.set(db, views);
  }
  const [row] = await (options.countFree ? views.free : views.paid).execute({
    meId,
    conversationId,
    historyOffset: options.historyLimit - 1,
  });
  if (!row) return undefined;
  const raw: unknown = typeof row.inReview === 'string' ? JSON.parse(row.inReview) : row.inReview;
  return { ...row, inReview: heldBriefs.parse(raw) };
}

const heldBriefs = z.array(
  z.object({
    id: z.number().int(),
    thumbKey: z.string(),
    credits: z.number().int(),
    createdAt: z.coerce.date(),
  }),
);

/**
 * A page of messages with their gifts, oldest first, after what this side cleared and within the
 * history floor; one more row than the page is read to tell whether older ones exist. With
 * `markReadUpTo`, the same statement moves this side's read mark.
 */
function prepareMessagesPage(db: Executor, forward: boolean, marks: boolean) {
  const conversationId = sql.placeholder('conversationId');
  const where = and(
    eq(messages.conversationId, conversationId),
    gt(messages.id, sql.placeholder('above')),
    lt(messages.id, sql.placeholder('below')),
  );
  const mark = db.$with('mark').as(
    db
      .update(conversationParticipants)
      .set({
        lastReadMessageId: sql`greatest(${conversationParticipants.lastReadMessageId}, ${sql.placeholder('markReadUpTo')})`,
      })
      .where(
        and(
          eq(conversationParticipants.conversationId, conversationId),
          eq(conversationParticipants.profileId, sql.placeholder('profileId')),
        ),
      )
      // A read mark commits asynchronously, as a send does (decision 032): reading a conversation
      // never waits for the disk; a crash can at worst show a message as unread again. Evaluated for
      // the row the mark moved (a data-modifying WITH runs to completion, read or not).
      .returning({
        id: conversationParticipants.conversationId,
        asynchronousCommit: commitAsynchronously,
      }),
  );
  return (marks ? db.with(mark) : db)
    .select({ message: messages, gift: gifts })
    .from(messages)
    .leftJoin(gifts, eq(gifts.id, messages.giftId))
    .where(where)
    .orderBy(forward ? asc(messages.id) : desc(messages.id))
    .limit(sql.placeholder('limit'))
    .prepare(`messages_page${forward ? '_forward' : ''}${marks ? '_marking' : ''}`);
}
const messagesPageStatements = preparedPerConnection((db) => ({
  backward: prepareMessagesPage(db, false, false),
  backwardMarking: prepareMessagesPage(db, false, true),
  forward: prepareMessagesPage(db, true, false),
  forwardMarking: prepareMessagesPage(db, true, true),
}));

/**
 * A page of a conversation with the gifts it shows, in one statement that also moves the reader's
 * read mark (when `markReadUpTo` is set). Newest `limit` before `before`, or oldest after `after`.
 */
export async function messagesPageWithGifts(
  db: Executor,
  conversationId: number,
  options: {
    profileId: number;
    floor: number;
    before?: number | undefined;
    after?: number | undefined;
    limit: number;
    markReadUpTo: number | null;
  },
): Promise<{ rows: MessageRow[]; gifts: GiftRow[]; hasOlder: boolean }> {
  const forward = options.after !== undefined;
  const statements = messagesPageStatements(db);
  const marks = options.markReadUpTo !== null;
  const statement = forward
    ? marks
      ? statements.forwardMarking
      : statements.forward
    : marks
      ? statements.backwardMarking
      : statements.backward;
  const found = await statement.execute({
    conversationId,
    above: Math.max(options.floor, options.after ?? 0),
    // No `before`: the largest id a serial holds stands for "no upper bound" (one statement for both).
    below: options.before || maxInt32,
    limit: forward ? options.limit : options.limit + 1,
    ...(marks ? { markReadUpTo: options.markReadUpTo, profileId: options.profileId } : {}),
  });
  const hasOlder = !forward && found.length > options.limit;
  const page = found.slice(0, options.limit);
  if (!forward) page.reverse();
  const giftRows = new Map<number, GiftRow>();
  for (const row of page) if (row.gift) giftRows.set(row.gift.id, row.gift);
  return { rows: page.map((row) => row.message), gifts: [...giftRows.values()], hasOlder };
}

/**
 * Per member of a site: messages to them still unread that came after `since` and after their last
 * activity, with the newest one's time (the unread nudge). Blocked and gone senders do not count.
 */
export async function unreadSinceOnSite(
  db: Executor,
  siteId: number,
  since: Date,
): Promise<{ userId: number; count: number; latest: Date }[]> {
  const sender = alias(profiles, 'sender');
  const senderUser = alias(users, 'sender_user');
  const rows = await db
    .select({
      userId: users.id,
      count: sql<number>`count(*)::int`,
      latest: sql<string>`max(${messages.createdAt})`,
    })
    .from(conversationParticipants)
    .innerJoin(profiles, eq(profiles.id, conversationParticipants.profileId))
    .innerJoin(users, eq(users.id, profiles.userId))
    .innerJoin(messages, eq(messages.conversationId, conversationParticipants.conversationId))
    .innerJoin(sender, eq(sender.id, messages.senderProfileId))
    .innerJoin(senderUser, eq(senderUser.id, sender.userId))
    .where(
      and(
        eq(users.siteId, siteId),
        eq(users.status, 'active'),
        eq(profiles.fictional, false),
        sql`${messages.senderProfileId} <> ${conversationParticipants.profileId}`,
        gt(messages.id, conversationParticipants.lastReadMessageId),
        gt(messages.id, conversationParticipants.clearedMessageId),
        gt(messages.createdAt, since),
        sql`${messages.createdAt} > ${profiles.lastActiveAt}`,
        notInArray(senderUser.status, ['deleted', 'banned']),
        sql`not exists (select 1 from ${blocks} where (${blocks.blockerProfileId} = ${profiles.id} and ${blocks.blockedProfileId} = ${sender.id}) or (${blocks.blockerProfileId} = ${sender.id} and ${blocks.blockedProfileId} = ${profiles.id}))`,
      ),
    )
    .groupBy(users.id);
  return rows.map((row) => ({ userId: row.userId, count: row.count, latest: new Date(row.latest) }));
}
