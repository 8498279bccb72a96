import type { StaffMessage } from '#contract/admin.ts';
import type { ChatListItem, ChatResponse, Costs, Message, PhotoInReview } from '#contract/chats.ts';
import { chatHistoryLimit, chatListPageSize, chatPageSize } from '#contract/chats.ts';
import type { Database, Executor, Transaction } from '#server/db/client.ts';
import type { ReadRouter } from '#server/db/read-router.ts';
import type { ChatPhotoReviewRow, MessageRow } from '#server/db/schema/chats.ts';
import type { ProfileRow, UserRow } from '#server/db/schema/members.ts';
import type { PhotoHoldReason, PhotoScreening } from '#server/db/schema/photos.ts';
import type { PhotoScreeningSettings, SiteRow } from '#server/db/schema/sites.ts';
import type { ReportCaught } from '#server/lib/best-effort.ts';
import type { Clock } from '#server/lib/clock.ts';
import { AppError, NotFoundError, ValidationFailedError } from '#server/lib/errors.ts';
import type { EventBus } from '#server/lib/event-bus.ts';
import { publishToMember } from '#server/lib/member-events.ts';
import { publishToStaff } from '#server/lib/staff-events.ts';
import { type MediaStorage, newMediaKey } from '#server/lib/storage.ts';
import { lockUser } from '#server/modules/accounts/accounts.service.ts';
import { changeCredits, InsufficientCreditsError } from '#server/modules/credits/credits.service.ts';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.ts';
import {
  type ProcessedPhoto,
  processPhoto,
  UnsupportedImageError,
} from '#server/modules/photos/photo-processing.ts';
import { UnsupportedImageAppError } from '#server/modules/photos/photos.service.ts';
import { toProfile } from '#server/modules/profiles/profile-view.ts';
import { BlockedError, PremiumRequiredError } from '#server/modules/profiles/profiles.errors.ts';
import {
  blockBetween,
  findProfileByUserId,
  findProfileWithOwner,
  sessionProfileOf,
} from '#server/modules/profiles/profiles.service.ts';
import { selectedCountry } from '#server/modules/sites/sites.service.ts';
import { isStaffed } from '#server/modules/sites/staffing.ts';
import { ChatListCache } from './chat-list-cache.ts';
import * as held from './chat-photo-reviews.repository.ts';
import type { GiftRow } from './chats.repository.ts';
import * as repo from './chats.repository.ts';

/** Nobody can reply to a member who has not confirmed the e-mail address yet. */
export class RecipientNotConfirmedError extends AppError {
  override name = 'RecipientNotConfirmedError';
  constructor(name: string) {
    super(403, 'not_confirmed', { name }, 'recipient_not_confirmed');
  }
}

/** A strike suspended the member's posting of messages until the given time (decision 054). */
export class PostingSuspendedError extends AppError {
  override name = 'PostingSuspendedError';
  constructor(until: Date) {
    super(403, 'posting_suspended', { until: until.toISOString() });
  }
}

/**
 * Who sends a message: a member, or staff writing as a fictional profile. Staff steps run inside the
 * send's transaction — `beforeWrite` before the message is written (an operator's claim), `afterWrite`
 * after (the claim's end, the audit entry); throwing from either sends nothing.
 */
export type MessageSender =
  | { kind: 'member'; member: UserRow }
  | {
      kind: 'staff';
      /** The fictional profile that writes. */
      profile: ProfileRow;
      /**
       * A message no one typed just now (an opener script, a mass message): it leaves the profile's
       * presence alone, since "online" promises that someone can answer.
       */
      automated?: boolean;
      beforeWrite?: (tx: Transaction) => Promise<void>;
      afterWrite?: (tx: Transaction, message: MessageRow) => Promise<void>;
    };

export type SendInput = {
  profile: number;
  text?: string | undefined;
  photo?: number | undefined;
  gift?: number | undefined;
  /** The client's idempotency key: a repeat returns the first message and charges nothing again. */
  client_id?: string | undefined;
};

/** What screens a chat photo before it is sent (photos/screening.service.ts `check`). */
export type ChatPhotoScreening = {
  check(
    image: Buffer,
    settings: PhotoScreeningSettings,
  ): Promise<{ reason: PhotoHoldReason | null; screening: PhotoScreening }>;
};

/** A moderator decided on a held chat photo twice at once, or after another: the first decision stands. */
export class PhotoDecidedError extends AppError {
  override name = 'PhotoDecidedError';
  constructor() {
    super(409, 'photo_decided');
  }
}

type Upload = {
  mainKey: string;
  thumbKey: string;
  /** Set when the screening held the photo: it waits for a moderator instead of being sent. */
  review?: { reason: PhotoHoldReason; screening: PhotoScreening } | undefined;
};

/** A photo taken or picked on the device for one chat message (never added to the profile). */
export type SendUploadInput = { profile: number; client_id?: string | undefined };

const phonePattern = /(?:\+|\b00)?\d[\d\s().-]{7,}\d/;
const emailPattern = /[\w.+-]+@[\w-]+\.[\w.-]+/;

