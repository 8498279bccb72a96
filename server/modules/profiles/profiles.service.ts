import type { OwnProfile, ProfileUpdate } from '#contract/profiles.ts';
import { photoLimits } from '#contract/profiles.ts';
import type { Database, Executor } from '#server/db/client.ts';
import type { ReadRouter } from '#server/db/read-router.ts';
import type { ProfileRow, UserRow } from '#server/db/schema/members.ts';
import type { PhotoRow } from '#server/db/schema/photos.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import type { Clock } from '#server/lib/clock.ts';
import { NotFoundError, ValidationFailedError } from '#server/lib/errors.ts';
import type { MediaStorage } from '#server/lib/storage.ts';
import { regionsOf } from '#server/modules/regions/regions.data.ts';
import { inPublicPool, toPhotos, toProfile, type ViewContext } from './profile-view.ts';
import { BlockedError, PremiumRequiredError } from './profiles.errors.ts';
import * as repo from './profiles.repository.ts';

export type ReportInput = {
  profile?: number | undefined;
  message?: number | undefined;
  reason: 'spam' | 'scam' | 'offensive' | 'underage' | 'other';
  text?: string | undefined;
};

const sexualityFor = (gender: string | null, seeking: string | null) =>
  !gender || !seeking
    ? undefined
    : seeking === 'both'
      ? ('bi' as const)
      : seeking === gender
        ? gender === 'male'
          ? ('gay' as const)
          : ('lesbian' as const)
        : ('hetero' as const);

/**
 * The profile read together with a member's session, kept with that member's row for the request
 * (the row object lives as long as the request that resolved it): hot read paths skip the query.
 * Other areas read the member's own profile through these (accounts remembers it, the lists read it).
 */
export type SessionProfile = { profile: ProfileRow | null; mainPhoto: PhotoRow | null };
const sessionProfiles = new WeakMap<UserRow, SessionProfile>();

/** Keeps the profile read with the member's session for the rest of the request (no statement). */
export function rememberSessionProfile(member: UserRow, own: SessionProfile): void {
  sessionProfiles.set(member, own);
}

/** The member's own profile for read-only paths: the one read with the session, else one query. */
export async function sessionProfileOf(db: Executor, member: UserRow): Promise<ProfileRow | undefined> {
  const known = sessionProfiles.get(member);
  if (known !== undefined) return known.profile ?? undefined;
  return repo.findProfileByUserId(db, member.id);
}

/** The profile read with this request's session, without a query: undefined when none was. */
export function rememberedSessionProfile(member: UserRow): ProfileRow | null | undefined {
  return sessionProfiles.get(member)?.profile;
}

/** The main photo of the member's own profile: the one read with the session, else one query. */
export async function sessionMainPhotoOf(
  db: Executor,
  member: UserRow,
  profileId: number,
): Promise<PhotoRow | undefined> {
  const known = sessionProfiles.get(member);
  if (known?.profile?.id === profileId) return known.mainPhoto ?? undefined;
  return repo.findMainPhoto(db, profileId);
}

// ---- what other areas read of profiles, on `db` or inside their own transaction

/** The member's profile as it is now, one statement, not locked; undefined when the member has none. */
export function findProfileByUserId(db: Executor, userId: number): Promise<ProfileRow | undefined> {
  return repo.findProfileByUserId(db, userId);
}

/**
 * A profile with its owner's user row, one statement, not locked; undefined for an unknown profile.
 * Neither status is checked: the caller decides what a disabled profile or a leaving owner means.
 */
export function findProfileWithOwner(
  db: Executor,
  profileId: number,
): Promise<{ profile: ProfileRow; owner: UserRow } | undefined> {
  return repo.findProfileWithOwner(db, profileId);
}

/** Whether either profile blocked the other, one statement: `aBlockedB` (a blocked b) and `bBlockedA`. */
export function blockBetween(
  db: Executor,
  a: number,
  b: number,
): Promise<{ aBlockedB: boolean; bBlockedA: boolean }> {
  return repo.blockBetween(db, a, b);
}

/**
 * The main photo (the first by position, then id) of each given profile that has one, in one
 * statement; none for an empty list, and none while it is not approved (as others see it).
 */
