import { and, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { type Executor, preparedPerConnection } from '#server/db/client.ts';
import { mainPhotoLateral } from '#server/db/fragments.ts';
import { type ProfileRow, profiles, users } from '#server/db/schema/members.ts';
import { type PhotoRow, photos } from '#server/db/schema/photos.ts';
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

const placeholder = sql.placeholder;

/**
 * The search's conditions with every value a placeholder (`placeholderValues` fills them): a search
 * runs as a statement prepared once per shape — which filters are present — instead of Drizzle
 * building the same SQL anew for every search (~1 ms of each at a million profiles).
 */
function conditions(filter: SearchFilter): SQL[] {
  const where: SQL[] = [
    eq(profiles.status, 'active'),
    sql`${profiles.country} = any(${placeholder('countries')}::text[])`,
    inArray(users.status, ['active', 'not_confirmed']),
  ];
  if (filter.gender) where.push(sql`${profiles.gender} = ${placeholder('gender')}`);
  if (filter.seekingGender)
    where.push(
      sql`(${profiles.seeking} is null or ${profiles.seeking} = any(${placeholder('seeking')}::text[]))`,
    );
  if (filter.country) where.push(sql`${profiles.country} = ${placeholder('country')}`);
  if (filter.countryregion) where.push(sql`${profiles.countryregion} = ${placeholder('countryregion')}`);
  if (filter.bornOnOrBefore) where.push(sql`${profiles.birthdate} <= ${placeholder('bornOnOrBefore')}::date`);
  if (filter.bornAfter) where.push(sql`${profiles.birthdate} > ${placeholder('bornAfter')}::date`);
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
  if (filter.excludeIds && filter.excludeIds.length > 0)
    where.push(sql`${profiles.id} <> all(${placeholder('excludeIds')}::int[])`);
  if (filter.viewerProfileId !== undefined) {
    const viewer = sql`${placeholder('viewer')}::int`;
    where.push(sql`${profiles.id} <> ${viewer}`);
    where.push(
      sql`not exists (select 1 from ${blocks} where (${blocks.blockerProfileId} = ${viewer} and ${blocks.blockedProfileId} = ${profiles.id}) or (${blocks.blockerProfileId} = ${profiles.id} and ${blocks.blockedProfileId} = ${viewer}))`,
    );
  }
  return where;
}

/** The placeholders' values of a search (extra ones are ignored by a statement that has no use for them). */
function placeholderValues(
  filter: SearchFilter,
  page?: { limit: number; offset: number; after?: SearchCursor | undefined },
): Record<string, unknown> {
  return {
    // An empty list matches nothing, as a site without countries should.
    countries: filter.countries.length > 0 ? filter.countries : ['--'],
    gender: filter.gender,
    seeking: filter.seekingGender ? [filter.seekingGender, 'both'] : undefined,
    country: filter.country,
    countryregion: filter.countryregion,
    bornOnOrBefore: filter.bornOnOrBefore,
    bornAfter: filter.bornAfter,
    excludeIds: filter.excludeIds,
    viewer: filter.viewerProfileId,
    limit: page?.limit,
    offset: page?.after ? 0 : page?.offset,
    afterAt: page?.after?.lastActiveAt.toISOString(),
    afterId: page?.after?.id,
  };
}

/**
 * What decides a search statement's text: which filters are present (not their values), whether a
 * page starts after a cursor, and what is counted. One prepared statement per shape and database.
 */
function shapeOf(filter: SearchFilter, parts: string[]): string {
  const flags = [
    filter.gender,
    filter.seekingGender,
    filter.country,
    filter.countryregion,
    filter.bornOnOrBefore,
    filter.bornAfter,
    filter.publicOnly,
    filter.fictionalOnly,
    filter.withPhoto,
    filter.excludeIds && filter.excludeIds.length > 0,
    filter.viewerProfileId !== undefined,
  ].reduce<number>((bits, present, index) => (present ? bits | (1 << index) : bits), 0);
  return [flags.toString(36), ...parts].join('_');
}

/** Shapes kept per database handle; past this (never reached by the app's own filters) it starts over. */
const shapesKept = 500;

/** Prepared statements by shape, per database handle (a transaction is a handle of its own). */
function statementsByShape<T>() {
  const perDatabase = preparedPerConnection(() => new Map<string, T>());
  return (db: Executor, shape: string, prepare: (name: string) => T): T => {
    const statements = perDatabase(db);
    let statement = statements.get(shape);
    if (statement === undefined) {
      if (statements.size >= shapesKept) statements.clear();
      statement = prepare(shape);
      statements.set(shape, statement);
    }
    return statement;
  };
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
  if (filter.viewerProfileId === undefined) return sql<number>`0`;
  const viewer = sql`${placeholder('viewer')}::int`;
  // Driven by the viewer's blocks (both indexes), never by the matches: a union, so a profile
  // blocked both ways is deducted once.
  return sql<number>`(select count(*) from (
      select ${viewer} as id
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
 * The statement of one result page, with placeholders (exported for the plan test: EXPLAIN must show
 * index scans). Keyset pages (`after`) read the rows after the cursor straight from the
 * (last_active_at desc, id desc) indexes; numbered pages skip `offset` rows.
 */
export function searchPageQuery(
  db: Executor,
  filter: SearchFilter,
  page: { after?: SearchCursor | undefined },
  counting: SearchCounting = { count: true },
) {
  const where = and(...conditions(filter));
  const main = mainPhotoLateral(db, profiles.id);
  const after = page.after
    ? sql`(${profiles.lastActiveAt}, ${profiles.id}) < (${placeholder('afterAt')}::timestamptz, ${placeholder('afterId')}::int)`
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
    .limit(placeholder('limit'))
    .offset(placeholder('offset'));
}

/** The values that fill searchPageQuery's placeholders. */
export function searchPageValues(
  filter: SearchFilter,
  page: { limit: number; offset: number; after?: SearchCursor | undefined },
): Record<string, unknown> {
  return placeholderValues(filter, page);
}

const countingShape = (counting: SearchCounting) =>
  !counting.count ? 'n' : counting.knownGeneral === undefined ? 'c' : 'k';

const pageStatements = statementsByShape<ReturnType<ReturnType<typeof searchPageQuery>['prepare']>>();

/**
 * A column of a statement without a table of its own. Drizzle writes the columns of a selected SQL
 * bare (`"id"`) when the statement has no join, and a bare id is ambiguous within the subqueries'
 * joins of profiles and users (SQLSTATE 42702): wrapped once more, the columns keep their tables.
 */
const ownColumn = <T>(value: SQL<T>): SQL<T> => sql<T>`(${value})`;

/** The count's parts alone: for a page past the end, which has no row to carry them. */
function countsQuery(db: Executor, filter: SearchFilter, knownGeneral: number | undefined) {
  return db
    .select({
      general: ownColumn(generalColumn(db, filter, knownGeneral)),
      deductions: ownColumn(deductionsCount(filter)),
    })
    .from(sql`(select 1) as one`);
}
const countsStatements = statementsByShape<ReturnType<ReturnType<typeof countsQuery>['prepare']>>();

/** The viewer's own matches up to one past the cap, when the deductions are too many to tell. */
function ownCountQuery(db: Executor, filter: SearchFilter) {
  return db
    .select({ value: cappedCount(db, and(...conditions(filter)), searchCountCap + 1) })
    .from(sql`(select 1) as one`);
}
const ownCountStatements = statementsByShape<ReturnType<ReturnType<typeof ownCountQuery>['prepare']>>();

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
  const values = placeholderValues(filter, page);
  const found = await pageStatements(
    db,
    shapeOf(filter, [page.after ? 'a' : 'o', countingShape(counting)]),
    (shape) => searchPageQuery(db, filter, page, counting).prepare(`search_${shape}`),
  ).execute(values);
  const rows = found.map((row) => ({ profile: row.profile, mainPhoto: row.mainPhoto }));
  if (!counting.count) return { rows, total: rows.length, capped: false };
  // A page past the end has no row to carry the counts: count once more (rare: a stale page link).
  const parts =
    found[0] ??
    (page.offset > 0 || page.after
      ? (
          await countsStatements(db, shapeOf(filter, [countingShape(counting)]), (shape) =>
            countsQuery(db, filter, counting.knownGeneral).prepare(`search_counts_${shape}`),
          ).execute(values)
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
  const [own] = await ownCountStatements(db, shapeOf(filter, []), (shape) =>
    ownCountQuery(db, filter).prepare(`search_own_${shape}`),
  ).execute(values);
  const ownCount = own?.value ?? 0;
  return { rows, total: Math.min(ownCount, searchCountCap), capped: ownCount > searchCountCap, ...fresh };
}
