import type {
  AppealQueueItem,
  ChatPhotoQueueItem,
  MemberDetail,
  MemberPhoto,
  MemberSummary,
  PhotoQueueItem,
  Report,
  ReportAction,
} from '#contract/admin-members.ts';
import { isLocale } from '#contract/locales.ts';
import type { Standing } from '#contract/standing.ts';
import type { Database, Executor, Transaction } from '#server/db/client.ts';
import type { PhotoRow } from '#server/db/schema/photos.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import type { StaffRow } from '#server/db/schema/staff.ts';
import type { StrikeAppealRow } from '#server/db/schema/strikes.ts';
import type { ReportCaught } from '#server/lib/best-effort.ts';
import type { Clock } from '#server/lib/clock.ts';
import { AppError, NotFoundError, ValidationFailedError } from '#server/lib/errors.ts';
import type { EventBus } from '#server/lib/event-bus.ts';
import type { Translator } from '#server/lib/i18n.ts';
import { publishToMember } from '#server/lib/member-events.ts';
import type { MediaStorage } from '#server/lib/storage.ts';
import {
  type AccountsService,
  endSessionsOfUser,
  lockUser,
} from '#server/modules/accounts/accounts.service.ts';
import { announceSessionsChanged } from '#server/modules/accounts/session-cache.ts';
import type { ChatsService, HeldPhotoOutcome } from '#server/modules/chats/chats.service.ts';
import { changeCredits, InsufficientCreditsError } from '#server/modules/credits/credits.service.ts';
import { visitsForExport } from '#server/modules/likes/likes.service.ts';
import type { MailQueue } from '#server/modules/mail/mail.service.ts';
import { mailSiteOf, renderMail } from '#server/modules/mail/mail-templates.ts';
import type { PaymentsService } from '#server/modules/payments/payments.service.ts';
import { deletePhotoClosingRanks } from '#server/modules/photos/photos.service.ts';
import type { SecurityService } from '#server/modules/security/security.service.ts';
import { siteOrigin } from '#server/modules/sites/site-origin.ts';
import type { SiteDirectory } from '#server/modules/sites/sites.service.ts';
import type { StaffService } from '#server/modules/staff/staff.service.ts';
import * as repo from './moderation.repository.ts';
import { consequenceOf, strikeRulesOf } from './strike-rules.ts';

const pageSize = 50;

function appealOut(appeal: StrikeAppealRow) {
  return {
    id: appeal.id,
    status: appeal.status,
    text: appeal.text,
    created_at: appeal.createdAt.toISOString(),
    decided_at: appeal.decidedAt?.toISOString() ?? null,
  };
}

function appealQueueItemOut(row: repo.AppealRecord): AppealQueueItem {
  return {
    ...appealOut(row.appeal),
    decided_by: row.appeal.decidedByStaffId
      ? { id: row.appeal.decidedByStaffId, name: row.deciderName ?? '' }
      : null,
    strike: {
      id: row.strike.id,
      number: row.strike.number,
      consequence: row.strike.consequence,
      suspended_until: row.strike.suspendedUntil?.toISOString() ?? null,
      created_at: row.strike.createdAt.toISOString(),
      report_id: row.strike.reportId,
      lifted: row.strike.liftedAt !== null,
    },
    member: { profile_id: row.profileId, name: row.name, site: row.siteName },
  };
}

/** A strike has its one appeal already. */
export class AppealExistsError extends AppError {
  override name = 'AppealExistsError';
  constructor() {
    super(409, 'appeal_exists');
  }
}

/** An appeal was decided already (by another moderator, say). */
export class AppealDecidedError extends AppError {
  override name = 'AppealDecidedError';
  constructor() {
    super(409, 'appeal_decided');
  }
}

/** A report was handled already (by another moderator, say). */
export class ReportHandledError extends AppError {
  override name = 'ReportHandledError';
  constructor() {
    super(409, 'report_handled');
  }
}

export type ModerationDeps = {
  db: Database;
  clock: Clock;
  storage: MediaStorage;
  sites: SiteDirectory;
  staff: StaffService;
  accounts: AccountsService;
  payments: PaymentsService;
  security: SecurityService;
  mail: MailQueue;
  translator: Translator;
  bus: EventBus;
  chats: ChatsService;
  config: { PUBLIC_URL?: string | undefined; PORT: number };
  reportCaught: ReportCaught;
};