export function mainPhotosOf(db: Executor, profileIds: number[]): Promise<Map<number, PhotoRow>> {
  return repo.mainPhotosOf(db, profileIds);
}

export class ProfilesService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly storage: MediaStorage,
    /** Tells the chat lists that a member's list changed (ChatsService.listChanged). */
    private readonly chatListChanged: (userId: number) => Promise<void> = async () => {},
    /** Profile pages and lists are reads a replica may serve; writes stay on `db` (decision 056). */
    private readonly reads?: ReadRouter,
  ) {}

  /** The handle of a read for this viewer: a replica, unless they wrote lately or none is healthy. */
  private reader(viewer: UserRow | null): Database {
    return this.reads ? this.reads.for(viewer?.id) : this.db;
  }

  /**
   * Told of each visit of a member to another's page ("who viewed me", LikesService.recordVisit);
   * set where the services are made. A failure is reported, never shown to the visitor.
   */
  onVisit: ((viewer: UserRow, visitor: ProfileRow, visited: ProfileRow) => Promise<void>) | null = null;

  private ctx(site: SiteRow): ViewContext {
    return { storage: this.storage, site, today: this.clock.now() };
  }

  /** A profile's photos in their order (the back office's views of a profile). */
  photosOf(profileId: number): Promise<PhotoRow[]> {
    return repo.photosOf(this.db, profileId);
  }

  /**
   * The main photo of each profile that has one, in one statement: approved ones only, unless
   * `anyStatus` (the back office's own views).
   */
  mainPhotosOf(profileIds: number[], options: { anyStatus?: boolean } = {}): Promise<Map<number, PhotoRow>> {
    return repo.mainPhotosOf(this.db, profileIds, options);
  }

  async profileOf(member: UserRow): Promise<ProfileRow> {
    const profile = await repo.findProfileByUserId(this.db, member.id);
    if (!profile) throw new NotFoundError();
    return profile;
  }

  async own(member: UserRow, site: SiteRow): Promise<OwnProfile> {
    const profile = await this.profileOf(member);
    const photos = await repo.photosOf(this.db, profile.id);
    const ctx = this.ctx(site);
    return {
      ...toProfile(profile, photos[0], ctx),
      birthdate: profile.birthdate,
      photos: toPhotos(photos, { ...ctx, canSeePremium: true }),
      photo_limit: member.paidUser ? photoLimits.premium : photoLimits.free,
      public_profile: profile.publicProfile,
      browse_invisibly: profile.browseInvisibly,
    };
  }

  async update(member: UserRow, site: SiteRow, patch: ProfileUpdate): Promise<OwnProfile> {
    const profile = await this.profileOf(member);
    // Browsing invisibly is a premium right; turning it off is always allowed.
    if (patch.browse_invisibly && !member.paidUser) throw new PremiumRequiredError();
    const country = patch.country ?? profile.country;
    if (patch.country && !site.countries.includes(patch.country)) {
      throw new ValidationFailedError({ country: 'invalid' });
    }
    const region =
      patch.countryregion === undefined
        ? patch.country
          ? null
          : profile.countryregion
        : patch.countryregion;
    if (region && !regionsOf(country).some((candidate) => candidate.code === region)) {
      throw new ValidationFailedError({ countryregion: 'invalid' });
    }
    const gender = patch.gender ?? profile.gender;
    const seeking = patch.seeking ?? profile.seeking;
    await repo.updateProfile(this.db, profile.id, {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.gender !== undefined ? { gender: patch.gender } : {}),
      ...(patch.seeking !== undefined ? { seeking: patch.seeking } : {}),
      ...(sexualityFor(gender, seeking) ? { sexuality: sexualityFor(gender, seeking) } : {}),
      ...(patch.body_type !== undefined ? { bodyType: patch.body_type } : {}),
      ...(patch.hair !== undefined ? { hair: patch.hair } : {}),
      ...(patch.eye_colour !== undefined ? { eyeColour: patch.eye_colour } : {}),
      ...(patch.relationship_status !== undefined ? { relationshipStatus: patch.relationship_status } : {}),
      ...(patch.tattoos !== undefined ? { tattoos: patch.tattoos } : {}),
      ...(patch.interests !== undefined ? { interests: [...new Set(patch.interests)] } : {}),
      ...(patch.about !== undefined ? { about: patch.about || null, aboutTranslations: {} } : {}),
      ...(patch.public_profile !== undefined ? { publicProfile: patch.public_profile } : {}),
      ...(patch.browse_invisibly !== undefined ? { browseInvisibly: patch.browse_invisibly } : {}),
      country,
      countryregion: region,
    });
    return this.own(member, site);
  }

  /**
   * Another member's profile (screens members-id and likes-m-id). A member who blocked the viewer
   * is not shown; opening the profile of someone who liked you clears that like's new flag.
   */
  async view(viewer: UserRow | null, profileId: number, site: SiteRow) {
    const db = this.reader(viewer);
    const viewerProfile = viewer ? await sessionProfileOf(db, viewer) : undefined;
    // One statement for the profile, its photos, blocks and likes between the two (query budget).
    const found = await repo.profileForViewer(db, profileId, viewerProfile?.id);
    const own = viewerProfile?.id === profileId;
    if (
      !found ||
      (!own &&
        (found.profile.status !== 'active' ||
          found.owner.status === 'deleted' ||
          found.owner.status === 'pending_deletion'))
    ) {
      throw new NotFoundError();
    }
    // A visitor (where the site lets visitors search) sees only public profiles, never real members.
    if (!viewer && !inPublicPool(found.profile, found.owner)) throw new NotFoundError();
    let blocked = false;
    let liked = false;
    if (viewerProfile && !own) {
      if (found.blockedViewer) throw new BlockedError(found.profile.name);
      blocked = found.viewerBlocked;
      liked = found.liked;
      if (found.newLike) await repo.clearNewLike(this.db, profileId, viewerProfile.id);
      if (viewer && !blocked) await this.onVisit?.(viewer, viewerProfile, found.profile);
    }
    // Others see photos only once screened and approved, and none while the main one is not: the
    // next would take its place as the free photo.
    const photos = own
      ? found.photos
      : found.photos[0]?.status === 'approved'
        ? found.photos.filter((photo) => photo.status === 'approved')
        : [];
    const ctx = this.ctx(site);
    return {
      profile: toProfile(found.profile, photos[0], ctx),
      photos: toPhotos(photos, { ...ctx, canSeePremium: own || (viewer?.paidUser ?? false) }),
      liked,
      blocked,
    };
  }

  async block(member: UserRow, profileId: number): Promise<void> {
    const own = await this.profileOf(member);
    if (own.id === profileId) throw new ValidationFailedError({ profile: 'invalid' });
    const blocked = await repo.findProfileWithOwner(this.db, profileId);
    if (!blocked) throw new NotFoundError();
    await this.db.transaction(async (tx) => {
      await repo.insertBlock(tx, own.id, profileId, this.clock.now());
      await repo.removePairFromLists(tx, own.id, profileId);
    });
    // Their conversation with the blocker is gone from their list too.
    await this.chatListChanged(blocked.owner.id);
  }

  async unblock(member: UserRow, profileId: number): Promise<void> {
    const own = await this.profileOf(member);
    await repo.deleteBlock(this.db, own.id, profileId);
  }

  async blockedList(member: UserRow, site: SiteRow) {
    const own = await this.profileOf(member);
    const db = this.reader(member);
    const rows = await repo.blockedProfilesOf(db, own.id);
    const mains = await repo.mainPhotosOf(
      db,
      rows.map((row) => row.id),
    );
    const ctx = this.ctx(site);
    return rows.map((row) => toProfile(row, mains.get(row.id), ctx));
  }

  async report(member: UserRow, input: ReportInput): Promise<void> {
    let profileId = input.profile;
    if (input.message !== undefined) {
      // Only a message of one's own conversations can be reported; it reports its sender too.
      const own = await this.profileOf(member);
      const sender = await repo.senderOfVisibleMessage(this.db, input.message, own.id);
      if (sender === undefined) throw new NotFoundError();
      profileId = sender;
    }
    if (profileId === undefined || !(await repo.findProfileWithOwner(this.db, profileId)))
      throw new NotFoundError();
    await repo.insertReport(this.db, {
      reporterUserId: member.id,
      profileId,
      messageId: input.message ?? null,
      reason: input.reason,
      text: input.text?.trim() || null,
      createdAt: this.clock.now(),
    });
  }
}
