import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { CatalogsContext, fetchCatalogs } from '#app/lib/i18n.ts';
import { measureModalScrollbarsTruly } from '#app/lib/modal-scrollbar.ts';
import { defaultLocale, isLocale } from '#contract/locales.ts';

/**
 * React Router's default browser entry, after the page's catalogs have come (the file the page
 * preloads, server/web/catalog-files.ts): the hydrated page must say what the server's did. If the
 * file cannot be had, the page stays as the server rendered it — links and forms work without
 * scripts — instead of hydrating into untranslated keys.
 */
async function hydrate() {
  const link = document.querySelector<HTMLLinkElement>('link[data-catalogs]');
  const url = link?.getAttribute('href') ?? '';
  const lang = document.documentElement.lang;
  const locale = isLocale(lang) ? lang : defaultLocale;
  const resources = url ? await fetchCatalogs(url) : {};
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <CatalogsContext.Provider value={{ url, locale, resources }}>
          <HydratedRouter />
        </CatalogsContext.Provider>
      </StrictMode>,
    );
  });
}

measureModalScrollbarsTruly();
hydrate().catch((error: unknown) => console.error(error));
