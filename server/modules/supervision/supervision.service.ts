import type { Message } from '#contract/chats.ts';
import { type Board, boardOnlineMinutes } from '#contract/supervision.ts';
import type { Database, Executor } from '#server/db/client.ts';
import type { StaffRow } from '#server/db/schema/staff.ts';
import type { Clock } from '#server/lib/clock.ts';
import { AppError, NotFoundError } from '#server/lib/errors.ts';
import type { ChatsService } from '#server/modules/chats/chats.service.ts';
import { contactRefused } from '#server/modules/engagement/engagement.service.ts';
import { mayAnswer } from '#server/modules/operator/operator.service.ts';
import type { SiteDirectory } from '#server/modules/sites/sites.service.ts';
import { ForbiddenError } from '#server/modules/staff/staff.errors.ts';
import { hasRight, mayStartConversations, type StaffService } from '#server/modules/staff/staff.service.ts';
import * as repo from './supervision.repository.ts';

/** The member blocked the profile (or it them), or opted out of messages from profiles they never wrote to. */
export class ContactRefusedError extends AppError {
  override name = 'ContactRefusedError';
  constructor() {
    super(403, 'contact_refused');
  }
}

/** The member wrote to the profile already: their conversation is answered from the queue. */
export class ConversationExistsError extends AppError {
  override name = 'ConversationExistsError';
  constructor(conversation: number | null) {
    super(409, 'conversation_exists', conversation === null ? {} : { conversation });
  }
}

/** Someone closed the report first. */
export class ReportClosedError extends AppError {
  override name = 'ReportClosedError';
  constructor() {
    super(409, 'report_handled');
  }
}

/** Thrown inside the send's transaction to send nothing. */
class Refused extends Error {
  constructor(readonly error: AppError) {
    super(error.code);
  }
}

/** How many open reports about fictional profiles the board lists. */
const boardReportLimit = 100;

/** The sites a lead watches: their assignment's (empty: all); admins watch every site. */
function supervisedSites(actor: StaffRow): readonly number[] {
  return hasRight(actor.role, 'manage_staff') ? [] : actor.sites;
}

function splitWriter(writer: string | null): { id: number; name: string } | null {
  if (!writer) return null;
  const [id, ...name] = writer.split(':');
  return { id: Number(id), name: name.join(':') };
}

/**
 * The supervisor board (what the team does now and what waits too long), the reports about
 * fictional profiles that go to the lead instead of the member moderation queue, and conversations
 * an operator starts as a fictional profile (decision 052).
 */