/** What every staff action carries for the audit trail. */
export type Acting = { actor: StaffRow; ip: string; reason: string };

/** The back office's member pages and the moderation queues. */
export class ModerationService {
  constructor(private readonly deps: ModerationDeps) {}

  private get db() {
    return this.deps.db;
  }

  private audit(
    db: Executor,
    acting: Acting,
    action: string,
    object: string,
    detail: Record<string, string | number | boolean | null> = {},
  ) {
    return this.deps.staff.audit(db, {
      staffId: acting.actor.id,
      action,
      object,
      ip: acting.ip,
      detail: { reason: acting.reason, ...detail },
    });
  }

  private async siteOf(siteId: number): Promise<SiteRow> {
    const site = await this.deps.sites.byId(siteId);
    if (!site) throw new NotFoundError();
    return site;
  }

  private photoOut(row: PhotoRow, site: SiteRow): MemberPhoto {
    return {
      id: row.id,
      url: this.deps.storage.url(row.mainKey, site.cdnPrefix),
      thumb_url: this.deps.storage.url(row.thumbKey, site.cdnPrefix),
      moderation: row.moderation,
      status: row.status,
      hold_reason: row.holdReason,
      screening: row.screening,
      created_at: row.createdAt.toISOString(),
    };
  }

  private summary(row: repo.MemberRecord, reports: number): MemberSummary {
    return {
      profile: {
        id: row.profile.id,
        name: row.profile.name,
        country: row.profile.country,
        status: row.profile.status,
      },
      user: {
        id: row.user.id,
        email: row.user.email,
        site: { id: row.user.siteId, name: row.siteName },
        status: row.user.status,
        credits: row.user.credits,
        paid_user: row.user.paidUser,
        chargeback_at: row.user.chargebackAt?.toISOString() ?? null,
        language: row.user.language,
        signup_date: row.user.signupDate.toISOString(),
        last_login: row.user.lastLoginAt?.toISOString() ?? null,
      },
      reports_about: reports,
    };
  }

  private async requireMember(profileId: number): Promise<repo.MemberRecord> {
    const found = await repo.findMember(this.db, profileId);
    if (!found) throw new NotFoundError();
    return found;
  }

  /** Sends a moderation mail (warning, photo removed) in the member's language, with the site's name. */
  private async mailMember(
    tx: Executor,
    member: repo.MemberRecord,
    kind: 'moderationWarning' | 'photoRemoved' | 'postingSuspended' | 'appealGranted' | 'appealRefused',
    params: Record<string, string | number> = {},
  ) {
    if (!member.user.email || member.user.status === 'deleted') return;
    const site = await this.siteOf(member.user.siteId);
    const locale = isLocale(member.user.language) ? member.user.language : 'en';
    const rendered = renderMail(
      this.deps.translator,
      locale,
      mailSiteOf(site, siteOrigin(site, this.deps.config), locale),
      { kind, recipientName: member.profile.name, params },
    );
    await this.deps.mail.enqueue(tx, { to: member.user.email, kind, ...rendered });
  }

  // ---- members

  async members(query: {
    q?: string | undefined;
    site?: number | undefined;
    status?: MemberSummary['user']['status'] | undefined;
    page: number;
  }) {
    const { rows, total } = await repo.searchMembers(this.db, {
      ...query,
      limit: pageSize,
      offset: (query.page - 1) * pageSize,
    });
    const counts = await repo.reportCounts(
      this.db,
      rows.map((row) => row.profile.id),
    );
    return { members: rows.map((row) => this.summary(row, counts.get(row.profile.id) ?? 0)), total };
  }

