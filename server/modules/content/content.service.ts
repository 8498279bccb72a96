import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { marked } from 'marked';
import { countryName } from '#contract/countries.ts';
import { type ContentPage, contentPages } from '#contract/endpoints/content.ts';
import { typography } from '#contract/i18n.ts';
import { defaultLocale, type Locale } from '#contract/locales.ts';
import type { CompanyRow, SiteRow } from '#server/db/schema/sites.ts';
import { projectRoot } from '#server/lib/project-root.ts';
import { escapeHtml } from '#server/modules/mail/mail-templates.ts';
import { siteText } from '#server/modules/sites/site-texts.ts';

export const contentDir = path.join(projectRoot, 'content');
export type { ContentPage };
export { contentPages };

/** The terms carry this version date unless the company was added later (spec §9). */
export const defaultTermsDate = '2023-12-01';

export function termsDate(company: CompanyRow | undefined): string {
  return company && company.added > defaultTermsDate ? company.added : defaultTermsDate;
}

/** A value from the settings, made safe for Markdown and HTML before it goes into a page. */
function safe(value: string): string {
  return escapeHtml(value).replace(/([\\`*_[\]#|~])/g, '\\$1');
}

export type PageValues = Record<string, string>;

export function pageValues(
  site: SiteRow,
  company: CompanyRow | undefined,
  options: { hideAddress: boolean; locale: Locale; fictionalDefaults: { singular: string; plural: string } },
): PageValues {
  return {
    site: site.name,
    company: company?.name ?? site.name,
    address: options.hideAddress ? '' : (company?.address ?? ''),
    city: company?.city ?? '',
    country: company ? countryName(company.country, options.locale) : '',
    kvk: company?.kvk ?? '',
    vat: company?.vatNumbers.join(', ') ?? '',
    tradenames: company?.tradenames.join(', ') ?? site.name,
    support_email: site.supportEmail,
    support_phone: site.supportPhone,
    support_phone_link: site.supportPhone.replace(/[\s-]/g, ''),
    refund_days: String(site.refundDays),
    min_age: String(site.minAge),
    terms_date: new Intl.DateTimeFormat(options.locale === 'no' ? 'nb' : options.locale, {
      dateStyle: 'long',
      timeZone: 'UTC',
    }).format(new Date(`${termsDate(company)}T00:00:00Z`)),
    fictional_singular:
      siteText(site, options.locale, 'fictional_singular') || options.fictionalDefaults.singular,
    fictional_plural: siteText(site, options.locale, 'fictional_plural') || options.fictionalDefaults.plural,
  };
}

const cache = new Map<string, string>();

function source(locale: Locale, page: ContentPage): string {
  const key = `${locale}/${page}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const file = path.join(contentDir, locale, `${page}.md`);
  const text = readFileSync(
    existsSync(file) ? file : path.join(contentDir, defaultLocale, `${page}.md`),
    'utf8',
  );
  cache.set(key, text);
  return text;
}

/** A legal or info page in the member's language, with the site's and company's details filled in. */
export function renderPage(
  locale: Locale,
  page: ContentPage,
  values: PageValues,
): { title: string; html: string } {
  const filled = source(locale, page)
    // A value that ends a sentence with its own full stop ("Amora Media B.V.") takes no second one.
    .replace(/\{(\w+)\}(\.?)/g, (whole, name: string, stop: string) => {
      if (!(name in values)) return whole;
      const value = values[name] ?? '';
      return safe(value) + (stop && value.endsWith('.') ? '' : stop);
    })
    // An address left out for traffic-source visitors leaves no empty list item behind.
    .replace(/,\s*,/g, ',')
    .replace(/:\s*,\s*/g, ': ');
  const typeset = typography(filled, locale);
  const title = typeset.match(/^#\s+(.+)$/m)?.[1]?.trim() ?? page;
  const html = marked.parse(typeset.replace(/^#\s+.+$/m, ''), { async: false, gfm: true }) as string;
  return { title, html };
}
