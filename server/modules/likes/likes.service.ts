import {
  type LikesResponse,
  swipeLikesPerDay,
  type VisitorsResponse,
  visitorsPageSize,
} from '#contract/likes.ts';
import type { Profile } from '#contract/profiles.ts';
import type { Database, Executor, Transaction } from '#server/db/client.ts';
import type { ReadRouter } from '#server/db/read-router.ts';
import type { ProfileRow, UserRow } from '#server/db/schema/members.ts';
import type { PhotoRow } from '#server/db/schema/photos.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import type { ReportCaught } from '#server/lib/best-effort.ts';
import { addDays, type Clock, startOfDayIn } from '#server/lib/clock.ts';
import { AppError, NotFoundError, ValidationFailedError } from '#server/lib/errors.ts';
import type { EventBus } from '#server/lib/event-bus.ts';
import { publishToMember } from '#server/lib/member-events.ts';
import type { MediaStorage } from '#server/lib/storage.ts';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.ts';
import { toProfile } from '#server/modules/profiles/profile-view.ts';
import { BlockedError } from '#server/modules/profiles/profiles.errors.ts';
import {
  blockBetween,
  findProfileByUserId,
  findProfileWithOwner,
  mainPhotosOf,
  sessionProfileOf,
} from '#server/modules/profiles/profiles.service.ts';
import * as repo from './likes.repository.ts';

export class DailyLimitError extends AppError {
  override name = 'DailyLimitError';
  constructor() {
    super(429, 'daily_limit', { likes_left: 0 });
  }
}

/** Only the member's last pass can be taken back (not an older one, not after a like). */
export class UndoUnavailableError extends AppError {
  override name = 'UndoUnavailableError';
  constructor() {
    super(409, 'undo_unavailable');
  }
}

const swipeStackSize = 10;

/** The genders a member looks for, from the profile (null: everyone). */
function soughtGenders(profile: ProfileRow): ('male' | 'female')[] | null {
  if (profile.seeking === 'both' || !profile.seeking) return null;
  return [profile.seeking];
}

