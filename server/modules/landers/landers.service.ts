import path from 'node:path';
import { countryName } from '#contract/countries.ts';
import type { LanderMapResponse, LanderMediaResponse, LanderProfilesResponse } from '#contract/landers.ts';
import type { Locale } from '#contract/locales.ts';
import type { Database } from '#server/db/client.ts';
import type { UserRow } from '#server/db/schema/members.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import type { ReportCaught } from '#server/lib/best-effort.ts';
import type { Clock } from '#server/lib/clock.ts';
import type { MediaStorage } from '#server/lib/storage.ts';
import { toProfile } from '#server/modules/profiles/profile-view.ts';
import { findProfileByUserId } from '#server/modules/profiles/profiles.service.ts';
import { regionName } from '#server/modules/regions/regions.data.ts';
import { profilesMatching } from '#server/modules/search/search.service.ts';
import { selectedCountry } from '#server/modules/sites/sites.service.ts';
import { countryMap } from './lander-map.ts';
import { landerVideoKinds, landerVideoReady, makeLanderVideo } from './lander-video.ts';
import { fictionalCountsByRegion, fictionalPhotoKeys } from './landers.repository.ts';

/** Where the landers' made media live: DATA_DIR/assets/landers, served at /lander-media/. */
export const landerMediaPrefix = '/lander-media/';
export function landerMediaDir(dataDir: string): string {
  return path.join(dataDir, 'assets', 'landers');
}

const photosPerVideo = 6;
const retryAfterMs = 60_000;
/** Runs in progress and last attempts, per media folder: one run at a time in a process. */
const making = new Map<string, Promise<boolean>>();
const lastAttempt = new Map<string, number>();

/** The ad landing pages' data (spec §2): fictional profiles only, of the visitor's country. */
export class LandersService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly storage: MediaStorage,
    private readonly mediaDir: string,
    /** Logs and counts a failed making of the videos (deps.caught). */
    private readonly reportCaught: ReportCaught,
  ) {}

  async profiles(
    site: SiteRow,
    clientCountry: string | null,
    query: { limit: number; gender?: 'male' | 'female' | undefined; region?: string | undefined },
    viewer: UserRow | null,
  ): Promise<LanderProfilesResponse> {
    const country = selectedCountry(site, clientCountry);
    const viewerProfile = viewer ? await findProfileByUserId(this.db, viewer.id) : undefined;
    const rows = await profilesMatching(
      this.db,
      {
        countries: site.countries,
        country,
        countryregion: query.region,
        gender: query.gender,
        fictionalOnly: true,
        withPhoto: true,
        viewerProfileId: viewerProfile?.id,
      },
      query.limit,
    );
    const ctx = { storage: this.storage, site, today: this.clock.now() };
    return {
      country,
      profiles: rows.map((row) => toProfile(row.profile, row.mainPhoto ?? undefined, ctx)),
    };
  }

  /** The visitor's country as an SVG map with its regions and the fictional singles in each. */
  async map(site: SiteRow, clientCountry: string | null, locale: Locale): Promise<LanderMapResponse> {
    const country = selectedCountry(site, clientCountry);
    const geometry = await countryMap(country);
    const counts = new Map(
      (await fictionalCountsByRegion(this.db, country)).map((row) => [row.code, row.singles]),
    );
    const regions = (geometry?.regions ?? [])
      .map((region) => ({
        ...region,
        name: regionName(country, region.code, locale) ?? region.code,
        singles: counts.get(region.code) ?? 0,
      }))
      .sort((a, b) => b.singles - a.singles || a.name.localeCompare(b.name, locale));
    const focus = regions.find((region) => region.singles > 0)?.code ?? null;
    return {
      country,
      country_name: countryName(country, locale),
      view_box: geometry?.viewBox ?? '0 0 320 320',
      outline: geometry?.outline ?? '',
      regions,
      focus,
    };
  }

  /** The video landers' files; while they are missing, making them starts in the background. */
  media(): LanderMediaResponse {
    if (!landerVideoKinds.every((kind) => landerVideoReady(this.mediaDir, kind))) {
      // A failed run is tried again a minute later.
      this.ensureMedia().catch((error: unknown) => this.reportCaught('landers.videos', error));
      return { video: null, transitions: null };
    }
    const files = (kind: string) => ({
      src: `${landerMediaPrefix}${kind}.mp4`,
      poster: `${landerMediaPrefix}${kind}.jpg`,
    });
    return { video: files('video'), transitions: files('transitions') };
  }

  /**
   * Makes the lander videos once from the demo profiles' photos (cached in DATA_DIR/assets/landers):
   * true when they are there. One run at a time, and not again within a minute of a failed one.
   */
  ensureMedia(): Promise<boolean> {
    if (landerVideoKinds.every((kind) => landerVideoReady(this.mediaDir, kind))) return Promise.resolve(true);
    const running = making.get(this.mediaDir);
    if (running) return running;
    const now = this.clock.now().getTime();
    if (now - (lastAttempt.get(this.mediaDir) ?? 0) < retryAfterMs) return Promise.resolve(false);
    lastAttempt.set(this.mediaDir, now);
    const run = (async () => {
      const keys = await fictionalPhotoKeys(this.db, photosPerVideo);
      const photos = (await Promise.all(keys.map((key) => this.storage.get(key)))).filter(
        (photo): photo is Buffer => photo !== null,
      );
      if (photos.length < 2) return false;
      for (const kind of landerVideoKinds) {
        if (!landerVideoReady(this.mediaDir, kind)) await makeLanderVideo(this.mediaDir, kind, photos);
      }
      // Without ffmpeg (an image built without DEMO_VIDEOS) nothing was made: the landers show photos.
      return landerVideoKinds.every((kind) => landerVideoReady(this.mediaDir, kind));
    })().finally(() => making.delete(this.mediaDir));
    making.set(this.mediaDir, run);
    return run;
  }
}

export function landersServiceOf(deps: {
  db: Database;
  clock: Clock;
  storage: MediaStorage;
  config: { DATA_DIR: string };
  caught: { reportCaught: ReportCaught };
}): LandersService {
  return new LandersService(
    deps.db,
    deps.clock,
    deps.storage,
    landerMediaDir(deps.config.DATA_DIR),
    deps.caught.reportCaught,
  );
}
