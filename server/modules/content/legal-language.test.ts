import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countryName } from '#contract/countries.ts';
import { locales } from '#contract/locales.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';
import { contentPages } from './content.service.ts';

describe('legal pages in the page’s language', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const page = async (name: string, locale: string, host = 'localhost') =>
    (
      await t.app.inject({ url: `/api/page.php?page=${name}`, headers: { host, cookie: `locale=${locale}` } })
    ).json() as { title: string; html: string };

  it('names the company’s country in the page’s language, never as a bare code', async () => {
    for (const locale of locales) {
      for (const name of contentPages) {
        const { html } = await page(name, locale);
        // Country codes stand alone only where a code was put in for a name.
        expect(html, `${locale}/${name}`).not.toMatch(/\b(NL|BE|DE|GB|US)\b(?![-\d])/);
        expect(html, `${locale}/${name}`).not.toContain('B.V..');
      }
      const terms = (await page('terms', locale)).html;
      expect(terms, locale).toContain(countryName('NL', locale));
    }
    expect((await page('terms', 'de')).html).toContain('Niederlande');
    expect((await page('terms', 'en')).html).toContain('the country where we are established (Netherlands)');
  });

  it('writes the company name with one full stop at the end of a sentence', async () => {
    const { html } = await page('terms', 'en');
    expect(html).toContain('mean Amora Media B.V. &quot;You');
    expect(html).not.toContain('B.V..');
  });

  it('elides French "de" before a site name with a vowel', async () => {
    const french = await page('faq', 'fr');
    expect(french.html).toContain('d’Amora');
    expect(french.html).not.toMatch(/\bde Amora\b/);
    const flirtpunt = await page('faq', 'fr', 'nl.localhost');
    expect(flirtpunt.html).toContain('de Flirtpunt');
  });
});
