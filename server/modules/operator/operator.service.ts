import type {
  AdminConversation,
  AdminEvent,
  ClaimResponse,
  InboxItem,
  InboxOrder,
  InboxPage,
  Note,
  NoteCategory,
  OperatorStats,
  OperatorStatsQuery,
  Persona,
  PersonaFacts,
  Template,
} from '#contract/admin.ts';
import { claimMinutes, defaultMaxClaims, inboxPageSize } from '#contract/admin.ts';
import type { Message } from '#contract/chats.ts';
import type { Database } from '#server/db/client.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import type { PersonaSheetRow, ReplyTemplateRow, StaffRow } from '#server/db/schema/staff.ts';
import { addMinutes, type Clock } from '#server/lib/clock.ts';
import { toCsv } from '#server/lib/csv.ts';
import { AppError, NotFoundError, ValidationFailedError } from '#server/lib/errors.ts';
import type { EventBus } from '#server/lib/event-bus.ts';
import { publishToMember } from '#server/lib/member-events.ts';
import { publishToStaff } from '#server/lib/staff-events.ts';
import type { MediaStorage } from '#server/lib/storage.ts';
import type { ChatsService } from '#server/modules/chats/chats.service.ts';
import { toProfile } from '#server/modules/profiles/profile-view.ts';
import type { ProfilesService } from '#server/modules/profiles/profiles.service.ts';
import type { SiteDirectory } from '#server/modules/sites/sites.service.ts';
import { ForbiddenError } from '#server/modules/staff/staff.errors.ts';
import { hasRight, type StaffService } from '#server/modules/staff/staff.service.ts';
import type { StatsService } from '#server/modules/stats/stats.service.ts';
import * as repo from './operator.repository.ts';

/** Another operator holds the conversation. */
export class ClaimedError extends AppError {
  override name = 'ClaimedError';
  constructor(name: string) {
    super(409, 'claimed', { name });
  }
}

/** The caller already holds as many conversations as they may. */
export class ClaimLimitError extends AppError {
  override name = 'ClaimLimitError';
  constructor(limit: number) {
    super(409, 'claim_limit', { limit });
  }
}

/** Nothing waits that the caller may answer. */
export class QueueEmptyError extends AppError {
  override name = 'QueueEmptyError';
  constructor() {
    super(404, 'queue_empty');
  }
}

/** A queue page's cursor: the last row's keys of its order (operator.repository.ts QueueCursor). */
function encodeCursor(order: InboxOrder, row: repo.QueueRow): string {
  return order === 'value'
    ? `v.${row.tier}.${row.minute}.${-row.spentCents30d}.${row.conversation.id}`
    : `o.${row.micros}.${row.conversation.id}`;
}

function decodeCursor(order: InboxOrder, cursor: string | undefined): repo.QueueCursor | undefined {
  if (!cursor) return undefined;
  const parts = cursor.split('.');
  const int = (value: string | undefined) =>
    value !== undefined && /^-?\d{1,19}$/.test(value) ? value : null;
  if (order === 'value' && parts[0] === 'v' && parts.length === 5) {
    const [tier, minute, negSpent, id] = parts.slice(1).map(int);
    if (tier && minute && negSpent && id)
      return {
        kind: 'value',
        tier: Number(tier),
        minute: Number(minute),
        negSpent: Number(negSpent),
        id: Number(id),
      };
  }
  if (order === 'oldest' && parts[0] === 'o' && parts.length === 3) {
    const [micros, id] = parts.slice(1).map(int);
    if (micros && id) return { kind: 'oldest', micros, id: Number(id) };
  }
  throw new ValidationFailedError({ cursor: 'invalid' });
}

/** Admins answer every site and language; everyone else only their assignment (empty: all). */
function assignmentOf(actor: StaffRow): { sites: readonly number[]; languages: readonly string[] } {
  return hasRight(actor.role, 'manage_staff')
    ? { sites: [], languages: [] }
    : { sites: actor.sites, languages: actor.languages };
}

