import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { placeholdersOf } from '#contract/i18n.ts';
import { type Locale, locales } from '#contract/locales.ts';
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

/** Every message of a locale, as `area:key` and text. */
function messagesOf(locale: Locale): [string, string][] {
  return Object.entries(translations[locale]).flatMap(([area, catalog]) =>
    Object.entries(catalog).map(([key, message]): [string, string] => [`${area}:${key}`, message]),
  );
}

/** The messages of a locale that match, as `area:key: text` (the problems a test lists). */
function matching(locale: Locale, pattern: RegExp, skip: (id: string) => boolean = () => false): string[] {
  return messagesOf(locale)
    .filter(([id, message]) => !skip(id) && new RegExp(pattern.source, pattern.flags).test(message))
    .map(([id, message]) => `${id}: ${message}`);
}

/** Lines one member writes to another (conversation starters, a lander's chat bubbles), not the app's. */
const memberToMember = (id: string) => /^(likes:icebreaker\.line|landers:member\.bubble)/.test(id);

describe('typography', () => {
  it('French puts a space (or a no-break space) before : ; ! and ?', () => {
    // Not a URL's "https://", a query's "?lang=" or a time's "10:30".
    expect(matching('fr', /[^\s\u00a0\u202f][:;!?](?![/\w=])/u)).toEqual([]);
  });

  for (const locale of locales.filter((candidate) => candidate !== 'fr')) {
    it(`${locale} has no space before : ; ! and ?`, () => {
      expect(matching(locale, /[\s\u00a0\u202f][:;!?](?=\s|$)/u)).toEqual([]);
    });
  }

  for (const locale of ['fr', 'it'] as const) {
    it(`${locale} writes the typographic apostrophe ’, never the straight one`, () => {
      expect(matching(locale, /'/)).toEqual([]);
    });
  }

  it('a label and its value go through the translated pattern', () => {
    for (const locale of locales) {
      const pattern = translations[locale].common?.labelValue ?? '';
      expect(pattern, locale).toMatch(
        locale === 'fr' ? /^\{label\}[\u00a0\u202f ]: \{value\}$/ : /^\{label\}: \{value\}$/,
      );
    }
  });
});

describe('code', () => {
  /** Source files of the pages and the server (mail templates included), tests left out. */
  function sources(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return sources(file);
      return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
    });
  }

  it('never glues a translated label to ": " (or any punctuation) and a value', () => {
    const glued = [
      // `${t('x')}: ${value}`, {t('x')}: <b>…</b>, `${t(link.key)}: ${link.url}`
      /\bt\((?:[^()]|\([^()]*\))*\)\}\s?[:;!?]/,
      // label + ': ' + value
      /\+\s*['"`]\s?[:;!?]\s?['"`]\s*\+/,
    ];
    const problems: string[] = [];
    for (const file of [...sources(path.resolve('app')), ...sources(path.resolve('server'))]) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (glued.some((pattern) => pattern.test(line)))
            problems.push(`${file}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(problems).toEqual([]);
  });
});

/**
 * The register of docs/i18n-style.md: the form of address the locale uses never meets the other
 * one. `staff` areas (the back office) keep their own register where the guide gives none.
 */
const otherRegister: Partial<Record<Locale, { pattern: RegExp; skip?: (id: string) => boolean }>> = {
  // vous for members; the back office's own catalogs (admin, workbench) talk to the team with tu.
  fr: {
    pattern: /(^|[^\p{L}])(tu|te|toi|ton|ta|tes|t’)(?=[^\p{L}]|$)/iu,
    skip: (id) => id.startsWith('admin:') || id.startsWith('workbench:') || memberToMember(id),
  },
  // du: never the formal Sie, Ihnen, Ihr… in the middle of a sentence (at its start it is "she").
  de: { pattern: /(?<![.!?:]\s|^)(?<![\p{L}])(Sie|Ihnen|Ihre[mnrs]?|Ihr)(?![\p{L}])/u },
  nl: { pattern: /(?<![\p{L}.])(u|uw)(?![\p{L}.])|(^|[.!?]\s)Uw?(?![\p{L}.])/u },
  es: { pattern: /(?<![\p{L}])(usted|ustedes)(?![\p{L}])/iu },
  it: { pattern: /(?<![.!?:]\s|^)(?<![\p{L}])(Lei|Suo|Sua|Suoi|Sue)(?![\p{L}])/u },
  // ty, in lower case in the middle of a sentence, as the app writes it.
  pl: {
    pattern:
      /(?<![\p{L}])(Pan|Pani|Państwo|Państwa)(?![\p{L}])|(?<=[\p{Ll},] )(Ty|Twoj\p{L}*|Twój|Tob\p{L}*|Ci|Cię)(?![\p{L}])/u,
    skip: memberToMember,
  },
  da: { pattern: /(?<![.!?:]\s|^)(?<![\p{L}])(De|Dem|Deres)(?![\p{L}])/u },
  no: { pattern: /(?<![.!?:]\s|^)(?<![\p{L}])(De|Dem|Deres|Dere)(?![\p{L}])/u },
  sv: { pattern: /(?<![.!?:]\s|^)(?<![\p{L}])(Ni|Er|Ert|Era)(?![\p{L}])/u },
  fi: { pattern: /(?<![\p{L}])(Teidän|Teille|Teitä|Teidät)(?![\p{L}])/u },
};

describe('one register per language', () => {
  for (const [locale, { pattern, skip }] of Object.entries(otherRegister) as [
    Locale,
    { pattern: RegExp; skip?: (id: string) => boolean },
  ][]) {
    it(`${locale} never uses the other form of address`, () => {
      expect(matching(locale, pattern, skip)).toEqual([]);
    });
  }

  it('French members talk to each other with tu, never vous', () => {
    const lines = messagesOf('fr').filter(([id]) => memberToMember(id));
    expect(lines.length).toBeGreaterThan(3);
    expect(
      lines.filter(([, message]) => /(^|[^\p{L}])(vous|votre|vos)(?=[^\p{L}]|$)/iu.test(message)),
    ).toEqual([]);
  });
});

/**
 * What native readers marked as wrong or unnatural, and the product words of docs/i18n-style.md:
 * none of it comes back.
 */
const avoid: [Locale, RegExp, string][] = [
  ['no', /ingen nettsted/, '"ikke noe nettsted" (nettsted is neuter)'],
  ['no', /(?<![\p{L}])[Ll]ik(?![\p{L}])/u, '"lik" reads as "corpse": like, liker'],
  ['sv', /(?<![\p{L}])Order(?![\p{L}])/u, 'Beställning'],
  ['sv', /(?<![\p{L}{])likes?(?![\p{L}}])/iu, 'gilla, gillning'],
  ['nl', /Toon me/, 'Laat … zien'],
  ['da', /ingen side/, 'intet websted'],
  ['da', /(?<![\p{L}])[Ff]oto/u, 'billede'],
  ['da', /(?<![\p{L}{_])[Cc]redits?(?![\p{L}}_])/u, 'kreditter'],
  ['fi', /Viesti alkaen/, 'Viestit alkaen'],
  ['fi', /[Kk]uvitteelli/, 'fiktiivinen'],
  ['es', /(?<![\p{L}{])likes?(?![\p{L}}])/iu, 'me gusta, dar me gusta'],
  ['it', /(?<![\p{L}{])likes?(?![\p{L}}])/iu, 'mi piace, mettere mi piace'],
  ['it', /(?<![\p{L}{])[Ee]mail(?![\p{L}}])/u, 'e-mail'],
  ['es', /sé respetuoso/, 'a neutral phrasing: trata a los demás con respeto'],
  ['it', /sii rispettos[oa]/, 'a neutral phrasing: tratta gli altri con rispetto'],
  ['pl', /bądź uprzejm[ya]/, 'a neutral phrasing: traktuj innych z szacunkiem'],
  ['fr', /(reste|soyez|sois) respectueux/, 'a neutral phrasing: faites preuve de respect'],
  ['de', /Anmeldungen|(Die|bei der) Anmeldung(?! im)/, 'registrieren, Registrierung for signing up'],
];

describe('words native readers asked for', () => {
  for (const [locale, pattern, instead] of avoid) {
    it(`${locale} avoids ${pattern} (${instead})`, () => {
      expect(matching(locale, pattern)).toEqual([]);
    });
  }

  it('a button named for a screen reader keeps its visible words in its name', () => {
    for (const locale of locales) {
      const { discover = {}, profile = {} } = translations[locale];
      for (const [visible, named] of [
        [discover['likes.likeBack'], discover['likes.likeBackName']],
        [profile['member.chat'], discover['likes.chatName']],
      ]) {
        expect(named?.toLocaleLowerCase(locale), locale).toContain(visible?.toLocaleLowerCase(locale));
      }
    }
  });
});
