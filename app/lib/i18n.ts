import { createInstance, type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { interpolation, type LocaleResources, typographyProcessor } from '#contract/i18n.ts';
import type { Locale } from '#contract/locales.ts';

/**
 * The i18next instance of a page: one per catalog object. The server hands every render of a locale
 * (and area) the same catalogs, so renders share an instance instead of building one each (its
 * language never changes); the browser builds one per page load.
 */
const instances = new WeakMap<LocaleResources, i18n>();
export function i18nFor(locale: Locale, resources: LocaleResources): i18n {
  let instance = instances.get(resources);
  if (!instance || instance.language !== locale) {
    instance = createI18n(locale, resources);
    instances.set(resources, instance);
  }
  return instance;
}

/** A new i18next instance with these catalogs. */
export function createI18n(locale: Locale, resources: LocaleResources): i18n {
  const instance = createInstance();
  void instance
    .use(initReactI18next)
    .use(typographyProcessor)
    .init({
      lng: locale,
      fallbackLng: false,
      resources: { [locale]: resources },
      ns: Object.keys(resources),
      defaultNS: 'common',
      interpolation,
      postProcess: ['typography'],
      initAsync: false,
      returnNull: false,
      react: { useSuspense: false },
    });
  return instance;
}