/** A gentle hint for the sender: the text seems to share a phone number or an e-mail address. */
export function sharesContactDetails(text: string): boolean {
  return phonePattern.test(text) || emailPattern.test(text);
}

/** A gift's own names per language (set in the back office); the built-in gifts fall back to i18n keys. */
function giftNames(names: Partial<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(names).flatMap(([locale, name]) => (name ? [[locale, name]] : [])),
  );
}

type Counterpart = NonNullable<Awaited<ReturnType<typeof repo.counterpartOf>>>;

/**
 * The other member of a send or an open, checked: present, not blocked either way. A member who has
 * not confirmed the e-mail address keeps a disabled profile; in a conversation they wrote in, that
 * member is still the counterpart (so a reply gets not_confirmed, not not_found), to anybody else not
 * found.
 */
function checkedCounterpart(other: Counterpart | undefined): Counterpart {
  if (!other || other.owner.status === 'deleted' || other.owner.status === 'pending_deletion') {
    throw new NotFoundError();
  }
  if (
    other.profile.status !== 'active' &&
    !(other.owner.status === 'not_confirmed' && other.hasConversation)
  ) {
    throw new NotFoundError();
  }
  if (other.bBlockedA) throw new BlockedError(other.profile.name);
  if (other.aBlockedB) throw new ValidationFailedError({ profile: 'invalid' });
  return other;
}

/** What became of a held chat photo once decided. */
export type HeldPhotoOutcome = Exclude<ChatPhotoReviewRow['status'], 'held'>;

/** Whether a held photo may still reach its recipient: present, active, no block either way. */
function deliverable(other: Counterpart | undefined): boolean {
  if (!other || other.owner.status === 'deleted' || other.owner.status === 'pending_deletion') return false;
  return other.profile.status === 'active' && !other.aBlockedB && !other.bBlockedA;
}

