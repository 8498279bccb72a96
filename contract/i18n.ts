import type { Locale } from './locales.ts';

// Catalogs: one JSON file per area and locale under locales/<lang>/ (auth, chat, common, content,
// credits, directdebit, errors, landers, likes, mail, notifications, profile), read by the server.

export type Catalog = Record<string, string>;
export type LocaleResources = Record<string, Catalog>;

/** The placeholders are written {name}, as the spec writes them. */
export const interpolation = { prefix: '{', suffix: '}', escapeValue: false } as const;

/** The placeholders a message uses, e.g. ["min_age"] for "Enter your date of birth ({min_age}+)". */
export function placeholdersOf(message: string): string[] {
  return [...message.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '').sort();
}

export type Translations = Record<Locale, LocaleResources>;
