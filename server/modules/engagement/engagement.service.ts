import { z } from 'zod';
import type {
  Campaign,
  massMessageSchema,
  OpenerScript,
  OpenerScriptInput,
  Segment,
} from '#contract/engagement.ts';
import { isLocale } from '#contract/locales.ts';
import type { Database, Executor, Transaction } from '#server/db/client.ts';
import type { CampaignSegment, OpenerStep, OpenerStopReason } from '#server/db/schema/engagement.ts';
import type { ProfileRow, UserRow } from '#server/db/schema/members.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import type { ReportCaught } from '#server/lib/best-effort.ts';
import type { Clock } from '#server/lib/clock.ts';
import { AppError, NotFoundError, ValidationFailedError } from '#server/lib/errors.ts';
import type { ActivatedMember } from '#server/modules/accounts/accounts.service.ts';
import type { ChatsService } from '#server/modules/chats/chats.service.ts';
import { defineJob, type JobRunner } from '#server/modules/jobs/job-runner.ts';
import type { LikesService } from '#server/modules/likes/likes.service.ts';
import { findProfileByUserId, findProfileWithOwner } from '#server/modules/profiles/profiles.service.ts';
import { regionName } from '#server/modules/regions/regions.data.ts';
import type { SiteDirectory } from '#server/modules/sites/sites.service.ts';
import * as repo from './engagement.repository.ts';

/** How many members one job of a mass message writes to (a job's run stays well inside its lease). */
export const campaignBatchSize = 200;

const openerStep = defineJob(
  'openers.step',
  z.object({ script: z.number().int(), step: z.number().int(), member: z.number().int() }),
);
const campaignBatch = defineJob(
  'campaigns.batch',
  z.object({ campaign: z.number().int(), batch: z.number().int() }),
);

/** Thrown inside a step's transaction to write nothing: the run stopped, or the step ran already. */
class StepCancelled extends Error {
  override name = 'StepCancelled';
  constructor(readonly reason: OpenerStopReason | 'done_already') {
    super(reason);
  }
}

/** Thrown inside a mass message's send to write nothing: this member is skipped, or had their turn. */
class RecipientCancelled extends Error {
  override name = 'RecipientCancelled';
  constructor(readonly skip: boolean) {
    super(skip ? 'skipped' : 'taken already');
  }
}

/** A text's variables filled in for one member and profile; the member's city in their language. */
export function fillVariables(
  text: string,
  member: ProfileRow,
  profile: ProfileRow,
  language: string,
): string {
  const city = regionName(member.country, member.countryregion, isLocale(language) ? language : 'en') ?? '';
  const values: Record<string, string> = {
    member_name: member.name,
    profile_name: profile.name,
    member_city: city,
  };
  return text.replace(/\{(member_name|profile_name|member_city)\}/g, (_, name: string) => values[name] ?? '');
}

function toSegment(segment: Segment): CampaignSegment {
  return {
    site: segment.site,
    country: segment.country,
    gender: segment.gender,
    minAge: segment.min_age,
    maxAge: segment.max_age,
    paidUser: segment.paid_user,
    signedUpAfter: segment.signed_up_after,
    activeAfter: segment.active_after,
    hasPhoto: segment.has_photo,
  };
}

/**
 * Scripted first contact and mass messages (decision 043). Every contact is a job of the one runner
 * with a unique key, and every write of one goes through the area's own service — a like or a visit
 * through the likes service, a message through the one send path as the fictional profile, marked
 * automated — with the stop rule and the once-only record inside that write's transaction.
 */
/**
 * Whether a fictional profile must not write to the member unasked: a block either way, or the
 * member's opt-out from messages of profiles they never wrote to (optOutReasons). The same rule the
 * scripts and mass messages skip by, for the operators' first messages (supervision/, outbound);
 * called inside the send's transaction.
 */
export function contactRefused(
  tx: Executor,
  member: { userId: number; profileId: number },
  profileId: number,
): Promise<boolean> {
  return repo.mustSkip(tx, member, profileId);
}

