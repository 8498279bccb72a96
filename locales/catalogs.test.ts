import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { placeholdersOf } from '#contract/i18n.ts';
import { locales } from '#contract/locales.ts';
import { loadTranslations, localesDir } from '#server/lib/i18n.ts';

const translations = loadTranslations();
const source = translations.en;
const areas = readdirSync(path.join(localesDir, 'en')).filter((file) => file.endsWith('.json'));

const pluralSuffix = /_(zero|one|two|few|many|other)$/;

/**
 * English keys as a locale must have them: a plural message (English `x_one`/`x_other`) needs
 * exactly the locale's own plural categories (Polish `x_one/_few/_many/_other`, French `x_many`…).
 */
function withPluralsOf(locale: string, english: Record<string, string>): Record<string, string> {
  const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  const expected: Record<string, string> = {};
  for (const [key, message] of Object.entries(english)) {
    if (!pluralSuffix.test(key)) expected[key] = message;
    else if (key.endsWith('_other')) {
      const base = key.slice(0, -'_other'.length);
      for (const category of categories) expected[`${base}_${category}`] = message;
    }
  }
  return expected;
}

describe('message catalogs', () => {
  it('has the English source catalogs', () => {
    expect(areas.length).toBeGreaterThan(0);
    expect(Object.keys(source.errors ?? {}).length).toBeGreaterThan(10);
  });

  for (const locale of locales.filter((candidate) => candidate !== 'en')) {
    it(`${locale} has every area, key and placeholder of English and nothing else`, () => {
      const problems: string[] = [];
      const catalogs = translations[locale];
      expect(Object.keys(catalogs).sort()).toEqual(Object.keys(source).sort());
      for (const [area, english] of Object.entries(source)) {
        const translated = catalogs[area] ?? {};
        const messages = withPluralsOf(locale, english);
        for (const [key, message] of Object.entries(messages)) {
          const value = translated[key];
          if (typeof value !== 'string' || value.trim() === '') problems.push(`missing ${area}:${key}`);
          else if (placeholdersOf(value).join() !== placeholdersOf(message).join()) {
            problems.push(
              `placeholders of ${area}:${key}: ${placeholdersOf(value)} vs ${placeholdersOf(message)}`,
            );
          }
        }
        for (const key of Object.keys(translated)) {
          if (!(key in messages)) problems.push(`extra ${area}:${key}`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
