import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { LocaleResources, Translations } from '#contract/i18n.ts';
import { isLocale, type Locale } from '#contract/locales.ts';
import { NotFoundError } from '#server/lib/errors.ts';

/**
 * The catalogs a page's browser code translates with, as one static file per language and area
 * (`/i18n/<locale>.<area>.<hash>.json`): cached for a year, because the hash changes with the
 * words. They used to travel in every page's loader data — 30–40 KB of each page's HTML, encoded
 * anew on each render; now the server renders with the catalogs in memory and the browser fetches
 * the file once (preloaded by the page, docs/decisions/022).
 */
export type CatalogArea = 'site' | 'admin' | 'unsubscribe';
const areas: readonly CatalogArea[] = ['site', 'admin', 'unsubscribe'];

/**
 * What each area leaves out: the back office's catalogs go only to its pages, the mails' only to
 * the unsubscribe page, the setup page's (server-made) never. No member or public page links to
 * either area, and a page whose file changes under it (a language switch) fetches the new one.
 */
const serverOnlyCatalogs: Record<CatalogArea, readonly string[]> = {
  admin: ['setup'],
  unsubscribe: ['admin', 'engagement', 'numbers', 'setup', 'workbench'],
  site: ['admin', 'engagement', 'mail', 'nudges', 'numbers', 'setup', 'workbench'],
};

export type CatalogFile = {
  /** The catalogs themselves, for the server's own render. */
  resources: LocaleResources;
  url: string;
  body: string;
};

export function catalogAreaOf(url: string): CatalogArea {
  if (/^\/admin(\/|$|\?)/.test(url)) return 'admin';
  if (/^\/unsubscribe(\/|$|\?)/.test(url)) return 'unsubscribe';
  return 'site';
}

export class CatalogFiles {
  private readonly files = new Map<string, CatalogFile>();
  private readonly byUrl = new Map<string, CatalogFile>();

  constructor(private readonly translations: Translations) {}

  /** The file of this language and area, made on first use and kept. */
  fileOf(locale: Locale, area: CatalogArea): CatalogFile {
    const key = `${locale}.${area}`;
    let file = this.files.get(key);
    if (!file) {
      const left = serverOnlyCatalogs[area];
      const resources = Object.fromEntries(
        Object.entries(this.translations[locale]).filter(([namespace]) => !left.includes(namespace)),
      );
      const body = JSON.stringify(resources);
      const hash = createHash('sha256').update(body).digest('base64url').slice(0, 12);
      file = { resources, body, url: `/i18n/${locale}.${area}.${hash}.json` };
      this.files.set(key, file);
      this.byUrl.set(file.url, file);
    }
    return file;
  }

  /** The file at this address, or undefined (an unknown name, or an earlier version's hash). */
  fileAt(url: string): CatalogFile | undefined {
    const known = this.byUrl.get(url);
    if (known) return known;
    const [locale, areaName] = url.slice('/i18n/'.length).split('.');
    const area = areas.find((name) => name === areaName);
    if (!locale || !isLocale(locale) || !area) return undefined;
    const file = this.fileOf(locale, area);
    return file.url === url ? file : undefined;
  }
}

/** GET /i18n/<locale>.<area>.<hash>.json: immutable, so a browser asks once per version. */
export function registerCatalogFiles(app: FastifyInstance, files: CatalogFiles): void {
  app.get('/i18n/:name', { schema: { hide: true } }, async (request, reply) => {
    const file = files.fileAt(request.url.split('?')[0] ?? '');
    // An earlier version's file is gone: the page that asks for it renders on without scripts.
    if (!file) throw new NotFoundError();
    return reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .type('application/json; charset=utf-8')
      .send(file.body);
  });
}