export class EngagementService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    jobs: JobRunner,
    private readonly sites: SiteDirectory,
    private readonly chats: ChatsService,
    private readonly likes: LikesService,
    private readonly reportCaught: ReportCaught,
  ) {
    jobs.handle(openerStep, { run: (payload) => this.runStep(payload) });
    jobs.handle(campaignBatch, { run: (payload) => this.runBatch(payload) });
  }

  // ---- opener scripts

  private async siteOrFail(id: number): Promise<SiteRow> {
    const site = await this.sites.byId(id);
    if (!site) throw new ValidationFailedError({ site: 'invalid' });
    return site;
  }

  private values(input: OpenerScriptInput) {
    const steps: OpenerStep[] = input.steps.map((step) => ({
      afterMinutes: step.after_minutes,
      kind: step.kind,
      text: step.kind === 'message' ? (step.text ?? null) : null,
    }));
    return {
      siteId: input.site,
      language: input.language,
      active: input.active,
      steps,
      sameCountry: input.profiles?.same_country ?? true,
      matchesSeeking: input.profiles?.matches_seeking ?? true,
    };
  }

  async listScripts(siteId: number | undefined): Promise<OpenerScript[]> {
    const rows = await repo.scriptsWithResults(this.db, siteId);
    return rows.map(({ script, sent, replied, paid }) => ({
      id: script.id,
      site: script.siteId,
      language: script.language,
      active: script.active,
      steps: script.steps.map((step) => ({
        after_minutes: step.afterMinutes,
        kind: step.kind,
        text: step.text,
      })),
      profiles: { same_country: script.sameCountry, matches_seeking: script.matchesSeeking },
      results: { sent, replied, paid_within_7d: paid },
      created_at: script.createdAt.toISOString(),
      updated_at: script.updatedAt.toISOString(),
    }));
  }

  private async presentScript(id: number): Promise<OpenerScript> {
    const script = (await this.listScripts(undefined)).find((row) => row.id === id);
    if (!script) throw new NotFoundError();
    return script;
  }

  async createScript(input: OpenerScriptInput): Promise<OpenerScript> {
    await this.siteOrFail(input.site);
    const now = this.clock.now();
    const row = await repo.insertScript(this.db, { ...this.values(input), createdAt: now, updatedAt: now });
    return this.presentScript(row.id);
  }

  async updateScript(id: number, input: OpenerScriptInput): Promise<OpenerScript> {
    await this.siteOrFail(input.site);
    const row = await repo.updateScript(this.db, id, { ...this.values(input), updatedAt: this.clock.now() });
    if (!row) throw new NotFoundError();
    return this.presentScript(row.id);
  }

  async deleteScript(id: number): Promise<void> {
    if (!(await repo.deleteScript(this.db, id))) throw new NotFoundError();
  }

  /**
   * A member confirmed the address (AccountsService.onActivated, in its transaction): each active
   * script of the site and the member's language gets a run and a job per step, keyed by script,
   * step and member, so a second activation or instance schedules nothing again.
   */
  async memberActivated(tx: Transaction, member: ActivatedMember): Promise<void> {
    const scripts = await repo.activeScriptsFor(tx, member.siteId, member.language);
    for (const script of scripts) {
      await repo.ensureRun(tx, script.id, member.userId, member.at);
      for (const [index, step] of script.steps.entries()) {
        await openerStep.enqueue(
          tx,
          `script:${script.id}:step:${index}:member:${member.userId}`,
          { script: script.id, step: index, member: member.userId },
          { at: member.at, runAt: new Date(member.at.getTime() + step.afterMinutes * 60_000) },
        );
      }
    }
  }

  /** One step of one member's run: the checks, then the like, visit or message as the run's profile. */
  private async runStep(job: { script: number; step: number; member: number }): Promise<void> {
    const now = this.clock.now();
    const script = await repo.findScript(this.db, job.script);
    const run = await repo.findRun(this.db, job.script, job.member);
    if (!script || !run) return;
    const step = script.steps[job.step];
    const skip = async (reason?: OpenerStopReason) => {
      if (reason) await repo.stopRun(this.db, run.id, reason, now);
      await repo.recordStep(this.db, { runId: run.id, step: job.step, outcome: 'skipped', at: now });
    };
    // A script switched off (or a step taken out since) leaves the rest of its runs undone.
    if (!script.active || !step || run.stoppedAt) return void (await skip());
    const found = await this.memberOf(job.member);
    const site = found && (await this.sites.byId(found.user.siteId));
    if (!found || !site) return void (await skip());
    const profile = await this.profileOfRun(run, script, found.profile, site);
    if (!profile) return void (await skip('no_profile'));

    // Inside the write's transaction: the run's row lock, the stop rule, the once-only record.
    const within = async (tx: Transaction) => {
      await repo.lockRun(tx, run.id);
      const reason = await repo.stopReasonFor(
        tx,
        { userId: found.user.id, profileId: found.profile.id },
        profile.id,
      );
      if (reason) throw new StepCancelled(reason);
      if (!(await repo.recordStep(tx, { runId: run.id, step: job.step, outcome: 'done', at: now })))
        throw new StepCancelled('done_already');
      await repo.markFirstContact(tx, run.id, now);
    };
    try {
      if (step.kind === 'like') await this.likes.likeAsProfile(profile, found, site, within);
      else if (step.kind === 'visit') await this.likes.visitAsProfile(profile, found.profile, within);
      else {
        const text = fillVariables(step.text ?? '', found.profile, profile, found.user.language);
        await this.chats.sendMessage({ kind: 'staff', profile, automated: true, beforeWrite: within }, site, {
          profile: found.profile.id,
          text,
          client_id: `opener:${run.id}:${job.step}`,
        });
      }
    } catch (error) {
      if (error instanceof StepCancelled) {
        if (error.reason !== 'done_already') await skip(error.reason);
        return;
      }
      // The like's or send path's own refusal (the member is gone, a block): this step is skipped.
      if (error instanceof AppError) {
        this.reportCaught('openers.step.refused', error);
        return void (await skip(error.code === 'blocked' ? 'blocked' : undefined));
      }
      throw error;
    }
  }

  private async memberOf(userId: number): Promise<{ user: UserRow; profile: ProfileRow } | undefined> {
    const profile = await findProfileByUserId(this.db, userId);
    const found = profile && (await findProfileWithOwner(this.db, profile.id));
    if (found?.owner.status !== 'active' || found.profile.status !== 'active') return undefined;
    return { user: found.owner, profile: found.profile };
  }

  /** The run's fictional profile: the one chosen by its first step, or chosen now (once, whatever the instances). */
  private async profileOfRun(
    run: repo.RunRow,
    script: repo.ScriptRow,
    member: ProfileRow,
    site: SiteRow,
  ): Promise<ProfileRow | undefined> {
    let profileId = run.profileId;
    if (profileId === null) {
      const chosen = await repo.fittingProfile(this.db, member, {
        countries: site.countries,
        sameCountry: script.sameCountry,
        matchesSeeking: script.matchesSeeking,
      });
      if (!chosen) return undefined;
      await repo.setRunProfile(this.db, run.id, chosen.id);
      profileId = (await repo.findRun(this.db, script.id, run.userId))?.profileId ?? null;
    }
    if (profileId === null) return undefined;
    const found = await findProfileWithOwner(this.db, profileId);
    return found?.profile.fictional && found.profile.status === 'active' ? found.profile : undefined;
  }

  // ---- mass messages

  private async senderOrFail(profileId: number): Promise<ProfileRow> {
    const found = await findProfileWithOwner(this.db, profileId);
    if (!found?.profile.fictional || found.profile.status !== 'active')
      throw new ValidationFailedError({ profile: 'invalid' });
    return found.profile;
  }

  private today(): string {
    return this.clock.now().toISOString().slice(0, 10);
  }

  /** The members of the segment (preview), or the campaign queued for them, a job per batch. */
  async massMessage(
    input: z.output<typeof massMessageSchema>,
    staffId: number,
  ): Promise<{ count: number } | { campaign: { id: number; status: 'queued'; count: number } }> {
    await this.siteOrFail(input.segment.site);
    await this.senderOrFail(input.profile);
    const segment = toSegment(input.segment);
    if (input.preview) return { count: await repo.countSegment(this.db, segment, this.today()) };
    const now = this.clock.now();
    const campaign = await this.db.transaction(async (tx) => {
      const row = await repo.insertCampaign(tx, {
        siteId: segment.site,
        profileId: input.profile,
        text: input.text,
        segment,
        count: 0,
        createdBy: staffId,
        createdAt: now,
      });
      const count = await repo.insertRecipients(tx, row.id, segment, this.today(), campaignBatchSize);
      await repo.setCampaignCount(tx, row.id, count);
      for (let batch = 0; batch * campaignBatchSize < count; batch++)
        await campaignBatch.enqueue(
          tx,
          `campaign:${row.id}:batch:${batch}`,
          { campaign: row.id, batch },
          { at: now },
        );
      if (count === 0) await repo.finishIfDrained(tx, row.id, now);
      return { id: row.id, count };
    });
    return { campaign: { id: campaign.id, status: 'queued', count: campaign.count } };
  }

  /**
   * One batch of a campaign: each waiting member gets the message through the one send path, marked
   * automated; the member's turn is taken in the send's own transaction (sent once, whatever the
   * instances), and a member who blocked the profile or opted out is skipped.
   */
  private async runBatch(job: { campaign: number; batch: number }): Promise<void> {
    const campaign = await repo.findCampaign(this.db, job.campaign);
    if (!campaign) return;
    const site = await this.sites.byId(campaign.siteId);
    const sender = await findProfileWithOwner(this.db, campaign.profileId);
    await repo.markSending(this.db, campaign.id);
    const recipients = await repo.pendingOfBatch(this.db, campaign.id, job.batch);
    for (const member of recipients) {
      const at = this.clock.now();
      const skip = () => repo.takeRecipient(this.db, campaign.id, member.user.id, 'skipped', at);
      if (!site || !sender?.profile.fictional || sender.profile.status !== 'active') {
        await skip();
        continue;
      }
      const profile = sender.profile;
      try {
        await this.chats.sendMessage(
          {
            kind: 'staff',
            profile,
            automated: true,
            beforeWrite: async (tx) => {
              if (
                await repo.mustSkip(tx, { userId: member.user.id, profileId: member.profile.id }, profile.id)
              )
                throw new RecipientCancelled(true);
              if (!(await repo.takeRecipient(tx, campaign.id, member.user.id, 'sent', at)))
                throw new RecipientCancelled(false);
            },
            afterWrite: (tx, message) =>
              repo.setRecipientMessage(tx, campaign.id, member.user.id, message.id),
          },
          site,
          {
            profile: member.profile.id,
            text: fillVariables(campaign.text, member.profile, profile, member.user.language),
            client_id: `campaign:${campaign.id}:${member.user.id}`,
          },
        );
      } catch (error) {
        if (error instanceof RecipientCancelled) {
          if (error.skip) await skip();
          continue;
        }
        // The send path's own refusal (the member is gone, a block it found): skipped, and said.
        if (error instanceof AppError) {
          this.reportCaught('campaigns.send.refused', error);
          await skip();
          continue;
        }
        throw error;
      }
    }
    await repo.finishIfDrained(this.db, campaign.id, this.clock.now());
  }

  async campaigns(id: number | undefined): Promise<Campaign[]> {
    const rows = await repo.campaignsWithCounts(this.db, id);
    return rows.map(({ campaign, profileName, sent, skipped, replied }) => ({
      id: campaign.id,
      status: campaign.status,
      site: campaign.siteId,
      profile: { id: campaign.profileId, name: profileName },
      text: campaign.text,
      count: campaign.count,
      sent,
      skipped,
      replied,
      created_at: campaign.createdAt.toISOString(),
      finished_at: campaign.finishedAt?.toISOString() ?? null,
    }));
  }
}
