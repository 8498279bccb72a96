import type { Locale } from '#contract/locales.ts';
import type { CompanyInfo, Settings } from '#contract/sites.ts';
import type { Database } from '#server/db/client.ts';
import type { CompanyRow, SiteRow, SiteTextField } from '#server/db/schema/sites.ts';
import type { EventBus } from '#server/lib/event-bus.ts';
import { provisionalSite } from './provisional-site.ts';
import { siteText } from './site-texts.ts';
import { listCompanies, listSites, type SitePatch, updateSite } from './sites.repository.ts';

const sitesChangedChannel = 'sites.changed';

type Snapshot = {
  byDomain: Map<string, SiteRow>;
  byId: Map<number, SiteRow>;
  defaultSite: SiteRow;
  companies: Map<number, CompanyRow>;
};

export class NoSiteConfiguredError extends Error {
  override name = 'NoSiteConfiguredError';
  constructor() {
    super('The database holds no site. Start once with SEED_DEMO=1 or add a row to the sites table.');
  }
}

/** Lower case, without port, trailing dot or a leading www. */
export function normalizeHost(host: string | undefined): string {
  if (!host) return '';
  let name = host.trim().toLowerCase();
  if (name.startsWith('[')) name = name.slice(0, name.indexOf(']') + 1);
  else name = name.split(':')[0] ?? '';
  return name.replace(/\.$/, '').replace(/^www\./, '');
}

/**
 * The sites and companies, read once per process and kept until a site changes anywhere:
 * a change is announced on the event bus, so every instance drops its copy.
 */
export class SiteDirectory {
  private snapshot: Promise<Snapshot> | undefined;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly db: Database,
    private readonly bus: EventBus,
  ) {
    this.unsubscribe = bus.subscribe(sitesChangedChannel, () => this.invalidate());
  }

  invalidate(): void {
    this.snapshot = undefined;
  }

  close(): void {
    this.unsubscribe();
  }

  private load(): Promise<Snapshot> {
    this.snapshot ??= (async () => {
      const [siteRows, companyRows] = await Promise.all([listSites(this.db), listCompanies(this.db)]);
      const defaultSite = siteRows.find((site) => site.isDefault) ?? siteRows[0];
      if (!defaultSite) throw new NoSiteConfiguredError();
      return {
        byDomain: new Map(siteRows.map((site) => [site.domain, site])),
        byId: new Map(siteRows.map((site) => [site.id, site])),
        defaultSite,
        companies: new Map(companyRows.map((company) => [company.id, company])),
      };
    })().catch((error: unknown) => {
      this.snapshot = undefined;
      throw error;
    });
    return this.snapshot;
  }

  /** The site for a request host; an unknown host gets the default site. */
  /**
   * The site of a host (the default site for an unknown one). Before the first site exists it
   * throws NoSiteConfiguredError, or with `provisional` answers the back office's provisional site.
   */
  async resolve(host: string | undefined, options: { provisional?: boolean } = {}): Promise<SiteRow> {
    try {
      const snapshot = await this.load();
      return snapshot.byDomain.get(normalizeHost(host)) ?? snapshot.defaultSite;
    } catch (error) {
      if (error instanceof NoSiteConfiguredError && options.provisional)
        return provisionalSite(normalizeHost(host));
      throw error;
    }
  }

  /** Every site (the periodic jobs go through them one by one); none before the first exists. */
  async all(): Promise<SiteRow[]> {
    try {
      return [...(await this.load()).byId.values()];
    } catch (error) {
      // Before the first site exists (a new installation) there is nothing to go through.
      if (error instanceof NoSiteConfiguredError) return [];
      throw error;
    }
  }

  async byId(id: number): Promise<SiteRow | undefined> {
    return (await this.load()).byId.get(id);
  }

  async company(site: SiteRow): Promise<CompanyRow | undefined> {
    return (await this.load()).companies.get(site.companyId);
  }

  /** A site or company changed (the back office wrote it): every instance drops its copy at once. */
  async changed(id: number | null): Promise<void> {
    this.invalidate();
    await this.bus.publish(sitesChangedChannel, { id });
  }

  async update(id: number, patch: SitePatch): Promise<SiteRow | undefined> {
    const row = await updateSite(this.db, id, patch);
    this.invalidate();
    await this.bus.publish(sitesChangedChannel, { id });
    return row;
  }
}

/** The visitor's country if the site serves it, else the site's first (prices, search defaults, new members). */
export function selectedCountry(site: SiteRow, geoipCountry: string | null): string {
  return geoipCountry !== null && site.countries.includes(geoipCountry)
    ? geoipCountry
    : (site.countries[0] ?? 'NL');
}

/** Spec §3 Settings; the site's own texts (title, description, fictional wording) in the reader's language. */
export function toSettings(
  site: SiteRow,
  context: { geoipCountry: string | null; pushPublicKey: string; locale: Locale },
): Settings {
  const text = (field: SiteTextField) => siteText(site, context.locale, field);
  return {
    domain: site.domain,
    name: site.name,
    index_title: text('index_title'),
    description: text('description'),
    countries: site.countries,
    domain_language: site.domainLanguage,
    timezone: site.timezone,
    geoip_country: context.geoipCountry,
    geoip_selected_country: selectedCountry(site, context.geoipCountry),
    visible_profile_fields: site.visibleProfileFields,
    visible_profile_notes: site.visibleProfileNotes,
    search_fields: site.searchFields,
    cdn_prefix: site.cdnPrefix,
    message_credits: site.messageCredits,
    photo_credits: site.photoCredits,
    gift_credits: site.giftCredits,
    signup_credits: site.signupCredits,
    message_length: site.messageLength,
    free_conversations: site.freeConversations,
    free_messages: site.freeMessages,
    minimum_message_costs: site.minimumMessageCosts,
    min_age: site.minAge,
    support_email: site.supportEmail,
    support_phone: site.supportPhone,
    enable_site_entry_popup: site.enableSiteEntryPopup,
    us_footer: site.usFooter,
    push_public_key: context.pushPublicKey,
    fictional_warning: text('fictional_warning'),
    fictional_singular: text('fictional_singular'),
    fictional_plural: text('fictional_plural'),
    refund_days: site.refundDays,
    signups: site.signups,
    logged_out_search: site.loggedOutSearch,
    logged_out_search_trafficsource: site.loggedOutSearchTrafficsource,
    member_resell: site.memberResell,
    niche: site.niche,
    company_id: site.companyId,
    theme_color: site.themeColor,
  };
}

export function toCompanyInfo(company: CompanyRow): CompanyInfo {
  return {
    name: company.name,
    address: company.address,
    kvk: company.kvk,
    city: company.city,
    country: company.country,
    tradenames: company.tradenames,
    vat_numbers: company.vatNumbers,
    support_phone: company.supportPhone,
    delete_discount: company.deleteDiscount,
    added: company.added,
  };
}
