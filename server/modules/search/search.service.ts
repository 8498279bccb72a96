import type { Profile, SearchQuery, SearchResponse } from '#contract/profiles.ts';
import type { Database, Executor } from '#server/db/client.ts';
import type { ReadRouter } from '#server/db/read-router.ts';
import type { ProfileRow, UserRow } from '#server/db/schema/members.ts';
import type { PhotoRow } from '#server/db/schema/photos.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import { birthdateForAge } from '#server/lib/age.ts';
import type { Clock } from '#server/lib/clock.ts';
import { AuthenticationRequiredError, NotFoundError, ValidationFailedError } from '#server/lib/errors.ts';
import type { MediaStorage } from '#server/lib/storage.ts';
import { inPublicPool, toProfile } from '#server/modules/profiles/profile-view.ts';
import {
  blockBetween,
  findProfileByUserId,
  findProfileWithOwner,
  mainPhotosOf,
  sessionProfileOf,
} from '#server/modules/profiles/profiles.service.ts';
import {
  decodeSearchCursor,
  encodeSearchCursor,
  type SearchFilter,
  searchProfiles,
} from './search.repository.ts';
import { SearchCounts } from './search-counts.ts';

export const pageSize = 24;
/** Fewer results than this on the first page bring relaxed "similar" matches. */
const similarThreshold = 6;
const similarCount = 8;

/**
 * What a member's search starts from when the form says nothing: the gender they seek, their own
 * country (nearby first), and only people who seek the member's gender in turn (a straight man is
 * not shown lesbian profiles). Nothing until the member has said their gender and whom they seek.
 */
export function searchDefaults(
  viewer: ProfileRow | undefined,
  site: SiteRow,
): { gender?: 'male' | 'female'; country?: string; seekingGender?: 'male' | 'female' } {
  if (!viewer?.gender || !viewer.seeking) return {};
  return {
    ...(viewer.seeking === 'both' ? {} : { gender: viewer.seeking }),
    ...(site.countries.includes(viewer.country) ? { country: viewer.country } : {}),
    seekingGender: viewer.gender,
  };
}

/**
 * The first `limit` profiles that match a filter, in the search's order (recently active first, ties
 * by id), each with its main photo: one statement, prepared once per filter shape, and no count.
 * For other areas' lists of profiles (the landers).
 */
export async function profilesMatching(
  db: Executor,
  filter: SearchFilter,
  limit: number,
): Promise<{ profile: ProfileRow; mainPhoto: PhotoRow | null }[]> {
  const { rows } = await searchProfiles(db, filter, { limit, offset: 0 }, { count: false });
  return rows;
}

