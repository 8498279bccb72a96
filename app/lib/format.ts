import { dateTimeFormat, numberFormat, relativeTimeFormat } from '#contract/intl-cache.ts';
import { defaultDateLocale, type Locale } from '#contract/locales.ts';
import { useOptionalRootData } from './root-data.ts';

/**
 * The Intl locale of a language: Norwegian is nb; English dates are written the European way
 * (en-GB: 22 Nov 2026, 11:54), not the US way. Without a language, the spec's nl date locale (§1).
 */
export function intlLocale(locale: Locale | undefined): string {
  if (!locale) return defaultDateLocale;
  if (locale === 'no') return 'nb';
  if (locale === 'en') return 'en-GB';
  return locale;
}

/** A date in the member's language; without one, in the nl date locale (spec §1). */
export function formatDate(
  value: Date | string,
  locale?: Locale,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' },
): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  return dateTimeFormat(intlLocale(locale), options).format(date);
}

/** The calendar day of an instant in a time zone, as a day number (for "today", "yesterday"). */
function dayNumber(date: Date, timeZone: string | undefined): number {
  const parts = dateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  })
    .format(date)
    .split('-')
    .map(Number);
  return Math.floor(Date.UTC(parts[0] ?? 1970, (parts[1] ?? 1) - 1, parts[2] ?? 1) / 86_400_000);
}

function capitalize(text: string, locale: Locale | undefined): string {
  return text.charAt(0).toLocaleUpperCase(intlLocale(locale)) + text.slice(1);
}

/**
 * When a chat message was sent, as people say it: the time today ("12:26"), "Yesterday", the weekday
 * within the last week, else the date. With `withTime`, days other than today carry the time too.
 */
export function formatRecent(
  value: Date | string,
  locale: Locale | undefined,
  options: { now: Date; timeZone?: string | undefined; withTime?: boolean },
): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  const tz = options.timeZone;
  const time = formatDate(date, locale, { timeStyle: 'short', timeZone: tz });
  const daysAgo = dayNumber(options.now, tz) - dayNumber(date, tz);
  if (daysAgo <= 0) return time;
  let day: string;
  if (daysAgo === 1) {
    day = capitalize(relativeTimeFormat(intlLocale(locale), { numeric: 'auto' }).format(-1, 'day'), locale);
  } else if (daysAgo < 7) {
    day = capitalize(formatDate(date, locale, { weekday: 'long', timeZone: tz }), locale);
  } else {
    day = formatDate(date, locale, { dateStyle: 'short', timeZone: tz });
  }
  return options.withTime ? `${day} ${time}` : day;
}

/** A chat's day separator: "Today", "Yesterday", the weekday within the last week, else the date. */
export function formatDay(
  value: Date | string,
  locale: Locale | undefined,
  options: { now: Date; timeZone?: string | undefined },
): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  const daysAgo = dayNumber(options.now, options.timeZone) - dayNumber(date, options.timeZone);
  if (daysAgo <= 1) {
    return capitalize(
      relativeTimeFormat(intlLocale(locale), { numeric: 'auto' }).format(-Math.max(0, daysAgo), 'day'),
      locale,
    );
  }
  if (daysAgo < 7)
    return capitalize(formatDate(date, locale, { weekday: 'long', timeZone: options.timeZone }), locale);
  return formatDate(date, locale, { dateStyle: 'medium', timeZone: options.timeZone });
}

/**
 * The page's date formatting: the reader's language and the site's time zone, so the server and the
 * browser write the same dates. Every screen formats dates through this hook.
 */
export function useDates() {
  const root = useOptionalRootData();
  const locale = root?.locale;
  const timeZone = root?.settings?.timezone || undefined;
  return {
    date: (value: Date | string, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }) =>
      formatDate(value, locale, { timeZone, ...options }),
    recent: (value: Date | string, now: Date = new Date(), withTime = false) =>
      formatRecent(value, locale, { now, timeZone, withTime }),
    day: (value: Date | string, now: Date = new Date()) => formatDay(value, locale, { now, timeZone }),
    time: (value: Date | string) => formatDate(value, locale, { timeStyle: 'short', timeZone }),
  };
}

/** Numbers follow the language as Intl has it (en keeps "$29.00" for US prices). */
function numberLocale(locale: Locale): string {
  return locale === 'no' ? 'nb' : locale;
}

/** Money is integer cents plus a currency (api-contract.md). */
export function formatMoney(cents: number, currency: string, locale: Locale): string {
  return numberFormat(numberLocale(locale), { style: 'currency', currency }).format(cents / 100);
}

export function formatNumber(value: number, locale: Locale): string {
  return numberFormat(numberLocale(locale)).format(value);
}

/**
 * A discount as the language writes it: "−25%" in English, "−25 %" in German; with the minus sign
 * (U+2212), which some languages' Intl data write as a hyphen.
 */
export function formatPercentOff(percentage: number, locale: Locale): string {
  return numberFormat(numberLocale(locale), { style: 'percent', signDisplay: 'exceptZero' })
    .format(-percentage / 100)
    .replace('-', '\u2212');
}
