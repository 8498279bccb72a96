import type { AdminCompany, AdminSite, CreateSite, SiteFields, UpdateSite } from '#contract/admin-sites.ts';
import type { Config } from '#server/config.ts';
import type { Database, Executor } from '#server/db/client.ts';
import type { CompanyRow, SiteRow, SiteTexts } from '#server/db/schema/sites.ts';
import type { StaffRow } from '#server/db/schema/staff.ts';
import type { Clock } from '#server/lib/clock.ts';
import { NotFoundError, ValidationFailedError } from '#server/lib/errors.ts';
import { type MediaStorage, newMediaKey } from '#server/lib/storage.ts';
import { strikeRulesOf } from '#server/modules/moderation/strike-rules.ts';
import { processPhoto, UnsupportedImageError } from '#server/modules/photos/photo-processing.ts';
import { UnsupportedImageAppError } from '#server/modules/photos/photos.service.ts';
import { screeningSettings } from '#server/modules/photos/screening-rules.ts';
import { siteOrigin } from '#server/modules/sites/site-origin.ts';
import type { SiteDirectory } from '#server/modules/sites/sites.service.ts';
import type { StaffService } from '#server/modules/staff/staff.service.ts';
import { postbackUrlProblem } from '#server/modules/tracking/postbacks.ts';
import * as repo from './sites-admin.repository.ts';

/** A unique violation, however the driver wraps it (pg, PGlite, drizzle). */
export function isUniqueViolation(error: unknown): boolean {
  let cause: unknown = error;
  for (let depth = 0; depth < 5 && typeof cause === 'object' && cause !== null; depth++) {
    const found = cause as { code?: unknown; cause?: unknown };
    if (found.code === '23505') return true;
    cause = found.cause;
  }
  return false;
}