  async member(profileId: number): Promise<MemberDetail> {
    const found = await this.requireMember(profileId);
    const site = await this.siteOf(found.user.siteId);
    const [photos, sessions, orders, ledger, reportsBy, reportsAbout] = await Promise.all([
      repo.photosOf(this.db, profileId),
      repo.sessionsOf(this.db, found.user.id, this.deps.clock.now()),
      repo.ordersOf(this.db, found.user.id),
      repo.ledgerWithStaff(this.db, found.user.id),
      repo.listReports(this.db, { byUser: found.user.id, limit: 100 }),
      repo.listReports(this.db, { about: profileId, limit: 100 }),
    ]);
    return {
      member: this.summary(found, (await repo.reportCounts(this.db, [profileId])).get(profileId) ?? 0),
      profile: {
        gender: found.profile.gender,
        seeking: found.profile.seeking,
        birthdate: found.profile.birthdate,
        countryregion: found.profile.countryregion,
        about: found.profile.about,
        interests: found.profile.interests,
      },
      photos: photos.map((photo) => this.photoOut(photo, site)),
      sessions: sessions.map((session) => ({
        created_at: session.createdAt.toISOString(),
        last_seen_at: session.lastSeenAt.toISOString(),
        expires_at: session.expiresAt.toISOString(),
        user_agent: session.userAgent,
      })),
      orders: orders.map((order) => ({
        id: order.id,
        status: order.status,
        credits: order.credits,
        amount_cents: order.amountCents,
        currency: order.currency,
        payment_method: order.paymentMethod,
        provider: order.provider,
        provider_payment_id: order.providerPaymentId,
        created_at: order.createdAt.toISOString(),
      })),
      ledger: ledger.map(({ entry, staffName }) => ({
        id: entry.id,
        delta: entry.delta,
        balance_after: entry.balanceAfter,
        reason: entry.reason,
        reference: entry.reference,
        staff: entry.staffId ? { id: entry.staffId, name: staffName ?? '' } : null,
        note: entry.note,
        at: entry.createdAt.toISOString(),
      })),
      reports_by: await this.reportsOut(reportsBy),
      reports_about: await this.reportsOut(reportsAbout),
      notifications_disabled: found.user.notificationsDisabled,
      trafficsource: found.user.trafficsource
        ? Object.fromEntries(
            Object.entries(found.user.trafficsource).filter(
              (entry): entry is [string, string] => typeof entry[1] === 'string',
            ),
          )
        : null,
    };
  }

  /**
   * Bans or unbans a member. A ban ends every session in the same transaction (sessions are read
   * from the database on each request, on every instance, so the next request of the member is
   * refused wherever it lands), disables the profile (out of search, likes and chats) and refuses
   * sign-in with 403 banned. Unbanning restores an active profile when the address was confirmed.
   */
  async setStatus(acting: Acting, profileId: number, status: 'active' | 'banned') {
    const found = await this.requireMember(profileId);
    const result = await this.db.transaction(async (tx) => {
      const user = await lockUser(tx, found.user.id);
      if (!user || user.status === 'deleted' || user.status === 'pending_deletion') throw new NotFoundError();
      let next = user.status;
      if (status === 'banned' && user.status !== 'banned') {
        next = 'banned';
        await repo.setUserStatus(tx, user.id, 'banned');
        await repo.setProfileStatusOfUser(tx, user.id, 'disabled');
        await endSessionsOfUser(tx, user.id);
        // The address stays banned as a keyed hash, also once the account is erased.
        await this.deps.security.banAddress(tx, user.id, user.email);
      } else if (status === 'active' && user.status === 'banned') {
        next = user.emailConfirmedAt ? 'active' : 'not_confirmed';
        await this.deps.security.liftAddressBan(tx, user.id);
        await repo.setUserStatus(tx, user.id, next);
        if (next === 'active') await repo.setProfileStatusOfUser(tx, user.id, 'active');
      }
      await this.audit(
        tx,
        acting,
        status === 'banned' ? 'member.ban' : 'member.unban',
        `profile:${profileId}`,
      );
      return { user: { id: user.id, status: next } };
    });
    // Cached sessions of the member are dropped on every instance, at once (decision 014).
    await announceSessionsChanged(this.deps.bus, result.user.id);
    // Open live connections of the member close on every instance (over the event bus).
    if (result.user.status === 'banned')
      await publishToMember(this.deps.bus, result.user.id, { type: 'sessions_ended' });
    return result;
  }