export class LikesService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly storage: MediaStorage,
    private readonly bus: EventBus,
    /** Logs and counts a like's or match's notification that failed (deps.caught). */
    private readonly reportCaught: ReportCaught,
    private readonly notifications?: NotificationsService,
    /** The likes lists are reads a replica may serve; writes stay on `db` (decision 056). */
    private readonly reads?: ReadRouter,
  ) {}

  private async own(member: UserRow): Promise<ProfileRow> {
    const profile = await findProfileByUserId(this.db, member.id);
    if (!profile) throw new NotFoundError();
    return profile;
  }

  private async present(rows: ProfileRow[], site: SiteRow): Promise<Profile[]> {
    const mains = await mainPhotosOf(
      this.db,
      rows.map((row) => row.id),
    );
    const ctx = { storage: this.storage, site, today: this.clock.now() };
    return rows.map((row) => toProfile(row, mains.get(row.id), ctx));
  }

  /** A like; a mutual like is a match, announced live to both members. */
  async like(
    member: UserRow,
    site: SiteRow,
    profileId: number,
    source: 'profile' | 'swipe' = 'profile',
  ): Promise<{ match: boolean; created: boolean }> {
    const me = await this.own(member);
    if (me.id === profileId) throw new ValidationFailedError({ profile: 'invalid' });
    const target = await findProfileWithOwner(this.db, profileId);
    if (
      target?.profile.status !== 'active' ||
      target.owner.status === 'deleted' ||
      target.owner.status === 'pending_deletion'
    ) {
      throw new NotFoundError();
    }
    const between = await blockBetween(this.db, me.id, profileId);
    if (between.bBlockedA) throw new BlockedError(target.profile.name);
    if (between.aBlockedB) throw new ValidationFailedError({ profile: 'invalid' });

    const like = { liker: me.id, liked: profileId, source, at: this.clock.now() };
    const created =
      source === 'swipe'
        ? await this.db.transaction(async (tx) => {
            // The member's row lock makes counting today's swipe likes and adding one a single step
            // (docs/decisions/009-limits-under-concurrency.md).
            await repo.lockLiker(tx, me.id);
            const since = startOfDayIn(site.timezone, like.at);
            if ((await repo.swipeLikesSince(tx, me.id, since)) >= swipeLikesPerDay)
              throw new DailyLimitError();
            return repo.insertLike(tx, like);
          })
        : await repo.insertLike(this.db, like);
    const match = await repo.likeExists(this.db, profileId, me.id);
    if (created) {
      const [mine, theirs] = await this.present([me, target.profile], site);
      if (mine) await publishToMember(this.bus, target.owner.id, { type: 'like', profile: mine });
      if (match && mine && theirs) {
        await publishToMember(this.bus, target.owner.id, { type: 'match', profile: mine });
        await publishToMember(this.bus, member.id, { type: 'match', profile: theirs });
      }
      const notify = match
        ? this.notifications?.onMatch({
            recipient: target.owner,
            site,
            otherName: me.name,
            otherProfileId: me.id,
          })
        : this.notifications?.onLike({
            recipient: target.owner,
            site,
            likerName: me.name,
            likerProfileId: me.id,
          });
      // The like is stored and answered; its notification is best effort, never silent.
      await notify?.catch((error: unknown) =>
        this.reportCaught(match ? 'notifications.match' : 'notifications.like', error),
      );
    }
    return { match, created };
  }

  async unlike(member: UserRow, profileId: number): Promise<void> {
    const me = await this.own(member);
    await repo.deleteLike(this.db, me.id, profileId);
  }

  async list(member: UserRow, site: SiteRow): Promise<LikesResponse> {
    const profile = await sessionProfileOf(this.db, member);
    if (!profile) throw new NotFoundError();
    // A member who just liked reads from the primary (read-your-writes), so a new match is there.
    const reader = this.reads ? this.reads.for(member.id) : this.db;
    const [given, received] = await Promise.all([
      repo.givenLikes(reader, profile.id),
      repo.receivedLikes(reader, profile.id),
    ]);
    const givenIds = new Set(given.map((row) => row.profile.id));
    const ctx = { storage: this.storage, site, today: this.clock.now() };
    const givenProfiles = given.map((row) => toProfile(row.profile, row.mainPhoto ?? undefined, ctx));
    const receivedProfiles = received.map((row) => toProfile(row.profile, row.mainPhoto ?? undefined, ctx));
    return {
      profiles: givenProfiles,
      liked_by: received.map((row) => ({ id: row.profile.id, like_new: row.isNew })),
      received: receivedProfiles,
      matches: receivedProfiles.filter((item) => givenIds.has(item.id)),
      new_matches: received
        .filter((row) => givenIds.has(row.profile.id) && !row.inConversation)
        .map((row) => row.profile.id),
    };
  }

  private async likesLeftToday(me: ProfileRow, site: SiteRow): Promise<number> {
    const used = await repo.swipeLikesSince(this.db, me.id, startOfDayIn(site.timezone, this.clock.now()));
    return Math.max(0, swipeLikesPerDay - used);
  }

  async swipeStack(member: UserRow, site: SiteRow) {
    const me = await this.own(member);
    const rows = await repo.swipeCandidates(this.db, me, {
      countries: site.countries,
      genders: soughtGenders(me),
      limit: swipeStackSize,
    });
    return { profiles: await this.present(rows, site), likes_left: await this.likesLeftToday(me, site) };
  }

  /**
   * A card of the swipe game: 4 likes a day (the day of the site's time zone); passes are free.
   * The count checked here answers early; like() checks it again under the member's row lock.
   */
  async swipe(member: UserRow, site: SiteRow, profileId: number, like: boolean) {
    const me = await this.own(member);
    if (!like) {
      if (!(await findProfileWithOwner(this.db, profileId))) throw new NotFoundError();
      // Under the same row lock as undoPass, so an undo never takes back an older pass.
      await this.db.transaction(async (tx) => {
        await repo.lockLiker(tx, me.id);
        await repo.insertPass(tx, me.id, profileId, this.clock.now());
      });
      return { likes_left: await this.likesLeftToday(me, site), match: false };
    }
    if ((await this.likesLeftToday(me, site)) <= 0) throw new DailyLimitError();
    const { match } = await this.like(member, site, profileId, 'swipe');
    return { likes_left: await this.likesLeftToday(me, site), match };
  }

  /**
   * Takes back the member's last pass, so the card comes back: only that pass, only while no swipe
   * like came after it, and once (parallel requests: one wins, under the member's row lock).
   */
  async undoPass(member: UserRow, site: SiteRow, profileId: number): Promise<{ profile: Profile }> {
    const me = await this.own(member);
    // A card that can no longer be shown (its owner left, or a block either way) never comes back.
    const target = await findProfileWithOwner(this.db, profileId);
    if (
      target?.profile.status !== 'active' ||
      target.owner.status === 'deleted' ||
      target.owner.status === 'pending_deletion'
    ) {
      throw new NotFoundError();
    }
    const between = await blockBetween(this.db, me.id, profileId);
    if (between.aBlockedB || between.bBlockedA) throw new NotFoundError();
    await this.db.transaction(async (tx) => {
      await repo.lockLiker(tx, me.id);
      const last = await repo.lastSwipes(tx, me.id);
      if (last.pass?.profileId !== profileId) throw new UndoUnavailableError();
      if (last.likeAt && last.likeAt > last.pass.at) throw new UndoUnavailableError();
      if (!(await repo.deletePass(tx, me.id, profileId))) throw new UndoUnavailableError();
    });
    const [profile] = await this.present([target.profile], site);
    if (!profile) throw new NotFoundError();
    return { profile };
  }

  /**
   * A profile that likes the member: the newest like not seen yet, or else (at most once a day) a
   * like from a fictional profile of the kind the member looks for. Null when there is none.
   */
  async autoLike(member: UserRow, site: SiteRow): Promise<Profile | null> {
    const me = await this.own(member);
    const pending = await repo.newestNewLike(this.db, me.id);
    if (pending) return (await this.present([pending], site))[0] ?? null;
    const now = this.clock.now();
    if ((await repo.autoLikesSince(this.db, me.id, addDays(now, -1))) > 0) return null;
    const liker = await repo.fictionalLikerFor(this.db, me, {
      countries: site.countries,
      genders: soughtGenders(me),
    });
    if (!liker) return null;
    await repo.insertLike(this.db, { liker: liker.id, liked: me.id, source: 'auto', at: now });
    const [profile] = await this.present([liker], site);
    if (profile) await publishToMember(this.bus, member.id, { type: 'like', profile });
    return profile ?? null;
  }

  /**
   * A fictional profile likes a member (an opener script's step), announced and notified as any
   * like. `within` runs first in the like's transaction (the script's stop rule and its record of the
   * step); what it throws stores nothing. False when the profile liked the member already.
   */
  async likeAsProfile(
    liker: ProfileRow,
    member: { user: UserRow; profile: ProfileRow },
    site: SiteRow,
    within: (tx: Transaction) => Promise<void>,
  ): Promise<boolean> {
    const at = this.clock.now();
    const created = await this.db.transaction(async (tx) => {
      await within(tx);
      return repo.insertLike(tx, { liker: liker.id, liked: member.profile.id, source: 'auto', at });
    });
    if (!created) return false;
    const [shown] = await this.present([liker], site);
    if (shown) await publishToMember(this.bus, member.user.id, { type: 'like', profile: shown });
    await this.notifications
      ?.onLike({ recipient: member.user, site, likerName: liker.name, likerProfileId: liker.id })
      .catch((error: unknown) => this.reportCaught('notifications.like', error));
    return true;
  }

  /**
   * A fictional profile visits a member's page (an opener script's step): recorded as any visit, so
   * it is listed in the member's visitors. `within` runs first in the same transaction.
   */
  async visitAsProfile(
    visitor: ProfileRow,
    visited: ProfileRow,
    within: (tx: Transaction) => Promise<void>,
  ): Promise<void> {
    const at = this.clock.now();
    await this.db.transaction(async (tx) => {
      await within(tx);
      await repo.recordVisit(tx, { visitor: visitor.id, visited: visited.id, at });
    });
  }

  /**
   * Records that `visitor` opened the page of profile `visited` ("who viewed me"). Not recorded:
   * a visit to oneself or to a fictional profile (nobody reads its list), and the visits of a
   * premium member who browses invisibly. The caller has checked that no block stands.
   */
  async recordVisit(viewer: UserRow, visitor: ProfileRow, visited: ProfileRow): Promise<void> {
    if (visitor.id === visited.id || visited.fictional) return;
    if (viewer.paidUser && visitor.browseInvisibly) return;
    await repo.recordVisit(this.db, { visitor: visitor.id, visited: visited.id, at: this.clock.now() });
  }

  /** Per member of the site, visits after `since` they have not seen yet (the visitors nudge). */
  unseenVisits(siteId: number, since: Date): Promise<repo.ActivityCount[]> {
    return repo.unseenVisitCounts(this.db, siteId, since);
  }

  /** Per member of the site, new likes after `since` and after their last activity (the likes nudge). */
  unseenLikes(siteId: number, since: Date): Promise<repo.ActivityCount[]> {
    return repo.unseenLikeCounts(this.db, siteId, since);
  }

  /**
   * The member's visitors, newest first. A free member sees how many and a veiled card per visit
   * (a blurred photo, age and region; no id, name or texts), a premium member who they are.
   * Opening the first page marks the visits so far as seen.
   */
  async visitors(member: UserRow, site: SiteRow, cursor?: string | undefined): Promise<VisitorsResponse> {
    const me = await this.own(member);
    const before = cursor ? parseVisitCursor(cursor) : undefined;
    const [rows, counts] = await Promise.all([
      repo.visitorsPage(this.db, me.id, { before, limit: visitorsPageSize + 1 }),
      repo.visitCounts(this.db, me.id, me.visitorsSeenAt),
    ]);
    if (!cursor) await repo.markVisitorsSeen(this.db, me.id, this.clock.now());
    const page = rows.slice(0, visitorsPageSize);
    const blurred = !member.paidUser;
    const ctx = { storage: this.storage, site, today: this.clock.now() };
    const last = page.at(-1);
    return {
      visitors: page.map((row) => {
        const shown = toProfile(row.profile, row.mainPhoto ?? undefined, ctx);
        return {
          profile: blurred ? veiled(shown, row.mainPhoto, ctx) : shown,
          visited_at: row.visitedAt.toISOString(),
          new: me.visitorsSeenAt === null || row.visitedAt > me.visitorsSeenAt,
        };
      }),
      total: counts.total,
      new_count: counts.fresh,
      blurred,
      next_cursor: rows.length > visitorsPageSize && last ? `${last.visitedAt.getTime()}.${last.id}` : null,
    };
  }
}

