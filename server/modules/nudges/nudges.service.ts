import { isLocale, type Locale } from '#contract/locales.ts';
import type { Config } from '#server/config.ts';
import type { Database } from '#server/db/client.ts';
import type { UserRow } from '#server/db/schema/members.ts';
import { type NudgeKind, nudgeKinds } from '#server/db/schema/nudges.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import type { Clock } from '#server/lib/clock.ts';
import type { Translator } from '#server/lib/i18n.ts';
import { findUserById } from '#server/modules/accounts/accounts.service.ts';
import type { ChatsService } from '#server/modules/chats/chats.service.ts';
import type { LikesService } from '#server/modules/likes/likes.service.ts';
import type { MailQueue } from '#server/modules/mail/mail.service.ts';
import { mailSiteOf, renderMail } from '#server/modules/mail/mail-templates.ts';
import {
  type NotificationsService,
  nudgeEmailSwitch,
  nudgePushSwitch,
} from '#server/modules/notifications/notifications.service.ts';
import { siteOrigin } from '#server/modules/sites/site-origin.ts';
import type { SiteDirectory } from '#server/modules/sites/sites.service.ts';
import { claimNudgeDay, latestToldOf } from './nudges.repository.ts';
import { isQuietHour, localDateIn } from './quiet-hours.ts';

export type { NudgeKind };
export { nudgeKinds };

/**
 * What a nudge tells of: activity of the last week the member has not seen (after their last
 * visit). A week, not a day: what the daily cap or the night held back is still told the next day.
 */
const lookbackMs = 7 * 24 * 3_600_000;

/** Where each nudge's mail and push lead. */
const pathOf: Record<NudgeKind, string> = {
  visitors: '/likes/visitors',
  unread: '/chats',
  likes_digest: '/likes',
};

/** The mail catalog kind of each nudge (locales/<lng>/nudges.json). */
const mailKindOf: Record<NudgeKind, string> = {
  visitors: 'visitors',
  unread: 'unread',
  likes_digest: 'likes',
};

export type NudgeOutcome = 'mailed' | 'pushed' | 'capped' | 'switched_off' | 'not_reachable';

/** The counters the nudges feed (server/lib/metrics.ts). */
export type NudgeMetrics = { nudges: { inc(labels: { kind: string; outcome: NudgeOutcome }): void } };

type Activity = { userId: number; count: number; latest: Date };

/**
 * The nudges: "N people viewed your profile", "You have N unread messages" and the day's new likes,
 * by mail (the mail module's queue) and Web Push (the notifications module's push jobs). Each runs
 * as a recurring job (server/background-jobs.ts); a member gets at most one nudge a local day across
 * all of them (a unique key, so parallel runs cannot both send), none at night in the site's time
 * zone (the run after 08:00 sends it), none by mail to an unconfirmed, bounced or unsubscribed
 * address, and none of a kind the member switched off.
 */
export class NudgesService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly sites: SiteDirectory,
    private readonly likes: LikesService,
    private readonly chats: ChatsService,
    private readonly notifications: NotificationsService,
    private readonly mail: MailQueue,
    private readonly translator: Translator,
    private readonly originConfig: Pick<Config, 'PUBLIC_URL' | 'PORT' | 'NODE_ENV'>,
    private readonly metrics?: NudgeMetrics,
  ) {}

  private activity(kind: NudgeKind, siteId: number, since: Date): Promise<Activity[]> {
    if (kind === 'visitors') return this.likes.unseenVisits(siteId, since);
    if (kind === 'likes_digest') return this.likes.unseenLikes(siteId, since);
    return this.chats.unreadOnSite(siteId, since);
  }

  /** One run of one nudge over every site where it is day; returns how many members were told. */
  async run(kind: NudgeKind): Promise<number> {
    const now = this.clock.now();
    let told = 0;
    for (const site of await this.sites.all()) {
      if (isQuietHour(site.timezone, now)) continue;
      const found = await this.activity(kind, site.id, new Date(now.getTime() - lookbackMs));
      for (const activity of found) {
        const outcome = await this.nudge(kind, site, activity, now);
        if (outcome) this.metrics?.nudges.inc({ kind, outcome });
        if (outcome === 'mailed' || outcome === 'pushed') told++;
      }
    }
    return told;
  }

  private async nudge(
    kind: NudgeKind,
    site: SiteRow,
    activity: Activity,
    now: Date,
  ): Promise<NudgeOutcome | null> {
    const user = await findUserById(this.db, activity.userId);
    // Unconfirmed members (status not_confirmed) get no nudge at all.
    if (user?.status !== 'active') return 'not_reachable';
    if (await this.notifications.presence.isOnline(user)) return null;
    const told = await latestToldOf(this.db, user.id, kind);
    if (told && activity.latest <= told) return null;
    const preferences = await this.notifications.preferences(user);
    const mailOn =
      preferences[nudgeEmailSwitch[kind]] &&
      user.email !== null &&
      user.emailConfirmedAt !== null &&
      user.notificationsDisabled.length === 0;
    const pushOn = preferences[nudgePushSwitch[kind]] && (await this.notifications.hasPushDevice(user.id));
    if (!mailOn && !pushOn) {
      const switchedOff = !preferences[nudgeEmailSwitch[kind]] && !preferences[nudgePushSwitch[kind]];
      return switchedOff ? 'switched_off' : 'not_reachable';
    }
    const locale: Locale = isLocale(user.language) ? user.language : 'en';
    const origin = siteOrigin(site, this.originConfig);
    const claimed = await this.db.transaction(async (tx) => {
      const taken = await claimNudgeDay(tx, {
        userId: user.id,
        kind,
        localDate: localDateIn(site.timezone, now),
        count: activity.count,
        latestEventAt: activity.latest,
        mailed: mailOn,
        pushed: pushOn,
        sentAt: now,
      });
      if (!taken) return false;
      if (mailOn && user.email)
        await this.enqueueMail(tx, user, user.email, site, kind, activity.count, locale, origin);
      return true;
    });
    if (!claimed) return 'capped';
    if (pushOn) {
      const params = { site: site.name, count: activity.count };
      await this.notifications.push(user.id, site, {
        title: this.translator.t(locale, `nudges:${mailKindOf[kind]}.subject`, params),
        body: this.translator.t(locale, `nudges:${mailKindOf[kind]}.push`, params),
        url: pathOf[kind],
        tag: `nudge-${kind}`,
      });
    }
    return mailOn ? 'mailed' : 'pushed';
  }

  private async enqueueMail(
    tx: Parameters<MailQueue['enqueue']>[0],
    user: UserRow,
    to: string,
    site: SiteRow,
    kind: NudgeKind,
    count: number,
    locale: Locale,
    origin: string,
  ): Promise<void> {
    // The link stops this nudge's mails only; the settings page has the other switches.
    const unsubscribeUrl = `${origin}/api/unsubscribe.php?token=${this.notifications.unsubscribeToken(user.id, kind)}`;
    const rendered = renderMail(this.translator, locale, mailSiteOf(site, origin, locale), {
      kind: mailKindOf[kind],
      namespace: 'nudges',
      params: { count },
      actionUrl: `${origin}${pathOf[kind]}`,
      footerLinks: [
        { key: 'unsubscribe', url: unsubscribeUrl },
        { key: 'settings', url: `${origin}/notifications` },
      ],
    });
    await this.mail.enqueue(tx, {
      to,
      kind: `nudge.${kind}`,
      ...rendered,
      headers: {
        'List-Unsubscribe': `<${unsubscribeUrl}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
  }
}