/** Whether the staff member may see and answer a conversation with this member. */
export function mayAnswer(actor: StaffRow, member: { siteId: number; language: string }): boolean {
  return repo.inAssignment(member, assignmentOf(actor));
}

/** Whether a fictional profile's site lies within the actor's sites (languages do not apply to profiles). */
function mayWriteAs(actor: StaffRow, profileSiteId: number): boolean {
  const { sites } = assignmentOf(actor);
  return sites.length === 0 || sites.includes(profileSiteId);
}

function toTemplate(row: ReplyTemplateRow): Template {
  return {
    id: row.id,
    site: row.siteId,
    language: row.language,
    title: row.title,
    text: row.text,
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A sheet's facts without empty fields: clearing a field removes it. */
function keptFacts(facts: PersonaFacts): PersonaFacts {
  return Object.fromEntries(Object.entries(facts).filter(([, value]) => value !== undefined && value !== ''));
}

function toPersona(
  profileId: number,
  found: { sheet: PersonaSheetRow; by: string | null } | undefined,
): Persona {
  if (!found) return { profile: profileId, facts: {}, updated_at: null, updated_by: null };
  return {
    profile: profileId,
    facts: found.sheet.facts,
    updated_at: found.sheet.updatedAt.toISOString(),
    updated_by: found.sheet.updatedBy !== null ? { id: found.sheet.updatedBy, name: found.by ?? '' } : null,
  };
}

/** How many of the member's other conversations and reports the dossier lists. */
const dossierListLimit = 20;

/**
 * The operator console: the queue of members waiting for a fictional profile, exclusive claims,
 * the conversation view, replies as the fictional profile, notes and stats. Operators only ever
 * reach conversations between a member and a fictional profile.
 */
/** The member's site and language of a conversation: whose staff a live event concerns. */
function scopeOf(found: { member: { siteId: number; language: string } }) {
  return { siteId: found.member.siteId, language: found.member.language };
}

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
    private readonly numbers: StatsService,
  ) {}

  /** A member ↔ fictional profile conversation the actor may answer; 404 for any other. */
  private async conversation(actor: StaffRow, id: number) {
    const found = await repo.findFictionalConversation(this.db, id);
    if (!found || !mayAnswer(actor, found.member)) throw new NotFoundError();
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

  /**
   * Queue rows as the console shows them, in a fixed number of statements however many there are:
   * the main photos in one, the gifts of the last messages in one (none without gifts); the sites
   * come from the site directory's snapshot (no statement).
   */
  private async present(rows: repo.QueueRow[]): Promise<InboxItem[]> {
    const mains = await this.profiles.mainPhotosOf([
      ...new Set(rows.flatMap((row) => [row.memberProfile.id, row.fictionalProfile.id])),
    ]);
    const gifts = await this.chats.giftsFor(rows.map((row) => row.lastMessage));
    const today = this.clock.now();
    // A queue shows the same few fictional profiles on many rows: each is built once per answer.
    const shown = new Map<number, ReturnType<typeof toProfile>>();
    const view = (profile: repo.QueueRow['memberProfile'], site: SiteRow) => {
      let built = shown.get(profile.id);
      if (!built) {
        built = toProfile(profile, mains.get(profile.id), { storage: this.storage, site, today });
        shown.set(profile.id, built);
      }
      return built;
    };
    const items: InboxItem[] = [];
    for (const row of rows) {
      const site = await this.siteOf(row.member.siteId);
      if (!row.conversation.waitingSince) continue;
      const [lastMessage] = await this.chats.present([row.lastMessage], row.fictionalProfile.id, site, gifts);
      items.push({
        id: row.conversation.id,
        site: { id: site.id, name: site.name },
        member: view(row.memberProfile, site),
        member_language: row.member.language,
        member_value: {
          credits: row.member.credits,
          paid_user: row.member.paidUser,
          spent_cents_30d: row.spentCents30d,
        },
        profile: view(row.fictionalProfile, site),
        waiting_since: row.conversation.waitingSince.toISOString(),
        last_message: lastMessage!,
        ...this.liveClaim(row),
      });
    }
    return items;
  }

  /**
   * The queue the actor may answer (their sites and languages): a page of the waiting conversations
   * nobody holds, in the asked order (api-contract.md, the workbench: `value` by default), and every
   * conversation an operator holds now in a list of its own.
   */
  async inbox(
    actor: StaffRow,
    query: {
      site?: number | undefined;
      language?: string | undefined;
      order: InboxOrder;
      cursor?: string | undefined;
    },
  ): Promise<InboxPage> {
    const scope = { siteId: query.site, language: query.language, ...assignmentOf(actor) };
    const now = this.clock.now();
    const after = decodeCursor(query.order, query.cursor);
    const [page, claimed] = await Promise.all([
      repo.waitingPage(this.db, scope, { order: query.order, after, limit: inboxPageSize + 1, now }),
      after === undefined ? repo.claimedRows(this.db, scope, now) : Promise.resolve([]),
    ]);
    const more = page.length > inboxPageSize;
    const rows = more ? page.slice(0, inboxPageSize) : page;
    const items = await this.present([...rows, ...claimed]);
    return {
      conversations: items.slice(0, rows.length),
      claimed: items.slice(rows.length),
      next_cursor: more ? encodeCursor(query.order, rows.at(-1)!) : null,
    };
  }

  /** The live frame for a queue change (staff socket relay), and whose assignment it concerns. */
  async queueEvent(
    conversationId: number,
  ): Promise<{ event: AdminEvent; scope: { siteId: number; language: string } | null }> {
    const row = await repo.queueRow(this.db, conversationId, this.clock.now());
    const [item] = row ? await this.present([row]) : [];
    if (!row || !item) {
      return { event: { type: 'inbox', op: 'remove', conversation: { id: conversationId } }, scope: null };
    }
    // A conversation enters the queue with the member's first message since the profile's last one;
    // the member's next messages update its row.
    const before = await repo.senderBefore(this.db, row.conversation.id, row.lastMessage.id);
    const op = before === undefined || before === row.fictionalProfile.id ? 'add' : 'update';
    return {
      event: { type: 'inbox', op, conversation: item },
      scope: { siteId: row.member.siteId, language: row.member.language },
    };
  }

  /**
   * How many conversations the staff member may hold at once when claiming one of this site's: their
   * account's limit, else the site's setting, else the default.
   */
  private async claimLimit(actor: StaffRow, siteId: number): Promise<number> {
    return actor.maxClaims ?? (await this.sites.byId(siteId))?.maxClaims ?? defaultMaxClaims;
  }

  /**
   * The best waiting conversation the actor may answer, claimed for them. One transaction: the
   * actor's row lock (so their parallel calls pass one at a time), the count of their claims against
   * the limit (409 claim_limit; the account's, else the candidate's site's), the best free conversation locked with SKIP LOCKED (parallel calls
   * of other operators take the next ones), and the claim. 404 queue_empty when nothing is left.
   */
  async next(
    actor: StaffRow,
    filters: { site?: number | undefined; language?: string | undefined },
    ip: string,
  ): Promise<InboxItem> {
    const scope = { siteId: filters.site, language: filters.language, ...assignmentOf(actor) };
    const now = this.clock.now();
    const expiresAt = addMinutes(now, claimMinutes);
    const claimed = await this.db.transaction(async (tx) => {
      await repo.lockStaff(tx, actor.id);
      const held = await repo.liveClaimCount(tx, actor.id, now);
      if (actor.maxClaims !== null && held >= actor.maxClaims) throw new ClaimLimitError(actor.maxClaims);
      // A candidate an operator claimed by hand meanwhile (POST claim.php takes no row lock on the
      // conversation) is passed over for the next one.
      for (let attempt = 0; attempt < 3; attempt++) {
        const best = await repo.lockBestWaiting(tx, scope, now);
        if (!best) return undefined;
        const limit = await this.claimLimit(actor, best.siteId);
        if (held >= limit) throw new ClaimLimitError(limit);
        if (await repo.takeClaim(tx, best.id, actor.id, now, expiresAt)) {
          await this.staff.audit(tx, {
            staffId: actor.id,
            action: 'claim',
            object: `conversation:${best.id}`,
            ip,
            detail: { via: 'next' },
          });
          return best.id;
        }
      }
      return undefined;
    });
    if (claimed === undefined) throw new QueueEmptyError();
    const row = await repo.queueRow(this.db, claimed, now);
    const [item] = row ? await this.present([row]) : [];
    if (!row || !item) throw new QueueEmptyError();
    await this.chats.markAnswering(item.profile.id);
    await publishToStaff(this.bus, {
      type: 'claim',
      conversation: claimed,
      claimed_by: { id: actor.id, name: actor.name },
      claim_expires_at: expiresAt.toISOString(),
      scope: { siteId: row.member.siteId, language: row.member.language },
    });
    return item;
  }

  /**
   * Claims a conversation for five minutes (or renews the own claim); 409 claimed when another
   * operator holds it, 409 claim_limit when a new claim would pass the actor's limit (counted under
   * the actor's row lock, as claim-next does).
   */
  async claim(actor: StaffRow, conversationId: number, ip: string): Promise<ClaimResponse> {
    const found = await this.conversation(actor, conversationId);
    const now = this.clock.now();
    const claim = await this.db.transaction(async (tx) => {
      await repo.lockStaff(tx, actor.id);
      const held = await repo.findClaim(tx, conversationId, now);
      if (held?.claim.staffId !== actor.id) {
        const limit = await this.claimLimit(actor, found.member.siteId);
        if ((await repo.liveClaimCount(tx, actor.id, now)) >= limit) throw new ClaimLimitError(limit);
      }
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
    await this.chats.markAnswering(found.fictionalProfile.id);
    const result = {
      conversation: conversationId,
      claimed_by: { id: actor.id, name: actor.name },
      claim_expires_at: claim.expiresAt.toISOString(),
    };
    await publishToStaff(this.bus, { type: 'claim', ...result, scope: scopeOf(found) });
    return result;
  }

  /**
   * Who holds a live claim on the conversation (live `message` events go to the holder only): one
   * statement per event, however many consoles are open.
   */
  async holder(conversationId: number): Promise<number | null> {
    const claim = await repo.findClaim(this.db, conversationId, this.clock.now());
    return claim?.claim.staffId ?? null;
  }

  /** Gives the conversation back to the queue (the operator moved on without replying). */
  async release(actor: StaffRow, conversationId: number, ip: string): Promise<void> {
    const found = await this.conversation(actor, conversationId);
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
        scope: scopeOf(found),
      });
    }
  }

  /** The operator is typing: the claim is renewed and the member sees the profile typing. */
  async typing(actor: StaffRow, conversationId: number): Promise<void> {
    const found = await this.conversation(actor, conversationId);
    const now = this.clock.now();
    const claim = await repo.takeClaim(this.db, conversationId, actor.id, now, addMinutes(now, claimMinutes));
    if (!claim) {
      const holder = await repo.findClaim(this.db, conversationId, now);
      throw new ClaimedError(holder?.name ?? '');
    }
    await publishToMember(this.bus, found.member.id, { type: 'typing', conversation: conversationId });
  }

  async view(actor: StaffRow, conversationId: number, ip: string): Promise<AdminConversation> {
    const found = await this.conversation(actor, conversationId);
    const site = await this.siteOf(found.member.siteId);
    const rows = await this.chats.history(conversationId, 500);
    const ctx = { storage: this.storage, site, today: this.clock.now() };
    const mains = await this.profiles.mainPhotosOf([found.memberProfile.id, found.fictionalProfile.id]);
    const photos = await this.profiles.photosOf(found.fictionalProfile.id);
    const memberPhotos = await this.profiles.photosOf(found.memberProfile.id);
    const notes = await repo.notesAbout(this.db, found.memberProfile.id, found.fictionalProfile.id);
    const spend = await repo.spendOf(this.db, found.member.id);
    const others = await repo.otherFictionalConversations(
      this.db,
      found.memberProfile.id,
      conversationId,
      dossierListLimit,
    );
    const reportRows = await repo.reportsAbout(this.db, found.memberProfile.id, dossierListLimit);
    const persona = await repo.findPersona(this.db, found.fictionalProfile.id);
    const memberProfile = toProfile(found.memberProfile, mains.get(found.memberProfile.id), ctx);
    const photoOf = (photo: (typeof photos)[number], index: number) => ({
      id: photo.id,
      filename: this.storage.url(photo.mainKey, site.cdnPrefix),
      thumb_filename: this.storage.url(photo.thumbKey, site.cdnPrefix),
      premium: index > 0,
      locked: false,
      status: photo.status,
      hold_reason: photo.holdReason,
    });
    await this.staff.audit(this.db, {
      staffId: actor.id,
      action: 'conversation.read',
      object: `conversation:${conversationId}`,
      ip,
    });
    return {
      conversation: { id: conversationId, site: { id: site.id, name: site.name }, ...this.liveClaim(found) },
      member: {
        profile: memberProfile,
        user: {
          id: found.member.id,
          status: found.member.status,
          credits: found.member.credits,
          paid_user: found.member.paidUser,
          language: found.member.language,
          signup_date: found.member.signupDate.toISOString(),
          last_seen: found.memberProfile.lastActiveAt.toISOString(),
        },
        dossier: {
          seeking: found.memberProfile.seeking,
          countryregion: memberProfile.region_label ?? found.memberProfile.countryregion,
          photos: memberPhotos.map(photoOf),
          spent_cents_total: spend.cents,
          last_purchase_at: spend.lastAt?.toISOString() ?? null,
          last_seen_at: found.memberProfile.lastActiveAt.toISOString(),
          online: memberProfile.online,
          conversations: others.map((other) => {
            const [id, ...name] = other.answeredBy?.split(':') ?? [];
            return {
              id: other.id,
              profile: { id: other.profileId, name: other.profileName },
              last_message_at: other.lastMessageAt?.toISOString() ?? null,
              answered_by: id ? { id: Number(id), name: name.join(':') } : null,
            };
          }),
          reports: reportRows.map((report) => ({
            id: report.id,
            reason: report.reason,
            at: report.at.toISOString(),
          })),
        },
      },
      profile: toProfile(found.fictionalProfile, mains.get(found.fictionalProfile.id), ctx),
      profile_photos: photos.map(photoOf),
      persona: toPersona(found.fictionalProfile.id, persona),
      messages: await this.chats.presentForStaff(rows, found.fictionalProfile.id, site),
      notes: notes.map(({ note, by }) => ({
        id: note.id,
        about: note.about,
        category: note.category,
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
    const found = await this.conversation(actor, input.conversation);
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
      scope: scopeOf(found),
    });
    return sent.message;
  }

  /** A note about the member or the fictional profile; it shows in every conversation of that profile. */
  async addNote(
    actor: StaffRow,
    input: { conversation: number; about: 'member' | 'profile'; category: NoteCategory; text: string },
    ip: string,
  ): Promise<Note> {
    const found = await this.conversation(actor, input.conversation);
    const profileId = input.about === 'member' ? found.memberProfile.id : found.fictionalProfile.id;
    const note = await this.db.transaction(async (tx) => {
      const inserted = await repo.insertNote(tx, {
        about: input.about,
        profileId,
        staffId: actor.id,
        category: input.category,
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
      category: note.category,
      text: note.text,
      by: { id: actor.id, name: actor.name },
      at: note.createdAt.toISOString(),
    };
  }

  /**
   * The templates of the sites and languages the actor answers (those for every site included);
   * asking for a site or language outside the assignment is 404, as its conversations are.
   */
  async templates(
    actor: StaffRow,
    query: { site?: number | undefined; language?: string | undefined },
  ): Promise<Template[]> {
    const assignment = assignmentOf(actor);
    if (query.site !== undefined && assignment.sites.length > 0 && !assignment.sites.includes(query.site))
      throw new NotFoundError();
    if (
      query.language !== undefined &&
      assignment.languages.length > 0 &&
      !assignment.languages.includes(query.language)
    )
      throw new NotFoundError();
    return (await repo.listTemplates(this.db, { ...assignment, ...query })).map(toTemplate);
  }

  private async checkTemplateSite(site: number | null | undefined): Promise<void> {
    if (site !== undefined && site !== null && !(await this.sites.byId(site)))
      throw new ValidationFailedError({ site: 'invalid' });
  }

  async createTemplate(
    actor: StaffRow,
    input: { site?: number | null | undefined; language: string; title: string; text: string },
    ip: string,
  ): Promise<Template> {
    if (!hasRight(actor.role, 'manage_templates')) throw new ForbiddenError();
    await this.checkTemplateSite(input.site);
    return this.db.transaction(async (tx) => {
      const row = await repo.insertTemplate(tx, {
        siteId: input.site ?? null,
        language: input.language,
        title: input.title,
        text: input.text,
        createdBy: actor.id,
        updatedAt: this.clock.now(),
      });
      await this.staff.audit(tx, {
        staffId: actor.id,
        action: 'template.create',
        object: `template:${row.id}`,
        ip,
      });
      return toTemplate(row);
    });
  }

  async updateTemplate(
    actor: StaffRow,
    input: {
      id: number;
      site?: number | null | undefined;
      language?: string | undefined;
      title?: string | undefined;
      text?: string | undefined;
    },
    ip: string,
  ): Promise<Template> {
    if (!hasRight(actor.role, 'manage_templates')) throw new ForbiddenError();
    await this.checkTemplateSite(input.site);
    return this.db.transaction(async (tx) => {
      const row = await repo.updateTemplate(tx, input.id, {
        ...(input.site !== undefined ? { siteId: input.site } : {}),
        ...(input.language !== undefined ? { language: input.language } : {}),
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.text !== undefined ? { text: input.text } : {}),
        updatedAt: this.clock.now(),
      });
      if (!row) throw new NotFoundError();
      await this.staff.audit(tx, {
        staffId: actor.id,
        action: 'template.update',
        object: `template:${row.id}`,
        ip,
      });
      return toTemplate(row);
    });
  }

  async deleteTemplate(actor: StaffRow, id: number, ip: string): Promise<void> {
    if (!hasRight(actor.role, 'manage_templates')) throw new ForbiddenError();
    await this.db.transaction(async (tx) => {
      if (!(await repo.deleteTemplate(tx, id))) throw new NotFoundError();
      await this.staff.audit(tx, {
        staffId: actor.id,
        action: 'template.delete',
        object: `template:${id}`,
        ip,
      });
    });
  }

  /** A fictional profile of a site the actor answers; 404 for members and for other sites' profiles. */
  private async fictionalProfileFor(actor: StaffRow, profileId: number) {
    const found = await repo.findFictionalProfile(this.db, profileId);
    if (!found || !mayWriteAs(actor, found.siteId)) throw new NotFoundError();
    return found;
  }

  async persona(actor: StaffRow, profileId: number): Promise<Persona> {
    await this.fictionalProfileFor(actor, profileId);
    return toPersona(profileId, await repo.findPersona(this.db, profileId));
  }

  /**
   * Writes a fictional profile's sheet whole. Operators who write as the profile keep it (they learn
   * what it has told members); the audit trail says who changed it.
   */
  async updatePersona(
    actor: StaffRow,
    input: { profile: number; facts: PersonaFacts },
    ip: string,
  ): Promise<Persona> {
    await this.fictionalProfileFor(actor, input.profile);
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      await repo.upsertPersona(tx, {
        profileId: input.profile,
        facts: keptFacts(input.facts),
        updatedBy: actor.id,
        updatedAt: now,
      });
      await this.staff.audit(tx, {
        staffId: actor.id,
        action: 'persona.update',
        object: `profile:${input.profile}`,
        ip,
      });
    });
    return toPersona(input.profile, await repo.findPersona(this.db, input.profile));
  }

  /**
   * The console's figures (replies today, their median wait, the queue per site) and the staff's
   * numbers over a range of UTC days (today when none): replies, conversations, median and 90th
   * percentile wait, earnings and reports, from the same attribution as the owner's numbers. Admins
   * see every staff member (or the one asked for); anyone else their own row only.
   */
  async stats(actor: StaffRow, query: OperatorStatsQuery = {}): Promise<OperatorStats> {
    const now = this.clock.now();
    const today = now.toISOString().slice(0, 10);
    const from = query.from ?? query.to ?? today;
    const to = query.to ?? (query.from && query.from > today ? query.from : today);
    // Leads see every operator's numbers, as admins do (staff.service.ts `supervise`).
    const seesAll = hasRight(actor.role, 'supervise');
    const [own, range] = await Promise.all([
      this.numbers.operatorNumbers({ from: today, to: today, siteIds: null, staffIds: [actor.id] }),
      this.numbers.operatorNumbers({
        from,
        to,
        siteIds: query.site !== undefined ? [query.site] : null,
        staffIds: seesAll ? (query.staff !== undefined ? [query.staff] : null) : [actor.id],
      }),
    ]);
    const mine = own[0];
    const perSite = [];
    for (const { siteId, count } of await repo.waitingPerSite(this.db)) {
      if (!repo.inAssignment({ siteId, language: '' }, { ...assignmentOf(actor), languages: [] })) continue;
      perSite.push({ site: siteId, name: (await this.sites.byId(siteId))?.name ?? '', count });
    }
    const found = new Map(range.map((row) => [row.staff.id, row]));
    const people = seesAll
      ? (await this.staff.list()).filter((member) => query.staff === undefined || member.id === query.staff)
      : [actor];
    const empty = {
      replies: 0,
      conversations: 0,
      median_reply_seconds: null,
      p90_reply_seconds: null,
      earned_credits: 0,
      reports: 0,
    };
    return {
      from,
      to,
      replies_today: mine?.replies ?? 0,
      median_reply_seconds: mine?.median_reply_seconds ?? null,
      waiting: perSite.sort((a, b) => a.site - b.site),
      operators: people
        .map((member) => {
          const { staff: _staff, ...numbers } = found.get(member.id) ?? { staff: null, ...empty };
          return { staff: { id: member.id, name: member.name, role: member.role }, ...numbers };
        })
        .sort(
          (a, b) => b.earned_credits - a.earned_credits || b.replies - a.replies || a.staff.id - b.staff.id,
        ),
    };
  }

  /** The staff rows of stats() as CSV. */
  async statsCsv(actor: StaffRow, query: OperatorStatsQuery): Promise<string> {
    const stats = await this.stats(actor, query);
    return toCsv([
      [
        'staff_id',
        'name',
        'role',
        'replies',
        'conversations',
        'median_reply_seconds',
        'p90_reply_seconds',
        'earned_credits',
        'reports',
      ],
      ...stats.operators.map((row) => [
        row.staff.id,
        row.staff.name,
        row.staff.role,
        row.replies,
        row.conversations,
        row.median_reply_seconds,
        row.p90_reply_seconds,
        row.earned_credits,
        row.reports,
      ]),
    ]);
  }
}
