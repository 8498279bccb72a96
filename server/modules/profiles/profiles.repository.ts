import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { type Executor, preparedPerConnection } from '#server/db/client.ts';
import { conversationParticipants, conversations, messages } from '#server/db/schema/chats.ts';
import { type ProfileRow, profiles, users } from '#server/db/schema/members.ts';
import { type PhotoRow, photos } from '#server/db/schema/photos.ts';
import { blocks, likes, reports } from '#server/db/schema/social.ts';

export async function findProfileByUserId(db: Executor, userId: number): Promise<ProfileRow | undefined> {
  const [row] = await db.select().from(profiles).where(eq(profiles.userId, userId)).limit(1);
  return row;
}

export async function findMainPhoto(db: Executor, profileId: number): Promise<PhotoRow | undefined> {
  const [mainPhoto] = await db
    .select()
    .from(photos)
    .where(eq(photos.profileId, profileId))
    .orderBy(asc(photos.position), asc(photos.id))
    .limit(1);
  return mainPhoto;
}

export async function findProfileWithOwner(db: Executor, profileId: number) {
  const [row] = await db
    .select({ profile: profiles, owner: users })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(eq(profiles.id, profileId))
    .limit(1);
  return row;
}

export async function updateProfile(
  db: Executor,
  profileId: number,
  update: Partial<typeof profiles.$inferInsert>,
) {
  const [row] = await db.update(profiles).set(update).where(eq(profiles.id, profileId)).returning();
  return row;
}

export async function photosOf(db: Executor, profileId: number): Promise<PhotoRow[]> {
  return db
    .select()
    .from(photos)
    .where(eq(photos.profileId, profileId))
    .orderBy(asc(photos.position), asc(photos.id));
}

/**
 * The first photo (the main one) of each profile. For others (the default) only an approved one: a
 * first photo under screening or held gives none (server/db/fragments.ts says why not the next).
 */
