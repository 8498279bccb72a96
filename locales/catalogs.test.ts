import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { placeholdersOf } from '#contract/i18n.ts';
import { locales } from '#contract/locales.ts';
import { loadTranslations, localesDir } from '#server/lib/i18n.ts';

const translations = loadTranslations();
const source = translations.en;
const areas = readdirSync(path.join(localesDir, 'en')).filter((file) => file.endsWith('.json'));

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
      for (const [area, messages] of Object.entries(source)) {
        const translated = catalogs[area] ?? {};
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