export class ChatsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly storage: MediaStorage,
    private readonly bus: EventBus,
    private readonly reportCaught: ReportCaught,
    private readonly notifications?: NotificationsService,
    private readonly lists: ChatListCache = new ChatListCache(0),
    /** The conversation list is a read a replica may serve; writes stay on `db` (decision 056). */
    private readonly reads?: ReadRouter,
  ) {}

  /** Screens device photos before they are sent; without it (some tests) every photo is sent. */
  screening: ChatPhotoScreening | undefined;

  /** Messages by id, in no order (the operators' queue shows each conversation's last one). */
  messagesByIds(ids: number[]): Promise<MessageRow[]> {
    return repo.messagesByIds(this.db, ids);
  }

  /** The gifts of these messages in one statement (none without gifts), to present many at once. */
  giftsFor(rows: Pick<MessageRow, 'giftId'>[]): Promise<GiftRow[]> {
    return repo.giftsByIds(this.db, [...new Set(rows.flatMap((row) => (row.giftId ? [row.giftId] : [])))]);
  }

  /** The newest `limit` messages of a conversation, oldest first, as staff read it (nothing cleared). */
  history(conversationId: number, limit: number): Promise<MessageRow[]> {
    return repo.messagesPage(this.db, conversationId, { clearedMessageId: 0, limit, oldestAllowedId: 0 });
  }

  /** Messages as the staff views show them: each also tells whether no one typed it (automated). */
  async presentForStaff(rows: MessageRow[], viewer: number, site: SiteRow): Promise<StaffMessage[]> {
    const shown = await this.present(rows, viewer, site);
    return shown.map((message, index) => ({ ...message, automated: rows[index]?.automated === true }));
  }

  /** A member's conversation list changed without a request of theirs (chat-list-cache.ts). */
  async listChanged(userId: number): Promise<void> {
    await this.lists.changed(this.bus, userId);
  }

  private async own(member: Pick<UserRow, 'id'>): Promise<ProfileRow> {
    const profile = await findProfileByUserId(this.db, member.id);
    if (!profile) throw new NotFoundError();
    return profile;
  }

  /** The own profile for read-only calls: the one read with the session when there is one. */
  private async ownForRead(member: UserRow): Promise<ProfileRow> {
    const profile = await sessionProfileOf(this.db, member);
    if (!profile) throw new NotFoundError();
    return profile;
  }

  private url(key: string, site: SiteRow) {
    return this.storage.url(key, site.cdnPrefix);
  }

  /** Messages as the viewing profile sees them (also used by the operator console, viewing as the fictional profile). */
  async present(
    rows: (Omit<MessageRow, 'clientId' | 'automated'> &
      Partial<Pick<MessageRow, 'clientId' | 'automated'>>)[],
    viewer: number,
    site: SiteRow,
    known?: GiftRow[],
  ): Promise<Message[]> {
    const gifts = new Map(
      (
        known ??
        (await repo.giftsByIds(this.db, [
          ...new Set(rows.flatMap((row) => (row.giftId ? [row.giftId] : []))),
        ]))
      ).map((gift) => [gift.id, gift]),
    );
    return rows.map((row) => {
      const gift = row.giftId ? gifts.get(row.giftId) : undefined;
      return {
        id: row.id,
        conversation: row.conversationId,
        mine: row.senderProfileId === viewer,
        kind: row.kind,
        text: row.text,
        photo:
          row.photoKey && row.photoThumbKey
            ? { filename: this.url(row.photoKey, site), thumb_filename: this.url(row.photoThumbKey, site) }
            : null,
        gift: gift
          ? {
              id: gift.id,
              slug: gift.slug,
              image: this.url(gift.imageKey, site),
              names: giftNames(gift.names),
            }
          : null,
        credits: row.credits,
        created_at: row.createdAt.toISOString(),
        ...(row.senderProfileId === viewer && row.clientId ? { client_id: row.clientId } : {}),
      };
    });
  }

  async costs(member: UserRow, site: SiteRow, geoipCountry: string | null): Promise<Costs> {
    const me = await this.own(member);
    const used = member.paidUser ? site.freeMessages : await repo.countFreeMessagesUsed(this.db, me.id);
    return this.costsAfter(member, site, geoipCountry, used);
  }

  /** The costs, given the free texts the member used so far. */
  private costsAfter(member: UserRow, site: SiteRow, geoipCountry: string | null, used: number): Costs {
    return {
      message: site.messageCredits,
      photo: site.photoCredits,
      gift: site.giftCredits,
      free_messages_left: member.paidUser ? 0 : Math.max(0, site.freeMessages - used),
      minimum_message_cost: site.minimumMessageCosts[selectedCountry(site, geoipCountry)] ?? null,
    };
  }

  /** The other member of an open or an upload, checked (a send reads them with its lock). */
  private async counterpart(me: ProfileRow, profileId: number) {
    if (profileId === me.id) throw new ValidationFailedError({ profile: 'invalid' });
    // One statement: the profile, its owner, blocks either way and whether the pair has a conversation.
    return checkedCounterpart(await repo.counterpartOf(this.db, me.id, profileId));
  }

  /**
   * The conversation's state for a send, read under the sender's row lock, and the conversation made
   * when there is none yet (see findOrStart).
   */
  private async sendStateOrStart(
    tx: Executor,
    member: UserRow,
    site: SiteRow,
    me: ProfileRow,
    otherId: number,
    options: { countFree: boolean; clientId: string | undefined },
  ) {
    const state = await repo.sendState(tx, me.id, otherId, {
      countFree: options.countFree,
      countStarted: !member.paidUser,
      clientId: options.clientId,
    });
    if (state.earlierId !== null) return { earlierId: state.earlierId } as const;
    return { earlierId: null, ...(await this.startUnlessWritten(tx, member, site, me, otherId, state)) };
  }

  /**
   * The conversation with a member, made when there is none yet. A conversation counts toward the
   * free ones (site setting free_conversations) once its first message is sent, so only writing
   * into a conversation without messages needs a free one; call it with the member's row locked
   * (`member` is the locked row). With `countFree` it also tells the free texts used so far, read
   * in the same statement, under the same lock.
   */
  private async findOrStart(
    tx: Executor,
    member: UserRow,
    site: SiteRow,
    me: ProfileRow,
    otherId: number,
    countFree = false,
  ) {
    const state = await repo.sendState(tx, me.id, otherId, { countFree, countStarted: !member.paidUser });
    return this.startUnlessWritten(tx, member, site, me, otherId, state);
  }

  private async startUnlessWritten(
    tx: Executor,
    member: UserRow,
    site: SiteRow,
    me: ProfileRow,
    otherId: number,
    state: Awaited<ReturnType<typeof repo.sendState>>,
  ) {
    if (state.conversation && state.lastMessageId > 0) {
      return { conversation: state.conversation, freeUsed: state.freeUsed };
    }
    if (!member.paidUser && state.started >= site.freeConversations) throw new PremiumRequiredError();
    const conversation =
      state.conversation ?? (await repo.startConversation(tx, me.id, otherId, this.clock.now()));
    return { conversation, freeUsed: state.freeUsed };
  }

  /**
   * Opens the conversation with a member (made empty when there is none): opening uses up nothing,
   * but a member who never paid and has started all the free conversations is asked to go premium
   * before writing into a new one.
   */
  async open(member: UserRow, site: SiteRow, profileId: number): Promise<number> {
    const me = await this.own(member);
    await this.counterpart(me, profileId);
    return this.db.transaction(async (tx) => {
      const locked = await lockUser(tx, member.id);
      if (!locked) throw new NotFoundError();
      return (await this.findOrStart(tx, locked, site, me, profileId)).conversation.id;
    });
  }

  /**
   * Whether the member may write to this profile (not blocked, not gone, not themselves, a confirmed
   * recipient): checked before an upload is read, so a refused photo costs no image processing.
   */
  async checkRecipient(member: UserRow, profileId: number): Promise<void> {
    const me = await this.ownForRead(member);
    const other = await this.counterpart(me, profileId);
    if (other.owner.status === 'not_confirmed') throw new RecipientNotConfirmedError(other.profile.name);
  }

  /**
   * Sends a photo from the device (camera or gallery) as a chat message. It goes through the photo
   * module's processing (re-encoded: EXIF and GPS gone) and is stored privately for this message
   * only, so it never appears on the profile. Same price and rules as a photo message; stored
   * objects are removed again when the send fails or repeats an earlier one (same client_id).
   */
  async sendUpload(
    member: UserRow,
    site: SiteRow,
    input: SendUploadInput,
    data: Buffer,
  ): Promise<{ message: Message; credits: number } | { in_review: PhotoInReview; credits: number }> {
    let processed: ProcessedPhoto;
    try {
      processed = await processPhoto(data);
    } catch (error) {
      if (error instanceof UnsupportedImageError) throw new UnsupportedImageAppError();
      throw error;
    }
    const keys = { mainKey: newMediaKey('private'), thumbKey: newMediaKey('private') };
    const removeStored = () =>
      Promise.all([this.storage.remove(keys.mainKey), this.storage.remove(keys.thumbKey)]);
    await Promise.all([
      this.storage.put(keys.mainKey, processed.main),
      this.storage.put(keys.thumbKey, processed.thumb),
    ]);
    // Screened before anything is sent (decision 060): a photo the models flag waits for a moderator.
    const verdict = this.screening ? await this.screening.check(processed.main, site.photoScreening) : null;
    const review = verdict?.reason ? { reason: verdict.reason, screening: verdict.screening } : undefined;
    try {
      const sent = await this.sendCore({ kind: 'member', member }, site, input, { ...keys, review });
      if (sent.repeated) await removeStored();
      if ('in_review' in sent) return { in_review: sent.in_review, credits: sent.credits };
      return { message: sent.message, credits: sent.credits };
    } catch (error) {
      await removeStored();
      throw error;
    }
  }

  /**
   * Sends a text, photo or gift. The cost (site settings; a few free texts for members who never
   * paid) moves through the credits ledger in the same transaction as the message, so a send that
   * does not fit fails with 402 and changes nothing. The message is committed before it is announced.
   */
  async send(
    member: UserRow,
    site: SiteRow,
    input: SendInput,
  ): Promise<{ message: Message; credits: number; warning?: 'contact_details' }> {
    const { repeated: _repeated, ...sent } = await this.sendMessage({ kind: 'member', member }, site, input);
    return sent;
  }

  /**
   * The one send path of every sender (decision 035): a member (who pays by the site's rules), and
   * staff writing as a fictional profile (an operator's reply or first message; automated openers and
   * mass messages), who pay nothing. It holds every rule of a message once — the text and photo
   * checks, blocks either way, the free-conversation and credit rules for members, the ledger through
   * the credits module, the staff's own steps inside the same transaction, presentation, live events
   * and the recipient's notifications. Tells whether it repeated an earlier send (same client_id).
   */
  async sendMessage(
    from: MessageSender,
    site: SiteRow,
    input: SendInput,
  ): Promise<{ message: Message; credits: number; warning?: 'contact_details'; repeated: boolean }> {
    const sent = await this.sendCore(from, site, input);
    if ('in_review' in sent) throw new Error('a send without an upload was held');
    return sent;
  }

  /** The send path itself; an upload the screening flagged is held instead of sent (decision 060). */
  private async sendCore(
    from: MessageSender,
    site: SiteRow,
    input: SendInput,
    upload?: Upload,
  ): Promise<
    | { message: Message; credits: number; warning?: 'contact_details'; repeated: boolean }
    | { in_review: PhotoInReview; credits: number; repeated: boolean }
  > {
    // A member's send changes no profile: the one read with the session serves (no query).
    const me = from.kind === 'member' ? await this.ownForRead(from.member) : from.profile;
    if (input.profile === me.id) throw new ValidationFailedError({ profile: 'invalid' });
    const text = input.text?.trim();

    // A member's statements: the sender's row lock with the other member, one read of what the send
    // decides on (under that lock), one write of the message, and the ledger's when it costs credits;
    // a first message also makes the conversation.
    const done = await this.db.transaction(async (tx) => {
      const locked =
        from.kind === 'member'
          ? await repo.lockSender(tx, from.member.id, me.id, input.profile)
          : { sender: null, other: await repo.counterpartOf(tx, me.id, input.profile) };
      if (!locked) throw new NotFoundError();
      const { sender } = locked;
      // A strike's suspension, read under the sender's row lock that a strike takes too (decision 054).
      if (sender?.postingSuspendedUntil && sender.postingSuspendedUntil > this.clock.now())
        throw new PostingSuspendedError(sender.postingSuspendedUntil);
      const other = checkedCounterpart(locked.other);
      // Members may not write to a member who has not confirmed the address; the operators answer
      // such a member's own messages (the conversation exists: checkedCounterpart lets it through).
      if (sender && other.owner.status === 'not_confirmed')
        throw new RecipientNotConfirmedError(other.profile.name);
      if (input.text !== undefined) {
        if (!text) throw new ValidationFailedError({ text: 'required' });
        if (text.length > site.messageLength)
          throw new ValidationFailedError({ text: 'too_long' }, { max: site.messageLength });
      }
      const photo = upload ?? (input.photo ? await repo.findOwnPhoto(tx, me.id, input.photo) : undefined);
      if (input.photo && !photo) throw new NotFoundError();
      const gift = input.gift && sender ? await repo.findGift(tx, input.gift, site.id) : undefined;
      if (input.gift && !gift) throw new NotFoundError();
      const kind = gift ? 'gift' : photo ? 'photo' : 'text';
      if (from.kind === 'staff') await from.beforeWrite?.(tx);
      // A repeat of a message already sent (a retry, a resend after a reconnect): read under the
      // sender's row lock, so parallel repeats wait for the first and find it; nothing is charged again.
      const state = sender
        ? await this.sendStateOrStart(tx, sender, site, me, other.profile.id, {
            countFree: kind === 'text' && !sender.paidUser,
            clientId: input.client_id,
          })
        : await this.staffSendState(tx, me, other.profile.id, input.client_id);
      if (state.earlierId !== null) {
        const earlier = input.client_id
          ? await repo.messageByClientId(tx, me.id, input.client_id)
          : undefined;
        if (!earlier) throw new NotFoundError();
        return { row: earlier, held: null, credits: sender?.credits ?? 0, repeated: true, other, gift };
      }
      const { conversation, freeUsed } = state;
      const cost = sender
        ? this.costOf(site, kind, gift, !sender.paidUser && freeUsed < site.freeMessages)
        : 0;
      // The sender's row is locked: its balance is current, so the check here cannot be raced.
      if (sender && cost > sender.credits)
        throw new InsufficientCreditsError({ required: cost, credits: sender.credits });
      const now = this.clock.now();
      if (upload?.review && sender) {
        // Paid now, under the same lock as any send, so the balance cannot be spent twice meanwhile;
        // given back if a moderator rejects it. A repeat (same client_id) finds the first and pays nothing.
        const kept = await held.holdPhoto(tx, {
          conversationId: conversation.id,
          senderUserId: sender.id,
          senderProfileId: me.id,
          recipientProfileId: other.profile.id,
          photoKey: upload.mainKey,
          photoThumbKey: upload.thumbKey,
          credits: cost,
          clientId: input.client_id ?? null,
          holdReason: upload.review.reason,
          screening: upload.review.screening,
          createdAt: now,
        });
        const balance =
          !kept.repeated && cost > 0
            ? await changeCredits(tx, {
                userId: sender.id,
                delta: -cost,
                reason: 'photo',
                reference: `chat-photo:${kept.held.id}`,
                at: now,
              })
            : null;
        return {
          row: null,
          held: kept.held,
          credits: balance ?? sender.credits,
          repeated: kept.repeated,
          other,
          gift,
        };
      }
      const inserted = await repo.writeMessage(tx, {
        conversationId: conversation.id,
        senderProfileId: me.id,
        kind,
        text: kind === 'text' ? (text ?? null) : null,
        photoKey: photo?.mainKey ?? null,
        photoThumbKey: photo?.thumbKey ?? null,
        giftId: gift?.id ?? null,
        credits: cost,
        createdAt: now,
        clientId: input.client_id ?? null,
        automated: from.kind === 'staff' && from.automated === true,
      });
      const balance =
        sender && cost > 0
          ? await changeCredits(tx, {
              userId: sender.id,
              delta: -cost,
              reason: kind === 'text' ? 'message' : kind,
              reference: `message:${inserted.id}`,
              at: now,
            })
          : null;
      if (from.kind === 'staff' && !from.automated) await repo.markProfileActive(tx, me.id, now);
      if (from.kind === 'staff') await from.afterWrite?.(tx, inserted);
      return {
        row: inserted,
        held: null,
        credits: balance ?? sender?.credits ?? 0,
        repeated: false,
        other,
        gift,
      };
    });
    if (done.held) {
      const { credits, repeated } = done;
      if (from.kind === 'member' && !repeated && done.held.credits > 0)
        await publishToMember(this.bus, from.member.id, { type: 'credits', credits });
      return { in_review: this.inReview(done.held, site), credits, repeated };
    }
    const { row, credits, repeated, other, gift } = done;
    if (repeated) {
      const [again] = await this.present([row], me.id, site);
      if (!again) throw new NotFoundError();
      return { message: again, credits, repeated: true };
    }
    const forSender = await this.announce(row, { from, me, other, site, credits, gift });
    return {
      message: forSender,
      credits,
      repeated: false,
      ...(text && sharesContactDetails(text) ? { warning: 'contact_details' as const } : {}),
    };
  }

  /** What a member's message costs: a gift its price, a photo the photo price, a text the message price unless free. */
  private costOf(
    site: SiteRow,
    kind: MessageRow['kind'],
    gift: GiftRow | undefined,
    freeText: boolean,
  ): number {
    if (kind === 'gift') return gift?.credits ?? site.giftCredits;
    if (kind === 'photo') return site.photoCredits;
    return kind === 'text' && freeText ? 0 : site.messageCredits;
  }

  /** A staff send's conversation: the pair's, made when there is none (no free or premium rules). */
  private async staffSendState(tx: Executor, me: ProfileRow, otherId: number, clientId: string | undefined) {
    const state = await repo.sendState(tx, me.id, otherId, {
      countFree: false,
      countStarted: false,
      clientId,
    });
    if (state.earlierId !== null) return { earlierId: state.earlierId } as const;
    const conversation =
      state.conversation ?? (await repo.startConversation(tx, me.id, otherId, this.clock.now()));
    return { earlierId: null, conversation, freeUsed: 0 };
  }

  /**
   * A committed message, told to everyone who shows it: both sides' lists and sockets on every
   * instance, the operators' consoles when a fictional profile is on either side, and the recipient's
   * notifications. Returns the message as its sender sees it.
   */
  private async announce(
    row: MessageRow,
    sent: {
      from: MessageSender;
      me: ProfileRow;
      other: Counterpart;
      site: SiteRow;
      credits: number;
      gift: GiftRow | undefined;
    },
  ): Promise<Message> {
    const { from, me, other, site, credits } = sent;
    const known = sent.gift ? [sent.gift] : [];
    const forSender = (await this.present([row], me.id, site, known))[0]!;
    const forRecipient = (await this.present([row], other.profile.id, site, known))[0]!;
    const conversation = row.conversationId;
    // Issued together, in this order: one write to Redis (auto-pipelining) instead of one round trip
    // each; subscribers get them in order, so the list is dropped before the message arrives.
    await Promise.all([
      this.listChanged(other.owner.id),
      // The sender's list too, on every instance: a send keeps the sender's cached session
      // (decision 028), so no session drop carries this one any more.
      ...(from.kind === 'member' ? [this.listChanged(from.member.id)] : []),
      publishToMember(this.bus, other.owner.id, { type: 'message', conversation, message: forRecipient }),
      // A member wrote to a fictional profile: the conversation enters the operators' queue; staff
      // wrote as one: it leaves it.
      ...(other.profile.fictional || from.kind === 'staff'
        ? [
            publishToStaff(this.bus, { type: 'queue', conversation, waiting: from.kind === 'member' }),
            publishToStaff(this.bus, {
              type: 'message',
              conversation,
              message: from.kind === 'member' ? forRecipient : forSender,
            }),
          ]
        : []),
      ...(from.kind === 'member'
        ? [
            publishToMember(this.bus, from.member.id, { type: 'message', conversation, message: forSender }),
            ...(row.credits > 0
              ? [publishToMember(this.bus, from.member.id, { type: 'credits', credits })]
              : []),
          ]
        : []),
    ]);
    await this.notifyRecipient(row, me, other, site);
    return forSender;
  }

  /** The recipient's mail or push about a message; a failure there never fails the send. */
  private async notifyRecipient(row: MessageRow, me: ProfileRow, other: Counterpart, site: SiteRow) {
    if (!this.notifications) return;
    try {
      await this.notifications.onMessage({
        recipient: other.owner,
        recipientProfileId: other.profile.id,
        site,
        conversationId: row.conversationId,
        messageId: row.id,
        senderName: me.name,
        preview: row.kind === 'text' ? (row.text ?? '') : row.kind === 'photo' ? '📷' : '🎁',
      });
    } catch (error) {
      this.reportCaught('chats.notify-recipient', error);
    }
  }

  /** A page of the conversation list, newest activity first, and the cursor of the next one. */
  async list(
    member: UserRow,
    site: SiteRow,
    page: { cursor?: string | undefined; limit?: number | undefined } = {},
  ): Promise<{ chats: ChatListItem[]; next: string | null }> {
    const me = await this.ownForRead(member);
    const limit = page.limit ?? chatListPageSize;
    // One statement for the whole page (its size never changes the number of queries); one row
    // more than the page tells whether another page follows. A member who just wrote reads it
    // from the primary; anyone else may get it from a replica a moment behind, and the live
    // events bring what it missed.
    const reader = this.reads ? this.reads.for(member.id) : this.db;
    const found = await repo.chatListOf(reader, me.id, {
      before: parseCursor(page.cursor),
      limit: limit + 1,
    });
    const rows = found.slice(0, limit);
    const lastMessages = await this.present(
      rows.map((row) => row.lastMessage),
      me.id,
      site,
    );
    const ctx = { storage: this.storage, site, today: this.clock.now() };
    const last = rows.at(-1);
    return {
      chats: rows.map((row, index) => ({
        profile: toProfile(row.profile, row.mainPhoto ?? undefined, ctx),
        conversation: {
          id: row.conversation.id,
          last_message: lastMessages[index] ?? null,
          last_activity: (row.conversation.lastMessageAt ?? row.conversation.createdAt).toISOString(),
        },
        num_unread_messages: row.unread,
      })),
      next: found.length > limit && last ? `${last.activityMicros}.${last.conversation.id}` : null,
    };
  }

  /** A page of a conversation; reading it sets its unread count to zero and tells the other side. */
  async read(
    member: UserRow,
    site: SiteRow,
    query: { conversation: number; before?: number | undefined; after?: number | undefined },
    geoipCountry: string | null,
  ): Promise<ChatResponse> {
    const me = await this.ownForRead(member);
    // Two statements besides the session: the conversation with all it is shown with, then the page
    // (which also moves the read mark when there is something new).
    const view = await repo.conversationView(this.db, query.conversation, me.id, {
      historyLimit: chatHistoryLimit,
      countFree: !member.paidUser,
    });
    if (!view) throw new NotFoundError();
    if (view.owner.status === 'deleted' || view.owner.status === 'banned') throw new NotFoundError();
    if (view.bBlockedA) throw new BlockedError(view.profile.name);

    const markReadUpTo = view.newestId > view.participant.lastReadMessageId ? view.newestId : null;
    const page = await repo.messagesPageWithGifts(this.db, view.conversation.id, {
      profileId: me.id,
      floor: Math.max(view.participant.clearedMessageId, view.oldestAllowedId - 1),
      before: query.before,
      after: query.after,
      limit: chatPageSize,
      markReadUpTo,
    });
    if (markReadUpTo !== null) {
      // A GET that changes the reader's list (its unread count): their cached list goes.
      await Promise.all([
        this.listChanged(member.id),
        publishToMember(this.bus, view.owner.id, {
          type: 'read',
          conversation: view.conversation.id,
          up_to: markReadUpTo,
        }),
      ]);
    }
    const presented = await this.present(page.rows, me.id, site, page.gifts);
    const now = this.clock.now();
    return {
      conversation: {
        id: view.conversation.id,
        last_message: presented.at(-1) ?? null,
        last_activity: (view.conversation.lastMessageAt ?? view.conversation.createdAt).toISOString(),
      },
      profile: toProfile(view.profile, view.mainPhoto ?? undefined, {
        storage: this.storage,
        site,
        today: now,
      }),
      off_shift_reply_minutes:
        view.profile.fictional && !isStaffed(site, now) ? site.typicalReplyMinutes : null,
      messages: presented,
      photos_in_review: view.inReview.map((row) => ({
        id: row.id,
        conversation: view.conversation.id,
        thumb_filename: this.url(row.thumbKey, site),
        credits: row.credits,
        created_at: row.createdAt.toISOString(),
      })),
      has_older: page.hasOlder,
      costs: this.costsAfter(member, site, geoipCountry, member.paidUser ? site.freeMessages : view.freeUsed),
      can_reply: view.owner.status !== 'not_confirmed' && !view.aBlockedB,
      read_up_to: view.otherReadId,
    };
  }

  /** A held photo as its sender sees it ("in review"). */
  private inReview(row: ChatPhotoReviewRow, site: SiteRow): PhotoInReview {
    return {
      id: row.id,
      conversation: row.conversationId,
      thumb_filename: this.url(row.photoThumbKey, site),
      credits: row.credits,
      created_at: row.createdAt.toISOString(),
    };
  }

  /** Held chat photos for the moderators' queue, with the keys to show them (their site's media). */
  heldPhotoQueue(limit: number) {
    return held.heldPhotoQueue(this.db, limit);
  }

  /**
   * A moderator's decision on a held chat photo (decision 060), in one transaction under the held
   * row's lock: parallel decisions queue and the later ones get 409 photo_decided. Approving writes
   * the message (it was paid at the send) and announces it as any send; rejecting gives the price
   * back and removes the files. An approval finds the pair as a send would: when either member
   * blocked the other since the photo was sent, or the recipient is gone, the photo is withdrawn —
   * refunded and removed as a rejection, with its own status. `within` runs in the same transaction
   * (the staff audit entry).
   */
  async decideHeldPhoto(
    id: number,
    decision: 'approve' | 'reject',
    site: (siteId: number) => Promise<SiteRow>,
    within: (tx: Transaction, photo: ChatPhotoReviewRow) => Promise<void>,
  ): Promise<HeldPhotoOutcome> {
    const done = await this.db.transaction(async (tx) => {
      const photo = await held.lockHeldPhoto(tx, id);
      if (!photo) throw new NotFoundError();
      if (photo.status !== 'held') throw new PhotoDecidedError();
      const sender = await lockUser(tx, photo.senderUserId);
      if (!sender) throw new NotFoundError();
      const now = this.clock.now();
      await within(tx, photo);
      const status: HeldPhotoOutcome =
        decision === 'reject'
          ? 'rejected'
          : deliverable(await repo.counterpartOf(tx, photo.senderProfileId, photo.recipientProfileId))
            ? 'delivered'
            : 'withdrawn';
      if (status !== 'delivered') {
        await held.finishHeldPhoto(tx, id, { status, decidedAt: now });
        const credits =
          photo.credits > 0
            ? await changeCredits(tx, {
                userId: sender.id,
                delta: photo.credits,
                reason: 'refund',
                reference: `chat-photo:${id}`,
                at: now,
              })
            : null;
        return { photo, sender, row: null, status, credits: credits ?? sender.credits };
      }
      const row = await repo.writeMessage(tx, {
        conversationId: photo.conversationId,
        senderProfileId: photo.senderProfileId,
        kind: 'photo',
        text: null,
        photoKey: photo.photoKey,
        photoThumbKey: photo.photoThumbKey,
        giftId: null,
        credits: photo.credits,
        createdAt: now,
        // Not the send's client_id: the sender may have used it again since, and the message is new.
        clientId: null,
        automated: false,
      });
      await held.finishHeldPhoto(tx, id, { status: 'delivered', decidedAt: now, messageId: row.id });
      return { photo, sender, row, status, credits: sender.credits };
    });
    const { photo, sender, row, status, credits } = done;
    const event = { type: 'photo_review', conversation: photo.conversationId, id: photo.id, status } as const;
    if (!row) {
      await Promise.all([
        this.storage.remove(photo.photoKey),
        this.storage.remove(photo.photoThumbKey),
        publishToMember(this.bus, sender.id, event),
        ...(photo.credits > 0 ? [publishToMember(this.bus, sender.id, { type: 'credits', credits })] : []),
      ]);
      return status;
    }
    const [me, other] = await Promise.all([
      findProfileByUserId(this.db, sender.id),
      repo.counterpartOf(this.db, photo.senderProfileId, photo.recipientProfileId),
    ]);
    await publishToMember(this.bus, sender.id, event);
    if (!me || !other) return status;
    // As a send announces it; its credits event tells the balance as it stands (paid at the send).
    await this.announce(row, {
      from: { kind: 'member', member: sender },
      me,
      other,
      site: await site(sender.siteId),
      credits,
      gift: undefined,
    });
    return status;
  }

  /** Deletes a conversation for this member: its messages so far are gone for them; a new message brings it back. */
  async remove(member: UserRow, conversationId: number): Promise<void> {
    const me = await this.own(member);
    const found = await repo.findConversationFor(this.db, conversationId, me.id);
    if (!found) throw new NotFoundError();
    await repo.clearConversation(
      this.db,
      conversationId,
      me.id,
      await repo.lastMessageId(this.db, conversationId),
    );
  }

  async gifts(site: SiteRow) {
    return (await repo.listGifts(this.db, site.id)).map((gift) => ({
      id: gift.id,
      slug: gift.slug,
      image: this.url(gift.imageKey, site),
      names: giftNames(gift.names),
      credits: gift.credits ?? site.giftCredits,
    }));
  }

  /**
   * An operator picked up one of a fictional profile's conversations: its team is there, so it
   * shows online (while the site is staffed) as after a reply.
   */
  async markAnswering(profileId: number): Promise<void> {
    await repo.markProfileActive(this.db, profileId, this.clock.now());
  }

  /** Tells the other side of a conversation that the member is typing. */
  async typing(member: Pick<UserRow, 'id'>, conversationId: number): Promise<void> {
    const me = await this.own(member);
    const found = await repo.findConversationFor(this.db, conversationId, me.id);
    if (!found) return;
    const otherId =
      found.conversation.lowProfileId === me.id
        ? found.conversation.highProfileId
        : found.conversation.lowProfileId;
    const other = await findProfileWithOwner(this.db, otherId);
    if (!other) return;
    const between = await blockBetween(this.db, me.id, otherId);
    if (between.aBlockedB || between.bBlockedA) return;
    await publishToMember(this.bus, other.owner.id, { type: 'typing', conversation: conversationId });
  }

  /** Per member of the site, unread messages after `since` and after their last activity (the unread nudge). */
  unreadOnSite(siteId: number, since: Date): Promise<{ userId: number; count: number; latest: Date }[]> {
    return repo.unreadSinceOnSite(this.db, siteId, since);
  }

  /** Total unread messages, for the badge and the title. */
  async unreadTotal(member: UserRow): Promise<number> {
    const me = await this.own(member);
    return (await repo.conversationsOf(this.db, me.id)).reduce((total, row) => total + row.unread, 0);
  }
}

/** `<activity in microseconds>.<conversation id>` (the contract checked its form). */
function parseCursor(cursor: string | undefined): repo.ChatListCursor | undefined {
  if (!cursor) return undefined;
  const [micros = '', id = ''] = cursor.split('.');
  // Past the range of bigint and int the cursor means "from the start", never a database error.
  const maxMicros = '9223372036854775807';
  const activityMicros = micros.length === maxMicros.length && micros > maxMicros ? maxMicros : micros;
  return { activityMicros, conversationId: Math.min(Number(id), 2147483647) };
}
