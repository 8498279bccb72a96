import { and, count, desc, eq, gt, inArray, lte, ne, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '#server/db/client.ts';
import { type ProfileRow, profiles, users } from '#server/db/schema/members.ts';
import { photos } from '#server/db/schema/photos.ts';
import { blocks } from '#server/db/schema/social.ts';

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

/** One page of matches, recently active first, with a stable tie-break on id. */
export async function searchProfiles(
  db: Executor,
  filter: SearchFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: ProfileRow[]; total: number }> {
  const where = and(...conditions(filter));
  const [rows, totals] = await Promise.all([
    db
      .select({ profile: profiles })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .where(where)
      .orderBy(desc(profiles.lastActiveAt), desc(profiles.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ value: count() }).from(profiles).innerJoin(users, eq(users.id, profiles.userId)).where(where),
  ]);
  return { rows: rows.map((row) => row.profile), total: totals[0]?.value ?? 0 };
}
