import type { Locale } from './locales.ts';

/** Catalog areas: one JSON file per area and locale under locales/<lang>/. */
export const catalogAreas = ['common', 'errors'] as const;
export type CatalogArea = (typeof catalogAreas)[number];

export type Catalog = Record<string, string>;
export type LocaleResources = Record<string, Catalog>;

/** The placeholders are written {name}, as the spec writes them. */
export const interpolation = { prefix: '{', suffix: '}', escapeValue: false } as const;

/** The placeholders a message uses, e.g. ["min_age"] for "Enter your date of birth ({min_age}+)". */
export function placeholdersOf(message: string): string[] {
  return [...message.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '').sort();
}

export type Translations = Record<Locale, LocaleResources>;
