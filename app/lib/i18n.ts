import { createInstance, type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { interpolation, type LocaleResources, typographyProcessor } from '#contract/i18n.ts';
import type { Locale } from '#contract/locales.ts';

/** One i18next instance per request on the server and per page load in the browser, same catalogs. */
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
