import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInstance, type i18n } from 'i18next';
import {
  type Catalog,
  interpolation,
  type LocaleResources,
  type Translations,
  typographyProcessor,
} from '#contract/i18n.ts';
import { defaultLocale, type Locale, locales } from '#contract/locales.ts';
import { projectRoot } from '#server/lib/project-root.ts';

export const localesDir = path.join(projectRoot, 'locales');

/** Reads every catalog of every locale once: locales/<lang>/<area>.json. */
export function loadTranslations(dir = localesDir): Translations {
  const result = {} as Translations;
  for (const locale of locales) {
    const resources: LocaleResources = {};
    const localeDir = path.join(dir, locale);
    if (existsSync(localeDir)) {
      for (const file of readdirSync(localeDir).filter((name) => name.endsWith('.json'))) {
        resources[file.slice(0, -'.json'.length)] = JSON.parse(
          readFileSync(path.join(localeDir, file), 'utf8'),
        ) as Catalog;
      }
    }
    result[locale] = resources;
  }
  return result;
}

export type TranslateParams = Record<string, unknown>;
export type Translator = {
  translations: Translations;
  /** `key` is `area:key`, e.g. `errors:login_failed`; with several keys the first that exists wins. */
  t(locale: Locale, key: string | string[], params?: TranslateParams): string;
};

export function createTranslator(translations: Translations = loadTranslations()): Translator {
  const instance: i18n = createInstance();
  void instance.use(typographyProcessor).init({
    resources: translations,
    lng: defaultLocale,
    fallbackLng: defaultLocale,
    supportedLngs: [...locales],
    ns: Object.keys(translations.en),
    defaultNS: 'common',
    interpolation,
    postProcess: ['typography'],
    initAsync: false,
    returnNull: false,
  });
  const fixed = new Map(locales.map((locale) => [locale, instance.getFixedT(locale)]));
  return {
    translations,
    t: (locale, key, params) => (fixed.get(locale) ?? instance.t)(key, params ?? {}) as string,
  };
}