export function toAdminSite(row: SiteRow): AdminSite {
  const screening = screeningSettings(row.photoScreening);
  const strikes = strikeRulesOf(row.strikeRules);
  return {
    id: row.id,
    domain: row.domain,
    is_default: row.isDefault,
    name: row.name,
    index_title: row.indexTitle,
    description: row.description,
    countries: row.countries,
    domain_language: row.domainLanguage,
    timezone: row.timezone,
    visible_profile_fields: row.visibleProfileFields,
    visible_profile_notes: row.visibleProfileNotes,
    search_fields: row.searchFields,
    cdn_prefix: row.cdnPrefix,
    message_credits: row.messageCredits,
    photo_credits: row.photoCredits,
    gift_credits: row.giftCredits,
    time_bonus_percentage: row.timeBonusPercentage,
    signup_credits: row.signupCredits,
    message_length: row.messageLength,
    free_conversations: row.freeConversations,
    free_messages: row.freeMessages,
    max_claims: row.maxClaims,
    reply_target_minutes: row.replyTargetMinutes,
    minimum_message_costs: row.minimumMessageCosts,
    min_age: row.minAge,
    support_email: row.supportEmail,
    support_phone: row.supportPhone,
    enable_site_entry_popup: row.enableSiteEntryPopup,
    us_footer: row.usFooter,
    fictional_warning: row.fictionalWarning,
    fictional_singular: row.fictionalSingular,
    fictional_plural: row.fictionalPlural,
    refund_days: row.refundDays,
    signups: row.signups,
    logged_out_search: row.loggedOutSearch,
    logged_out_search_trafficsource: row.loggedOutSearchTrafficsource,
    member_resell: row.memberResell,
    niche: row.niche,
    company_id: row.companyId,
    mail_from_name: row.mailFromName,
    mail_from_address: row.mailFromAddress,
    theme_color: row.themeColor,
    logo_url: row.logoUrl,
    texts: Object.fromEntries(
      Object.entries(row.texts).map(([locale, texts]) => [
        locale,
        Object.fromEntries(Object.entries(texts ?? {}).filter(([, value]) => typeof value === 'string')),
      ]),
    ),
    postbacks: row.postbacks,
    staffing_hours: row.staffingHours,
    typical_reply_minutes: row.typicalReplyMinutes,
    screening_explicit: screening.explicit,
    screening_face_required: screening.faceRequired,
    strike_suspend_at: strikes.suspendAt,
    strike_suspension_days: strikes.suspensionDays,
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The columns of the editor's fields (only those sent). */
function toColumns(input: Partial<SiteFields>): repo.SiteChanges {
  const columns: repo.SiteChanges = {};
  const set = <K extends keyof repo.SiteChanges>(key: K, value: repo.SiteChanges[K] | undefined) => {
    if (value !== undefined) columns[key] = value;
  };
  set('domain', input.domain);
  set('isDefault', input.is_default);
  set('name', input.name);
  set('indexTitle', input.index_title);
  set('description', input.description);
  set('countries', input.countries);
  set('domainLanguage', input.domain_language);
  set('timezone', input.timezone);
  set('visibleProfileFields', input.visible_profile_fields);
  set('visibleProfileNotes', input.visible_profile_notes);
  set('searchFields', input.search_fields);
  set('cdnPrefix', input.cdn_prefix?.replace(/\/$/, ''));
  set('messageCredits', input.message_credits);
  set('photoCredits', input.photo_credits);
  set('giftCredits', input.gift_credits);
  if (input.time_bonus_percentage !== undefined) columns.timeBonusPercentage = input.time_bonus_percentage;
  set('signupCredits', input.signup_credits);
  set('messageLength', input.message_length);
  set('freeConversations', input.free_conversations);
  set('freeMessages', input.free_messages);
  set('maxClaims', input.max_claims);
  set('replyTargetMinutes', input.reply_target_minutes);
  set('minimumMessageCosts', input.minimum_message_costs);
  set('minAge', input.min_age);
  set('supportEmail', input.support_email);
  set('supportPhone', input.support_phone);
  set('enableSiteEntryPopup', input.enable_site_entry_popup);
  set('usFooter', input.us_footer);
  set('fictionalWarning', input.fictional_warning);
  set('fictionalSingular', input.fictional_singular);
  set('fictionalPlural', input.fictional_plural);
  set('refundDays', input.refund_days);
  set('signups', input.signups);
  set('loggedOutSearch', input.logged_out_search);
  set('loggedOutSearchTrafficsource', input.logged_out_search_trafficsource);
  set('memberResell', input.member_resell);
  set('niche', input.niche);
  set('companyId', input.company_id);
  if (input.mail_from_name !== undefined) columns.mailFromName = input.mail_from_name || null;
  if (input.mail_from_address !== undefined) columns.mailFromAddress = input.mail_from_address || null;
  set('themeColor', input.theme_color?.toLowerCase());
  if (input.logo_url !== undefined) columns.logoUrl = input.logo_url || null;
  set('postbacks', input.postbacks);
  set('staffingHours', input.staffing_hours);
  set('typicalReplyMinutes', input.typical_reply_minutes);
  if (input.texts !== undefined) {
    // Empty texts are left out: the language then falls back to the site's own language.
    const texts: SiteTexts = {};
    for (const [locale, fields] of Object.entries(input.texts)) {
      const kept = Object.fromEntries(Object.entries(fields ?? {}).filter(([, value]) => value));
      if (Object.keys(kept).length > 0) texts[locale] = kept;
    }
    columns.texts = texts;
  }
  return columns;
}

/**
 * The screening thresholds and strike rules of the editor, merged into what the site has (settings
 * not in the editor, such as the minor margin, stay as they are).
 */
function safetyColumns(
  input: Partial<SiteFields>,
  current: Pick<SiteRow, 'photoScreening' | 'strikeRules'>,
): Pick<repo.SiteChanges, 'photoScreening' | 'strikeRules'> {
  const columns: Pick<repo.SiteChanges, 'photoScreening' | 'strikeRules'> = {};
  if (input.screening_explicit !== undefined || input.screening_face_required !== undefined) {
    columns.photoScreening = {
      ...current.photoScreening,
      ...(input.screening_explicit !== undefined ? { explicit: input.screening_explicit } : {}),
      ...(input.screening_face_required !== undefined ? { faceRequired: input.screening_face_required } : {}),
    };
  }
  if (input.strike_suspend_at !== undefined || input.strike_suspension_days !== undefined) {
    columns.strikeRules = {
      ...current.strikeRules,
      ...(input.strike_suspend_at !== undefined ? { suspendAt: input.strike_suspend_at } : {}),
      ...(input.strike_suspension_days !== undefined ? { suspensionDays: input.strike_suspension_days } : {}),
    };
  }
  return columns;
}

/** Rules between fields, on the site as it will be after the change. */
function checkSite(site: Pick<SiteRow, 'countries' | 'minimumMessageCosts'>): void {
  const fields: Record<string, string> = {};
  for (const country of Object.keys(site.minimumMessageCosts)) {
    if (!site.countries.includes(country)) fields[`minimum_message_costs.${country}`] = 'not_served';
  }
  if (Object.keys(fields).length > 0) throw new ValidationFailedError(fields);
}

const domainTaken = () => new ValidationFailedError({ domain: 'taken' });

/** Postbacks go to public addresses only in production (tests and development use loopback). */
function checkPostbacks(postbacks: SiteFields['postbacks'] | undefined, allowPrivate: boolean): void {
  const fields: Record<string, string> = {};
  for (const [index, entry] of (postbacks ?? []).entries()) {
    const problem = postbackUrlProblem(entry.url, allowPrivate);
    if (problem) fields[`postbacks.${index}.url`] = problem;
  }
  if (Object.keys(fields).length > 0) throw new ValidationFailedError(fields);
}

export function toAdminCompany(row: CompanyRow, sites: SiteRow[]): AdminCompany {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    kvk: row.kvk,
    city: row.city,
    country: row.country,
    tradenames: row.tradenames,
    vat_numbers: row.vatNumbers,
    support_phone: row.supportPhone,
    delete_discount: row.deleteDiscount,
    added: row.added,
    sites: sites
      .filter((site) => site.companyId === row.id)
      .map((site) => ({ id: site.id, name: site.name })),
  };
}

type CompanyInput = {
  name?: string | undefined;
  address?: string | undefined;
  kvk?: string | undefined;
  city?: string | undefined;
  country?: string | undefined;
  tradenames?: string[] | undefined;
  vat_numbers?: string[] | undefined;
  support_phone?: string | undefined;
  delete_discount?: number | undefined;
};

function companyColumns(input: CompanyInput): repo.CompanyChanges {
  const columns: repo.CompanyChanges = {};
  if (input.name !== undefined) columns.name = input.name;
  if (input.address !== undefined) columns.address = input.address;
  if (input.kvk !== undefined) columns.kvk = input.kvk;
  if (input.city !== undefined) columns.city = input.city;
  if (input.country !== undefined) columns.country = input.country;
  if (input.tradenames !== undefined) columns.tradenames = input.tradenames;
  if (input.vat_numbers !== undefined) columns.vatNumbers = input.vat_numbers;
  if (input.support_phone !== undefined) columns.supportPhone = input.support_phone;
  if (input.delete_discount !== undefined) columns.deleteDiscount = input.delete_discount;
  return columns;
}

/**
 * Sites and companies in the back office (admins). Every write is audited and announced on the
 * event bus, so every instance serves the new settings at once, without a restart.
 */
export class SitesAdminService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly directory: SiteDirectory,
    private readonly staff: StaffService,
    private readonly storage: MediaStorage,
    private readonly config: Pick<Config, 'PUBLIC_URL' | 'PORT' | 'NODE_ENV'>,
  ) {}

  async list(): Promise<SiteRow[]> {
    return repo.listSites(this.db);
  }

  async get(id: number): Promise<SiteRow> {
    const site = await repo.findSite(this.db, id);
    if (!site) throw new NotFoundError();
    return site;
  }

  private async requireCompany(db: Executor, id: number): Promise<void> {
    if (!(await repo.findCompany(db, id))) throw new ValidationFailedError({ company_id: 'unknown' });
  }

  async create(actor: StaffRow, input: CreateSite, ip: string): Promise<SiteRow> {
    const columns = toColumns(input);
    const site = {
      ...columns,
      ...safetyColumns(input, { photoScreening: {}, strikeRules: {} }),
      domain: input.domain,
      name: input.name,
      indexTitle: input.index_title || input.name,
      description: input.description ?? '',
      countries: input.countries,
      domainLanguage: input.domain_language,
      supportEmail: input.support_email,
      companyId: input.company_id,
      minimumMessageCosts: input.minimum_message_costs ?? {},
      updatedAt: this.clock.now(),
    };
    checkSite(site);
    checkPostbacks(input.postbacks, this.config.NODE_ENV !== 'production');
    let created: SiteRow;
    try {
      created = await this.db.transaction(async (tx) => {
        await this.requireCompany(tx, site.companyId);
        if (await repo.findSiteByDomain(tx, site.domain)) throw domainTaken();
        const row = await repo.insertSite(tx, site);
        if (row.isDefault) await repo.clearDefaultExcept(tx, row.id);
        await this.staff.audit(tx, {
          staffId: actor.id,
          action: 'site.create',
          object: `site:${row.id}`,
          ip,
          detail: { domain: row.domain },
        });
        return row;
      });
    } catch (error) {
      // Two admins adding the same domain at once: the unique index decides, the loser gets the field error.
      if (isUniqueViolation(error)) throw domainTaken();
      throw error;
    }
    await this.directory.changed(created.id);
    return created;
  }

  async update(actor: StaffRow, input: UpdateSite, ip: string): Promise<SiteRow> {
    const { id, ...fields } = input;
    const columns = toColumns(fields);
    checkPostbacks(fields.postbacks, this.config.NODE_ENV !== 'production');
    let updated: SiteRow;
    try {
      updated = await this.db.transaction(async (tx) => {
        const current = await repo.lockSite(tx, id);
        if (!current) throw new NotFoundError();
        Object.assign(columns, safetyColumns(fields, current));
        checkSite({ ...current, ...columns });
        if (columns.companyId !== undefined) await this.requireCompany(tx, columns.companyId);
        if (columns.domain !== undefined && columns.domain !== current.domain) {
          if (await repo.findSiteByDomain(tx, columns.domain)) throw domainTaken();
        }
        // The default site stays the default until another one takes its place.
        if (columns.isDefault === false && current.isDefault) delete columns.isDefault;
        const row = await repo.updateSite(tx, id, { ...columns, updatedAt: this.clock.now() });
        if (!row) throw new NotFoundError();
        if (columns.isDefault) await repo.clearDefaultExcept(tx, id);
        await this.staff.audit(tx, {
          staffId: actor.id,
          action: 'site.update',
          object: `site:${id}`,
          ip,
          detail: { fields: Object.keys(fields).sort().join(',') },
        });
        return row;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw domainTaken();
      throw error;
    }
    await this.directory.changed(id);
    return updated;
  }

  /**
   * A logo upload: re-encoded (metadata gone) and stored as a public object; the site's logo URL
   * (absolute, for mails) points to it.
   */
  async uploadLogo(actor: StaffRow, siteId: number, data: Buffer, ip: string): Promise<SiteRow> {
    const site = await this.get(siteId);
    let processed: Awaited<ReturnType<typeof processPhoto>>;
    try {
      processed = await processPhoto(data);
    } catch (error) {
      if (error instanceof UnsupportedImageError) throw new UnsupportedImageAppError();
      throw error;
    }
    const key = newMediaKey('public');
    await this.storage.put(key, processed.main);
    const path = this.storage.url(key, site.cdnPrefix);
    const logoUrl = /^https?:\/\//.test(path) ? path : `${siteOrigin(site, this.config)}${path}`;
    return this.update(actor, { id: siteId, logo_url: logoUrl }, ip);
  }

  async companies(): Promise<AdminCompany[]> {
    const [rows, sites] = await Promise.all([repo.listCompanies(this.db), repo.listSites(this.db)]);
    return rows.map((row) => toAdminCompany(row, sites));
  }

  async createCompany(
    actor: StaffRow,
    input: CompanyInput & { name: string; address: string; kvk: string; city: string; country: string },
    ip: string,
  ): Promise<AdminCompany> {
    const columns = companyColumns(input);
    const company = {
      ...columns,
      name: input.name,
      address: input.address,
      kvk: input.kvk,
      city: input.city,
      country: input.country,
      supportPhone: input.support_phone ?? '',
      added: this.clock.now().toISOString().slice(0, 10),
    };
    // Two admins adding a company at once may pick the same next id: the second one tries again.
    for (let attempt = 0; ; attempt++) {
      try {
        const row = await this.db.transaction(async (tx) => {
          const inserted = await repo.insertCompany(tx, company);
          await this.staff.audit(tx, {
            staffId: actor.id,
            action: 'company.create',
            object: `company:${inserted.id}`,
            ip,
          });
          return inserted;
        });
        await this.directory.changed(null);
        return toAdminCompany(row, []);
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= 4) throw error;
      }
    }
  }

  async updateCompany(
    actor: StaffRow,
    input: CompanyInput & { id: number },
    ip: string,
  ): Promise<AdminCompany> {
    const { id, ...fields } = input;
    const row = await this.db.transaction(async (tx) => {
      const updated = await repo.updateCompany(tx, id, companyColumns(fields));
      if (!updated) throw new NotFoundError();
      await this.staff.audit(tx, {
        staffId: actor.id,
        action: 'company.update',
        object: `company:${id}`,
        ip,
        detail: { fields: Object.keys(fields).sort().join(',') },
      });
      return updated;
    });
    await this.directory.changed(null);
    return toAdminCompany(row, await repo.listSites(this.db));
  }
}