  /** Removes a member's photo (files too); the others close ranks; the member is told by mail. */
  async removePhoto(acting: Acting, photoId: number, options: { action?: string; notify?: boolean } = {}) {
    const found = await repo.findPhotoWithOwner(this.db, photoId);
    if (!found || found.profile.fictional) throw new NotFoundError();
    const member = await this.requireMember(found.profile.id);
    await this.db.transaction(async (tx) => {
      await deletePhotoClosingRanks(tx, found.profile.id, photoId);
      if (options.notify !== false) await this.mailMember(tx, member, 'photoRemoved');
      await this.audit(tx, acting, options.action ?? 'member.photo_remove', `photo:${photoId}`, {
        profile: found.profile.id,
      });
    });
    const { photo } = found;
    await Promise.all(
      [photo.mainKey, photo.thumbKey, photo.blurredKey, photo.blurredThumbKey].map((key) =>
        // The photo's rows are gone; a file left behind is logged and counted, never shown again.
        this.deps.storage
          .remove(key)
          .catch((error: unknown) => this.deps.reportCaught('moderation.remove-photo-file', error)),
      ),
    );
  }

  /**
   * A credit correction through the ledger, under the member's row lock: parallel corrections queue
   * behind each other and a balance never goes below zero (422 then).
   */
  async correctCredits(acting: Acting, profileId: number, amount: number): Promise<number> {
    const found = await this.requireMember(profileId);
    try {
      const corrected = await this.db.transaction(async (tx) => {
        const balance = await changeCredits(tx, {
          userId: found.user.id,
          delta: amount,
          reason: 'admin',
          staff: { id: acting.actor.id, note: acting.reason },
          at: this.deps.clock.now(),
        });
        await this.audit(tx, acting, 'member.credits', `profile:${profileId}`, { amount });
        return balance ?? 0;
      });
      await announceSessionsChanged(this.deps.bus, found.user.id);
      return corrected;
    } catch (error) {
      if (error instanceof InsufficientCreditsError)
        throw new ValidationFailedError({ amount: 'negative_balance' });
      throw error;
    }
  }

  /**
   * Refunds an order exactly once through the payments module (decision 034), then audits it; a
   * repeat, a refusal or an unreachable provider never reaches the audit log as a refund.
   */
  async refund(acting: Acting, orderId: number, part: { amountCents?: number; credits?: number } = {}) {
    const after = await this.deps.payments.refundOrder(orderId, part);
    await this.audit(this.db, acting, 'order.refund', `order:${orderId}`, {
      amount_cents: after.refundCents ?? after.amountCents,
      credits: after.refundCredits ?? after.credits,
      currency: after.currency,
    });
    const member = await repo.profileOfUser(this.db, after.userId);
    const record = member ? await repo.findMember(this.db, member.id) : undefined;
    return {
      order: { id: orderId, status: after.status },
      credits: record?.user.credits ?? 0,
    };
  }

  private async memberContext(found: repo.MemberRecord) {
    const site = await this.siteOf(found.user.siteId);
    return {
      site,
      locale: isLocale(found.user.language) ? found.user.language : ('en' as const),
      baseUrl: siteOrigin(site, this.deps.config),
      country: found.profile.country,
      userAgent: null,
    };
  }

  async resendActivation(acting: Acting, profileId: number): Promise<void> {
    const found = await this.requireMember(profileId);
    if (found.user.status !== 'not_confirmed') throw new ValidationFailedError({ member: 'invalid' });
    await this.deps.accounts.resendActivation(await this.memberContext(found), found.user);
    await this.audit(this.db, acting, 'member.resend_activation', `profile:${profileId}`);
  }

  /** Starts the 14 days of pending deletion on the member's request (they get the usual mail with the way back). */
  async startDeletion(acting: Acting, profileId: number): Promise<void> {
    const found = await this.requireMember(profileId);
    if (found.user.status === 'pending_deletion' || found.user.status === 'deleted') {
      throw new ValidationFailedError({ member: 'invalid' });
    }
    await this.deps.accounts.startDeletion(await this.memberContext(found), found.user);
    await this.audit(this.db, acting, 'member.start_deletion', `profile:${profileId}`);
  }

  // ---- GDPR export