export async function mainPhotosOf(
  db: Executor,
  profileIds: number[],
  options: { anyStatus?: boolean } = {},
): Promise<Map<number, PhotoRow>> {
  if (profileIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(photos)
    .where(inArray(photos.profileId, profileIds))
    .orderBy(asc(photos.position), asc(photos.id));
  const result = new Map<number, PhotoRow>();
  const seen = new Set<number>();
  for (const row of rows) {
    if (seen.has(row.profileId)) continue;
    seen.add(row.profileId);
    if (options.anyStatus || row.status === 'approved') result.set(row.profileId, row);
  }
  return result;
}

/** Whether either profile blocked the other; returns who blocked whom. */
type PhotoJson = {
  id: number;
  profile_id: number;
  position: number;
  main_key: string;
  thumb_key: string;
  blurred_key: string;
  blurred_thumb_key: string;
  width: number;
  height: number;
  created_at: string;
  moderation: PhotoRow['moderation'];
  status: PhotoRow['status'];
  hold_reason: PhotoRow['holdReason'];
  screening: PhotoRow['screening'];
  screened_at: string | null;
};

/**
 * A profile as another member opens it, in one statement: the profile and its owner, its photos in
 * order, blocks either way and the likes between the two (`newLike`: the profile liked the viewer
 * and the viewer has not seen it yet). Without a viewer the flags are false.
 */
const profileForViewerStatement = preparedPerConnection((db) => {
  const profileId = sql.placeholder('profileId');
  const viewer = sql.placeholder('viewer');
  return db
    .select({
      profile: profiles,
      // Only what the view decides on: a users row is wide, and every column costs on every call.
      owner: { status: users.status },
      photos: sql<
        PhotoJson[]
      >`(select coalesce(json_agg(p order by p.position, p.id), '[]'::json) from ${photos} p where p.profile_id = ${profiles.id})`,
      viewerBlocked: sql<boolean>`exists (select 1 from ${blocks} b where b.blocker_profile_id = ${viewer} and b.blocked_profile_id = ${profiles.id})`,
      blockedViewer: sql<boolean>`exists (select 1 from ${blocks} b where b.blocker_profile_id = ${profiles.id} and b.blocked_profile_id = ${viewer})`,
      liked: sql<boolean>`exists (select 1 from ${likes} l where l.liker_profile_id = ${viewer} and l.liked_profile_id = ${profiles.id})`,
      newLike: sql<boolean>`exists (select 1 from ${likes} l where l.liker_profile_id = ${profiles.id} and l.liked_profile_id = ${viewer} and l.is_new)`,
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(eq(profiles.id, profileId))
    .limit(1)
    .prepare('profile_for_viewer');
});

export async function profileForViewer(db: Executor, profileId: number, viewerProfileId: number | undefined) {
  const [row] = await profileForViewerStatement(db).execute({ profileId, viewer: viewerProfileId ?? 0 });
  if (!row) return undefined;
  const photoRows: PhotoRow[] = row.photos.map((photo) => ({
    id: photo.id,
    profileId: photo.profile_id,
    position: photo.position,
    mainKey: photo.main_key,
    thumbKey: photo.thumb_key,
    blurredKey: photo.blurred_key,
    blurredThumbKey: photo.blurred_thumb_key,
    width: photo.width,
    height: photo.height,
    createdAt: new Date(photo.created_at),
    moderation: photo.moderation,
    status: photo.status,
    holdReason: photo.hold_reason,
    screening: photo.screening,
    screenedAt: photo.screened_at ? new Date(photo.screened_at) : null,
  }));
  return { ...row, photos: photoRows };
}

export async function blockBetween(db: Executor, a: number, b: number) {
  const rows = await db
    .select()
    .from(blocks)
    .where(
      or(
        and(eq(blocks.blockerProfileId, a), eq(blocks.blockedProfileId, b)),
        and(eq(blocks.blockerProfileId, b), eq(blocks.blockedProfileId, a)),
      ),
    );
  return {
    aBlockedB: rows.some((row) => row.blockerProfileId === a),
    bBlockedA: rows.some((row) => row.blockerProfileId === b),
  };
}

export async function insertBlock(db: Executor, blocker: number, blocked: number, at: Date): Promise<void> {
  await db
    .insert(blocks)
    .values({ blockerProfileId: blocker, blockedProfileId: blocked, createdAt: at })
    .onConflictDoNothing();
}

/**
 * What a block takes away from both members' lists (spec §4: removing chats for a profile deletes
 * each conversation with it): the pair's conversation is deleted for both sides (its messages so
 * far are gone for each and count as read, so an unblock does not bring them back) and the likes
 * either way are removed.
 */
export async function removePairFromLists(db: Executor, a: number, b: number): Promise<void> {
  const [low, high] = a < b ? [a, b] : [b, a];
  const [conversation] = await db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.lowProfileId, low), eq(conversations.highProfileId, high)))
    .limit(1);
  if (conversation) {
    const newest = sql`(select coalesce(max(${messages.id}), 0) from ${messages} where ${messages.conversationId} = ${conversation.id})`;
    await db
      .update(conversationParticipants)
      .set({
        clearedMessageId: sql`greatest(${conversationParticipants.clearedMessageId}, ${newest})`,
        lastReadMessageId: sql`greatest(${conversationParticipants.lastReadMessageId}, ${newest})`,
      })
      .where(eq(conversationParticipants.conversationId, conversation.id));
  }
  await db
    .delete(likes)
    .where(
      or(
        and(eq(likes.likerProfileId, a), eq(likes.likedProfileId, b)),
        and(eq(likes.likerProfileId, b), eq(likes.likedProfileId, a)),
      ),
    );
}

export async function deleteBlock(db: Executor, blocker: number, blocked: number): Promise<void> {
  await db
    .delete(blocks)
    .where(and(eq(blocks.blockerProfileId, blocker), eq(blocks.blockedProfileId, blocked)));
}

export async function blockedProfilesOf(db: Executor, blocker: number): Promise<ProfileRow[]> {
  const rows = await db
    .select({ profile: profiles })
    .from(blocks)
    .innerJoin(profiles, eq(profiles.id, blocks.blockedProfileId))
    .where(eq(blocks.blockerProfileId, blocker))
    .orderBy(asc(profiles.name));
  return rows.map((row) => row.profile);
}

/** Opening the profile of someone who liked you clears that like's new flag (spec §4). */
export async function clearNewLike(db: Executor, liker: number, liked: number): Promise<void> {
  await db
    .update(likes)
    .set({ isNew: false })
    .where(and(eq(likes.likerProfileId, liker), eq(likes.likedProfileId, liked), eq(likes.isNew, true)));
}

export async function insertReport(db: Executor, report: typeof reports.$inferInsert): Promise<void> {
  await db.insert(reports).values(report);
}

/** The sender of a message in a conversation the profile takes part in; undefined otherwise. */
export async function senderOfVisibleMessage(
  db: Executor,
  messageId: number,
  profileId: number,
): Promise<number | undefined> {
  const [row] = await db
    .select({ sender: messages.senderProfileId })
    .from(messages)
    .innerJoin(
      conversationParticipants,
      and(
        eq(conversationParticipants.conversationId, messages.conversationId),
        eq(conversationParticipants.profileId, profileId),
      ),
    )
    .where(eq(messages.id, messageId))
    .limit(1);
  return row?.sender;
}
