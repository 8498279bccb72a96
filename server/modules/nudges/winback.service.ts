import { isLocale, type Locale } from '#contract/locales.ts';
import type { WinbackResponse, WinbackRule } from '#contract/winback.ts';
import type { Config } from '#server/config.ts';
import type { Database } from '#server/db/client.ts';
import { addDays, type Clock } from '#server/lib/clock.ts';
import { NotFoundError } from '#server/lib/errors.ts';
import type { Translator } from '#server/lib/i18n.ts';
import { findUserById } from '#server/modules/accounts/accounts.service.ts';
import type { MailQueue } from '#server/modules/mail/mail.service.ts';
import { mailSiteOf, renderMail } from '#server/modules/mail/mail-templates.ts';
import type { NotificationsService } from '#server/modules/notifications/notifications.service.ts';
import { issuePersonalCode } from '#server/modules/payments/payments.service.ts';
import { siteOrigin } from '#server/modules/sites/site-origin.ts';
import type { SiteDirectory } from '#server/modules/sites/sites.service.ts';
import * as repo from './nudges.repository.ts';
import { isQuietHour } from './quiet-hours.ts';

/** A site without a saved rule: off, with values an admin would likely start from. */
const defaultRule = {
  active: false,
  inactiveDays: 30,
  valuePercentage: 20,
  validityDays: 7,
  repeatAfterDays: 90,
};

/** Members handled per site and run; the next hourly run takes the next ones. */
const batchSize = 200;

export type WinbackMetrics = { winbackOffers: { inc(labels: { site: string }): void } };

function toRule(siteId: number, row: Omit<repo.WinbackRuleRow, 'siteId' | 'updatedAt'>): WinbackRule {
  return {
    site: siteId,
    active: row.active,
    inactive_days: row.inactiveDays,
    value_percentage: row.valuePercentage,
    validity_days: row.validityDays,
    repeat_after_days: row.repeatAfterDays,
  };
}

/**
 * Win-back offers: per site a rule; a member inactive `inactive_days` gets one mail with a personal
 * discount code (the payments module's codes, so the checkout takes and pre-fills it like the
 * welcome code), at most once per `repeat_after_days`. Each offer is a round per member under a
 * unique key: runs on several instances make one offer, one code and one mail.
 */
export class WinbackService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly sites: SiteDirectory,
    private readonly notifications: NotificationsService,
    private readonly mail: MailQueue,
    private readonly translator: Translator,
    private readonly originConfig: Pick<Config, 'PUBLIC_URL' | 'PORT' | 'NODE_ENV'>,
    private readonly metrics?: WinbackMetrics,
  ) {}

  async rule(siteId: number): Promise<WinbackResponse> {
    if (!(await this.sites.byId(siteId))) throw new NotFoundError();
    const [row, results] = await Promise.all([
      repo.winbackRuleOf(this.db, siteId),
      repo.winbackResults(this.db, [siteId]),
    ]);
    return {
      rule: toRule(siteId, row ?? defaultRule),
      results: { sent: results[0]?.sent ?? 0, redeemed: results[0]?.redeemed ?? 0 },
    };
  }

  async save(rule: WinbackRule): Promise<WinbackResponse> {
    if (!(await this.sites.byId(rule.site))) throw new NotFoundError();
    await repo.saveWinbackRule(this.db, {
      siteId: rule.site,
      active: rule.active,
      inactiveDays: rule.inactive_days,
      valuePercentage: rule.value_percentage,
      validityDays: rule.validity_days,
      repeatAfterDays: rule.repeat_after_days,
      updatedAt: this.clock.now(),
    });
    return this.rule(rule.site);
  }

  /** One run over the active rules (a recurring job); returns the offers sent. */
  async run(): Promise<number> {
    const now = this.clock.now();
    let sent = 0;
    for (const rule of await repo.activeWinbackRules(this.db)) {
      const site = await this.sites.byId(rule.siteId);
      // The mail waits for the morning of the site's time zone, like the nudges.
      if (!site || isQuietHour(site.timezone, now)) continue;
      const candidates = await repo.winbackCandidates(this.db, {
        siteId: site.id,
        inactiveBefore: addDays(now, -rule.inactiveDays),
        lastOfferBefore: addDays(now, -rule.repeatAfterDays),
        limit: batchSize,
      });
      for (const candidate of candidates) {
        if (await this.offer(rule, site, candidate.userId, candidate.rounds + 1, now)) {
          sent++;
          this.metrics?.winbackOffers.inc({ site: String(site.id) });
        }
      }
    }
    return sent;
  }

  private async offer(
    rule: repo.WinbackRuleRow,
    site: NonNullable<Awaited<ReturnType<SiteDirectory['byId']>>>,
    userId: number,
    round: number,
    now: Date,
  ): Promise<boolean> {
    const user = await findUserById(this.db, userId);
    if (!user?.email) return false;
    const email = user.email;
    const locale: Locale = isLocale(user.language) ? user.language : 'en';
    const origin = siteOrigin(site, this.originConfig);
    return this.db.transaction(async (tx) => {
      const offerId = await repo.claimWinbackRound(tx, { siteId: site.id, userId, round, sentAt: now });
      if (offerId === null) return false;
      const expires = addDays(now, rule.validityDays);
      const code = await issuePersonalCode(tx, {
        userId,
        prefix: 'BACK',
        percentage: rule.valuePercentage,
        expires,
        at: now,
      });
      await repo.attachWinbackCode(tx, offerId, code.id);
      const unsubscribeUrl = `${origin}/api/unsubscribe.php?token=${this.notifications.unsubscribeToken(userId)}`;
      const until = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: site.timezone }).format(
        expires,
      );
      const rendered = renderMail(this.translator, locale, mailSiteOf(site, origin, locale), {
        kind: 'winback',
        namespace: 'nudges',
        params: { percentage: rule.valuePercentage, code: code.code, until },
        actionUrl: `${origin}/credits?discountcode=${encodeURIComponent(code.code)}`,
        footerLinks: [
          { key: 'unsubscribe', url: unsubscribeUrl },
          { key: 'settings', url: `${origin}/notifications` },
        ],
      });
      await this.mail.enqueue(tx, {
        to: email,
        kind: 'winback',
        ...rendered,
        headers: {
          'List-Unsubscribe': `<${unsubscribeUrl}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      });
      return true;
    });
  }
}
