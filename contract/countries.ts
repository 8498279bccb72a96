import type { Locale } from './locales.ts';

/**
 * A country's name in the reader's language from the platform's own CLDR data (Intl.DisplayNames,
 * docs/decisions/005-country-names-from-intl.md); the code itself only where Intl has no name.
 */
export function countryName(code: string, locale: Locale): string {
  try {
    return new Intl.DisplayNames([locale === 'no' ? 'nb' : locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
