import { describe, expect, it } from 'vitest';
import { locales } from '#contract/locales.ts';
import { createTranslator, loadTranslations } from '#server/lib/i18n.ts';

const translations = loadTranslations();
const translator = createTranslator(translations);

/** "Label: {count}" reads right for any number; anything else with a count needs plural forms. */
const labelForm = /:\s*\{count\}\.?$/;

describe('plural messages', () => {
  it('every English message that puts a count next to a word is a plural message', () => {
    const problems: string[] = [];
    for (const [area, catalog] of Object.entries(translations.en)) {
      for (const [key, message] of Object.entries(catalog)) {
        if (/_(one|other)$/.test(key)) continue;
        if (message.includes('{count}') && !labelForm.test(message)) problems.push(`${area}:${key}`);
        // A count under another name cannot pick a plural form.
        if (/\{(credits|days|messages|photos|likes)\}/.test(message)) problems.push(`${area}:${key}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('one credit is singular and two are plural in every language', () => {
    const one: Record<string, string> = {};
    const two: Record<string, string> = {};
    for (const locale of locales) {
      one[locale] = translator.t(locale, 'credits:bundle.credits', { count: 1 });
      two[locale] = translator.t(locale, 'credits:bundle.credits', { count: 2 });
    }
    expect(one).toEqual({
      en: '1 credit',
      nl: '1 credit',
      de: '1 Credit',
      it: '1 credito',
      fr: '1 crédit',
      es: '1 crédito',
      pl: '1 kredyt',
      da: '1 kredit',
      fi: '1 krediitti',
      no: '1 kreditt',
      sv: '1 kredit',
    });
    expect(two.pl).toBe('2 kredyty');
    expect(translator.t('pl', 'credits:bundle.credits', { count: 5 })).toBe('5 kredytów');
    expect(translator.t('pl', 'credits:bundle.credits', { count: 22 })).toBe('22 kredyty');
    expect(two.fi).toBe('2 krediittiä');
    expect(translator.t('fr', 'credits:bundle.credits', { count: 0 })).toBe('0 crédit');
  });

  it('the chat composer says what one message costs in the singular', () => {
    expect(translator.t('en', 'chat:cost.message', { count: 1 })).toBe('A message costs 1 credit');
    expect(translator.t('de', 'chat:cost.message', { count: 1 })).toBe('Eine Nachricht kostet 1 Credit');
    expect(translator.t('sv', 'chat:cost.message', { count: 1 })).toBe('Ett meddelande kostar 1 kredit');
    expect(translator.t('da', 'chat:cost.message', { count: 3 })).toBe('En besked koster 3 kreditter');
  });
});
