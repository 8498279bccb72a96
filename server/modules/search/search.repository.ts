import { and, desc, eq, gt, inArray, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import { type ProfileRow, profiles, users } from '#server/db/schema/members.ts';
import { type PhotoRow, photos } from '#server/db/schema/photos.ts';
import { blocks } from '#server/db/schema/social.ts';
import { mainPhotoLateral } from '#server/modules/profiles/profiles.repository.ts';

export type SearchFilter = {
  countries: string[];
  gender?: 'male' | 'female' | undefined;
  country?: string | undefined;
  countryregion?: string | undefined;
  /** Birthdate on or before (at least min age). */
  bornOnOrBefore?: string | undefined;
  /** Birthdate after (at most max age). */
  bornAfter?: string | undefined;
  viewerProfileId?: number | undefined;
  excludeIds?: number[];
  /** Only profiles with at least one photo (landing pages). */
  withPhoto?: boolean;
  /**
   * Only profiles that may be shown to visitors and on ad pages: fictional ones, and confirmed
   * members who opted in from their settings.
   */
  publicOnly?: boolean;
};

function conditions(filter: SearchFilter): SQL[] {
  const where: SQL[] = [
    eq(profiles.status, 'active'),
    inArray(profiles.country, filter.countries.length > 0 ? filter.countries : ['--']),
    inArray(users.status, ['active', 'not_confirmed']),
  ];
  if (filter.gender) where.push(eq(profiles.gender, filter.gender));
  if (filter.country) where.push(eq(profiles.country, filter.country));
  if (filter.countryregion) where.push(eq(profiles.countryregion, filter.countryregion));
  if (filter.bornOnOrBefore) where.push(lte(profiles.birthdate, filter.bornOnOrBefore));
  if (filter.bornAfter) where.push(gt(profiles.birthdate, filter.bornAfter));
  if (filter.publicOnly) {
    const publicPool = or(
      eq(profiles.fictional, true),
      and(eq(profiles.publicProfile, true), eq(users.status, 'active')),
    );
    if (publicPool) where.push(publicPool);
  }
  if (filter.withPhoto)
    where.push(sql`exists (select 1 from ${photos} where ${photos.profileId} = ${profiles.id})`);
  if (filter.excludeIds && filter.excludeIds.length > 0) {
    where.push(
      sql`${profiles.id} not in (${sql.join(
        filter.excludeIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  }
  const viewer = filter.viewerProfileId;
  if (viewer !== undefined) {
    where.push(ne(profiles.id, viewer));
    where.push(
      sql`not exists (select 1 from ${blocks} where (${blocks.blockerProfileId} = ${viewer} and ${blocks.blockedProfileId} = ${profiles.id}) or (${blocks.blockerProfileId} = ${profiles.id} and ${blocks.blockedProfileId} = ${viewer}))`,
    );
  }
  return where;
}

/** Counting stops here: past it the answer is "more than searchCountCap" (total_capped). */
export const searchCountCap = 1000;

/**
 * One page of matches, recently active first, with a stable tie-break on id, each with its main
 * photo, and the number of matches counted up to one past searchCountCap: one statement, whose
 * cost does not grow with the number of profiles beyond the cap.
 */
export async function searchProfiles(
  db: Executor,
  filter: SearchFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: { profile: ProfileRow; mainPhoto: PhotoRow | null }[]; total: number; capped: boolean }> {
  const where = and(...conditions(filter));
  const matches = db
    .select({ one: sql`1` })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(where)
    .limit(searchCountCap + 1)
    .as('capped_matches');
  const main = mainPhotoLateral(db, profiles.id);
  const rows = await db
    .select({
      profile: profiles,
      mainPhoto: main.fields,
      total: sql<number>`(select count(*) from ${matches})::int`,
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .leftJoinLateral(main.subquery, sql`true`)
    .where(where)
    .orderBy(desc(profiles.lastActiveAt), desc(profiles.id))
    .limit(page.limit)
    .offset(page.offset);
  // A page past the end has no row to carry the count: count once more (rare: a stale page link).
  const counted =
    rows[0]?.total ??
    (page.offset > 0
      ? ((
          await db
            .select({ value: sql<number>`(select count(*) from ${matches})::int` })
            .from(sql`(select 1) as one`)
        )[0]?.value ?? 0)
      : 0);
  return {
    rows: rows.map((row) => ({ profile: row.profile, mainPhoto: row.mainPhoto })),
    total: Math.min(counted, searchCountCap),
    capped: counted > searchCountCap,
  };
}
