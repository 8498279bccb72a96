import { dateTimeFormat } from '#contract/intl-cache.ts';
import type { Locale } from '#contract/locales.ts';
import { intlLocale } from './format.ts';

type Part = 'day' | 'month' | 'year';

/** The order of day, month and year in the language's numeric dates (nl: day-month-year). */
export function dateOrder(locale: Locale | undefined): Part[] {
  const parts = dateTimeFormat(intlLocale(locale), {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'UTC',
  }).formatToParts(new Date(Date.UTC(1990, 10, 22)));
  const order = parts
    .map((part) => part.type)
    .filter((type): type is Part => type === 'day' || type === 'month' || type === 'year');
  return order.length === 3 ? order : ['day', 'month', 'year'];
}

/** A sample date written the way the language writes it (22.11.1990, 22/11/1990, 1990-11-22). */
export function dateExample(locale: Locale | undefined): string {
  return dateTimeFormat(intlLocale(locale), {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(1990, 10, 22)));
}

/**
 * A typed date of birth as YYYY-MM-DD: ISO as it is, else three numbers in the language's order
 * with any separator ("22-11-1990", "22.11.1990", "22/11/1990"). Null when it is no real date.
 */
export function parseDateInput(text: string, locale: Locale | undefined): string | null {
  const trimmed = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(trimmed);
  const numbers = iso
    ? { year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) }
    : (() => {
        const found = trimmed.split(/\D+/).filter(Boolean);
        if (found.length !== 3) return null;
        const order = dateOrder(locale);
        const value: Record<Part, number> = { day: 0, month: 0, year: 0 };
        order.forEach((part, index) => {
          value[part] = Number(found[index]);
        });
        return value;
      })();
  if (!numbers || numbers.year < 1900 || numbers.year > 2100) return null;
  const date = new Date(Date.UTC(numbers.year, numbers.month - 1, numbers.day));
  if (date.getUTCMonth() !== numbers.month - 1 || date.getUTCDate() !== numbers.day) return null;
  return date.toISOString().slice(0, 10);
}