export class SearchService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly storage: MediaStorage,
    private readonly counts: SearchCounts = new SearchCounts(0, clock),
    /** Search, featured lists and landing profiles are reads a replica may serve (decision 056). */
    private readonly reads?: ReadRouter,
  ) {}

  /** The handle of a read for this viewer: a replica, unless they wrote lately or none is healthy. */
  private reader(viewer: UserRow | null): Database {
    return this.reads ? this.reads.for(viewer?.id) : this.db;
  }

  /** Whether this visitor may search without logging in (spec §6). */
  static visitorMaySearch(site: SiteRow, hasTrafficSource: boolean): boolean {
    return hasTrafficSource ? site.loggedOutSearchTrafficsource : site.loggedOutSearch;
  }

  async search(
    viewer: UserRow | null,
    site: SiteRow,
    query: SearchQuery,
    visitor: { hasTrafficSource: boolean },
  ): Promise<SearchResponse> {
    if (!viewer && !SearchService.visitorMaySearch(site, visitor.hasTrafficSource)) {
      throw new AuthenticationRequiredError();
    }
    const today = this.clock.now();
    const db = this.reader(viewer);
    const viewerProfile = viewer ? await sessionProfileOf(db, viewer) : undefined;
    const [minAge, maxAge] =
      query.min_age !== undefined && query.max_age !== undefined && query.min_age > query.max_age
        ? [query.max_age, query.min_age]
        : [query.min_age, query.max_age];
    const defaults = searchDefaults(viewerProfile, site);
    const gender = query.gender === 'any' ? undefined : (query.gender ?? defaults.gender);
    const country =
      query.country === 'any'
        ? undefined
        : query.country && site.countries.includes(query.country)
          ? query.country
          : query.country
            ? undefined
            : defaults.country;
    const filter: SearchFilter = {
      countries: site.countries,
      gender,
      seekingGender: defaults.seekingGender,
      country,
      countryregion: country ? query.countryregion : undefined,
      ...this.ages(minAge, maxAge),
      viewerProfileId: viewerProfile?.id,
      // Visitors (where the site lets them search) see only the public profiles, never real members.
      publicOnly: !viewer,
    };
    const after = query.cursor === undefined ? undefined : decodeSearchCursor(query.cursor);
    if (query.cursor !== undefined && !after) throw new ValidationFailedError({ cursor: 'invalid' });
    const countKey = this.counts.keyOf(filter);
    const { rows, total, capped, general } = await searchProfiles(
      db,
      filter,
      { limit: pageSize, offset: (query.page - 1) * pageSize, after },
      { count: true, knownGeneral: this.counts.get(countKey) },
    );
    if (general !== undefined) this.counts.set(countKey, general);
    const pages = Math.max(1, Math.ceil(total / pageSize));
    const last = rows.at(-1);
    const similarRows =
      query.page === 1 && !after && total < similarThreshold
        ? await this.similar(
            db,
            filter,
            { minAge, maxAge },
            rows.map((row) => row.profile.id),
          )
        : [];
    const ctx = { storage: this.storage, site, today };
    const present = (list: typeof rows): Profile[] =>
      list.map((row) => toProfile(row.profile, row.mainPhoto ?? undefined, ctx));
    return {
      profiles: present(rows),
      total,
      total_capped: capped,
      page: query.page,
      pages,
      next_cursor:
        last && rows.length === pageSize
          ? encodeSearchCursor({ lastActiveAt: last.profile.lastActiveAt, id: last.profile.id })
          : null,
      similar: present(similarRows),
      applied: {
        gender: gender ?? null,
        country: country ?? null,
        mutual: defaults.seekingGender !== undefined,
      },
    };
  }

  /**
   * Profiles for the home page, landers and the first matches after signup: only public ones
   * (fictional, or members who opted in), with a photo, of the visitor's country first, and for a
   * logged-in viewer neither the own profile nor anyone blocked either way.
   */
  async featured(site: SiteRow, country: string, limit: number, viewer: UserRow | null): Promise<Profile[]> {
    const db = this.reader(viewer);
    const viewerProfile = viewer ? await findProfileByUserId(db, viewer.id) : undefined;
    const base: SearchFilter = {
      countries: site.countries,
      withPhoto: true,
      publicOnly: true,
      viewerProfileId: viewerProfile?.id,
    };
    // Featured lists show no count: none is made.
    const { rows } = await searchProfiles(db, { ...base, country }, { limit, offset: 0 }, { count: false });
    const extra =
      rows.length < limit
        ? (
            await searchProfiles(
              db,
              { ...base, excludeIds: rows.map((row) => row.profile.id) },
              { limit: limit - rows.length, offset: 0 },
              { count: false },
            )
          ).rows
        : [];
    const ctx = { storage: this.storage, site, today: this.clock.now() };
    return [...rows, ...extra].map((row) => toProfile(row.profile, row.mainPhoto ?? undefined, ctx));
  }

  /**
   * One profile as a member landing page shows it (main photo only): only a public one (fictional,
   * or a member who opted in), active, of the site's countries, and not blocked either way with a
   * logged-in viewer. Anything else is not found, so real members' ids reveal nothing.
   */
  async publicProfile(site: SiteRow, profileId: number, viewer: UserRow | null): Promise<Profile> {
    const db = this.reader(viewer);
    const found = await findProfileWithOwner(db, profileId);
    if (
      found?.profile.status !== 'active' ||
      !inPublicPool(found.profile, found.owner) ||
      !site.countries.includes(found.profile.country)
    )
      throw new NotFoundError();
    const viewerProfile = viewer ? await findProfileByUserId(db, viewer.id) : undefined;
    if (viewerProfile && viewerProfile.id !== profileId) {
      const between = await blockBetween(db, viewerProfile.id, profileId);
      if (between.aBlockedB || between.bBlockedA) throw new NotFoundError();
    }
    const mains = await mainPhotosOf(db, [profileId]);
    return toProfile(found.profile, mains.get(profileId), {
      storage: this.storage,
      site,
      today: this.clock.now(),
    });
  }

  private ages(minAge: number | undefined, maxAge: number | undefined) {
    const today = this.clock.now();
    return {
      bornOnOrBefore: minAge !== undefined ? birthdateForAge(Math.max(18, minAge), today) : undefined,
      bornAfter: maxAge !== undefined ? birthdateForAge(maxAge + 1, today) : undefined,
    };
  }

  /** Relaxed matches: the whole country instead of the region, ages ±5 years, then all the site's countries. */
  private async similar(
    db: Database,
    filter: SearchFilter,
    ages: { minAge: number | undefined; maxAge: number | undefined },
    exclude: number[],
  ) {
    const wider = this.ages(
      ages.minAge === undefined ? undefined : ages.minAge - 5,
      ages.maxAge === undefined ? undefined : ages.maxAge + 5,
    );
    const steps: SearchFilter[] = [
      { ...filter, countryregion: undefined },
      { ...filter, countryregion: undefined, ...wider },
      {
        ...filter,
        countryregion: undefined,
        country: undefined,
        bornOnOrBefore: undefined,
        bornAfter: undefined,
      },
    ];
    const found: Awaited<ReturnType<typeof searchProfiles>>['rows'] = [];
    for (const step of steps) {
      const excludeIds = [...exclude, ...found.map((row) => row.profile.id)];
      const { rows } = await searchProfiles(
        db,
        { ...step, excludeIds },
        { limit: similarCount - found.length, offset: 0 },
        { count: false },
      );
      found.push(...rows);
      if (found.length >= similarCount) break;
    }
    return found;
  }
}
