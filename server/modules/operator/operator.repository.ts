import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  ne,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '#server/db/client.ts';
import { conversations, messages } from '#server/db/schema/chats.ts';
import { profiles, users } from '#server/db/schema/members.ts';
import { orders } from '#server/db/schema/payments.ts';
import { reports } from '#server/db/schema/social.ts';
import {
  conversationClaims,
  personaSheets,
  replyTemplates,
  staff,
  staffAudit,
  staffNotes,
} from '#server/db/schema/staff.ts';

const low = alias(profiles, 'low_profile');
const high = alias(profiles, 'high_profile');
const memberUser = alias(users, 'member_user');
/** The pair's two profiles and the real member of it: the joins every read of a conversation here shares. */
const lowOfPair = eq(low.id, conversations.lowProfileId);
const highOfPair = eq(high.id, conversations.highProfileId);
const memberOfPair = sql`${memberUser.id} = case when ${low.fictional} then ${high.userId} else ${low.userId} end`;

/** Conversations between a real member and a fictional profile; member-to-member chats never match. */
function fictionalConversations(db: Executor) {
  return db
    .select({
      conversation: conversations,
      low,
      high,
      member: memberUser,
      waitingSince: conversations.waitingSince,
      claimStaffId: conversationClaims.staffId,
      claimStaffName: staff.name,
      claimExpiresAt: conversationClaims.expiresAt,
    })
    .from(conversations)
    .innerJoin(low, lowOfPair)
    .innerJoin(high, highOfPair)
    .innerJoin(memberUser, memberOfPair)
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

/** Who may see which conversations: the request's filters and the staff member's assignment (empty: all). */
export type QueueScope = {
  siteId?: number | undefined;
  language?: string | undefined;
  sites: readonly number[];
  languages: readonly string[];
};

function scopeConditions(scope: QueueScope): (SQL | undefined)[] {
  return [
    scope.siteId !== undefined ? eq(memberUser.siteId, scope.siteId) : undefined,
    scope.language !== undefined ? eq(memberUser.language, scope.language) : undefined,
    scope.sites.length > 0 ? inArray(memberUser.siteId, [...scope.sites]) : undefined,
    scope.languages.length > 0 ? inArray(memberUser.language, [...scope.languages]) : undefined,
  ];
}

/** Whether a conversation's member lies within a staff member's assignment (empty lists: everything). */
export function inAssignment(
  member: { siteId: number; language: string },
  assignment: { sites: readonly number[]; languages: readonly string[] },
): boolean {
  return (
    (assignment.sites.length === 0 || assignment.sites.includes(member.siteId)) &&
    (assignment.languages.length === 0 || assignment.languages.includes(member.language))
  );
}

/** The value order's keys (contract/admin.ts queueKey): tier, minute waited since, minus the 30-day spend, id. */
export type ValueCursor = { kind: 'value'; tier: number; minute: number; negSpent: number; id: number };
/** The oldest-first order's keys: the exact waiting moment (microseconds since the epoch, as text) and id. */
export type OldestCursor = { kind: 'oldest'; micros: string; id: number };
export type QueueCursor = ValueCursor | OldestCursor;

const spentDays = 30;

/**
 * A moment of a queue read: a date, or the `now` placeholder of a prepared statement (whose 30-day
 * spend then starts at the `spendSince` placeholder).
 */
type At = Date | ReturnType<typeof sql.placeholder<'now'>>;

/** A member's spend over the last 30 days (orders_user_idx), as a lateral join of the queue's reads. */
function thirtyDaySpend(db: Executor, now: At) {
  return db
    .select({ cents: sql<number>`coalesce(sum(${orders.amountCents}), 0)::int`.as('cents') })
    .from(orders)
    .where(
      and(
        eq(orders.userId, memberUser.id),
        eq(orders.status, 'completed'),
        gte(
          orders.createdAt,
          now instanceof Date
            ? new Date(now.getTime() - spentDays * 86_400_000)
            : sql.placeholder('spendSince'),
        ),
      ),
    )
    .as('spend');
}

const tierKey = sql<number>`(case when ${memberUser.paidUser} and ${memberUser.credits} > 0 then 0 else 1 end)`;
const minuteKey = sql<number>`floor(extract(epoch from ${conversations.waitingSince}) / 60)::bigint`;

/**
 * The queue's order keys alone: the waiting conversations (partial index on waiting_since), their
 * waiting member, the spend and the claim — no last message, no wide rows. Sorting a thousand
 * waiting rows whole (every column of both profiles, the member and the last message) took half of
 * the inbox's statement at 1,000 waiting; the page is picked from these keys and read whole after.
 */
function queueKeys(db: Executor, now: At) {
  const spend = thirtyDaySpend(db, now);
  const query = db
    .select({ id: conversations.id, siteId: memberUser.siteId })
    .from(conversations)
    // The waiting member straight from the conversation: going through both profiles of each pair
    // was half of the keys' statement at 1,000 waiting.
    .innerJoin(memberUser, eq(memberUser.id, conversations.waitingUserId))
    .innerJoinLateral(spend, sql`true`)
    .leftJoin(conversationClaims, eq(conversationClaims.conversationId, conversations.id))
    .$dynamic();
  return { query, tier: tierKey, minute: minuteKey, spend };
}

/**
 * The queue's rows in one statement, whatever its length: the waiting conversations come from the
 * partial index on conversations.waiting_since (kept by the message write), each with its member,
 * both profiles, the last message, the claim and the member's spend over 30 days (orders_user_idx).
 */
function queueRows(db: Executor, now: At) {
  const lastMessage = db
    .select()
    .from(messages)
    .where(eq(messages.conversationId, conversations.id))
    .orderBy(desc(messages.id))
    .limit(1)
    .as('last_message');
  const spend = thirtyDaySpend(db, now);
  const micros = sql<string>`(extract(epoch from ${conversations.waitingSince}) * 1000000)::bigint`;
  const query = db
    .select({
      conversation: conversations,
      low,
      high,
      // What the queue shows of the member: mapping every column of the users row for each of a
      // page's rows was a good part of the inbox's time at 50 rows.
      member: {
        id: memberUser.id,
        siteId: memberUser.siteId,
        language: memberUser.language,
        credits: memberUser.credits,
        paidUser: memberUser.paidUser,
        status: memberUser.status,
      },
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
      spentCents30d: spend.cents,
      tier: sql<number>`${tierKey}::int`,
      minute: sql<string>`${minuteKey}::text`,
      micros: sql<string>`${micros}::text`,
      claimStaffId: conversationClaims.staffId,
      claimStaffName: staff.name,
      claimExpiresAt: conversationClaims.expiresAt,
    })
    .from(conversations)
    .innerJoin(low, lowOfPair)
    .innerJoin(high, highOfPair)
    .innerJoin(memberUser, memberOfPair)
    .innerJoinLateral(lastMessage, sql`true`)
    .innerJoinLateral(spend, sql`true`)
    .leftJoin(conversationClaims, eq(conversationClaims.conversationId, conversations.id))
    .leftJoin(staff, eq(staff.id, conversationClaims.staffId))
    .$dynamic();
  return { query, tier: tierKey, minute: minuteKey, spend };
}

const waitingConditions = (scope: QueueScope) => [
  isNotNull(conversations.waitingSince),
  ne(low.fictional, high.fictional),
  inArray(memberUser.status, ['active', 'not_confirmed']),
  ...scopeConditions(scope),
];

/** The same for the keys (queueKeys): a waiting member is only ever set on a member's wait for a fictional profile. */
const waitingKeyConditions = (scope: QueueScope) => [
  isNotNull(conversations.waitingSince),
  inArray(memberUser.status, ['active', 'not_confirmed']),
  ...scopeConditions(scope),
];

/** Nobody holds the conversation: no claim, or a lapsed one. */
const unclaimedAt = (now: At) =>
  or(sql`${conversationClaims.conversationId} is null`, lte(conversationClaims.expiresAt, now));

/** The value order (contract/admin.ts compareQueue): the inbox's default and claim-next's pick. */
const valueOrder = (keys: {
  tier: SQL<number>;
  minute: SQL<number>;
  spend: ReturnType<typeof thirtyDaySpend>;
}) => [asc(keys.tier), asc(keys.minute), desc(keys.spend.cents), asc(conversations.id)];

/**
 * The scope as placeholders, one statement for every scope: a filter or an assignment list that is
 * null or empty lets everything through.
 */
const scopePlaceholders = () => [
  sql`(${sql.placeholder('siteId')}::int is null or ${memberUser.siteId} = ${sql.placeholder('siteId')}::int)`,
  sql`(${sql.placeholder('language')}::text is null or ${memberUser.language} = ${sql.placeholder('language')}::text)`,
  sql`(cardinality(${sql.placeholder('sites')}::int[]) = 0 or ${memberUser.siteId} = any(${sql.placeholder('sites')}::int[]))`,
  sql`(cardinality(${sql.placeholder('languages')}::text[]) = 0 or ${memberUser.language} = any(${sql.placeholder('languages')}::text[]))`,
];
const placeholderValues = (scope: QueueScope, now: Date) => ({
  siteId: scope.siteId ?? null,
  language: scope.language ?? null,
  sites: [...scope.sites],
  languages: [...scope.languages],
  now,
  spendSince: new Date(now.getTime() - spentDays * 86_400_000),
});

type QueueOrder = 'value' | 'oldest';
const orderOf = (order: QueueOrder, keys: Parameters<typeof valueOrder>[0]) =>
  order === 'value' ? valueOrder(keys) : [asc(conversations.waitingSince), asc(conversations.id)];

/** A value cursor's keys as SQL values (a cursor page) — the first page has none. */
type ValueAfter = { tier: SQL; minute: SQL; negSpent: SQL; id: SQL };

/**
 * The page's ids from the order keys alone, then those rows whole in the same order: sorting a
 * thousand waiting rows whole (every column of both profiles, the member and the last message) was
 * half of the statement at 1,000 waiting.
 *
 * In the value order the 30-day spend only breaks ties within a minute, so it is summed for the rows
 * that can reach the page: those up to the minute of the page's last row by tier and minute (`cut`),
 * and after a cursor the rows of the cursor's own minute. Summing it for every waiting row was about
 * a third of the keys' time at 1,000 waiting (bench/operators.ts, 2026-12-04).
 */
function pageStatement(
  db: Executor,
  order: QueueOrder,
  now: At,
  where: (SQL | undefined)[],
  limit: number | SQL,
  after?: ValueAfter,
) {
  const pageLimit = typeof limit === 'number' ? sql`${limit}::int` : sql`${sql.placeholder('limit')}::int`;
  const whole = queueRows(db, now);
  const pageOf = (ids: SQL) =>
    // `= any(array(…))`: the page first (an init plan), then its rows by primary key. With `in (…)`
    // PostgreSQL read all thousand rows whole and hashed the page against them.
    whole.query.where(sql`${conversations.id} = any(array(${ids}))`).orderBy(...orderOf(order, whole));
  // Oldest first needs no spend at all: the waiting moment and the id order it.
  if (order === 'oldest') {
    const ids = db
      .select({ id: conversations.id })
      .from(conversations)
      .innerJoin(memberUser, eq(memberUser.id, conversations.waitingUserId))
      .leftJoin(conversationClaims, eq(conversationClaims.conversationId, conversations.id))
      .where(and(...where, unclaimedAt(now)))
      .orderBy(asc(conversations.waitingSince), asc(conversations.id))
      .limit(typeof limit === 'number' ? limit : sql.placeholder('limit'));
    return pageOf(sql`${ids}`);
  }
  const waiting = db
    .select({
      id: sql<number>`${conversations.id}`.as('id'),
      tier: sql<number>`${tierKey}`.as('tier'),
      minute: sql<number>`${minuteKey}`.as('minute'),
      userId: sql<number>`${memberUser.id}`.as('user_id'),
      atCursor: (after
        ? sql<boolean>`(${tierKey}, ${minuteKey}) = (${after.tier}, ${after.minute})`
        : sql<boolean>`false`
      ).as('at_cursor'),
    })
    .from(conversations)
    .innerJoin(memberUser, eq(memberUser.id, conversations.waitingUserId))
    .leftJoin(conversationClaims, eq(conversationClaims.conversationId, conversations.id));
  const keys = waiting.where(
    and(
      ...where,
      unclaimedAt(now),
      after ? sql`(${tierKey}, ${minuteKey}) >= (${after.tier}, ${after.minute})` : undefined,
    ),
  );
  const since =
    now instanceof Date ? new Date(now.getTime() - spentDays * 86_400_000) : sql.placeholder('spendSince');
  const ids = sql`with k as (${keys}),
      cut as (select tier, minute from k where not at_cursor order by tier, minute limit 1 offset (${pageLimit} - 1))
    select k.id from k
    cross join lateral (
      select coalesce(sum(${orders.amountCents}), 0) as cents from ${orders}
      where ${orders.userId} = k.user_id and ${orders.status} = 'completed' and ${orders.createdAt} >= ${since}
    ) s
    where (k.at_cursor or not exists (select from cut) or (k.tier, k.minute) <= (select tier, minute from cut))
      ${after ? sql`and (not k.at_cursor or (-s.cents, k.id) > (${after.negSpent}, ${after.id}))` : sql``}
    order by k.tier, k.minute, s.cents desc, k.id
    limit ${pageLimit}`;
  return pageOf(ids);
}

/**
 * The inbox's first page and the held conversations, as named prepared statements: planning these
 * joins took 4–7 ms of every inbox call (PostgreSQL 15, 2026-12-03), a kept plan ~0.01 ms. Behind a
 * transaction pooler the names are dropped (decision 048) and each call is planned again.
 */
function prepareQueueReads(db: Executor) {
  const now = sql.placeholder('now');
  const waitingKeys = [
    isNotNull(conversations.waitingSince),
    inArray(memberUser.status, ['active', 'not_confirmed']),
    ...scopePlaceholders(),
  ];
  const scoped = [...waitingKeys, ne(low.fictional, high.fictional)];
  const limit = sql`${sql.placeholder('limit')}`;
  const held = queueRows(db, now);
  return {
    value: pageStatement(db, 'value', now, waitingKeys, limit).prepare('operator_queue_value'),
    oldest: pageStatement(db, 'oldest', now, waitingKeys, limit).prepare('operator_queue_oldest'),
    claimed: held.query
      .where(and(...scoped, sql`${conversationClaims.expiresAt} > ${now}`))
      .orderBy(asc(conversations.waitingSince), asc(conversations.id))
      .limit(1000)
      .prepare('operator_queue_claimed'),
  };
}
const queueReads = new WeakMap<Executor, ReturnType<typeof prepareQueueReads>>();
function queueReadsOf(db: Executor) {
  let reads = queueReads.get(db);
  if (!reads) {
    reads = prepareQueueReads(db);
    queueReads.set(db, reads);
  }
  return reads;
}

/**
 * A page of the waiting conversations nobody holds (no claim, or a lapsed one), in the asked order,
 * after the cursor (keyset: every waiting conversation is reachable, however long the queue).
 */
export async function waitingPage(
  db: Executor,
  scope: QueueScope,
  options: { order: QueueOrder; after?: QueueCursor | undefined; limit: number; now: Date },
) {
  const after = options.after;
  if (after === undefined) {
    const rows = await queueReadsOf(db)[options.order].execute({
      ...placeholderValues(scope, options.now),
      limit: options.limit,
    });
    return rows.map(split);
  }
  const rows =
    after.kind === 'value'
      ? await pageStatement(db, options.order, options.now, waitingKeyConditions(scope), options.limit, {
          tier: sql`${after.tier}::int`,
          minute: sql`${after.minute}::bigint`,
          negSpent: sql`${after.negSpent}::bigint`,
          id: sql`${after.id}::int`,
        })
      : await pageStatement(
          db,
          options.order,
          options.now,
          [
            ...waitingKeyConditions(scope),
            sql`(${conversations.waitingSince}, ${conversations.id}) > (to_timestamp(0) + ${after.micros}::bigint * interval '1 microsecond', ${after.id}::int)`,
          ],
          options.limit,
        );
  return rows.map(split);
}

/** The waiting conversations an operator holds right now (a handful per operator), oldest first. */
export async function claimedRows(db: Executor, scope: QueueScope, now: Date) {
  const rows = await queueReadsOf(db).claimed.execute(placeholderValues(scope, now));
  return rows.map(split);
}

/** One waiting conversation as a queue row (a live event's payload), or undefined when it no longer waits. */
export async function queueRow(db: Executor, conversationId: number, now: Date) {
  const { query } = queueRows(db, now);
  const [row] = await query
    .where(and(eq(conversations.id, conversationId), ...waitingConditions({ sites: [], languages: [] })))
    .limit(1);
  return row ? split(row) : undefined;
}
export type QueueRow = Awaited<ReturnType<typeof queueRow>> & {};

/** Who sent the message before this one in its conversation (undefined: it was the first). */
export async function senderBefore(db: Executor, conversationId: number, messageId: number) {
  const [row] = await db
    .select({ senderProfileId: messages.senderProfileId })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), lt(messages.id, messageId)))
    .orderBy(desc(messages.id))
    .limit(1);
  return row?.senderProfileId;
}

