export const locales = ['en', 'nl', 'de', 'it', 'fr', 'es', 'pl', 'da', 'fi', 'no', 'sv'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'en';
/** Spec §1: the default date locale is nl. */
export const defaultDateLocale: Locale = 'nl';
export const localeCookieName = 'locale';
export const localeCookieMaxAgeSeconds = 365 * 24 * 60 * 60;

/** Each locale's name in its own language, for the language switcher. */
export const localeNames: Record<Locale, string> = {
  en: 'English',
  nl: 'Nederlands',
  de: 'Deutsch',
  it: 'Italiano',
  fr: 'Français',
  es: 'Español',
  pl: 'Polski',
  da: 'Dansk',
  fi: 'Suomi',
  no: 'Norsk',
  sv: 'Svenska',
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (locales as readonly string[]).includes(value);
}

/** Norwegian arrives as nb or nn as often as no. */
const aliases: Record<string, Locale> = { nb: 'no', nn: 'no' };

export function localeFromTag(tag: string): Locale | undefined {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  if (isLocale(primary)) return primary;
  return aliases[primary];
}

/** The first supported language of an Accept-Language header, by quality. */
export function localeFromAcceptLanguage(header: string | undefined | null): Locale | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = qParam ? Number(qParam.slice(2)) : 1;
      return { tag, quality: Number.isFinite(quality) ? quality : 0, order };
    })
    .filter((entry) => entry.tag && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.order - b.order);
  for (const entry of ranked) {
    const locale = localeFromTag(entry.tag);
    if (locale) return locale;
  }
  return undefined;
}

/**
 * Spec §1: the `locale` cookie; else the site's domain_language when it is a supported locale; else the
 * browser's Accept-Language; else en. A site without a domain_language (an international site) follows
 * the browser.
 */
export function negotiateLocale(input: {
  cookie?: string | undefined;
  acceptLanguage?: string | undefined;
  domainLanguage?: string | undefined;
}): Locale {
  if (isLocale(input.cookie)) return input.cookie;
  if (isLocale(input.domainLanguage)) return input.domainLanguage;
  return localeFromAcceptLanguage(input.acceptLanguage) ?? defaultLocale;
}
