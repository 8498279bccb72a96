import { and, count, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import { profiles, users } from '#server/db/schema/members.ts';
import { photos } from '#server/db/schema/photos.ts';

/** Active fictional profiles with a photo, counted per region of one country (the map lander). */
export async function fictionalCountsByRegion(
  db: Executor,
  country: string,
): Promise<{ code: string; singles: number }[]> {
  const rows = await db
    .select({ code: profiles.countryregion, singles: count() })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(
      and(
        eq(profiles.fictional, true),
        eq(profiles.status, 'active'),
        inArray(users.status, ['active', 'not_confirmed']),
        eq(profiles.country, country),
        isNotNull(profiles.countryregion),
        sql`exists (select 1 from ${photos} where ${photos.profileId} = ${profiles.id})`,
      ),
    )
    .groupBy(profiles.countryregion)
    .orderBy(desc(count()));
  return rows.flatMap((row) => (row.code ? [{ code: row.code, singles: row.singles }] : []));
}

/** The main-photo keys of recently active fictional profiles, for the landers' video. */
export async function fictionalPhotoKeys(db: Executor, limit: number): Promise<string[]> {
  const rows = await db
    .select({ key: photos.mainKey })
    .from(photos)
    .innerJoin(profiles, eq(profiles.id, photos.profileId))
    .where(and(eq(profiles.fictional, true), eq(profiles.status, 'active'), eq(photos.position, 0)))
    .orderBy(desc(profiles.lastActiveAt), desc(profiles.id))
    .limit(limit);
  return rows.map((row) => row.key);
}