/** `<visited at, ms>.<visit id>` (the contract checked its form). */
function parseVisitCursor(cursor: string): { at: Date; id: number } {
  const [ms = '0', id = '0'] = cursor.split('.');
  return { at: new Date(Number(ms)), id: Number(id) };
}

/**
 * A visitor as a free member sees them: who it is stays hidden (no id, name, texts or details),
 * the photo is the blurred copy; age, region and presence tease.
 */
function veiled(
  profile: Profile,
  photo: PhotoRow | null,
  ctx: { storage: MediaStorage; site: SiteRow },
): Profile {
  const url = (key: string) => ctx.storage.url(key, ctx.site.cdnPrefix);
  // Field by field, never a copy of the profile: nothing it carries besides (an about text in other
  // languages, a field added later) can reach a member who may not know who visited.
  return {
    id: 0,
    name: '',
    age: profile.age,
    gender: profile.gender,
    seeking: null,
    sexuality: profile.sexuality,
    country: profile.country,
    countryregion: profile.countryregion,
    region_label: profile.region_label,
    status: profile.status,
    // Fictional profiles are disclosed wherever they appear, veiled or not.
    fictional: profile.fictional,
    main_image: photo
      ? {
          filename: url(photo.blurredKey),
          thumb_filename: url(photo.blurredThumbKey),
          match: url(photo.blurredKey),
        }
      : null,
    body_type: null,
    hair: null,
    eye_colour: null,
    relationship_status: null,
    tattoos: null,
    interests: [],
    about: null,
    last_active: profile.last_active,
    online: profile.online,
  };
}

/**
 * A member's visits for their data export: the profiles they visited (their own doing), and the
 * visits they got as counts per day only — who visited is the premium list's, never a download's.
 */
export async function visitsForExport(db: Executor, profileId: number) {
  const { made, received } = await repo.visitsForExport(db, profileId);
  return {
    made: made.map((row) => ({
      profile: row.profileId,
      name: row.name,
      visited_at: row.visitedAt.toISOString(),
    })),
    received_per_day: received.map((row) => ({ day: row.day, count: row.count })),
  };
}
