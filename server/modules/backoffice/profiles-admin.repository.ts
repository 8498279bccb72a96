import { and, asc, count, countDistinct, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import { conversations, messages } from '#server/db/schema/chats.ts';
import { type ProfileRow, profiles, type UserRow, users } from '#server/db/schema/members.ts';
import { type PhotoRow, photos } from '#server/db/schema/photos.ts';

export type FictionalFilters = {
  siteId?: number | undefined;
  q?: string | undefined;
  gender?: 'male' | 'female' | undefined;
  country?: string | undefined;
  status?: 'active' | 'disabled' | undefined;
};

function filtersOf(filters: FictionalFilters): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(profiles.fictional, true)];
  if (filters.siteId !== undefined) conditions.push(eq(users.siteId, filters.siteId));
  if (filters.gender) conditions.push(eq(profiles.gender, filters.gender));
  if (filters.country) conditions.push(eq(profiles.country, filters.country));
  if (filters.status) conditions.push(eq(profiles.status, filters.status));
  if (filters.q) {
    const id = /^\d{1,9}$/.test(filters.q) ? Number(filters.q) : null;
    const escaped = filters.q.replace(/[\\%_]/g, (match) => `\\${match}`);
    conditions.push(
      id !== null
        ? or(eq(profiles.id, id), ilike(profiles.name, `%${escaped}%`))
        : ilike(profiles.name, `%${escaped}%`),
    );
  }
  return and(...conditions);
}

export async function listFictional(
  db: Executor,
  filters: FictionalFilters,
  page: { limit: number; offset: number },
): Promise<{ rows: { profile: ProfileRow; user: UserRow }[]; total: number }> {
  const where = filtersOf(filters);
  const [rows, [totals]] = await Promise.all([
    db
      .select({ profile: profiles, user: users })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .where(where)
      .orderBy(asc(profiles.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ value: count() }).from(profiles).innerJoin(users, eq(users.id, profiles.userId)).where(where),
  ]);
  return { rows, total: totals?.value ?? 0 };
}

export async function findFictional(
  db: Executor,
  profileId: number,
): Promise<{ profile: ProfileRow; user: UserRow } | undefined> {
  const [row] = await db
    .select({ profile: profiles, user: users })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(and(eq(profiles.id, profileId), eq(profiles.fictional, true)))
    .limit(1);
  return row;
}

/** Locks a fictional profile's row (photo order, edits) until the transaction ends. */
export async function lockFictional(db: Executor, profileId: number): Promise<ProfileRow | undefined> {
  const [row] = await db
    .select()
    .from(profiles)
    .where(and(eq(profiles.id, profileId), eq(profiles.fictional, true)))
    .for('update');
  return row;
}

export async function insertFictional(
  db: Executor,
  user: typeof users.$inferInsert,
  profile: Omit<typeof profiles.$inferInsert, 'userId'>,
): Promise<{ profile: ProfileRow; user: UserRow }> {
  const [userRow] = await db.insert(users).values(user).returning();
  const [profileRow] = await db
    .insert(profiles)
    .values({ ...profile, userId: userRow!.id, fictional: true })
    .returning();
  return { profile: profileRow!, user: userRow! };
}

export async function updateFictional(
  db: Executor,
  profileId: number,
  changes: Partial<typeof profiles.$inferInsert>,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db
    .update(profiles)
    .set(changes)
    .where(and(eq(profiles.id, profileId), eq(profiles.fictional, true)));
}

/** Sets the status of fictional profiles (never of a member's); the ids changed. */
export async function setFictionalStatus(
  db: Executor,
  profileIds: number[],
  status: 'active' | 'disabled',
): Promise<number[]> {
  const rows = await db
    .update(profiles)
    .set({ status })
    .where(and(inArray(profiles.id, profileIds), eq(profiles.fictional, true)))
    .returning({ id: profiles.id });
  return rows.map((row) => row.id);
}

/** Moves fictional profiles (never a member) to a site; the profile ids moved. */
export async function moveFictional(db: Executor, profileIds: number[], siteId: number): Promise<number[]> {
  const owners = await db
    .select({ id: profiles.id, userId: profiles.userId })
    .from(profiles)
    .where(and(inArray(profiles.id, profileIds), eq(profiles.fictional, true)));
  if (owners.length === 0) return [];
  await db
    .update(users)
    .set({ siteId })
    .where(
      inArray(
        users.id,
        owners.map((owner) => owner.userId),
      ),
    );
  return owners.map((owner) => owner.id);
}

export async function photosOf(db: Executor, profileId: number): Promise<PhotoRow[]> {
  return db
    .select()
    .from(photos)
    .where(eq(photos.profileId, profileId))
    .orderBy(asc(photos.position), asc(photos.id));
}

export async function findPhoto(
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

export async function insertPhoto(db: Executor, photo: typeof photos.$inferInsert): Promise<PhotoRow> {
  const [row] = await db.insert(photos).values(photo).returning();
  return row!;
}

export async function deletePhoto(db: Executor, photoId: number): Promise<void> {
  await db.delete(photos).where(eq(photos.id, photoId));
}

export async function setPhotoPosition(db: Executor, photoId: number, position: number): Promise<void> {
  await db.update(photos).set({ position }).where(eq(photos.id, photoId));
}

export type ProfileStats = { conversations: number; received: number; replies: number; revenue: number };

/**
 * Per profile: conversations, messages members sent to it, its replies, and the credits members
 * paid for what they sent to it. One grouped query per side of the conversation pair.
 */
export async function statsOf(db: Executor, profileIds: number[]): Promise<Map<number, ProfileStats>> {
  const result = new Map<number, ProfileStats>();
  if (profileIds.length === 0) return result;
  for (const side of [conversations.lowProfileId, conversations.highProfileId]) {
    const rows = await db
      .select({
        profileId: side,
        conversations: countDistinct(conversations.id),
        received:
          sql<number>`count(${messages.id}) filter (where ${messages.senderProfileId} <> ${side})`.mapWith(
            Number,
          ),
        replies:
          sql<number>`count(${messages.id}) filter (where ${messages.senderProfileId} = ${side})`.mapWith(
            Number,
          ),
        revenue:
          sql<number>`coalesce(sum(${messages.credits}) filter (where ${messages.senderProfileId} <> ${side}), 0)`.mapWith(
            Number,
          ),
      })
      .from(conversations)
      .leftJoin(messages, eq(messages.conversationId, conversations.id))
      .where(inArray(side, profileIds))
      .groupBy(side);
    for (const row of rows) {
      const before = result.get(row.profileId) ?? { conversations: 0, received: 0, replies: 0, revenue: 0 };
      result.set(row.profileId, {
        conversations: before.conversations + row.conversations,
        received: before.received + row.received,
        replies: before.replies + row.replies,
        revenue: before.revenue + row.revenue,
      });
    }
  }
  return result;
}
