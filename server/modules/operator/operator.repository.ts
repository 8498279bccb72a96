import { and, asc, eq, gt, gte, inArray, lt, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '#server/db/client.ts';
import { conversations, messages } from '#server/db/schema/chats.ts';
import { profiles, users } from '#server/db/schema/members.ts';
import { conversationClaims, staff, staffAudit, staffNotes } from '#server/db/schema/staff.ts';

const low = alias(profiles, 'low_profile');
const high = alias(profiles, 'high_profile');
const memberUser = alias(users, 'member_user');

/** The member's side of a member ↔ fictional profile conversation. */
const memberProfileId = sql<number>`case when ${low.fictional} then ${high.id} else ${low.id} end`;
const fictionalProfileId = sql<number>`case when ${low.fictional} then ${low.id} else ${high.id} end`;
const toDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value));
/** Since when the member waits: the first of the member's messages after the profile's last reply. */
const waitingSince = () =>
  sql<Date | null>`(select min(m.created_at) from ${messages} m where m.conversation_id = ${conversations.id} and m.id > coalesce((select max(f.id) from ${messages} f where f.conversation_id = ${conversations.id} and f.sender_profile_id = ${fictionalProfileId}), 0))`;

/** Conversations between a real member and a fictional profile; member-to-member chats never match. */
function fictionalConversations(db: Executor) {
  return db
    .select({
      conversation: conversations,
      low,
      high,
      member: memberUser,
      lastMessageId: sql<number>`(select max(m.id) from ${messages} m where m.conversation_id = ${conversations.id})::int`,
      waitingSince: waitingSince().mapWith(toDate),
      claimStaffId: conversationClaims.staffId,
      claimStaffName: staff.name,
      claimExpiresAt: conversationClaims.expiresAt,
    })
    .from(conversations)
    .innerJoin(low, eq(low.id, conversations.lowProfileId))
    .innerJoin(high, eq(high.id, conversations.highProfileId))
    .innerJoin(
      memberUser,
      sql`${memberUser.id} = case when ${low.fictional} then ${high.userId} else ${low.userId} end`,
    )
    .leftJoin(conversationClaims, eq(conversationClaims.conversationId, conversations.id))
    .leftJoin(staff, eq(staff.id, conversationClaims.staffId))
    .$dynamic();
}

export type FictionalConversationRow = Awaited<ReturnType<typeof findFictionalConversation>> & {};

function split<T extends { low: typeof low.$inferSelect; high: typeof high.$inferSelect }>(row: T) {
  const fictionalIsLow = row.low.fictional;
  return {
    ...row,
    memberProfile: fictionalIsLow ? row.high : row.low,
    fictionalProfile: fictionalIsLow ? row.low : row.high,
  };
}

export async function findFictionalConversation(db: Executor, conversationId: number) {
  const [row] = await fictionalConversations(db)
    .where(and(eq(conversations.id, conversationId), ne(low.fictional, high.fictional)))
    .limit(1);
  return row ? split(row) : undefined;
}

/**
 * The operators' queue: conversations whose last message is a member's to a fictional profile,
 * longest waiting first.
 */
export async function waitingConversations(
  db: Executor,
  filters: { siteId?: number | undefined; language?: string | undefined; limit: number },
) {
  const rows = await fictionalConversations(db)
    .where(
      and(
        ne(low.fictional, high.fictional),
        inArray(memberUser.status, ['active', 'not_confirmed']),
        sql`(select m.sender_profile_id from ${messages} m where m.conversation_id = ${conversations.id} order by m.id desc limit 1) = ${memberProfileId}`,
        filters.siteId ? eq(memberUser.siteId, filters.siteId) : undefined,
        filters.language ? eq(memberUser.language, filters.language) : undefined,
      ),
    )
    .orderBy(asc(waitingSince()), asc(conversations.id))
    .limit(filters.limit);
  return rows.map(split);
}

// ---- claims

/**
 * Takes or renews the claim in one statement: a free, lapsed or own claim is (re)written, another
 * operator's live claim is left alone and nothing comes back. The row lock of the upsert makes two
 * operators claiming at the same moment end with exactly one winner.
 */
export async function takeClaim(
  db: Executor,
  conversationId: number,
  staffId: number,
  now: Date,
  expiresAt: Date,
) {
  const [row] = await db
    .insert(conversationClaims)
    .values({ conversationId, staffId, claimedAt: now, expiresAt })
    .onConflictDoUpdate({
      target: conversationClaims.conversationId,
      set: {
        staffId,
        expiresAt,
        claimedAt: sql`case when ${conversationClaims.staffId} = ${staffId} then ${conversationClaims.claimedAt} else excluded.claimed_at end`,
      },
      setWhere: or(eq(conversationClaims.staffId, staffId), lt(conversationClaims.expiresAt, now)),
    })
    .returning();
  return row;
}

export async function findClaim(db: Executor, conversationId: number, now: Date) {
  const [row] = await db
    .select({ claim: conversationClaims, name: staff.name })
    .from(conversationClaims)
    .innerJoin(staff, eq(staff.id, conversationClaims.staffId))
    .where(and(eq(conversationClaims.conversationId, conversationId), gt(conversationClaims.expiresAt, now)))
    .limit(1);
  return row;
}

export async function releaseClaim(db: Executor, conversationId: number, staffId?: number): Promise<boolean> {
  const rows = await db
    .delete(conversationClaims)
    .where(
      and(
        eq(conversationClaims.conversationId, conversationId),
        staffId !== undefined ? eq(conversationClaims.staffId, staffId) : undefined,
      ),
    )
    .returning({ id: conversationClaims.conversationId });
  return rows.length > 0;
}

// ---- notes

export async function insertNote(db: Executor, values: typeof staffNotes.$inferInsert) {
  const [row] = await db.insert(staffNotes).values(values).returning();
  return row!;
}

/** Notes about either profile, oldest first, with their authors' names. */
export async function notesAbout(db: Executor, memberProfileId: number, fictionalProfileId: number) {
  return db
    .select({ note: staffNotes, by: staff.name })
    .from(staffNotes)
    .innerJoin(staff, eq(staff.id, staffNotes.staffId))
    .where(
      or(
        and(eq(staffNotes.about, 'member'), eq(staffNotes.profileId, memberProfileId)),
        and(eq(staffNotes.about, 'profile'), eq(staffNotes.profileId, fictionalProfileId)),
      ),
    )
    .orderBy(asc(staffNotes.createdAt), asc(staffNotes.id));
}

// ---- stats

/** The replies staff sent since a moment, from the audit trail (which records how long each member waited). */
export async function repliesSince(db: Executor, since: Date) {
  return db
    .select({ staffId: staffAudit.staffId, detail: staffAudit.detail })
    .from(staffAudit)
    .where(and(eq(staffAudit.action, 'reply'), gte(staffAudit.at, since)));
}
