import type { AdminConversation, ClaimResponse, InboxItem, Note, OperatorStats } from '#contract/admin.ts';
import { claimMinutes } from '#contract/admin.ts';
import type { Message } from '#contract/chats.ts';
import type { Database } from '#server/db/client.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import type { StaffRow } from '#server/db/schema/staff.ts';
import { addMinutes, type Clock } from '#server/lib/clock.ts';
import { AppError, NotFoundError } from '#server/lib/errors.ts';
import type { EventBus } from '#server/lib/event-bus.ts';
import { publishToMember } from '#server/lib/member-events.ts';
import { publishToStaff } from '#server/lib/staff-events.ts';
import type { MediaStorage } from '#server/lib/storage.ts';
import type { ChatsService } from '#server/modules/chats/chats.service.ts';
import { toProfile } from '#server/modules/profiles/profile-view.ts';
import type { ProfilesService } from '#server/modules/profiles/profiles.service.ts';
import type { SiteDirectory } from '#server/modules/sites/sites.service.ts';
import { hasRight, type StaffService } from '#server/modules/staff/staff.service.ts';
import * as repo from './operator.repository.ts';

/** Another operator holds the conversation. */
export class ClaimedError extends AppError {
  override name = 'ClaimedError';
  constructor(name: string) {
    super(409, 'claimed', { name });
  }
}

const inboxLimit = 200;

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return Math.round(sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2);
}

function waitedSeconds(detail: Record<string, unknown> | null): number | null {
  const value = detail?.waited_seconds;
  return typeof value === 'number' ? value : null;
}

/**
 * The operator console: the queue of members waiting for a fictional profile, exclusive claims,
 * the conversation view, replies as the fictional profile, notes and stats. Operators only ever
 * reach conversations between a member and a fictional profile.
 */
/** Whole seconds from `since` to `now` (null when there is no since). */
function secondsSince(since: Date | null, now: Date): number | null {
  return since ? Math.max(0, Math.round((now.getTime() - since.getTime()) / 1000)) : null;
}

