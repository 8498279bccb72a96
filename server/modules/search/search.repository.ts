import { and, desc, eq, gt, inArray, isNull, lte, ne, or, type SQL, sql } from 'drizzle-orm';
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
  /** Only profiles that seek this gender, or both, or have not said (mutual interest). */
  seekingGender?: 'male' | 'female' | undefined;
  excludeIds?: number[];
  /** Only profiles with at least one photo (landing pages). */
  withPhoto?: boolean;
  /**
   * Only profiles that may be shown to visitors and on ad pages: fictional ones, and confirmed
   * members who opted in from their settings.
   */
  publicOnly?: boolean;
  /** Only fictional profiles (ad landing pages: never a real member). */
  fictionalOnly?: boolean;
};

function conditions(filter: SearchFilter): SQL[] {
  const where: SQL[] = [
    eq(profiles.status, 'active'),
    inArray(profiles.country, filter.countries.length > 0 ? filter.countries : ['--']),
    inArray(users.status, ['active', 'not_confirmed']),
  ];
  if (filter.gender) where.push(eq(profiles.gender, filter.gender));
  if (filter.seekingGender) {
    const seeks = or(isNull(profiles.seeking), inArray(profiles.seeking, [filter.seekingGender, 'both']));
    if (seeks) where.push(seeks);
  }
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
  if (filter.fictionalOnly) where.push(eq(profiles.fictional, true));
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

/** Where a keyset page starts: after this profile in the search's order. */
export type SearchCursor = { lastActiveAt: Date; id: number };

/** The cursor as the API passes it: opaque, URL-safe. */
export function encodeSearchCursor(cursor: SearchCursor): string {
  return Buffer.from(`${cursor.lastActiveAt.getTime()}.${cursor.id}`).toString('base64url');
}

/** Undefined for anything that is not a cursor this server made. */
export function decodeSearchCursor(value: string): SearchCursor | undefined {
  const match = /^(\d{1,15})\.(\d{1,10})$/.exec(Buffer.from(value, 'base64url').toString());
  if (!match) return undefined;
  const lastActiveAt = new Date(Number(match[1]));
  const id = Number(match[2]);
  if (Number.isNaN(lastActiveAt.getTime()) || !Number.isSafeInteger(id) || id > 2_147_483_647)
    return undefined;
  return { lastActiveAt, id };
}

/** Counting stops here: past it the answer is "more than searchCountCap" (total_capped). */
export const searchCountCap = 1000;

/** The count of matches, up to one past searchCountCap, as a subquery. */
function cappedMatches(db: Executor, where: SQL | undefined) {
  return db
    .select({ one: sql`1` })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(where)
    .limit(searchCountCap + 1)
    .as('capped_matches');
}

/**
 * The statement of one result page (exported for the plan test: EXPLAIN must show index scans).
 * Keyset pages (`after`) read the rows after the cursor straight from the (last_active_at desc,
 * id desc) indexes; numbered pages skip `offset` rows.
 */
export function searchPageQuery(
  db: Executor,
  filter: SearchFilter,
  page: { limit: number; offset: number; after?: SearchCursor | undefined },
) {
  const where = and(...conditions(filter));
  const matches = cappedMatches(db, where);
  const main = mainPhotoLateral(db, profiles.id);
  const after = page.after
    ? sql`(${profiles.lastActiveAt}, ${profiles.id}) < (${page.after.lastActiveAt.toISOString()}::timestamptz, ${page.after.id}::int)`
    : undefined;
  return db
    .select({
      profile: profiles,
      mainPhoto: main.fields,
      total: sql<number>`(select count(*) from ${matches})::int`,
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .leftJoinLateral(main.subquery, sql`true`)
    .where(after ? and(where, after) : where)
    .orderBy(desc(profiles.lastActiveAt), desc(profiles.id))
    .limit(page.limit)
    .offset(page.after ? 0 : page.offset);
}

/**
 * One page of matches, recently active first, with a stable tie-break on id, each with its main
 * photo, and the number of matches counted up to one past searchCountCap: one statement, whose
 * cost does not grow with the number of profiles beyond the cap.
 */
export async function searchProfiles(
  db: Executor,
  filter: SearchFilter,
  page: { limit: number; offset: number; after?: SearchCursor | undefined },
): Promise<{ rows: { profile: ProfileRow; mainPhoto: PhotoRow | null }[]; total: number; capped: boolean }> {
  const rows = await searchPageQuery(db, filter, page);
  // A page past the end has no row to carry the count: count once more (rare: a stale page link).
  const counted =
    rows[0]?.total ??
    (page.offset > 0 || page.after
      ? ((
          await db
            .select({
              value: sql<number>`(select count(*) from ${cappedMatches(db, and(...conditions(filter)))})::int`,
            })
            .from(sql`(select 1) as one`)
        )[0]?.value ?? 0)
      : 0);
  return {
    rows: rows.map((row) => ({ profile: row.profile, mainPhoto: row.mainPhoto })),
    total: Math.min(counted, searchCountCap),
    capped: counted > searchCountCap,
  };
}
