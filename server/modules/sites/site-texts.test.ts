import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsSchema } from '#contract/sites.ts';
import type { SiteRow } from '#server/db/schema/sites.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { siteText } from './site-texts.ts';

describe('each site’s own texts per language', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const settings = async (host: string, locale: string) => {
    const response = await t.app.inject({
      url: '/api/settings.php',
      headers: { host, cookie: `locale=${locale}` },
    });
    return settingsSchema.parse(response.json());
  };

  it('answers the settings with the title and description in the reader’s language', async () => {
    const german = await settings('nl.localhost', 'de');
    expect(german.index_title).toBe('Flirtpunt – flirten und daten in deiner Nähe');
    expect(german.description).toBe('Auf Flirtpunt lernst du Singles in deiner Nähe kennen.');
    const dutch = await settings('nl.localhost', 'nl');
    expect(dutch.index_title).toBe('Flirtpunt – flirten en daten bij jou in de buurt');
    const finnish = await settings('localhost', 'fi');
    expect(finnish.index_title).toBe('Amora – tapaa sinkkuja läheltäsi');
    // The spec's field names stay.
    expect(finnish).toHaveProperty('fictional_warning');
  });

  it('falls back to the domain_language, then to the columns', () => {
    const site = {
      texts: { nl: { index_title: 'Nederlandse titel' }, de: { index_title: '' } },
      domainLanguage: 'nl',
      name: 'Site',
      indexTitle: 'Column title',
      description: 'Column description',
      fictionalWarning: '',
      fictionalSingular: '',
      fictionalPlural: '',
    } satisfies Parameters<typeof siteText>[0] & Partial<SiteRow>;
    expect(siteText(site, 'fr', 'index_title')).toBe('Nederlandse titel');
    expect(siteText(site, 'de', 'index_title')).toBe('Nederlandse titel');
    expect(siteText(site, 'fr', 'description')).toBe('Column description');
    expect(siteText(site, 'fr', 'manifest_name')).toBe('Site');
    expect(siteText({ ...site, domainLanguage: '' }, 'fr', 'index_title')).toBe('Column title');
    expect(
      siteText(
        { ...site, texts: { en: { index_title: 'English' } }, domainLanguage: '' },
        'fr',
        'index_title',
      ),
    ).toBe('English');
  });

  it('names the installed app in the reader’s language', async () => {
    const manifest = await t.app.inject({
      url: '/manifest.webmanifest',
      headers: { host: 'localhost', cookie: 'locale=sv' },
    });
    const body = manifest.json();
    expect(body.name).toBe('Amora');
    expect(body.description).toBe('På Amora träffar du singlar nära dig, chattar och flörtar.');
    expect(body.lang).toBe('sv');
  });
});
