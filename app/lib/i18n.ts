import { createInstance, type i18n } from 'i18next';
import { createContext, useContext, useEffect, useState } from 'react';
import { initReactI18next } from 'react-i18next';
import { interpolation, type LocaleResources, typographyProcessor } from '#contract/i18n.ts';
import { defaultLocale, type Locale } from '#contract/locales.ts';

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

/** The catalogs a page translates with, and the file they came from (server/web/catalog-files.ts). */
export type PageCatalogs = { url: string; locale: Locale; resources: LocaleResources };

/**
 * Set by entry.server (the catalogs in memory) and entry.client (the file the page preloads), so
 * the catalogs never travel in the page's loader data.
 */
export const CatalogsContext = createContext<PageCatalogs>({ url: '', locale: defaultLocale, resources: {} });

function isStringRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The catalogs file's shape ({ namespace: { key: text } }), checked by hand: zod would be the one
 * reason for every public page to load it before its first paint.
 */
export function isCatalogFile(value: unknown): value is LocaleResources {
  return (
    isStringRecord(value) &&
    Object.values(value).every(
      (catalog) =>
        isStringRecord(catalog) && Object.values(catalog).every((text) => typeof text === 'string'),
    )
  );
}

/** Fetches a catalogs file, once per page load (immutable: the browser's cache answers later pages). */
const fetchedCatalogs = new Map<string, Promise<LocaleResources>>();
export function fetchCatalogs(url: string): Promise<LocaleResources> {
  let catalogs = fetchedCatalogs.get(url);
  if (!catalogs) {
    catalogs = fetch(url, { credentials: 'same-origin' }).then(async (response) => {
      if (!response.ok) throw new Error(`Catalogs ${url}: ${response.status}`);
      const file: unknown = await response.json();
      if (!isCatalogFile(file)) throw new Error(`Catalogs ${url}: not a catalogs file`);
      return file;
    });
    // A failed fetch is not kept: the next language switch may try again.
    catalogs.catch(() => {
      // expected: the caller awaits the same promise and gets the error; only the cache forgets it.
      fetchedCatalogs.delete(url);
    });
    fetchedCatalogs.set(url, catalogs);
  }
  return catalogs;
}

/**
 * The catalogs for the root loader's `catalogs` address: the ones the page started with, until a
 * language switch (which revalidates in place) names another file; that one is fetched and the
 * page re-renders in the new language. A file that cannot be fetched reloads the page.
 */
export function usePageCatalogs(url: string | undefined, locale: Locale): PageCatalogs {
  const initial = useContext(CatalogsContext);
  const [catalogs, setCatalogs] = useState(initial);
  useEffect(() => {
    if (!url || url === catalogs.url) return;
    let current = true;
    fetchCatalogs(url).then(
      (resources) => current && setCatalogs({ url, locale, resources }),
      () => current && window.location.reload(),
    );
    return () => {
      current = false;
    };
  }, [url, locale, catalogs.url]);
  return catalogs;
}