  /** Everything stored about a member, as one JSON document (GDPR art. 15 and 20). */
  async exportData(userId: number) {
    const profile = await repo.profileOfUser(this.db, userId);
    if (!profile) throw new NotFoundError();
    const found = await this.requireMember(profile.id);
    const site = await this.siteOf(found.user.siteId);
    const [photos, messages, orders, ledger, visits] = await Promise.all([
      repo.photosOf(this.db, profile.id),
      repo.messagesOfProfile(this.db, profile.id),
      repo.ordersOf(this.db, userId),
      repo.ledgerWithStaff(this.db, userId, 100_000),
      visitsForExport(this.db, profile.id),
    ]);
    const { user } = found;
    return {
      exported_at: this.deps.clock.now().toISOString(),
      site: { name: site.name, domain: site.domain },
      account: {
        id: user.id,
        email: user.email,
        status: user.status,
        language: user.language,
        credits: user.credits,
        paid_user: user.paidUser,
        signup_date: user.signupDate.toISOString(),
        email_confirmed_at: user.emailConfirmedAt?.toISOString() ?? null,
        last_login: user.lastLoginAt?.toISOString() ?? null,
        trafficsource: user.trafficsource ?? null,
      },
      profile: {
        id: profile.id,
        name: profile.name,
        gender: profile.gender,
        seeking: profile.seeking,
        sexuality: profile.sexuality,
        birthdate: profile.birthdate,
        country: profile.country,
        countryregion: profile.countryregion,
        body_type: profile.bodyType,
        hair: profile.hair,
        eye_colour: profile.eyeColour,
        relationship_status: profile.relationshipStatus,
        tattoos: profile.tattoos,
        interests: profile.interests,
        about: profile.about,
        created_at: profile.createdAt.toISOString(),
      },
      photos: photos.map((photo) => ({
        id: photo.id,
        key: photo.mainKey,
        url: this.deps.storage.url(photo.mainKey, site.cdnPrefix),
        created_at: photo.createdAt.toISOString(),
      })),
      messages: messages.map(({ message }) => ({
        id: message.id,
        conversation: message.conversationId,
        sent_by_member: message.senderProfileId === profile.id,
        kind: message.kind,
        text: message.text,
        credits: message.credits,
        at: message.createdAt.toISOString(),
      })),
      orders: orders.map((order) => ({
        id: order.id,
        status: order.status,
        credits: order.credits,
        amount_cents: order.amountCents,
        currency: order.currency,
        payment_method: order.paymentMethod,
        created_at: order.createdAt.toISOString(),
      })),
      credits_ledger: ledger.map(({ entry }) => ({
        delta: entry.delta,
        balance_after: entry.balanceAfter,
        reason: entry.reason,
        at: entry.createdAt.toISOString(),
      })),
      // The visits they made, and those they got as counts per day: who looked is shown only to
      // premium members in the app, so a download must not reveal it either.
      visits,
      consents: {
        notifications_disabled: user.notificationsDisabled,
        public_profile: profile.publicProfile,
      },
    };
  }

  async exportForStaff(acting: Omit<Acting, 'reason'>, profileId: number) {
    const found = await this.requireMember(profileId);
    const data = await this.exportData(found.user.id);
    await this.deps.staff.audit(this.db, {
      staffId: acting.actor.id,
      action: 'member.export',
      object: `profile:${profileId}`,
      ip: acting.ip,
    });
    return data;
  }

  // ---- reports

