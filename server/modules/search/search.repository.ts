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

/**
 * The count of a search is kept in two parts: the matches of its filter as anyone sees them (the
 * general count, the same for every viewer with that filter, counted up to `generalCountLimit`),
 * less the viewer's own deductions — the viewer's profile, and profiles blocked either way — which
 * the blocks indexes find at once. The general part may be reused for a few seconds (SearchCounts,
 * search-counts.ts); the deductions are always counted. Up to `deductionsSlack` deductions, a
 * general count at its limit still proves "more than searchCountCap".
 */
export const deductionsSlack = 100;
export const generalCountLimit = searchCountCap + 1 + deductionsSlack;

/** The filter as anyone sees it: no viewer, so no own profile or blocks left out. */
export function generalFilter(filter: SearchFilter): SearchFilter {
  const { viewerProfileId: _viewer, ...general } = filter;
  return general;
}

/** The number of matches of `where`, up to `limit`, as a scalar subquery. */
function cappedCount(db: Executor, where: SQL | undefined, limit: number): SQL<number> {
  const matches = db
    .select({ one: sql`1` })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(where)
    .limit(limit)
    .as('capped_matches');
  return sql<number>`(select count(*) from ${matches})::int`;
}

/** The general matches that are the viewer or blocked either way with the viewer, as a scalar subquery. */
function deductionsCount(filter: SearchFilter): SQL<number> {
  const viewer = filter.viewerProfileId;
  if (viewer === undefined) return sql<number>`0`;
  // Driven by the viewer's blocks (both indexes), never by the matches: a union, so a profile
  // blocked both ways is deducted once.
  return sql<number>`(select count(*) from (
      select ${viewer}::int as id
      union select ${blocks.blockedProfileId} from ${blocks} where ${blocks.blockerProfileId} = ${viewer}
      union select ${blocks.blockerProfileId} from ${blocks} where ${blocks.blockedProfileId} = ${viewer}
    ) as viewer_deductions
    inner join ${profiles} on ${profiles.id} = viewer_deductions.id
    inner join ${users} on ${users.id} = ${profiles.userId}
    where ${and(...conditions(generalFilter(filter)))})::int`;
}

/** How a search is counted: not at all (featured lists), or with the general part known or not. */
export type SearchCounting = { count: false } | { count: true; knownGeneral?: number | undefined };

export type SearchCount = {
  total: number;
  capped: boolean;
  /** The general part counted by this statement (to keep), if it was counted. */
  general?: number;
};

/** The general part as a column: counted, or null when it is known. */
function generalColumn(db: Executor, filter: SearchFilter, knownGeneral: number | undefined) {
  return knownGeneral === undefined
    ? cappedCount(db, and(...conditions(generalFilter(filter))), generalCountLimit)
    : sql<number | null>`null::int`;
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
  counting: SearchCounting = { count: true },
) {
  const where = and(...conditions(filter));
  const main = mainPhotoLateral(db, profiles.id);
  const after = page.after
    ? sql`(${profiles.lastActiveAt}, ${profiles.id}) < (${page.after.lastActiveAt.toISOString()}::timestamptz, ${page.after.id}::int)`
    : undefined;
  return db
    .select({
      profile: profiles,
      mainPhoto: main.fields,
      general: counting.count
        ? generalColumn(db, filter, counting.knownGeneral)
        : sql<number | null>`null::int`,
      deductions: counting.count ? deductionsCount(filter) : sql<number>`0`,
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .leftJoinLateral(main.subquery, sql`true`)
    .where(after ? and(where, after) : where)
    .orderBy(desc(profiles.lastActiveAt), desc(profiles.id))
    .limit(page.limit)
    .offset(page.after ? 0 : page.offset);
}

/** The answer's count from its two parts, or undefined when the deductions are too many to tell. */
function countFrom(general: number, deductions: number): { total: number; capped: boolean } | undefined {
  if (general >= generalCountLimit) {
    return deductions <= deductionsSlack ? { total: searchCountCap, capped: true } : undefined;
  }
  const exact = Math.max(0, general - deductions);
  return { total: Math.min(exact, searchCountCap), capped: exact > searchCountCap };
}

/**
 * One page of matches, recently active first, with a stable tie-break on id, each with its main
 * photo, and (unless `counting` says not to) the number of matches up to one past searchCountCap:
 * one statement, whose cost does not grow with the number of profiles beyond the cap.
 */
export async function searchProfiles(
  db: Executor,
  filter: SearchFilter,
  page: { limit: number; offset: number; after?: SearchCursor | undefined },
  counting: SearchCounting = { count: true },
): Promise<{ rows: { profile: ProfileRow; mainPhoto: PhotoRow | null }[] } & SearchCount> {
  const found = await searchPageQuery(db, filter, page, counting);
  const rows = found.map((row) => ({ profile: row.profile, mainPhoto: row.mainPhoto }));
  if (!counting.count) return { rows, total: rows.length, capped: false };
  // A page past the end has no row to carry the counts: count once more (rare: a stale page link).
  const parts =
    found[0] ??
    (page.offset > 0 || page.after
      ? (
          await db
            .select({
              general: generalColumn(db, filter, counting.knownGeneral),
              deductions: deductionsCount(filter),
            })
            .from(sql`(select 1) as one`)
        )[0]
      : undefined);
  // No match on the first page: none at all for this viewer (the general part, which may hold the
  // viewer's own profile, is not known, so nothing is kept).
  if (!parts) return { rows, total: 0, capped: false };
  const general = parts.general ?? counting.knownGeneral ?? 0;
  const fresh = parts.general === null ? {} : { general };
  const counted = countFrom(general, parts.deductions);
  if (counted) return { rows, ...counted, ...fresh };
  // A viewer who blocked more than the slack among many matches: count their own matches.
  const [own] = await db
    .select({ value: cappedCount(db, and(...conditions(filter)), searchCountCap + 1) })
    .from(sql`(select 1) as one`);
  const value = own?.value ?? 0;
  return { rows, total: Math.min(value, searchCountCap), capped: value > searchCountCap, ...fresh };
}