/**
 * The best waiting conversation nobody holds, locked for this transaction; rows other claim-next
 * calls hold locked are skipped (FOR UPDATE SKIP LOCKED), so parallel calls each get another one.
 */
export async function lockBestWaiting(
  db: Executor,
  scope: QueueScope,
  now: Date,
): Promise<{ id: number; siteId: number } | undefined> {
  const keys = queueKeys(db, now);
  const [row] = await keys.query
    .where(and(...waitingKeyConditions(scope), unclaimedAt(now)))
    .orderBy(...valueOrder(keys))
    .limit(1)
    .for('update', { of: conversations, skipLocked: true });
  return row;
}

/** Locks the staff member's row for this transaction: their claim-next calls pass here one at a time. */
export async function lockStaff(db: Executor, staffId: number): Promise<void> {
  await db.select({ id: staff.id }).from(staff).where(eq(staff.id, staffId)).for('update');
}

/** How many conversations the staff member holds right now. */
export async function liveClaimCount(db: Executor, staffId: number, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(conversationClaims)
    .where(and(eq(conversationClaims.staffId, staffId), gt(conversationClaims.expiresAt, now)));
  return row?.n ?? 0;
}

/** The waiting conversations, site by site (the console's sidebar), in one statement. */
export async function waitingPerSite(db: Executor): Promise<{ siteId: number; count: number }[]> {
  return db
    .select({ siteId: memberUser.siteId, count: count() })
    .from(conversations)
    .innerJoin(memberUser, eq(memberUser.id, conversations.waitingUserId))
    .where(and(...waitingKeyConditions({ sites: [], languages: [] })))
    .groupBy(memberUser.siteId)
    .orderBy(asc(memberUser.siteId));
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
// ---- the member dossier

/** What the member spent over all time (completed orders) and when they last bought. */
export async function spendOf(db: Executor, userId: number) {
  const [row] = await db
    .select({
      cents: sql<number>`coalesce(sum(${orders.amountCents}), 0)::int`,
      last: sql<Date | null>`max(${orders.createdAt})`.mapWith((value: string | Date | null) =>
        value === null ? null : new Date(value),
      ),
    })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.status, 'completed')));
  return { cents: row?.cents ?? 0, lastAt: row?.last ?? null };
}

