import type {
  AdminFictionalProfile,
  AdminFictionalProfileSummary,
  BulkProfiles,
  FictionalProfilesQuery,
} from '#contract/admin-sites.ts';
import { photoLimits } from '#contract/profiles.ts';
import type { Database } from '#server/db/client.ts';
import type { ProfileRow, UserRow } from '#server/db/schema/members.ts';
import type { PhotoRow } from '#server/db/schema/photos.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import type { StaffRow } from '#server/db/schema/staff.ts';
import { ageOn } from '#server/lib/age.ts';
import type { Clock } from '#server/lib/clock.ts';
import { AppError, NotFoundError, ValidationFailedError } from '#server/lib/errors.ts';
import type { MediaStorage } from '#server/lib/storage.ts';
import {
  type ProcessedPhoto,
  processPhoto,
  UnsupportedImageError,
} from '#server/modules/photos/photo-processing.ts';
import { storePhotoVariants, UnsupportedImageAppError } from '#server/modules/photos/photos.service.ts';
import type { ScreeningService } from '#server/modules/photos/screening.service.ts';
import { toProfile } from '#server/modules/profiles/profile-view.ts';
import type { ProfilesService } from '#server/modules/profiles/profiles.service.ts';
import { regionsOf } from '#server/modules/regions/regions.data.ts';
import type { SiteDirectory } from '#server/modules/sites/sites.service.ts';
import type { StaffService } from '#server/modules/staff/staff.service.ts';
import * as repo from './profiles-admin.repository.ts';
import { listSites } from './sites-admin.repository.ts';

const pageSize = 50;

export type FictionalInput = {
  site?: number | undefined;
  name?: string | undefined;
  gender?: 'male' | 'female' | undefined;
  seeking?: 'male' | 'female' | 'both' | undefined;
  sexuality?: ProfileRow['sexuality'] | undefined;
  date_of_birth?: string | undefined;
  country?: string | undefined;
  countryregion?: string | null | undefined;
  body_type?: string | null | undefined;
  hair?: string | null | undefined;
  eye_colour?: string | null | undefined;
  relationship_status?: string | null | undefined;
  tattoos?: string | null | undefined;
  interests?: string[] | undefined;
  about?: string | null | undefined;
  status?: 'active' | 'disabled' | undefined;
};

export class PhotoLimitReachedError extends AppError {
  override name = 'PhotoLimitReachedError';
  constructor() {
    super(422, 'photo_limit', { limit: photoLimits.premium });
  }
}

function profileColumns(input: FictionalInput): Partial<ProfileRow> {
  const columns: Partial<ProfileRow> = {};
  if (input.name !== undefined) columns.name = input.name;
  if (input.gender !== undefined) columns.gender = input.gender;
  if (input.seeking !== undefined) columns.seeking = input.seeking;
  if (input.sexuality !== undefined) columns.sexuality = input.sexuality;
  if (input.date_of_birth !== undefined) columns.birthdate = input.date_of_birth;
  if (input.country !== undefined) columns.country = input.country;
  if (input.countryregion !== undefined) columns.countryregion = input.countryregion || null;
  if (input.body_type !== undefined) columns.bodyType = input.body_type;
  if (input.hair !== undefined) columns.hair = input.hair;
  if (input.eye_colour !== undefined) columns.eyeColour = input.eye_colour;
  if (input.relationship_status !== undefined) columns.relationshipStatus = input.relationship_status;
  if (input.tattoos !== undefined) columns.tattoos = input.tattoos;
  if (input.interests !== undefined) columns.interests = [...new Set(input.interests)];
  if (input.about !== undefined) columns.about = input.about || null;
  if (input.status !== undefined) columns.status = input.status;
  return columns;
}

/**
 * Fictional profiles in the back office (moderators and admins): create, edit, disable, move to
 * another site, photos (the first free, the others premium), and what each profile earns.
 */