export class OperatorService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly storage: MediaStorage,
    private readonly bus: EventBus,
    private readonly sites: SiteDirectory,
    private readonly chats: ChatsService,
    private readonly profiles: ProfilesService,
    private readonly staff: StaffService,
  ) {}

  private async conversation(id: number) {
    const found = await repo.findFictionalConversation(this.db, id);
    if (!found) throw new NotFoundError();
    return found;
  }

  private async siteOf(siteId: number): Promise<SiteRow> {
    const site = await this.sites.byId(siteId);
    if (!site) throw new NotFoundError();
    return site;
  }

  private liveClaim(row: {
    claimStaffId: number | null;
    claimStaffName: string | null;
    claimExpiresAt: Date | null;
  }) {
    const live =
      row.claimStaffId !== null && row.claimExpiresAt !== null && row.claimExpiresAt > this.clock.now();
    return {
      claimed_by: live ? { id: row.claimStaffId!, name: row.claimStaffName ?? '' } : null,
      claim_expires_at: live ? row.claimExpiresAt!.toISOString() : null,
    };
  }

  async inbox(filters: { site?: number | undefined; language?: string | undefined }): Promise<InboxItem[]> {
    const rows = await repo.waitingConversations(this.db, {
      siteId: filters.site,
      language: filters.language,
      limit: inboxLimit,
    });
    const mains = await this.profiles.mainPhotosOf(
      rows.flatMap((row) => [row.memberProfile.id, row.fictionalProfile.id]),
    );
    const lastMessages = new Map(
      (await this.chats.messagesByIds(rows.map((row) => row.lastMessageId))).map((message) => [
        message.id,
        message,
      ]),
    );
    const today = this.clock.now();
    const items: InboxItem[] = [];
    for (const row of rows) {
      const site = await this.siteOf(row.member.siteId);
      const last = lastMessages.get(row.lastMessageId);
      if (!last || !row.waitingSince) continue;
      const [lastMessage] = await this.chats.present([last], row.fictionalProfile.id, site);
      const ctx = { storage: this.storage, site, today };
      items.push({
        id: row.conversation.id,
        site: { id: site.id, name: site.name },
        member: toProfile(row.memberProfile, mains.get(row.memberProfile.id), ctx),
        member_language: row.member.language,
        profile: toProfile(row.fictionalProfile, mains.get(row.fictionalProfile.id), ctx),
        waiting_since: row.waitingSince.toISOString(),
        last_message: lastMessage!,
        ...this.liveClaim(row),
      });
    }
    return items;
  }

  /** Claims a conversation for five minutes (or renews the own claim); 409 claimed when another operator holds it. */
  async claim(actor: StaffRow, conversationId: number, ip: string): Promise<ClaimResponse> {
    await this.conversation(conversationId);
    const now = this.clock.now();
    const claim = await this.db.transaction(async (tx) => {
      const taken = await repo.takeClaim(tx, conversationId, actor.id, now, addMinutes(now, claimMinutes));
      if (taken) {
        await this.staff.audit(tx, {
          staffId: actor.id,
          action: 'claim',
          object: `conversation:${conversationId}`,
          ip,
        });
      }
      return taken;
    });
    if (!claim) {
      const holder = await repo.findClaim(this.db, conversationId, now);
      throw new ClaimedError(holder?.name ?? '');
    }
    const result = {
      conversation: conversationId,
      claimed_by: { id: actor.id, name: actor.name },
      claim_expires_at: claim.expiresAt.toISOString(),
    };
    await publishToStaff(this.bus, { type: 'claim', ...result });
    return result;
  }

  /** Whether the staff member holds a live claim on the conversation (live `message` events go to the holder only). */
  async holds(staffId: number, conversationId: number): Promise<boolean> {
    const claim = await repo.findClaim(this.db, conversationId, this.clock.now());
    return claim?.claim.staffId === staffId;
  }

  /** Gives the conversation back to the queue (the operator moved on without replying). */
  async release(actor: StaffRow, conversationId: number, ip: string): Promise<void> {
    const released = await this.db.transaction(async (tx) => {
      const done = await repo.releaseClaim(tx, conversationId, actor.id);
      if (done) {
        await this.staff.audit(tx, {
          staffId: actor.id,
          action: 'claim.release',
          object: `conversation:${conversationId}`,
          ip,
        });
      }
      return done;
    });
    if (released) {
      await publishToStaff(this.bus, {
        type: 'claim',
        conversation: conversationId,
        claimed_by: null,
        claim_expires_at: null,
      });
    }
  }

  /** The operator is typing: the claim is renewed and the member sees the profile typing. */
  async typing(actor: StaffRow, conversationId: number): Promise<void> {
    const found = await this.conversation(conversationId);
    const now = this.clock.now();
    const claim = await repo.takeClaim(this.db, conversationId, actor.id, now, addMinutes(now, claimMinutes));
    if (!claim) {
      const holder = await repo.findClaim(this.db, conversationId, now);
      throw new ClaimedError(holder?.name ?? '');
    }
    await publishToMember(this.bus, found.member.id, { type: 'typing', conversation: conversationId });
  }

  async view(actor: StaffRow, conversationId: number, ip: string): Promise<AdminConversation> {
    const found = await this.conversation(conversationId);
    const site = await this.siteOf(found.member.siteId);
    const rows = await this.chats.history(conversationId, 500);
    const ctx = { storage: this.storage, site, today: this.clock.now() };
    const mains = await this.profiles.mainPhotosOf([found.memberProfile.id, found.fictionalProfile.id]);
    const photos = await this.profiles.photosOf(found.fictionalProfile.id);
    const notes = await repo.notesAbout(this.db, found.memberProfile.id, found.fictionalProfile.id);
    await this.staff.audit(this.db, {
      staffId: actor.id,
      action: 'conversation.read',
      object: `conversation:${conversationId}`,
      ip,
    });
    return {
      conversation: { id: conversationId, site: { id: site.id, name: site.name }, ...this.liveClaim(found) },
      member: {
        profile: toProfile(found.memberProfile, mains.get(found.memberProfile.id), ctx),
        user: {
          id: found.member.id,
          status: found.member.status,
          credits: found.member.credits,
          paid_user: found.member.paidUser,
          language: found.member.language,
          signup_date: found.member.signupDate.toISOString(),
          last_seen: found.memberProfile.lastActiveAt.toISOString(),
        },
      },
      profile: toProfile(found.fictionalProfile, mains.get(found.fictionalProfile.id), ctx),
      profile_photos: photos.map((photo, index) => ({
        id: photo.id,
        filename: this.storage.url(photo.mainKey, site.cdnPrefix),
        thumb_filename: this.storage.url(photo.thumbKey, site.cdnPrefix),
        premium: index > 0,
        locked: false,
      })),
      messages: await this.chats.present(rows, found.fictionalProfile.id, site),
      notes: notes.map(({ note, by }) => ({
        id: note.id,
        about: note.about,
        text: note.text,
        by: { id: note.staffId, name: by },
        at: note.createdAt.toISOString(),
      })),
    };
  }

  /**
   * Sends as the fictional profile through the chat module's one send path: an ordinary message (no
   * credits move), committed together with the claim's check, its end and the audit entry, then
   * delivered live with the usual notification rules. 409 claimed while another operator holds it.
   */
  async reply(
    actor: StaffRow,
    input: { conversation: number; text?: string | undefined; photo?: number | undefined },
    ip: string,
  ): Promise<Message> {
    const found = await this.conversation(input.conversation);
    const site = await this.siteOf(found.member.siteId);
    if (found.member.status === 'deleted' || found.member.status === 'pending_deletion')
      throw new NotFoundError();
    const now = this.clock.now();
    let waitingSince: Date | null = null;
    const sent = await this.chats.sendMessage(
      {
        kind: 'staff',
        profile: found.fictionalProfile,
        beforeWrite: async (tx) => {
          const claim = await repo.takeClaim(
            tx,
            found.conversation.id,
            actor.id,
            now,
            addMinutes(now, claimMinutes),
          );
          if (!claim) {
            const holder = await repo.findClaim(tx, found.conversation.id, now);
            throw new ClaimedError(holder?.name ?? '');
          }
          waitingSince =
            (await repo.findFictionalConversation(tx, found.conversation.id))?.waitingSince ?? null;
        },
        afterWrite: async (tx, message) => {
          await repo.releaseClaim(tx, found.conversation.id);
          await this.staff.audit(tx, {
            staffId: actor.id,
            action: 'reply',
            object: `conversation:${found.conversation.id}`,
            ip,
            detail: { message: message.id, waited_seconds: secondsSince(waitingSince, now) },
          });
        },
      },
      site,
      { profile: found.memberProfile.id, text: input.text, photo: input.photo },
    );
    await publishToStaff(this.bus, {
      type: 'claim',
      conversation: found.conversation.id,
      claimed_by: null,
      claim_expires_at: null,
    });
    return sent.message;
  }

  /** A note about the member or the fictional profile; it shows in every conversation of that profile. */
  async addNote(
    actor: StaffRow,
    input: { conversation: number; about: 'member' | 'profile'; text: string },
    ip: string,
  ): Promise<Note> {
    const found = await this.conversation(input.conversation);
    const profileId = input.about === 'member' ? found.memberProfile.id : found.fictionalProfile.id;
    const note = await this.db.transaction(async (tx) => {
      const inserted = await repo.insertNote(tx, {
        about: input.about,
        profileId,
        staffId: actor.id,
        text: input.text,
        createdAt: this.clock.now(),
      });
      await this.staff.audit(tx, {
        staffId: actor.id,
        action: 'note.create',
        object: `profile:${profileId}`,
        ip,
        detail: { conversation: input.conversation, note: inserted.id },
      });
      return inserted;
    });
    return {
      id: note.id,
      about: note.about,
      text: note.text,
      by: { id: actor.id, name: actor.name },
      at: note.createdAt.toISOString(),
    };
  }

  /** Replies today and their median waiting time (own; every operator's for admins), and the queue per site. */
  async stats(actor: StaffRow): Promise<OperatorStats> {
    const now = this.clock.now();
    const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const replies = await repo.repliesSince(this.db, since);
    const summarize = (staffId: number) => {
      const own = replies.filter((reply) => reply.staffId === staffId);
      return {
        replies_today: own.length,
        median_reply_seconds: median(own.flatMap((reply) => waitedSeconds(reply.detail) ?? [])),
      };
    };
    const waiting = new Map<number, number>();
    for (const row of await repo.waitingConversations(this.db, { limit: 10_000 })) {
      waiting.set(row.member.siteId, (waiting.get(row.member.siteId) ?? 0) + 1);
    }
    const perSite = [];
    for (const [siteId, count] of waiting) {
      perSite.push({ site: siteId, name: (await this.sites.byId(siteId))?.name ?? '', count });
    }
    return {
      ...summarize(actor.id),
      waiting: perSite.sort((a, b) => a.site - b.site),
      ...(hasRight(actor.role, 'manage_staff')
        ? {
            operators: (await this.staff.list()).map((member) => ({
              id: member.id,
              name: member.name,
              role: member.role,
              ...summarize(member.id),
            })),
          }
        : {}),
    };
  }
}
