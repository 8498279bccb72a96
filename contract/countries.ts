import { regionNames } from './intl-cache.ts';
import type { Locale } from './locales.ts';

/**
 * A country's name in the reader's language from the platform's own CLDR data (Intl.DisplayNames,
 * docs/decisions/005-country-names-from-intl.md); the code itself only where Intl has no name.
 */
export function countryName(code: string, locale: Locale): string {
  try {
    return regionNames(locale === 'no' ? 'nb' : locale).of(code) ?? code;
  } catch {
    return code;
  }
}
