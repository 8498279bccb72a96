import { and, desc, eq, gt, gte, inArray, type Placeholder, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Executor, preparedPerConnection } from '#server/db/client.ts';
import { mainPhotoLateral } from '#server/db/fragments.ts';
import { conversations } from '#server/db/schema/chats.ts';
import { type ProfileRow, profiles, users } from '#server/db/schema/members.ts';
import type { PhotoRow } from '#server/db/schema/photos.ts';
import { blocks, likes, passes, profileVisits } from '#server/db/schema/social.ts';

export async function insertLike(
  db: Executor,
  like: { liker: number; liked: number; source: 'profile' | 'swipe' | 'auto'; at: Date },
): Promise<boolean> {
  const inserted = await db
    .insert(likes)
    .values({
      likerProfileId: like.liker,
      likedProfileId: like.liked,
      source: like.source,
      createdAt: like.at,
    })
    .onConflictDoNothing()
    .returning({ liker: likes.likerProfileId });
  return inserted.length > 0;
}

export async function deleteLike(db: Executor, liker: number, liked: number): Promise<void> {
  await db.delete(likes).where(and(eq(likes.likerProfileId, liker), eq(likes.likedProfileId, liked)));
}

export async function likeExists(db: Executor, liker: number, liked: number): Promise<boolean> {
  const [row] = await db
    .select({ liker: likes.likerProfileId })
    .from(likes)
    .where(and(eq(likes.likerProfileId, liker), eq(likes.likedProfileId, liked)))
    .limit(1);
  return row !== undefined;
}

/** No block between the member and the other profile, whoever blocked whom. */
const noBlockBetween = (member: Placeholder) =>
  sql`not exists (select 1 from ${blocks} where (${blocks.blockerProfileId} = ${member} and ${blocks.blockedProfileId} = ${profiles.id}) or (${blocks.blockerProfileId} = ${profiles.id} and ${blocks.blockedProfileId} = ${member}))`;

// Both lists are prepared per connection: the likes page and the chat list's new-matches row ask for
// them on every view, and building and planning them anew cost more than running them.
const givenLikesStatement = preparedPerConnection((db) => {
  const liker = sql.placeholder('liker');
  const main = mainPhotoLateral(db, profiles.id);
  return db
    .select({ profile: profiles, mainPhoto: main.fields })
    .from(likes)
    .innerJoin(profiles, eq(profiles.id, likes.likedProfileId))
    .leftJoinLateral(main.subquery, sql`true`)
    .where(and(eq(likes.likerProfileId, liker), eq(profiles.status, 'active'), noBlockBetween(liker)))
    .orderBy(desc(likes.createdAt))
    .prepare('likes_given');
});

/** The profiles the member liked, newest first, each with its main photo (one statement). */
export async function givenLikes(db: Executor, liker: number) {
  return givenLikesStatement(db).execute({ liker });
}

const receivedLikesStatement = preparedPerConnection((db) => {
  const liked = sql.placeholder('liked');
  const main = mainPhotoLateral(db, profiles.id);
  return db
    .select({
      profile: profiles,
      mainPhoto: main.fields,
      isNew: likes.isNew,
      // Whether the two already have a conversation (the pair index answers it): a match without
      // one is a new match.
      inConversation: sql<boolean>`exists (select 1 from ${conversations} where ${conversations.lowProfileId} = least(${liked}::int, ${profiles.id}) and ${conversations.highProfileId} = greatest(${liked}::int, ${profiles.id}))`,
    })
    .from(likes)
    .innerJoin(profiles, eq(profiles.id, likes.likerProfileId))
    .leftJoinLateral(main.subquery, sql`true`)
    .where(and(eq(likes.likedProfileId, liked), eq(profiles.status, 'active'), noBlockBetween(liked)))
    .orderBy(desc(likes.isNew), desc(likes.createdAt))
    .prepare('likes_received');
});

/** Likes received: new ones first, then the newest, each with the liker's main photo (one statement). */
export async function receivedLikes(db: Executor, liked: number) {
  return receivedLikesStatement(db).execute({ liked });
}

/** Locks the liking member's profile row: their swipe likes are counted and added one at a time. */
export async function lockLiker(db: Executor, profileId: number): Promise<void> {
  await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, profileId)).for('no key update');
}

export async function swipeLikesSince(db: Executor, liker: number, since: Date): Promise<number> {
  const [row] = await db
    .select({ value: sql<number>`count(*)::int` })
    .from(likes)
    .where(and(eq(likes.likerProfileId, liker), eq(likes.source, 'swipe'), gte(likes.createdAt, since)));
  return row?.value ?? 0;
}

