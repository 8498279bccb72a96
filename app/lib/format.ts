import { defaultDateLocale, type Locale } from '#contract/locales.ts';

/** Intl wants nb for Norwegian Bokmål. */
function intlLocale(locale: Locale | undefined): string {
  if (!locale) return defaultDateLocale;
  return locale === 'no' ? 'nb' : locale;
}

/** A date in the member's language; without one, in the nl date locale (spec §1). */
export function formatDate(
  value: Date | string,
  locale?: Locale,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' },
): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  return new Intl.DateTimeFormat(intlLocale(locale), options).format(date);
}

/** Money is integer cents plus a currency (api-contract.md). */
export function formatMoney(cents: number, currency: string, locale: Locale): string {
  return new Intl.NumberFormat(intlLocale(locale), { style: 'currency', currency }).format(cents / 100);
}

export function formatNumber(value: number, locale: Locale): string {
  return new Intl.NumberFormat(intlLocale(locale)).format(value);
}