export class SupervisionService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly sites: SiteDirectory,
    private readonly chats: ChatsService,
    private readonly staff: StaffService,
  ) {}

  async board(actor: StaffRow, query: { site?: number | undefined }): Promise<Board> {
    const sites = supervisedSites(actor);
    if (query.site !== undefined && sites.length > 0 && !sites.includes(query.site))
      throw new NotFoundError();
    const scope = { siteId: query.site, sites };
    const now = this.clock.now();
    const [queues, activity, reports] = await Promise.all([
      repo.queueSummary(this.db, scope, now),
      repo.staffActivity(this.db, now),
      repo.fictionalReports(this.db, scope, boardReportLimit),
    ]);
    const onlineSince = now.getTime() - boardOnlineMinutes * 60_000;
    return {
      at: now.toISOString(),
      queues: queues.map((row) => ({
        site: { id: row.siteId, name: row.siteName },
        language: row.language,
        waiting: row.waiting,
        oldest_waiting_since: row.oldest.toISOString(),
        sla_breaches: row.breaches,
        reply_target_minutes: row.targetMinutes,
      })),
      operators: activity
        .map((row) => ({
          staff: { id: row.id, name: row.name, role: row.role },
          // Signed in and did something lately (every claim, read and reply is audited), or holds a claim.
          online:
            row.signedIn &&
            (row.claims > 0 || (row.lastActive !== null && row.lastActive.getTime() >= onlineSince)),
          claims: row.claims,
          replies_last_hour: row.replies,
          started_last_hour: row.started,
          last_active_at: row.lastActive?.toISOString() ?? null,
        }))
        .sort((a, b) => Number(b.online) - Number(a.online)),
      reports: reports.map((row) => ({
        report: {
          id: row.report.id,
          reason: row.report.reason,
          text: row.report.text,
          created_at: row.report.createdAt.toISOString(),
          reporter: { profile_id: row.reporterProfileId, name: row.reporterName ?? '' },
          message: row.message
            ? {
                id: row.message.id,
                text: row.message.text,
                at: row.message.at.toISOString(),
                automated: row.message.automated,
              }
            : null,
          conversation: row.message?.conversationId ?? null,
        },
        profile: { id: row.profile.id, name: row.profile.name, site: { id: row.siteId, name: row.siteName } },
        operator: splitWriter(row.writer),
      })),
    };
  }

  /**
   * Closes an open report about a fictional profile once, under the report's row lock: dismissed
   * (unfounded) or resolved (taken up with the operator). A ban is no option: the profile is the
   * business's own. 404 for other reports and for sites outside the lead's.
   */
  async closeReport(
    actor: StaffRow,
    input: { report: number; action: 'dismiss' | 'resolve' },
    ip: string,
  ): Promise<void> {
    const sites = supervisedSites(actor);
    await this.db.transaction(async (tx) => {
      const row = await repo.lockFictionalReport(tx, input.report);
      if (!row || (sites.length > 0 && !sites.includes(row.siteId))) throw new NotFoundError();
      if (row.status !== 'open') throw new ReportClosedError();
      await repo.closeReport(tx, input.report, {
        action: input.action,
        staffId: actor.id,
        at: this.clock.now(),
      });
      await this.staff.audit(tx, {
        staffId: actor.id,
        action: `report.${input.action}`,
        object: `report:${input.report}`,
        ip,
      });
    });
  }

  /** The member an outbound message would go to, and the profiles the actor may write as. */
  async outboundOptions(actor: StaffRow, memberProfileId: number) {
    if (!mayStartConversations(actor)) throw new ForbiddenError();
    const member = await repo.findMember(this.db, memberProfileId);
    if (!member || !mayAnswer(actor, member.user)) throw new NotFoundError();
    const sites = supervisedSites(actor);
    const site = await this.sites.byId(member.user.siteId);
    if (!site) throw new NotFoundError();
    const profiles =
      sites.length === 0 || sites.includes(site.id)
        ? await repo.fictionalProfilesOf(this.db, site.id, 200)
        : [];
    return {
      member: { id: member.profile.id, name: member.profile.name, site: { id: site.id, name: site.name } },
      profiles,
    };
  }

  /**
   * A first message from a fictional profile to a member, through the one send path as the profile
   * (delivered, counted and notified like a reply, free of credits). Refused (403 contact_refused)
   * when a block stands either way or the member opted out of messages from profiles they never
   * wrote to — checked before and again inside the send's transaction — and 409 conversation_exists
   * when the member wrote to the profile already. The audit entry (`outbound`, with the message)
   * commits with the message: the board counts it, and a report about it finds its writer.
   */
  async outbound(
    actor: StaffRow,
    input: { profile: number; member: number; text: string; client_id?: string | undefined },
    ip: string,
  ): Promise<{ conversation: number; message: Message }> {
    if (!mayStartConversations(actor)) throw new ForbiddenError();
    const fictional = await repo.findFictional(this.db, input.profile);
    const sites = supervisedSites(actor);
    if (
      !fictional ||
      fictional.profile.status !== 'active' ||
      (sites.length > 0 && !sites.includes(fictional.siteId))
    )
      throw new NotFoundError();
    const member = await repo.findMember(this.db, input.member);
    if (
      !member ||
      member.user.status !== 'active' ||
      member.profile.status !== 'active' ||
      !mayAnswer(actor, member.user)
    )
      throw new NotFoundError();
    const site = await this.sites.byId(member.user.siteId);
    if (!site) throw new NotFoundError();
    const who = { userId: member.user.id, profileId: member.profile.id };
    const check = async (db: Executor) => {
      if (await contactRefused(db, who, fictional.profile.id)) throw new Refused(new ContactRefusedError());
      if (await repo.memberWroteTo(db, member.profile.id, fictional.profile.id))
        throw new Refused(new ConversationExistsError(null));
    };
    let conversation = 0;
    try {
      await check(this.db);
      const sent = await this.chats.sendMessage(
        {
          kind: 'staff',
          profile: fictional.profile,
          beforeWrite: check,
          afterWrite: async (tx, message) => {
            conversation = message.conversationId;
            await this.staff.audit(tx, {
              staffId: actor.id,
              action: 'outbound',
              object: `conversation:${message.conversationId}`,
              ip,
              detail: { message: message.id, profile: fictional.profile.id, member: member.profile.id },
            });
          },
        },
        site,
        {
          profile: member.profile.id,
          text: input.text,
          ...(input.client_id ? { client_id: `outbound:${actor.id}:${input.client_id}` } : {}),
        },
      );
      return { conversation: conversation || sent.message.conversation, message: sent.message };
    } catch (error) {
      if (error instanceof Refused) throw error.error;
      // The send path's own block check (the member blocked the profile): the same refusal.
      if (error instanceof AppError && error.code === 'blocked') throw new ContactRefusedError();
      throw error;
    }
  }
}