export async function insertPass(db: Executor, passer: number, passed: number, at: Date): Promise<void> {
  await db
    .insert(passes)
    .values({ passerProfileId: passer, passedProfileId: passed, createdAt: at })
    .onConflictDoNothing();
}

/** The member's newest pass and newest swipe like (undo applies to a pass that came last). */
export async function lastSwipes(
  db: Executor,
  member: number,
): Promise<{ pass: { profileId: number; at: Date } | undefined; likeAt: Date | undefined }> {
  const [pass] = await db
    .select({ profileId: passes.passedProfileId, at: passes.createdAt })
    .from(passes)
    .where(eq(passes.passerProfileId, member))
    .orderBy(desc(passes.createdAt))
    .limit(1);
  const [like] = await db
    .select({ at: likes.createdAt })
    .from(likes)
    .where(and(eq(likes.likerProfileId, member), eq(likes.source, 'swipe')))
    .orderBy(desc(likes.createdAt))
    .limit(1);
  return { pass, likeAt: like?.at };
}

export async function deletePass(db: Executor, passer: number, passed: number): Promise<boolean> {
  const deleted = await db
    .delete(passes)
    .where(and(eq(passes.passerProfileId, passer), eq(passes.passedProfileId, passed)))
    .returning({ passed: passes.passedProfileId });
  return deleted.length > 0;
}

/**
 * The swipe stack: active profiles of the site's countries, of the gender the member looks for,
 * that the member has not liked or passed, with no block either way.
 */
export async function swipeCandidates(
  db: Executor,
  viewer: ProfileRow,
  filter: { countries: string[]; genders: ('male' | 'female')[] | null; limit: number },
): Promise<ProfileRow[]> {
  const rows = await db
    .select({ profile: profiles })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(
      and(
        eq(profiles.status, 'active'),
        inArray(users.status, ['active', 'not_confirmed']),
        inArray(profiles.country, filter.countries.length > 0 ? filter.countries : ['--']),
        filter.genders ? inArray(profiles.gender, filter.genders) : undefined,
        sql`${profiles.id} <> ${viewer.id}`,
        sql`not exists (select 1 from ${likes} where ${likes.likerProfileId} = ${viewer.id} and ${likes.likedProfileId} = ${profiles.id})`,
        sql`not exists (select 1 from ${passes} where ${passes.passerProfileId} = ${viewer.id} and ${passes.passedProfileId} = ${profiles.id})`,
        sql`not exists (select 1 from ${blocks} where (${blocks.blockerProfileId} = ${viewer.id} and ${blocks.blockedProfileId} = ${profiles.id}) or (${blocks.blockerProfileId} = ${profiles.id} and ${blocks.blockedProfileId} = ${viewer.id}))`,
      ),
    )
    .orderBy(
      sql`case when ${profiles.country} = ${viewer.country} then 0 else 1 end`,
      desc(profiles.lastActiveAt),
      desc(profiles.id),
    )
    .limit(filter.limit);
  return rows.map((row) => row.profile);
}

/** The newest like the member has not seen yet, from someone the member has not passed on. */
export async function newestNewLike(db: Executor, liked: number): Promise<ProfileRow | undefined> {
  const rows = await receivedLikes(db, liked);
  const passed = new Set(
    (
      await db.select({ id: passes.passedProfileId }).from(passes).where(eq(passes.passerProfileId, liked))
    ).map((row) => row.id),
  );
  return rows.find((row) => row.isNew && !passed.has(row.profile.id))?.profile;
}

export async function autoLikesSince(db: Executor, liked: number, since: Date): Promise<number> {
  const [row] = await db
    .select({ value: sql<number>`count(*)::int` })
    .from(likes)
    .where(and(eq(likes.likedProfileId, liked), eq(likes.source, 'auto'), gte(likes.createdAt, since)));
  return row?.value ?? 0;
}

