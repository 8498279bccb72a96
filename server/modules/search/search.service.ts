import type { Profile, SearchQuery, SearchResponse } from '#contract/profiles.ts';
import type { Database } from '#server/db/client.ts';
import type { UserRow } from '#server/db/schema/members.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import { birthdateForAge } from '#server/lib/age.ts';
import type { Clock } from '#server/lib/clock.ts';
import { AuthenticationRequiredError } from '#server/lib/errors.ts';
import type { MediaStorage } from '#server/lib/storage.ts';
import { toProfile } from '#server/modules/profiles/profile-view.ts';
import {
  findProfileByUserId,
  findProfileWithOwner,
  mainPhotosOf,
} from '#server/modules/profiles/profiles.repository.ts';
import { type SearchFilter, searchProfiles } from './search.repository.ts';

export const pageSize = 24;
/** Fewer results than this on the first page bring relaxed "similar" matches. */
const similarThreshold = 6;
const similarCount = 8;

export class SearchService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly storage: MediaStorage,
  ) {}

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
    const viewerProfile = viewer ? await findProfileByUserId(this.db, viewer.id) : undefined;
    const [minAge, maxAge] =
      query.min_age !== undefined && query.max_age !== undefined && query.min_age > query.max_age
        ? [query.max_age, query.min_age]
        : [query.min_age, query.max_age];
    const filter: SearchFilter = {
      countries: site.countries,
      gender: query.gender,
      country: query.country && site.countries.includes(query.country) ? query.country : undefined,
      countryregion: query.country ? query.countryregion : undefined,
      ...this.ages(minAge, maxAge),
      viewerProfileId: viewerProfile?.id,
    };
    const { rows, total } = await searchProfiles(this.db, filter, {
      limit: pageSize,
      offset: (query.page - 1) * pageSize,
    });
    const pages = Math.max(1, Math.ceil(total / pageSize));
    const similarRows =
      query.page === 1 && total < similarThreshold
        ? await this.similar(
            filter,
            { minAge, maxAge },
            rows.map((row) => row.id),
          )
        : [];
    const mains = await mainPhotosOf(
      this.db,
      [...rows, ...similarRows].map((row) => row.id),
    );
    const ctx = { storage: this.storage, site, today };
    const present = (list: typeof rows): Profile[] =>
      list.map((row) => toProfile(row, mains.get(row.id), ctx));
    return { profiles: present(rows), total, page: query.page, pages, similar: present(similarRows) };
  }

  /** Profiles for a landing page: active, with a photo, of the visitor's country first. */
  async featured(site: SiteRow, country: string, limit: number): Promise<Profile[]> {
    const { rows } = await searchProfiles(
      this.db,
      { countries: site.countries, country, withPhoto: true },
      { limit, offset: 0 },
    );
    const extra =
      rows.length < limit
        ? (
            await searchProfiles(
              this.db,
              { countries: site.countries, withPhoto: true, excludeIds: rows.map((row) => row.id) },
              { limit: limit - rows.length, offset: 0 },
            )
          ).rows
        : [];
    const all = [...rows, ...extra];
    const mains = await mainPhotosOf(
      this.db,
      all.map((row) => row.id),
    );
    const ctx = { storage: this.storage, site, today: this.clock.now() };
    return all.map((row) => toProfile(row, mains.get(row.id), ctx));
  }

  /** One active profile, as a landing page shows it to a visitor (main photo only). */
  async publicProfile(site: SiteRow, profileId: number): Promise<Profile | null> {
    const found = await findProfileWithOwner(this.db, profileId);
    if (!found || found.profile.status !== 'active' || !site.countries.includes(found.profile.country))
      return null;
    const mains = await mainPhotosOf(this.db, [profileId]);
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
      const excludeIds = [...exclude, ...found.map((row) => row.id)];
      const { rows } = await searchProfiles(
        this.db,
        { ...step, excludeIds },
        { limit: similarCount - found.length, offset: 0 },
      );
      found.push(...rows);
      if (found.length >= similarCount) break;
    }
    return found;
  }
}