/**
 * The member's conversations with fictional profiles but one, newest first, each with the staff
 * member who sent its last reply (the audit trail's latest `reply` entry on it, by its own index).
 */
export async function otherFictionalConversations(
  db: Executor,
  memberProfileId: number,
  exceptId: number,
  limit: number,
) {
  const other = alias(profiles, 'other_profile');
  const answeredBy = sql<string | null>`(
    select ${staffAudit.staffId}::text || ':' || ${staff.name} from ${staffAudit}
    join ${staff} on ${staff.id} = ${staffAudit.staffId}
    where ${staffAudit.action} = 'reply' and ${staffAudit.object} = 'conversation:' || ${conversations.id}
    order by ${staffAudit.at} desc limit 1)`;
  return db
    .select({
      id: conversations.id,
      profileId: other.id,
      profileName: other.name,
      lastMessageAt: conversations.lastMessageAt,
      answeredBy,
    })
    .from(conversations)
    .innerJoin(
      other,
      or(
        and(eq(conversations.lowProfileId, memberProfileId), eq(other.id, conversations.highProfileId)),
        and(eq(conversations.highProfileId, memberProfileId), eq(other.id, conversations.lowProfileId)),
      ),
    )
    .where(and(eq(other.fictional, true), ne(conversations.id, exceptId)))
    .orderBy(sql`${conversations.lastMessageAt} desc nulls last`, desc(conversations.id))
    .limit(limit);
}