export async function fictionalLikerFor(
  db: Executor,
  member: ProfileRow,
  filter: { countries: string[]; genders: ('male' | 'female')[] | null },
): Promise<ProfileRow | undefined> {
  const [row] = await db
    .select({ profile: profiles })
    .from(profiles)
    .where(
      and(
        eq(profiles.fictional, true),
        eq(profiles.status, 'active'),
        inArray(profiles.country, filter.countries.length > 0 ? filter.countries : ['--']),
        filter.genders ? inArray(profiles.gender, filter.genders) : undefined,
        sql`not exists (select 1 from ${likes} where ${likes.likerProfileId} = ${profiles.id} and ${likes.likedProfileId} = ${member.id})`,
        sql`not exists (select 1 from ${passes} where ${passes.passerProfileId} = ${member.id} and ${passes.passedProfileId} = ${profiles.id})`,
        sql`not exists (select 1 from ${blocks} where (${blocks.blockerProfileId} = ${member.id} and ${blocks.blockedProfileId} = ${profiles.id}) or (${blocks.blockerProfileId} = ${profiles.id} and ${blocks.blockedProfileId} = ${member.id}))`,
      ),
    )
    .orderBy(
      sql`case when ${profiles.country} = ${member.country} then 0 else 1 end`,
      desc(profiles.lastActiveAt),
    )
    .limit(1);
  return row?.profile;
}

/**
 * Records a visit: one row per visitor, visited profile and day; a later visit that day moves its
 * time. One statement (the profile page's query budget).
 */
export async function recordVisit(
  db: Executor,
  visit: { visitor: number; visited: number; at: Date },
): Promise<void> {
  await db
    .insert(profileVisits)
    .values({
      visitorProfileId: visit.visitor,
      visitedProfileId: visit.visited,
      day: visit.at.toISOString().slice(0, 10),
      visitedAt: visit.at,
    })
    .onConflictDoUpdate({
      target: [profileVisits.visitedProfileId, profileVisits.visitorProfileId, profileVisits.day],
      set: { visitedAt: visit.at },
    });
}

/** The visits the member may see: the visitor's profile is active and no block stands either way. */
function visibleVisitsOf(member: number) {
  return and(
    eq(profileVisits.visitedProfileId, member),
    eq(profiles.status, 'active'),
    inArray(users.status, ['active', 'not_confirmed']),
    sql`not exists (select 1 from ${blocks} where (${blocks.blockerProfileId} = ${member} and ${blocks.blockedProfileId} = ${profiles.id}) or (${blocks.blockerProfileId} = ${profiles.id} and ${blocks.blockedProfileId} = ${member}))`,
  );
}

export type VisitRow = {
  id: number;
  visitedAt: Date;
  profile: ProfileRow;
  mainPhoto: PhotoRow | null;
};

/** A page of the member's visitors, newest first, after the keyset cursor; one row more tells of a next page. */
export async function visitorsPage(
  db: Executor,
  member: number,
  page: { before?: { at: Date; id: number } | undefined; limit: number },
): Promise<VisitRow[]> {
  const main = mainPhotoLateral(db, profiles.id);
  const rows = await db
    .select({
      id: profileVisits.id,
      visitedAt: profileVisits.visitedAt,
      profile: profiles,
      mainPhoto: main.fields,
    })
    .from(profileVisits)
    .innerJoin(profiles, eq(profiles.id, profileVisits.visitorProfileId))
    .innerJoin(users, eq(users.id, profiles.userId))
    .leftJoinLateral(main.subquery, sql`true`)
    .where(
      and(
        visibleVisitsOf(member),
        page.before
          ? sql`(${profileVisits.visitedAt}, ${profileVisits.id}) < (${page.before.at.toISOString()}::timestamptz, ${page.before.id}::int)`
          : undefined,
      ),
    )
    .orderBy(desc(profileVisits.visitedAt), desc(profileVisits.id))
    .limit(page.limit);
  return rows.map((row) => ({ ...row, mainPhoto: row.mainPhoto?.id ? row.mainPhoto : null }));
}

/** All visible visits and those after `seenAt`, in one statement. */
export async function visitCounts(
  db: Executor,
  member: number,
  seenAt: Date | null,
): Promise<{ total: number; fresh: number }> {
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      fresh: seenAt
        ? sql<number>`count(*) filter (where ${profileVisits.visitedAt} > ${seenAt.toISOString()}::timestamptz)::int`
        : sql<number>`count(*)::int`,
    })
    .from(profileVisits)
    .innerJoin(profiles, eq(profiles.id, profileVisits.visitorProfileId))
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(visibleVisitsOf(member));
  return { total: row?.total ?? 0, fresh: row?.fresh ?? 0 };
}

/** The member opened their visitors: the ones so far are no longer new. */
export async function markVisitorsSeen(db: Executor, member: number, at: Date): Promise<void> {
  await db.update(profiles).set({ visitorsSeenAt: at }).where(eq(profiles.id, member));
}

