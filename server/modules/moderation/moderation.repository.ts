import {
  aliasedTable,
  and,
  asc,
  count,
  desc,
  eq,
  ilike,
  inArray,
  isNull,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import { sessions } from '#server/db/schema/accounts.ts';
import { conversations, messages } from '#server/db/schema/chats.ts';
import { creditLedger } from '#server/db/schema/credits.ts';
import { profiles, type userStatuses, users } from '#server/db/schema/members.ts';
import { orders } from '#server/db/schema/payments.ts';
import { photos } from '#server/db/schema/photos.ts';
import { sites } from '#server/db/schema/sites.ts';
import { reports } from '#server/db/schema/social.ts';
import { staff } from '#server/db/schema/staff.ts';
import { memberStrikes, strikeAppeals } from '#server/db/schema/strikes.ts';

type MemberStatus = (typeof userStatuses)[number];

export type MemberFilter = {
  q?: string | undefined;
  site?: number | undefined;
  status?: MemberStatus | undefined;
  limit: number;
  offset: number;
};

const memberColumns = {
  user: users,
  profile: profiles,
  siteName: sites.name,
};

/** Real members only (never fictional profiles; staff live in a table of their own). */
function memberWhere(filter: Omit<MemberFilter, 'limit' | 'offset'>): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(profiles.fictional, false)];
  if (filter.site) conditions.push(eq(users.siteId, filter.site));
  if (filter.status) conditions.push(eq(users.status, filter.status));
  const q = filter.q?.trim();
  if (q) {
    const pattern = `%${q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    const byText = or(ilike(users.email, pattern), ilike(profiles.name, pattern));
    conditions.push(
      /^\d{1,9}$/.test(q) ? or(eq(profiles.id, Number(q)), eq(users.id, Number(q)), byText) : byText,
    );
  }
  return and(...conditions);
}

export async function searchMembers(db: Executor, filter: MemberFilter) {
  const where = memberWhere(filter);
  const rows = await db
    .select(memberColumns)
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .innerJoin(sites, eq(sites.id, users.siteId))
    .where(where)
    .orderBy(desc(users.signupDate), desc(users.id))
    .limit(filter.limit)
    .offset(filter.offset);
  const [total] = await db
    .select({ value: count() })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(where);
  return { rows, total: total?.value ?? 0 };
}

export type MemberRecord = Awaited<ReturnType<typeof searchMembers>>['rows'][number];

/** A real member by profile id. */
export async function findMember(db: Executor, profileId: number): Promise<MemberRecord | undefined> {
  const [row] = await db
    .select(memberColumns)
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .innerJoin(sites, eq(sites.id, users.siteId))
    .where(and(eq(profiles.id, profileId), eq(profiles.fictional, false)))
    .limit(1);
  return row;
}

/** Reports about each of these profiles, all time: repeat offenders at a glance. */
export async function reportCounts(db: Executor, profileIds: number[]): Promise<Map<number, number>> {
  if (profileIds.length === 0) return new Map();
  const rows = await db
    .select({ profileId: reports.profileId, value: count() })
    .from(reports)
    .where(inArray(reports.profileId, profileIds))
    .groupBy(reports.profileId);
  return new Map(rows.map((row) => [row.profileId ?? 0, row.value]));
}

export async function photosOf(db: Executor, profileId: number) {
  return db.select().from(photos).where(eq(photos.profileId, profileId)).orderBy(asc(photos.position));
}

export async function photosOfProfiles(db: Executor, profileIds: number[]) {
  if (profileIds.length === 0) return [];
  return db
    .select()
    .from(photos)
    .where(inArray(photos.profileId, profileIds))
    .orderBy(asc(photos.profileId), asc(photos.position));
}

export async function sessionsOf(db: Executor, userId: number, now: Date) {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), sql`${sessions.expiresAt} > ${now}`))
    .orderBy(desc(sessions.lastSeenAt));
}

export async function ordersOf(db: Executor, userId: number) {
  return db
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id));
}

export async function ledgerWithStaff(db: Executor, userId: number, limit = 500) {
  return db
    .select({ entry: creditLedger, staffName: staff.name })
    .from(creditLedger)
    .leftJoin(staff, eq(staff.id, creditLedger.staffId))
    .where(eq(creditLedger.userId, userId))
    .orderBy(desc(creditLedger.createdAt), desc(creditLedger.id))
    .limit(limit);
}

// ---- reports

const reporterProfile = aliasedTable(profiles, 'reporter_profile');
const reportedUser = aliasedTable(users, 'reported_user');

export async function listReports(
  db: Executor,
  filter: {
    status?: 'open' | 'handled' | undefined;
    about?: number | undefined;
    byUser?: number | undefined;
    id?: number | undefined;
    /** false: only reports about members (the moderation queue); reports about fictional profiles go to the lead's board. */
    fictional?: boolean | undefined;
    limit: number;
  },
) {
  return (
    db
      .select({
        report: reports,
        reporterProfileId: reporterProfile.id,
        reporterName: reporterProfile.name,
        reported: profiles,
        reportedStatus: reportedUser.status,
        reportedSiteId: reportedUser.siteId,
        message: messages,
        staffName: staff.name,
      })
      .from(reports)
      .leftJoin(reporterProfile, eq(reporterProfile.userId, reports.reporterUserId))
      .leftJoin(profiles, eq(profiles.id, reports.profileId))
      .leftJoin(reportedUser, eq(reportedUser.id, profiles.userId))
      .leftJoin(messages, eq(messages.id, reports.messageId))
      .leftJoin(staff, eq(staff.id, reports.handledByStaffId))
      .where(
        and(
          filter.status ? eq(reports.status, filter.status) : undefined,
          filter.about ? eq(reports.profileId, filter.about) : undefined,
          filter.byUser ? eq(reports.reporterUserId, filter.byUser) : undefined,
          filter.id ? eq(reports.id, filter.id) : undefined,
          filter.fictional !== undefined
            ? sql`coalesce(${profiles.fictional}, false) = ${filter.fictional}`
            : undefined,
        ),
      )
      // Open first, oldest open first; handled ones newest first.
      .orderBy(
        sql`case when ${reports.status} = 'open' then 0 else 1 end`,
        sql`case when ${reports.status} = 'open' then ${reports.createdAt} end asc`,
        desc(reports.createdAt),
        desc(reports.id),
      )
      .limit(filter.limit)
  );
}

export type ReportRecord = Awaited<ReturnType<typeof listReports>>[number];

/** Takes the report's lock for the rest of the transaction: one moderator handles it once. */
export async function lockReport(tx: Executor, id: number) {
  const [row] = await tx.select().from(reports).where(eq(reports.id, id)).for('update').limit(1);
  return row;
}

export async function markReportHandled(
  tx: Executor,
  id: number,
  values: { action: (typeof reports.$inferInsert)['action']; staffId: number; at: Date },
): Promise<void> {
  await tx
    .update(reports)
    .set({ status: 'handled', action: values.action, handledByStaffId: values.staffId, handledAt: values.at })
    .where(eq(reports.id, id));
}

// ---- photos

export async function findPhotoWithOwner(db: Executor, photoId: number) {
  const [row] = await db
    .select({ photo: photos, profile: profiles, user: users })
    .from(photos)
    .innerJoin(profiles, eq(profiles.id, photos.profileId))
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(eq(photos.id, photoId))
    .limit(1);
  return row;
}

/**
 * New photos of real members waiting for a moderator: those held for an apparent minor first, then the
 * other held ones, then those the screening let through (or has not finished); oldest first in each.
 */
export async function pendingPhotos(db: Executor, limit: number) {
  return db
    .select({ photo: photos, profile: profiles, siteId: users.siteId, siteName: sites.name })
    .from(photos)
    .innerJoin(profiles, eq(profiles.id, photos.profileId))
    .innerJoin(users, eq(users.id, profiles.userId))
    .innerJoin(sites, eq(sites.id, users.siteId))
    .where(and(eq(photos.moderation, 'pending'), eq(profiles.fictional, false)))
    .orderBy(
      sql`case when ${photos.holdReason} = 'apparent_minor' then 0 when ${photos.status} = 'held' then 1 else 2 end`,
      asc(photos.createdAt),
      asc(photos.id),
    )
    .limit(limit);
}

/** A moderator's approval: the photo is shown to others from now on, whatever the screening said. */
export async function approvePhoto(db: Executor, photoId: number): Promise<boolean> {
  const rows = await db
    .update(photos)
    .set({ moderation: 'approved', status: 'approved' })
    .where(and(eq(photos.id, photoId), eq(photos.moderation, 'pending')))
    .returning({ id: photos.id });
  return rows.length === 1;
}

// ---- export

/** Every message in the member's conversations, oldest first. */
export async function messagesOfProfile(db: Executor, profileId: number) {
  return db
    .select({ message: messages })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(or(eq(conversations.lowProfileId, profileId), eq(conversations.highProfileId, profileId)))
    .orderBy(asc(messages.createdAt), asc(messages.id));
}

export async function profileOfUser(db: Executor, userId: number) {
  const [row] = await db.select().from(profiles).where(eq(profiles.userId, userId)).limit(1);
  return row;
}

export async function setProfileStatusOfUser(
  tx: Executor,
  userId: number,
  status: 'active' | 'disabled',
): Promise<void> {
  await tx.update(profiles).set({ status }).where(eq(profiles.userId, userId));
}

export async function setUserStatus(tx: Executor, userId: number, status: MemberStatus): Promise<void> {
  await tx.update(users).set({ status }).where(eq(users.id, userId));
}

// ---- strikes and appeals (decision 054)

/** Strikes that still count (no appeal lifted them). Call under the member's row lock. */
export async function standingStrikes(tx: Executor, userId: number): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(memberStrikes)
    .where(and(eq(memberStrikes.userId, userId), isNull(memberStrikes.liftedAt)));
  return row?.n ?? 0;
}

export async function insertStrike(tx: Executor, values: typeof memberStrikes.$inferInsert) {
  const [row] = await tx.insert(memberStrikes).values(values).returning();
  return row!;
}

export async function setPostingSuspendedUntil(tx: Executor, userId: number, until: Date | null) {
  await tx.update(users).set({ postingSuspendedUntil: until }).where(eq(users.id, userId));
}

/** A member's strikes, newest first, each with its appeal (if any). */
export async function strikesOf(db: Executor, userId: number) {
  return db
    .select({ strike: memberStrikes, appeal: strikeAppeals })
    .from(memberStrikes)
    .leftJoin(strikeAppeals, eq(strikeAppeals.strikeId, memberStrikes.id))
    .where(eq(memberStrikes.userId, userId))
    .orderBy(desc(memberStrikes.createdAt), desc(memberStrikes.id))
    .limit(200);
}

export async function findStrikeOfUser(db: Executor, strikeId: number, userId: number) {
  const [row] = await db
    .select()
    .from(memberStrikes)
    .where(and(eq(memberStrikes.id, strikeId), eq(memberStrikes.userId, userId)))
    .limit(1);
  return row;
}

/** The appeal, or undefined when the strike has one already: the unique constraint decides. */
export async function insertAppeal(tx: Executor, values: typeof strikeAppeals.$inferInsert) {
  const [row] = await tx
    .insert(strikeAppeals)
    .values(values)
    .onConflictDoNothing({ target: strikeAppeals.strikeId })
    .returning();
  return row;
}

const decider = aliasedTable(staff, 'decider');

export async function listAppeals(
  db: Executor,
  filter: { status?: 'open' | 'decided'; id?: number; limit: number },
) {
  const conditions: SQL[] = [];
  if (filter.status === 'open') conditions.push(eq(strikeAppeals.status, 'open'));
  if (filter.status === 'decided') conditions.push(sql`${strikeAppeals.status} <> 'open'`);
  if (filter.id !== undefined) conditions.push(eq(strikeAppeals.id, filter.id));
  return db
    .select({
      appeal: strikeAppeals,
      strike: memberStrikes,
      profileId: profiles.id,
      name: profiles.name,
      siteName: sites.name,
      deciderName: decider.name,
    })
    .from(strikeAppeals)
    .innerJoin(memberStrikes, eq(memberStrikes.id, strikeAppeals.strikeId))
    .innerJoin(users, eq(users.id, strikeAppeals.userId))
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .innerJoin(sites, eq(sites.id, users.siteId))
    .leftJoin(decider, eq(decider.id, strikeAppeals.decidedByStaffId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(
      sql`case when ${strikeAppeals.status} = 'open' then 0 else 1 end`,
      asc(strikeAppeals.createdAt),
      asc(strikeAppeals.id),
    )
    .limit(filter.limit);
}

export type AppealRecord = Awaited<ReturnType<typeof listAppeals>>[number];

/** Decides an open appeal; undefined when it was decided already (the WHERE is the once). */
export async function decideAppeal(
  tx: Executor,
  id: number,
  values: { status: 'granted' | 'refused'; staffId: number; at: Date },
) {
  const [row] = await tx
    .update(strikeAppeals)
    .set({ status: values.status, decidedByStaffId: values.staffId, decidedAt: values.at })
    .where(and(eq(strikeAppeals.id, id), eq(strikeAppeals.status, 'open')))
    .returning();
  return row;
}

export async function liftStrike(tx: Executor, strikeId: number, at: Date) {
  const [row] = await tx
    .update(memberStrikes)
    .set({ liftedAt: at })
    .where(and(eq(memberStrikes.id, strikeId), isNull(memberStrikes.liftedAt)))
    .returning();
  return row;
}

/** The latest end of a suspension among the member's standing strikes (after one was lifted). */
export async function latestStandingSuspension(tx: Executor, userId: number): Promise<Date | null> {
  const [row] = await tx
    .select({ until: memberStrikes.suspendedUntil })
    .from(memberStrikes)
    .where(
      and(
        eq(memberStrikes.userId, userId),
        isNull(memberStrikes.liftedAt),
        eq(memberStrikes.consequence, 'suspension'),
      ),
    )
    .orderBy(desc(memberStrikes.suspendedUntil))
    .limit(1);
  return row?.until ?? null;
}