/** Reports members made about this profile, newest first. */
export async function reportsAbout(db: Executor, profileId: number, limit: number) {
  return db
    .select({ id: reports.id, reason: reports.reason, at: reports.createdAt })
    .from(reports)
    .where(eq(reports.profileId, profileId))
    .orderBy(desc(reports.createdAt), desc(reports.id))
    .limit(limit);
}

// ---- templates

export type TemplateScope = {
  /** The caller's sites (empty: all); a template for every site (null) is always theirs. */
  sites: readonly number[];
  languages: readonly string[];
  site?: number | undefined;
  language?: string | undefined;
};

export async function listTemplates(db: Executor, scope: TemplateScope) {
  return db
    .select()
    .from(replyTemplates)
    .where(
      and(
        scope.site !== undefined
          ? or(isNull(replyTemplates.siteId), eq(replyTemplates.siteId, scope.site))
          : undefined,
        scope.sites.length > 0
          ? or(isNull(replyTemplates.siteId), inArray(replyTemplates.siteId, [...scope.sites]))
          : undefined,
        scope.language !== undefined ? eq(replyTemplates.language, scope.language) : undefined,
        scope.languages.length > 0 ? inArray(replyTemplates.language, [...scope.languages]) : undefined,
      ),
    )
    .orderBy(asc(replyTemplates.title), asc(replyTemplates.id));
}

