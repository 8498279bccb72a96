import { defaultLocale, isLocale, type Locale } from '#contract/locales.ts';
import type { SiteRow, SiteTextField } from '#server/db/schema/sites.ts';

type TextSource = Pick<
  SiteRow,
  | 'texts'
  | 'domainLanguage'
  | 'name'
  | 'indexTitle'
  | 'description'
  | 'fictionalWarning'
  | 'fictionalSingular'
  | 'fictionalPlural'
>;

/** The columns that hold each text in the site's own language (domain_language). */
function columnText(site: TextSource, field: SiteTextField): string {
  switch (field) {
    case 'index_title':
      return site.indexTitle;
    case 'description':
      return site.description;
    case 'fictional_warning':
      return site.fictionalWarning;
    case 'fictional_singular':
      return site.fictionalSingular;
    case 'fictional_plural':
      return site.fictionalPlural;
    case 'manifest_name':
      return site.name;
  }
}

/**
 * One of the site's own texts in the reader's language: the site's text for that language, else its
 * text in its domain_language (en for a site without one), else the column. An empty text stays
 * empty, so the caller's translated default applies.
 */
export function siteText(site: TextSource, locale: Locale, field: SiteTextField): string {
  const home = isLocale(site.domainLanguage) ? site.domainLanguage : defaultLocale;
  return site.texts[locale]?.[field] || site.texts[home]?.[field] || columnText(site, field);
}
