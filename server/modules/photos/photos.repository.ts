import { and, asc, count, eq, inArray, notLike, or, sql } from 'drizzle-orm';
import type { Database, Executor } from '#server/db/client.ts';
import { messages } from '#server/db/schema/chats.ts';
import { profiles, users } from '#server/db/schema/members.ts';
import { type PhotoRow, photos } from '#server/db/schema/photos.ts';
import { sites } from '#server/db/schema/sites.ts';

/** Locks the profile row, so two uploads at once cannot both pass the photo limit. */
export async function lockProfile(db: Executor, profileId: number): Promise<void> {
  await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, profileId)).for('update');
}

export async function countPhotos(db: Executor, profileId: number): Promise<number> {
  const [row] = await db.select({ value: count() }).from(photos).where(eq(photos.profileId, profileId));
  return row?.value ?? 0;
}

export async function insertPhoto(db: Executor, photo: typeof photos.$inferInsert): Promise<PhotoRow> {
  const [row] = await db.insert(photos).values(photo).returning();
  return row!;
}

export async function findOwnPhoto(
  db: Executor,
  profileId: number,
  photoId: number,
): Promise<PhotoRow | undefined> {
  const [row] = await db
    .select()
    .from(photos)
    .where(and(eq(photos.id, photoId), eq(photos.profileId, profileId)))
    .limit(1);
  return row;
}

export async function deletePhoto(db: Executor, photoId: number): Promise<void> {
  await db.delete(photos).where(eq(photos.id, photoId));
}

export async function orderedPhotos(db: Executor, profileId: number): Promise<PhotoRow[]> {
  return db
    .select()
    .from(photos)
    .where(eq(photos.profileId, profileId))
    .orderBy(asc(photos.position), asc(photos.id));
}

export async function setPosition(db: Executor, photoId: number, position: number): Promise<void> {
  await db.update(photos).set({ position }).where(eq(photos.id, photoId));
}

export type PhotoKeys = Pick<PhotoRow, 'mainKey' | 'thumbKey' | 'blurredKey' | 'blurredThumbKey'>;

/** Photos with a variant still under an old key (before originals became private: `photos/<profile>/…`). */
export async function photosWithLegacyKeys(db: Executor, limit: number): Promise<PhotoRow[]> {
  return db
    .select()
    .from(photos)
    .where(
      or(
        notLike(photos.mainKey, 'private/%'),
        notLike(photos.thumbKey, 'private/%'),
        notLike(photos.blurredKey, 'public/%'),
        notLike(photos.blurredThumbKey, 'public/%'),
      ),
    )
    .orderBy(asc(photos.id))
    .limit(limit);
}

export type PhotoKeyMove = { id: number; from: PhotoKeys; to: PhotoKeys };

/**
 * Points moved photos to their new keys, and the chat messages that carry them (a photo message
 * keeps the original's and thumbnail's keys), in one transaction.
 */
export async function applyPhotoKeyMoves(db: Database, moves: PhotoKeyMove[]): Promise<void> {
  const pairs = moves.flatMap(({ from, to }) =>
    [
      [from.mainKey, to.mainKey],
      [from.thumbKey, to.thumbKey],
    ].filter(([before, after]) => before !== after),
  );
  const renamed = (column: typeof messages.photoKey | typeof messages.photoThumbKey) =>
    sql`case ${column} ${sql.join(
      pairs.map(([before, after]) => sql`when ${before} then ${after}`),
      sql` `,
    )} else ${column} end`;
  await db.transaction(async (tx) => {
    for (const { id, to } of moves) await tx.update(photos).set(to).where(eq(photos.id, id));
    if (pairs.length === 0) return;
    const before = pairs.map(([key]) => key!);
    await tx
      .update(messages)
      .set({ photoKey: renamed(messages.photoKey), photoThumbKey: renamed(messages.photoThumbKey) })
      .where(or(inArray(messages.photoKey, before), inArray(messages.photoThumbKey, before)));
  });
}

/** Holds a photo for a moderator (others stop seeing it). */
export async function holdPhoto(db: Executor, photoId: number, reason: NonNullable<PhotoRow['holdReason']>) {
  await db.update(photos).set({ status: 'held', holdReason: reason }).where(eq(photos.id, photoId));
}

/** A photo to screen, with whether its profile is fictional and its site's screening thresholds. */
export async function photoForScreening(db: Executor, photoId: number) {
  const [row] = await db
    .select({ photo: photos, fictional: profiles.fictional, settings: sites.photoScreening })
    .from(photos)
    .innerJoin(profiles, eq(profiles.id, photos.profileId))
    .innerJoin(users, eq(users.id, profiles.userId))
    .innerJoin(sites, eq(sites.id, users.siteId))
    .where(eq(photos.id, photoId))
    .limit(1);
  return row;
}

/**
 * Records what the screening found. Only a photo still under screening changes status: one a
 * moderator decided on meanwhile keeps that decision (the scores are stored all the same).
 */
export async function recordScreening(
  db: Executor,
  photoId: number,
  result: Pick<PhotoRow, 'status' | 'holdReason' | 'screening' | 'screenedAt'>,
): Promise<void> {
  await db
    .update(photos)
    .set({
      status: sql`case when ${photos.status} = 'screening' then ${result.status} else ${photos.status} end`,
      holdReason: sql`case when ${photos.status} = 'screening' then ${result.holdReason}::text else ${photos.holdReason} end`,
      screening: result.screening,
      screenedAt: result.screenedAt,
    })
    .where(eq(photos.id, photoId));
}
