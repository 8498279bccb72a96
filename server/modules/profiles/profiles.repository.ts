import { and, asc, eq, inArray, or } from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import { conversationParticipants, messages } from '#server/db/schema/chats.ts';
import { type ProfileRow, profiles, users } from '#server/db/schema/members.ts';
import { type PhotoRow, photos } from '#server/db/schema/photos.ts';
import { blocks, likes, reports } from '#server/db/schema/social.ts';

export async function findProfileByUserId(db: Executor, userId: number): Promise<ProfileRow | undefined> {
  const [row] = await db.select().from(profiles).where(eq(profiles.userId, userId)).limit(1);
  return row;
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

/** The first photo (the main one) of each profile. */
export async function mainPhotosOf(db: Executor, profileIds: number[]): Promise<Map<number, PhotoRow>> {
  if (profileIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(photos)
    .where(inArray(photos.profileId, profileIds))
    .orderBy(asc(photos.position), asc(photos.id));
  const result = new Map<number, PhotoRow>();
  for (const row of rows) if (!result.has(row.profileId)) result.set(row.profileId, row);
  return result;
}

/** Whether either profile blocked the other; returns who blocked whom. */
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

export async function hasLiked(db: Executor, liker: number, liked: number): Promise<boolean> {
  const [row] = await db
    .select({ liker: likes.likerProfileId })
    .from(likes)
    .where(and(eq(likes.likerProfileId, liker), eq(likes.likedProfileId, liked)))
    .limit(1);
  return row !== undefined;
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