export class ProfilesAdminService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly storage: MediaStorage,
    private readonly sites: SiteDirectory,
    private readonly staff: StaffService,
    /** The profiles area: the main photo of each listed profile. */
    private readonly profiles: ProfilesService,
    /** Screens the photos staff add: scores for the back office, never a hold (they are staff's). */
    private readonly screening: ScreeningService,
  ) {}

  private async site(id: number): Promise<SiteRow> {
    const site = await this.sites.byId(id);
    if (!site) throw new ValidationFailedError({ site: 'unknown' });
    return site;
  }

  /** The rules between fields, on the profile as it will be. */
  private check(profile: Pick<ProfileRow, 'country' | 'countryregion' | 'birthdate'>, site: SiteRow): void {
    const fields: Record<string, string> = {};
    if (!site.countries.includes(profile.country)) fields.country = 'not_served';
    if (
      profile.countryregion &&
      !regionsOf(profile.country).some((region) => region.code === profile.countryregion)
    ) {
      fields.countryregion = 'invalid';
    }
    const age = ageOn(profile.birthdate, this.clock.now());
    if (age < site.minAge || age > 99) fields.date_of_birth = 'out_of_range';
    if (Object.keys(fields).length > 0) throw new ValidationFailedError(fields);
  }

  private async summaries(
    rows: { profile: ProfileRow; user: UserRow }[],
  ): Promise<AdminFictionalProfileSummary[]> {
    const ids = rows.map((row) => row.profile.id);
    const [stats, mains] = await Promise.all([
      repo.statsOf(this.db, ids),
      this.profiles.mainPhotosOf(ids, { anyStatus: true }),
    ]);
    const today = this.clock.now();
    const items: AdminFictionalProfileSummary[] = [];
    for (const { profile, user } of rows) {
      const site = (await this.sites.byId(user.siteId)) ?? (await this.sites.resolve(undefined));
      const numbers = stats.get(profile.id);
      items.push({
        ...toProfile(profile, mains.get(profile.id), { storage: this.storage, site, today }),
        site: { id: site.id, name: site.name },
        birthdate: profile.birthdate,
        stats: {
          conversations: numbers?.conversations ?? 0,
          messages_received: numbers?.received ?? 0,
          replies: numbers?.replies ?? 0,
          revenue_credits: numbers?.revenue ?? 0,
        },
      });
    }
    return items;
  }

  /** The sites a fictional profile can be on. */
  async siteChoices() {
    return (await listSites(this.db)).map((site) => ({
      id: site.id,
      name: site.name,
      countries: site.countries,
      min_age: site.minAge,
    }));
  }

  async list(query: FictionalProfilesQuery) {
    const { rows, total } = await repo.listFictional(
      this.db,
      { siteId: query.site, q: query.q, gender: query.gender, country: query.country, status: query.status },
      { limit: pageSize, offset: (query.page - 1) * pageSize },
    );
    return {
      profiles: await this.summaries(rows),
      total,
      page: query.page,
      pages: Math.max(1, Math.ceil(total / pageSize)),
    };
  }

  private photoViews(rows: PhotoRow[], site: SiteRow) {
    return rows.map((row, index) => ({
      id: row.id,
      filename: this.storage.url(row.mainKey, site.cdnPrefix),
      thumb_filename: this.storage.url(row.thumbKey, site.cdnPrefix),
      premium: index > 0,
      screening: row.screening,
    }));
  }

  async get(profileId: number): Promise<AdminFictionalProfile> {
    const found = await repo.findFictional(this.db, profileId);
    if (!found) throw new NotFoundError();
    const [summary] = await this.summaries([found]);
    const site = (await this.sites.byId(found.user.siteId)) ?? (await this.sites.resolve(undefined));
    return { ...summary!, photos: this.photoViews(await repo.photosOf(this.db, profileId), site) };
  }

  async create(
    actor: StaffRow,
    input: FictionalInput & {
      site: number;
      name: string;
      gender: 'male' | 'female';
      date_of_birth: string;
      country: string;
    },
    ip: string,
  ): Promise<AdminFictionalProfile> {
    const site = await this.site(input.site);
    const columns = profileColumns(input);
    const profile = {
      ...columns,
      name: input.name,
      gender: input.gender,
      seeking: input.seeking ?? (input.gender === 'male' ? 'female' : 'male'),
      birthdate: input.date_of_birth,
      country: input.country,
      countryregion: columns.countryregion ?? null,
    } as const;
    this.check(profile, site);
    const now = this.clock.now();
    const created = await this.db.transaction(async (tx) => {
      const row = await repo.insertFictional(
        tx,
        { siteId: site.id, status: 'active', language: site.domainLanguage, signupDate: now },
        { ...profile, lastActiveAt: now, createdAt: now },
      );
      await this.staff.audit(tx, {
        staffId: actor.id,
        action: 'profile.create',
        object: `profile:${row.profile.id}`,
        ip,
        detail: { site: site.id },
      });
      return row;
    });
    return this.get(created.profile.id);
  }

  async update(
    actor: StaffRow,
    input: FictionalInput & { id: number },
    ip: string,
  ): Promise<AdminFictionalProfile> {
    const { id, site: siteId, ...fields } = input;
    const columns = profileColumns(fields);
    await this.db.transaction(async (tx) => {
      const current = await repo.lockFictional(tx, id);
      if (!current) throw new NotFoundError();
      const found = await repo.findFictional(tx, id);
      const site = await this.site(siteId ?? found!.user.siteId);
      const next = { ...current, ...columns };
      // A region belongs to its country: a new country without a region clears the old one.
      if (
        columns.country !== undefined &&
        columns.countryregion === undefined &&
        columns.country !== current.country
      ) {
        next.countryregion = null;
        columns.countryregion = null;
      }
      // A rewritten about replaces the translations of the old one (shown to other languages).
      if (columns.about !== undefined && columns.about !== current.about) columns.aboutTranslations = {};
      this.check(next, site);
      await repo.updateFictional(tx, id, columns);
      if (siteId !== undefined && siteId !== found!.user.siteId) await repo.moveFictional(tx, [id], siteId);
      await this.staff.audit(tx, {
        staffId: actor.id,
        action: columns.status === 'disabled' ? 'profile.disable' : 'profile.update',
        object: `profile:${id}`,
        ip,
        detail: {
          fields: Object.keys(input)
            .filter((key) => key !== 'id')
            .sort()
            .join(','),
        },
      });
    });
    return this.get(id);
  }

  /** Disable, enable or move many fictional profiles at once; one audit entry per profile. */
  async bulk(actor: StaffRow, input: BulkProfiles, ip: string): Promise<number> {
    const ids = [...new Set(input.profiles)];
    if (input.action === 'move') await this.site(input.site);
    return this.db.transaction(async (tx) => {
      const changed =
        input.action === 'move'
          ? await repo.moveFictional(tx, ids, input.site)
          : await repo.setFictionalStatus(tx, ids, input.action === 'disable' ? 'disabled' : 'active');
      for (const profileId of changed) {
        await this.staff.audit(tx, {
          staffId: actor.id,
          action: `profile.${input.action}`,
          object: `profile:${profileId}`,
          ip,
          ...(input.action === 'move' ? { detail: { site: input.site } } : {}),
        });
      }
      return changed.length;
    });
  }

  /**
   * A photo for a fictional profile, processed like a member's (re-encoded, private original,
   * public blurred copies; docs/decisions/008-private-media.md). Premium (the default once the
   * profile has a photo) adds it last; `premium: false` makes it the free main photo.
   */
  async addPhoto(actor: StaffRow, profileId: number, data: Buffer, premium: boolean | undefined, ip: string) {
    const found = await repo.findFictional(this.db, profileId);
    if (!found) throw new NotFoundError();
    let processed: ProcessedPhoto;
    try {
      processed = await processPhoto(data);
    } catch (error) {
      if (error instanceof UnsupportedImageError) throw new UnsupportedImageAppError();
      throw error;
    }
    const keys = await storePhotoVariants(this.storage, processed);
    try {
      const photo = await this.db.transaction(async (tx) => {
        await repo.lockFictional(tx, profileId);
        const existing = await repo.photosOf(tx, profileId);
        if (existing.length >= photoLimits.premium) throw new PhotoLimitReachedError();
        if (premium === true && existing.length === 0) {
          throw new ValidationFailedError({ premium: 'needs_free_photo' });
        }
        const first = premium === false;
        if (first) {
          for (const [index, row] of existing.entries()) await repo.setPhotoPosition(tx, row.id, index + 1);
        }
        const row = await repo.insertPhoto(tx, {
          profileId,
          position: first ? 0 : existing.length,
          ...keys,
          width: processed.width,
          height: processed.height,
          createdAt: this.clock.now(),
        });
        await this.staff.audit(tx, {
          staffId: actor.id,
          action: 'profile.photo_add',
          object: `profile:${profileId}`,
          ip,
          detail: { photo: row.id, premium: !first && existing.length > 0 },
        });
        await this.screening.enqueue(tx, row.id);
        return { row, premium: !first && existing.length > 0 };
      });
      const site = (await this.sites.byId(found.user.siteId)) ?? (await this.sites.resolve(undefined));
      const [view] = this.photoViews([photo.row], site);
      return { ...view!, premium: photo.premium };
    } catch (error) {
      await Promise.all(Object.values(keys).map((key) => this.storage.remove(key)));
      throw error;
    }
  }

  async removePhoto(actor: StaffRow, profileId: number, photoId: number, ip: string): Promise<void> {
    const photo = await this.db.transaction(async (tx) => {
      if (!(await repo.lockFictional(tx, profileId))) throw new NotFoundError();
      const row = await repo.findPhoto(tx, profileId, photoId);
      if (!row) throw new NotFoundError();
      await repo.deletePhoto(tx, photoId);
      for (const [index, rest] of (await repo.photosOf(tx, profileId)).entries()) {
        if (rest.position !== index) await repo.setPhotoPosition(tx, rest.id, index);
      }
      await this.staff.audit(tx, {
        staffId: actor.id,
        action: 'profile.photo_remove',
        object: `profile:${profileId}`,
        ip,
        detail: { photo: photoId },
      });
      return row;
    });
    await Promise.all(
      [photo.mainKey, photo.thumbKey, photo.blurredKey, photo.blurredThumbKey].map((key) =>
        this.storage.remove(key),
      ),
    );
  }
}