  private async reportsOut(rows: repo.ReportRecord[]): Promise<Report[]> {
    const reportedIds = [...new Set(rows.flatMap((row) => (row.reported ? [row.reported.id] : [])))];
    const counts = await repo.reportCounts(this.db, reportedIds);
    const photos = await repo.photosOfProfiles(this.db, reportedIds);
    const cdn = new Map<number, string>();
    for (const siteId of new Set(rows.map((row) => row.reportedSiteId ?? 0)))
      cdn.set(siteId, (await this.deps.sites.byId(siteId))?.cdnPrefix ?? '');
    return rows.map((row) => ({
      id: row.report.id,
      status: row.report.status,
      reason: row.report.reason,
      text: row.report.text,
      created_at: row.report.createdAt.toISOString(),
      reporter: {
        user_id: row.report.reporterUserId,
        profile_id: row.reporterProfileId,
        name: row.reporterName ?? '',
      },
      reported: row.reported
        ? {
            profile_id: row.reported.id,
            name: row.reported.name,
            user_status: row.reportedStatus ?? 'deleted',
            reports_about: counts.get(row.reported.id) ?? 0,
            photos: photos
              .filter((photo) => photo.profileId === row.reported?.id)
              .map((photo) => ({
                id: photo.id,
                thumb_url: this.deps.storage.url(photo.thumbKey, cdn.get(row.reportedSiteId ?? 0)),
              })),
          }
        : null,
      evidence: row.message
        ? {
            message_id: row.message.id,
            text: row.message.text,
            kind: row.message.kind,
            at: row.message.createdAt.toISOString(),
          }
        : null,
      action: row.report.action,
      handled_by: row.report.handledByStaffId
        ? { id: row.report.handledByStaffId, name: row.staffName ?? '' }
        : null,
      handled_at: row.report.handledAt?.toISOString() ?? null,
    }));
  }

  async reports(status: 'open' | 'handled' | 'all'): Promise<Report[]> {
    return this.reportsOut(
      // Reports about fictional profiles reach the lead's board (supervision/), never this queue.
      await repo.listReports(this.db, {
        ...(status === 'all' ? {} : { status }),
        fictional: false,
        limit: 200,
      }),
    );
  }

  private async report(id: number): Promise<Report> {
    const [row] = await repo.listReports(this.db, { id, limit: 1 });
    if (!row) throw new NotFoundError();
    const [report] = await this.reportsOut([row]);
    return report!;
  }

  /**
   * Handles an open report once (409 report_handled afterwards): dismiss; warn (a mail to the member
   * in their language); remove one of the reported member's photos; or ban the member.
   */
  async handleReport(
    acting: Acting,
    input: { id: number; action: ReportAction; photo?: number | undefined },
  ) {
    // A fictional profile is never banned or warned: its reports are the lead's (PUT board.php).
    const [row] = await repo.listReports(this.db, { id: input.id, fictional: false, limit: 1 });
    if (!row) throw new NotFoundError();
    if (row.report.status !== 'open') throw new ReportHandledError();
    const reportedId = row.reported?.id;
    if (input.action !== 'dismiss' && !reportedId) throw new ValidationFailedError({ action: 'invalid' });
    if (input.action === 'remove_photo') {
      const photo = input.photo ? await repo.findPhotoWithOwner(this.db, input.photo) : undefined;
      if (!photo || photo.profile.id !== reportedId) throw new ValidationFailedError({ photo: 'invalid' });
    }
    let banAfter = false;
    // Claim the report first, under its lock: two moderators never both act on it.
    await this.db.transaction(async (tx) => {
      const locked = await repo.lockReport(tx, input.id);
      if (locked?.status !== 'open') throw new ReportHandledError();
      await repo.markReportHandled(tx, input.id, {
        action: input.action,
        staffId: acting.actor.id,
        at: this.deps.clock.now(),
      });
      await this.audit(tx, acting, `report.${input.action}`, `report:${input.id}`, {
        profile: reportedId ?? null,
      });
      if (input.action === 'warn' && reportedId) {
        const member = await repo.findMember(tx, reportedId);
        if (member) banAfter = await this.strike(tx, acting, member, input.id);
      }
    });
    if (input.action === 'remove_photo' && input.photo) await this.removePhoto(acting, input.photo);
    if ((input.action === 'ban' || banAfter) && reportedId)
      await this.setStatus(acting, reportedId, 'banned');
    return this.report(input.id);
  }

  // ---- strikes and appeals (decision 054)

