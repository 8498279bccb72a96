import { describe, expect, it } from 'vitest';
import { loadTranslations } from '#server/lib/i18n.ts';

const translations = loadTranslations();

/** Every message of a locale as `area:key` → text. */
function messagesOf(locale: keyof typeof translations): [string, string][] {
  return Object.entries(translations[locale]).flatMap(([area, messages]) =>
    Object.entries(messages).map(([key, text]): [string, string] => [`${area}:${key}`, text]),
  );
}

describe('one term per thing (docs/i18n-style.md)', () => {
  it('Polish calls a match "para" everywhere, never "match" or "dopasowanie"', () => {
    const other = messagesOf('pl').filter(([, text]) => /\bmatch|dopasowa/i.test(text));
    expect(other).toEqual([]);
    const likesTab = translations.pl.likes?.['tab.matches'];
    expect(translations.pl.discover?.['likes.newMatches']).toBe(`Nowe ${likesTab?.toLowerCase()}`);
  });
});
