import type { Locale } from '#contract/locales.ts';

/** A country's name in the member's language, from the platform's own data (Intl.DisplayNames). */
export function countryName(code: string, locale: Locale): string {
  try {
    return new Intl.DisplayNames([locale === 'no' ? 'nb' : locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