  /**
   * A warning's strike, in the report's transaction and under the member's row lock: parallel warnings
   * about one member queue behind each other, so each counts the strikes before it (the one that
   * reaches the site's `suspendAt` suspends posting, the next bans). Tells whether it bans.
   */
  private async strike(tx: Transaction, acting: Acting, member: repo.MemberRecord, reportId: number) {
    const user = await lockUser(tx, member.user.id);
    if (!user) return false;
    const site = await this.siteOf(user.siteId);
    const rules = strikeRulesOf(site.strikeRules);
    const number = (await repo.standingStrikes(tx, user.id)) + 1;
    const consequence = consequenceOf(number, rules);
    const now = this.deps.clock.now();
    const suspendedUntil =
      consequence === 'suspension' ? new Date(now.getTime() + rules.suspensionDays * 86_400_000) : null;
    const strike = await repo.insertStrike(tx, {
      userId: user.id,
      reportId,
      staffId: acting.actor.id,
      number,
      consequence,
      suspendedUntil,
      createdAt: now,
    });
    await this.audit(tx, acting, `strike.${consequence}`, `profile:${member.profile.id}`, {
      strike: strike.id,
      number,
    });
    if (suspendedUntil) {
      const until =
        user.postingSuspendedUntil && user.postingSuspendedUntil > suspendedUntil
          ? user.postingSuspendedUntil
          : suspendedUntil;
      await repo.setPostingSuspendedUntil(tx, user.id, until);
      await this.mailMember(tx, member, 'postingSuspended', {
        date: this.dateIn(member, site, until),
      });
    } else if (consequence === 'strike') {
      await this.mailMember(tx, member, 'moderationWarning');
    }
    return consequence === 'ban';
  }

  private dateIn(member: repo.MemberRecord, site: SiteRow, at: Date) {
    const locale = isLocale(member.user.language) ? member.user.language : 'en';
    return new Intl.DateTimeFormat(locale, {
      dateStyle: 'long',
      timeStyle: 'short',
      timeZone: site.timezone,
    }).format(at);
  }

  /** The member's own standing, for the account page. */
  async standing(user: { id: number; siteId: number }): Promise<Standing> {
    const site = await this.siteOf(user.siteId);
    const rules = strikeRulesOf(site.strikeRules);
    const rows = await repo.strikesOf(this.db, user.id);
    const record = await repo.profileOfUser(this.db, user.id);
    const found = record ? await repo.findMember(this.db, record.id) : undefined;
    const until = found?.user.postingSuspendedUntil ?? null;
    return {
      strikes: rows.map(({ strike, appeal }) => ({
        id: strike.id,
        number: strike.number,
        consequence: strike.consequence,
        suspended_until: strike.suspendedUntil?.toISOString() ?? null,
        created_at: strike.createdAt.toISOString(),
        lifted: strike.liftedAt !== null,
        appeal: appeal ? appealOut(appeal) : null,
      })),
      standing_strikes: rows.filter(({ strike }) => strike.liftedAt === null).length,
      suspend_at: rules.suspendAt,
      suspension_days: rules.suspensionDays,
      posting_suspended_until: until && until > this.deps.clock.now() ? until.toISOString() : null,
    };
  }

  /** One appeal per action: the unique constraint on the strike decides, also between parallel tries. */
  async appeal(user: { id: number }, strikeId: number, text: string) {
    const strike = await repo.findStrikeOfUser(this.db, strikeId, user.id);
    if (!strike) throw new NotFoundError();
    const appeal = await repo.insertAppeal(this.db, {
      strikeId,
      userId: user.id,
      text,
      createdAt: this.deps.clock.now(),
    });
    if (!appeal) throw new AppealExistsError();
    return { appeal: appealOut(appeal) };
  }

  async appeals(status: 'open' | 'decided' | 'all'): Promise<AppealQueueItem[]> {
    const rows = await repo.listAppeals(this.db, { ...(status === 'all' ? {} : { status }), limit: 200 });
    return rows.map(appealQueueItemOut);
  }

