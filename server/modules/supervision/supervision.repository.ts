import { and, asc, type Column, count, desc, eq, inArray, isNotNull, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '#server/db/client.ts';
import { conversations, messages } from '#server/db/schema/chats.ts';
import { profiles, users } from '#server/db/schema/members.ts';
import { sites } from '#server/db/schema/sites.ts';
import { reports } from '#server/db/schema/social.ts';
import { staff } from '#server/db/schema/staff.ts';

const low = alias(profiles, 'low_profile');
const high = alias(profiles, 'high_profile');
const memberUser = alias(users, 'member_user');

/** The sites a staff member supervises (empty: all) and the one the board was asked for. */
export type BoardScope = { siteId?: number | undefined; sites: readonly number[] };

function siteConditions(column: Column, scope: BoardScope): (SQL | undefined)[] {
  return [
    scope.siteId !== undefined ? eq(column, scope.siteId) : undefined,
    scope.sites.length > 0 ? inArray(column, [...scope.sites]) : undefined,
  ];
}

/**
 * The waiting conversations per site and member language in one statement: how many, since when
 * the oldest, and how many wait longer than the site's reply target (the queue's own conditions:
 * operator.repository.ts waitingConditions, read from the partial index on waiting_since).
 */
export async function queueSummary(db: Executor, scope: BoardScope, now: Date) {
  const target = sql`${now}::timestamptz - make_interval(mins => ${sites.replyTargetMinutes})`;
  return db
    .select({
      siteId: memberUser.siteId,
      siteName: sites.name,
      targetMinutes: sites.replyTargetMinutes,
      language: memberUser.language,
      waiting: count(),
      oldest: sql<Date>`min(${conversations.waitingSince})`.mapWith(
        (value: string | Date) => new Date(value),
      ),
      breaches: sql<number>`(count(*) filter (where ${conversations.waitingSince} < ${target}))::int`,
    })
    .from(conversations)
    .innerJoin(low, eq(low.id, conversations.lowProfileId))
    .innerJoin(high, eq(high.id, conversations.highProfileId))
    .innerJoin(
      memberUser,
      sql`${memberUser.id} = case when ${low.fictional} then ${high.userId} else ${low.userId} end`,
    )
    .innerJoin(sites, eq(sites.id, memberUser.siteId))
    .where(
      and(
        isNotNull(conversations.waitingSince),
        ne(low.fictional, high.fictional),
        inArray(memberUser.status, ['active', 'not_confirmed']),
        ...siteConditions(memberUser.siteId, scope),
      ),
    )
    .groupBy(memberUser.siteId, sites.name, sites.replyTargetMinutes, memberUser.language)
    .orderBy(asc(memberUser.siteId), asc(memberUser.language));
}

/**
 * Every active staff member with what they do now, in one statement: live claims, replies and
 * conversations started in the last hour (the audit trail, by staff_audit_staff_idx), their last
 * action and whether a sign-in of theirs is still open.
 */
export async function staffActivity(db: Executor, now: Date) {
  const hourAgo = sql`${now}::timestamptz - interval '1 hour'`;
  // Named with its table: in a one-table select Drizzle writes a bare "id", which inside the
  // subqueries would bind to staff_audit's own id.
  const staffId = sql`"staff"."id"`;
  return db
    .select({
      id: staff.id,
      name: staff.name,
      role: staff.role,
      claims: sql<number>`(select count(*)::int from conversation_claims cc where cc.staff_id = ${staffId} and cc.expires_at > ${now})`,
      replies: sql<number>`(select count(*)::int from staff_audit sa where sa.staff_id = ${staffId} and sa.action = 'reply' and sa.at >= ${hourAgo})`,
      started: sql<number>`(select count(*)::int from staff_audit sa where sa.staff_id = ${staffId} and sa.action = 'outbound' and sa.at >= ${hourAgo})`,
      lastActive:
        sql<Date | null>`(select max(sa.at) from staff_audit sa where sa.staff_id = ${staffId} and sa.at >= ${hourAgo})`.mapWith(
          (value: string | Date | null) => (value === null ? null : new Date(value)),
        ),
      signedIn: sql<boolean>`exists (select 1 from staff_sessions ss where ss.staff_id = ${staffId} and ss.expires_at > ${now})`,
    })
    .from(staff)
    .where(eq(staff.active, true))
    .orderBy(asc(staff.name), asc(staff.id));
}

const reportedUser = alias(users, 'reported_user');
const reporterProfile = alias(profiles, 'reporter_profile');

/**
 * Who wrote a fictional profile's message: the staff member of the audit entry that sent it (a
 * reply, or a conversation started as the profile), found by the conversation's own entries
 * (staff_audit_replies_idx for replies). Null for a script's message.
 */
const writerOf = sql<string | null>`(select sa.staff_id::text || ':' || st.name from staff_audit sa
  join staff st on st.id = sa.staff_id
  where sa.object = 'conversation:' || ${messages.conversationId}
    and sa.action in ('reply', 'outbound')
    and sa.detail ->> 'message' = ${messages.id}::text
  order by sa.at desc limit 1)`;

/** The open reports about fictional profiles (of the supervised sites), oldest first. */
export async function fictionalReports(db: Executor, scope: BoardScope, limit: number) {
  return db
    .select({
      report: reports,
      reporterProfileId: reporterProfile.id,
      reporterName: reporterProfile.name,
      profile: { id: profiles.id, name: profiles.name },
      siteId: reportedUser.siteId,
      siteName: sites.name,
      message: {
        id: messages.id,
        text: messages.text,
        at: messages.createdAt,
        automated: messages.automated,
        conversationId: messages.conversationId,
      },
      writer: writerOf,
    })
    .from(reports)
    .innerJoin(profiles, eq(profiles.id, reports.profileId))
    .innerJoin(reportedUser, eq(reportedUser.id, profiles.userId))
    .innerJoin(sites, eq(sites.id, reportedUser.siteId))
    .leftJoin(reporterProfile, eq(reporterProfile.userId, reports.reporterUserId))
    .leftJoin(messages, eq(messages.id, reports.messageId))
    .where(
      and(
        eq(reports.status, 'open'),
        eq(profiles.fictional, true),
        ...siteConditions(reportedUser.siteId, scope),
      ),
    )
    .orderBy(asc(reports.createdAt), asc(reports.id))
    .limit(limit);
}

export type FictionalReportRow = Awaited<ReturnType<typeof fictionalReports>>[number];

/** A report about a fictional profile, locked for the rest of the transaction, with the profile's site. */
export async function lockFictionalReport(tx: Executor, id: number) {
  const [row] = await tx
    .select({ status: reports.status, siteId: reportedUser.siteId })
    .from(reports)
    .innerJoin(profiles, eq(profiles.id, reports.profileId))
    .innerJoin(reportedUser, eq(reportedUser.id, profiles.userId))
    .where(and(eq(reports.id, id), eq(profiles.fictional, true)))
    .for('update', { of: reports })
    .limit(1);
  return row;
}

export async function closeReport(
  tx: Executor,
  id: number,
  values: { action: 'dismiss' | 'resolve'; staffId: number; at: Date },
): Promise<void> {
  await tx
    .update(reports)
    .set({ status: 'handled', action: values.action, handledByStaffId: values.staffId, handledAt: values.at })
    .where(eq(reports.id, id));
}

// ---- outbound

/** A fictional profile with its site, or undefined. */
export async function findFictional(db: Executor, profileId: number) {
  const [row] = await db
    .select({ profile: profiles, siteId: users.siteId })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(and(eq(profiles.id, profileId), eq(profiles.fictional, true)))
    .limit(1);
  return row;
}

/** A real member by their profile id, with their account. */
export async function findMember(db: Executor, profileId: number) {
  const [row] = await db
    .select({ profile: profiles, user: users })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(and(eq(profiles.id, profileId), eq(profiles.fictional, false), eq(users.role, 'member')))
    .limit(1);
  return row;
}

/** Whether the member ever wrote to the profile: then it is the queue's conversation, not a new one. */
export async function memberWroteTo(db: Executor, memberProfileId: number, profileId: number) {
  const [row] = await db
    .select({ id: messages.id })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(
      and(
        eq(messages.senderProfileId, memberProfileId),
        eq(conversations.lowProfileId, Math.min(memberProfileId, profileId)),
        eq(conversations.highProfileId, Math.max(memberProfileId, profileId)),
      ),
    )
    .orderBy(desc(messages.id))
    .limit(1);
  return row !== undefined;
}

/** The active fictional profiles of a site, by name. */
export async function fictionalProfilesOf(db: Executor, siteId: number, limit: number) {
  return db
    .select({ id: profiles.id, name: profiles.name })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(and(eq(users.siteId, siteId), eq(profiles.fictional, true), eq(profiles.status, 'active')))
    .orderBy(asc(profiles.name), asc(profiles.id))
    .limit(limit);
}
