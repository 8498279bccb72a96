import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTranslations } from '#server/lib/i18n.ts';
import { createTestApp, type TestApp } from '../../tests/setup/test-app.ts';
import { CatalogFiles, catalogAreaOf, registerCatalogFiles } from './catalog-files.ts';

describe('the catalogs files pages translate with', () => {
  const translations = loadTranslations();
  const files = new CatalogFiles(translations);

  it('leaves the back office, the mails and the setup page out of the site pages', () => {
    for (const url of ['/', '/members', '/chats/3?x=1', '/administration']) {
      expect(catalogAreaOf(url), url).toBe('site');
    }
    const sent = Object.keys(files.fileOf('de', 'site').resources);
    expect(sent).toEqual(expect.arrayContaining(['common', 'chat', 'errors', 'landers']));
    expect(sent).not.toContain('admin');
    expect(sent).not.toContain('mail');
    expect(sent).not.toContain('setup');
  });

  it('sends the back office its catalog, the unsubscribe page the mails', () => {
    expect(catalogAreaOf('/admin')).toBe('admin');
    expect(catalogAreaOf('/admin/sites?page=2')).toBe('admin');
    expect(catalogAreaOf('/unsubscribe?token=x')).toBe('unsubscribe');
    expect(Object.keys(files.fileOf('de', 'admin').resources)).toContain('admin');
    expect(Object.keys(files.fileOf('de', 'unsubscribe').resources)).toContain('mail');
    expect(Object.keys(files.fileOf('de', 'unsubscribe').resources)).not.toContain('admin');
  });

  it('names each file by its words: another language or area is another address', () => {
    const german = files.fileOf('de', 'site');
    expect(german.url).toMatch(/^\/i18n\/de\.site\.[\w-]{12}\.json$/);
    expect(files.fileOf('de', 'site')).toBe(german);
    expect(JSON.parse(german.body)).toEqual(german.resources);
    expect(files.fileOf('fr', 'site').url).not.toBe(german.url);
    expect(files.fileOf('de', 'admin').url).not.toBe(german.url);
    // A changed word makes a new address, so a year-long cache never serves old words.
    const changed = structuredClone(translations);
    changed.de.common = { ...changed.de.common, 'nav.members': 'Leute' };
    expect(new CatalogFiles(changed).fileOf('de', 'site').url).not.toBe(german.url);
  });

  it('finds a file by its address, even before a page asked for it, and nothing else', () => {
    const fresh = new CatalogFiles(translations);
    const { url } = files.fileOf('nl', 'site');
    expect(fresh.fileAt(url)?.url).toBe(url);
    expect(fresh.fileAt(url.replace(/\.[\w-]{12}\.json$/, '.AAAAAAAAAAAA.json'))).toBeUndefined();
    expect(fresh.fileAt('/i18n/xx.site.AAAAAAAAAAAA.json')).toBeUndefined();
    expect(fresh.fileAt('/i18n/nl.setup.AAAAAAAAAAAA.json')).toBeUndefined();
    expect(fresh.fileAt('/i18n/')).toBeUndefined();
  });
});

describe('GET /i18n/<file>', () => {
  let t: TestApp;
  const files = new CatalogFiles(loadTranslations());
  beforeAll(async () => {
    t = await createTestApp();
    registerCatalogFiles(t.app, files);
    await t.app.ready();
  });
  afterAll(() => t.close());

  it('answers a file for a year, as JSON; an unknown or earlier version is a 404 in the contract’s shape', async () => {
    const { url, resources } = files.fileOf('fi', 'site');
    const found = await t.app.inject({ url });
    expect(found.statusCode).toBe(200);
    expect(found.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(found.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(found.json()).toEqual(resources);

    for (const missing of [
      url.replace(/\.[\w-]{12}\.json$/, '.AAAAAAAAAAAA.json'),
      '/i18n/fi.admin.json',
      '/i18n/..%2F..%2Fpackage.json',
    ]) {
      const answer = await t.app.inject({ url: missing });
      expect(answer.statusCode, missing).toBe(404);
      expect(answer.json(), missing).toMatchObject({ error: expect.any(String) });
      expect(String(answer.headers['cache-control'] ?? ''), missing).not.toContain('immutable');
    }
  });
});