  /**
   * Grants or refuses an open appeal once (409 appeal_decided afterwards). Granting lifts the strike;
   * a suspension it started ends unless another standing strike suspends longer; a ban it caused is
   * lifted. The member is told by mail either way.
   */
  async decideAppeal(acting: Acting, id: number, decision: 'grant' | 'refuse'): Promise<AppealQueueItem> {
    const [before] = await repo.listAppeals(this.db, { id, limit: 1 });
    if (!before) throw new NotFoundError();
    const member = await this.requireMember(before.profileId);
    const unban = await this.db.transaction(async (tx) => {
      const user = await lockUser(tx, member.user.id);
      if (!user) throw new NotFoundError();
      const decided = await repo.decideAppeal(tx, id, {
        status: decision === 'grant' ? 'granted' : 'refused',
        staffId: acting.actor.id,
        at: this.deps.clock.now(),
      });
      if (!decided) throw new AppealDecidedError();
      await this.audit(tx, acting, `appeal.${decision}`, `appeal:${id}`, { profile: before.profileId });
      if (decision === 'refuse') {
        await this.mailMember(tx, member, 'appealRefused');
        return false;
      }
      const lifted = await repo.liftStrike(tx, decided.strikeId, this.deps.clock.now());
      if (lifted?.consequence === 'suspension') {
        const still = await repo.latestStandingSuspension(tx, user.id);
        await repo.setPostingSuspendedUntil(
          tx,
          user.id,
          still && still > this.deps.clock.now() ? still : null,
        );
      }
      await this.mailMember(tx, member, 'appealGranted');
      return lifted?.consequence === 'ban' && user.status === 'banned';
    });
    if (unban) await this.setStatus(acting, before.profileId, 'active');
    const [after] = await repo.listAppeals(this.db, { id, limit: 1 });
    return appealQueueItemOut(after ?? before);
  }

  // ---- photo queue

  /** Chat photos the screening held (decision 060), shown with their scores beside the profile photos. */
  async chatPhotoQueue(): Promise<ChatPhotoQueueItem[]> {
    const rows = await this.deps.chats.heldPhotoQueue(100);
    const out: ChatPhotoQueueItem[] = [];
    for (const row of rows) {
      const site = await this.siteOf(row.siteId);
      out.push({
        id: row.held.id,
        url: this.deps.storage.url(row.held.photoKey, site.cdnPrefix),
        thumb_url: this.deps.storage.url(row.held.photoThumbKey, site.cdnPrefix),
        hold_reason: row.held.holdReason,
        screening: row.held.screening,
        credits: row.held.credits,
        created_at: row.held.createdAt.toISOString(),
        sender: { profile_id: row.sender.id, name: row.sender.name, site: row.siteName },
        recipient: { profile_id: row.recipient.id, name: row.recipient.name },
      });
    }
    return out;
  }

  /**
   * Delivers a held chat photo or removes it (its price given back), audited in the same transaction;
   * an approval between members who blocked each other since withdraws it instead.
   */
  async decideChatPhoto(
    acting: Acting,
    id: number,
    decision: 'approve' | 'reject',
  ): Promise<HeldPhotoOutcome> {
    return this.deps.chats.decideHeldPhoto(
      id,
      decision,
      (siteId) => this.siteOf(siteId),
      (tx, photo) =>
        this.audit(tx, acting, `chat_photo.${decision}`, `chat_photo:${id}`, {
          profile: photo.senderProfileId,
          to: photo.recipientProfileId,
        }),
    );
  }

  async photoQueue(): Promise<PhotoQueueItem[]> {
    const rows = await repo.pendingPhotos(this.db, 100);
    const counts = await repo.reportCounts(
      this.db,
      rows.map((row) => row.profile.id),
    );
    const out: PhotoQueueItem[] = [];
    for (const row of rows) {
      out.push({
        photo: this.photoOut(row.photo, await this.siteOf(row.siteId)),
        member: {
          profile_id: row.profile.id,
          name: row.profile.name,
          site: row.siteName,
          reports_about: counts.get(row.profile.id) ?? 0,
        },
      });
    }
    return out;
  }

  /** Approves a new photo, or rejects it: the photo is removed (gone for everyone) and the member told. */
  async decidePhoto(acting: Acting, photoId: number, decision: 'approve' | 'reject') {
    if (decision === 'reject') {
      await this.removePhoto(acting, photoId, { action: 'photo.reject' });
      return;
    }
    const found = await repo.findPhotoWithOwner(this.db, photoId);
    if (!found || found.profile.fictional) throw new NotFoundError();
    await this.db.transaction(async (tx) => {
      if (!(await repo.approvePhoto(tx, photoId))) throw new NotFoundError();
      await this.audit(tx, acting, 'photo.approve', `photo:${photoId}`, { profile: found.profile.id });
    });
  }
}