export async function insertTemplate(db: Executor, values: typeof replyTemplates.$inferInsert) {
  const [row] = await db.insert(replyTemplates).values(values).returning();
  return row!;
}

export async function updateTemplate(
  db: Executor,
  id: number,
  values: Partial<typeof replyTemplates.$inferInsert>,
) {
  const [row] = await db.update(replyTemplates).set(values).where(eq(replyTemplates.id, id)).returning();
  return row;
}

export async function deleteTemplate(db: Executor, id: number): Promise<boolean> {
  const rows = await db
    .delete(replyTemplates)
    .where(eq(replyTemplates.id, id))
    .returning({ id: replyTemplates.id });
  return rows.length > 0;
}

// ---- persona sheets

/** A fictional profile and its site (members are no persona). */
export async function findFictionalProfile(db: Executor, profileId: number) {
  const [row] = await db
    .select({ id: profiles.id, siteId: users.siteId })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(and(eq(profiles.id, profileId), eq(profiles.fictional, true)))
    .limit(1);
  return row;
}

export async function findPersona(db: Executor, profileId: number) {
  const [row] = await db
    .select({ sheet: personaSheets, by: staff.name })
    .from(personaSheets)
    .leftJoin(staff, eq(staff.id, personaSheets.updatedBy))
    .where(eq(personaSheets.profileId, profileId))
    .limit(1);
  return row;
}

/** Writes the sheet whole (one row per profile, so parallel writes end in one of them, never two). */
export async function upsertPersona(db: Executor, values: typeof personaSheets.$inferInsert) {
  const [row] = await db
    .insert(personaSheets)
    .values(values)
    .onConflictDoUpdate({
      target: personaSheets.profileId,
      set: { facts: values.facts, updatedBy: values.updatedBy, updatedAt: values.updatedAt },
    })
    .returning();
  return row!;
}