/** Per member of a site: new activity since a time, its count and its newest (the nudges' digests). */
export type ActivityCount = { userId: number; count: number; latest: Date };

const activeMemberOfSite = (siteId: number) =>
  and(
    eq(users.siteId, siteId),
    eq(users.status, 'active'),
    eq(profiles.fictional, false),
    eq(profiles.status, 'active'),
  );

/**
 * Visits the members of a site got after `since` that they have not seen (after their last
 * activity and their last look at the list), counted as their visitors list shows them: an active
 * visitor and no block either way.
 */
export async function unseenVisitCounts(db: Executor, siteId: number, since: Date): Promise<ActivityCount[]> {
  const visitor = alias(profiles, 'visitor');
  const visitorUser = alias(users, 'visitor_user');
  const rows = await db
    .select({
      userId: users.id,
      count: sql<number>`count(*)::int`,
      latest: sql<string>`max(${profileVisits.visitedAt})`,
    })
    .from(profileVisits)
    .innerJoin(profiles, eq(profiles.id, profileVisits.visitedProfileId))
    .innerJoin(users, eq(users.id, profiles.userId))
    .innerJoin(visitor, eq(visitor.id, profileVisits.visitorProfileId))
    .innerJoin(visitorUser, eq(visitorUser.id, visitor.userId))
    .where(
      and(
        activeMemberOfSite(siteId),
        gt(profileVisits.visitedAt, since),
        sql`${profileVisits.visitedAt} > ${profiles.lastActiveAt}`,
        sql`(${profiles.visitorsSeenAt} is null or ${profileVisits.visitedAt} > ${profiles.visitorsSeenAt})`,
        eq(visitor.status, 'active'),
        inArray(visitorUser.status, ['active', 'not_confirmed']),
        sql`not exists (select 1 from ${blocks} where (${blocks.blockerProfileId} = ${profiles.id} and ${blocks.blockedProfileId} = ${visitor.id}) or (${blocks.blockerProfileId} = ${visitor.id} and ${blocks.blockedProfileId} = ${profiles.id}))`,
      ),
    )
    .groupBy(users.id);
  return rows.map((row) => ({ userId: row.userId, count: row.count, latest: new Date(row.latest) }));
}

/** New likes the members of a site got after `since` and after their last activity (active likers, no block). */
export async function unseenLikeCounts(db: Executor, siteId: number, since: Date): Promise<ActivityCount[]> {
  const liker = alias(profiles, 'liker');
  const rows = await db
    .select({
      userId: users.id,
      count: sql<number>`count(*)::int`,
      latest: sql<string>`max(${likes.createdAt})`,
    })
    .from(likes)
    .innerJoin(profiles, eq(profiles.id, likes.likedProfileId))
    .innerJoin(users, eq(users.id, profiles.userId))
    .innerJoin(liker, eq(liker.id, likes.likerProfileId))
    .where(
      and(
        activeMemberOfSite(siteId),
        eq(likes.isNew, true),
        gt(likes.createdAt, since),
        sql`${likes.createdAt} > ${profiles.lastActiveAt}`,
        eq(liker.status, 'active'),
        sql`not exists (select 1 from ${blocks} where (${blocks.blockerProfileId} = ${profiles.id} and ${blocks.blockedProfileId} = ${liker.id}) or (${blocks.blockerProfileId} = ${liker.id} and ${blocks.blockedProfileId} = ${profiles.id}))`,
      ),
    )
    .groupBy(users.id);
  return rows.map((row) => ({ userId: row.userId, count: row.count, latest: new Date(row.latest) }));
}

/** The visits a member made and, per day, how many visits they got (their data export). */
export async function visitsForExport(db: Executor, profileId: number) {
  const visited = alias(profiles, 'visited');
  const [made, received] = await Promise.all([
    db
      .select({ profileId: visited.id, name: visited.name, visitedAt: profileVisits.visitedAt })
      .from(profileVisits)
      .innerJoin(visited, eq(visited.id, profileVisits.visitedProfileId))
      .where(eq(profileVisits.visitorProfileId, profileId))
      .orderBy(desc(profileVisits.visitedAt)),
    db
      .select({ day: profileVisits.day, count: sql<number>`count(*)::int` })
      .from(profileVisits)
      .where(eq(profileVisits.visitedProfileId, profileId))
      .groupBy(profileVisits.day)
      .orderBy(desc(profileVisits.day)),
  ]);
  return { made, received };
}
