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

/**
 * A value that ends with its own full stop ("Amora Media B.V.") before a message's full stop gives
 * "B.V.."; exactly two stops become one (an ellipsis stays).
 */
export function singleFullStop(text: string): string {
  return text.replace(/(?<!\.)\.\.(?!\.)/g, '.');
}

const frenchVowel = '[AEIOUYÀÂÆÉÈÊËÎÏÔŒÙÛÜaeiouyàâæéèêëîïôœùûü]';
const frenchElision = new RegExp(`\\b([Dd]|[Qq]u)e (?=${frenchVowel})`, 'g');

/**
 * What a placeholder can break in a language's typography: the doubled full stop in all of them, and
 * French elision before a name that starts with a vowel ("de {site}" with Amora is "d’Amora",
 * "que {name}" with Anna is "qu’Anna"). The catalogs themselves are written correctly.
 */
export function typography(text: string, language: string | undefined): string {
  const stops = singleFullStop(text);
  return language === 'fr' ? stops.replace(frenchElision, '$1’') : stops;
}

/** Both i18next instances run `typography` on every message as the `typography` post-processor. */
export const typographyProcessor = {
  type: 'postProcessor' as const,
  name: 'typography',
  process: (value: string, _key: unknown, options: { lng?: string } | undefined, translator: unknown) =>
    typography(value, options?.lng ?? (translator as { language?: string } | undefined)?.language),
};
