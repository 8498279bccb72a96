import { and, asc, count, eq } from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import { profiles } from '#server/db/schema/members.ts';
import { type PhotoRow, photos } from '#server/db/schema/photos.ts';

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
