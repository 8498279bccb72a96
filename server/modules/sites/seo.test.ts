import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locales } from '#contract/locales.ts';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app.ts';

describe('per-site robots.txt, sitemap.xml, manifest and offline page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://amora.example' });
  });
  afterAll(() => t.close());

  const get = (url: string, host: string, headers: Record<string, string> = {}) =>
    t.app.inject({ url, headers: { host, ...headers } });

  it("names each site's own sitemap in robots.txt, from the site's origin and never from a forwarded host", async () => {
    const first = await get('/robots.txt', 'localhost', { 'x-forwarded-host': 'evil.example' });
    const second = await get('/robots.txt', 'nl.localhost');
    expect(first.headers['content-type']).toMatch(/^text\/plain/);
    expect(first.body).toContain('Sitemap: https://amora.example/sitemap.xml');
    expect(first.body).toContain('Disallow: /api/');
    expect(first.body).not.toContain('evil');
    expect(second.body).toContain(`Sitemap: http://nl.localhost:${t.config.PORT}/sitemap.xml`);
    expect(first.body).not.toBe(second.body);
  });

  it('lists the public and legal pages in every language with hreflang alternates, per site', async () => {
    const first = await get('/sitemap.xml', 'localhost');
    const second = await get('/sitemap.xml', 'nl.localhost');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toMatch(/^application\/xml/);
    const locs = (body: string) => [...body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    const firstLocs = locs(first.body);
    for (const locale of locales) {
      expect(firstLocs).toContain(`https://amora.example/pages/terms?lang=${locale}`);
      expect(first.body).toContain(
        `<xhtml:link rel="alternate" hreflang="${locale}" href="https://amora.example/pages/privacy?lang=${locale}"/>`,
      );
    }
    expect(first.body).toContain('hreflang="x-default" href="https://amora.example/signup"');
    // The US compliance page belongs to the site with the US footer only.
    expect(firstLocs).toContain('https://amora.example/pages/compliance?lang=en');
    const secondLocs = locs(second.body);
    expect(secondLocs).toContain(`http://nl.localhost:${t.config.PORT}/pages/terms?lang=nl`);
    expect(secondLocs.some((loc) => loc?.includes('compliance'))).toBe(false);
    expect(secondLocs.every((loc) => loc?.startsWith(`http://nl.localhost:${t.config.PORT}/`))).toBe(true);
    expect(firstLocs).toHaveLength(13 * locales.length);
    expect(secondLocs).toHaveLength(12 * locales.length);
    // Members' areas are never in it.
    expect(first.body).not.toMatch(/\/(chats|credits|profile|admin)/);
  });

  it("gives each site's installed app its own theme colour and an id", async () => {
    const first = (await get('/manifest.webmanifest', 'localhost')).json();
    const second = (await get('/manifest.webmanifest', 'nl.localhost')).json();
    expect(first).toMatchObject({ id: '/members', theme_color: '#c2185b', start_url: '/members' });
    expect(second).toMatchObject({ id: '/members', theme_color: '#00796b' });
  });

  it('serves the offline page in the visitor language with the site name and colour, for the service worker', async () => {
    const german = await get('/offline.html?lang=de', 'nl.localhost');
    expect(german.statusCode).toBe(200);
    expect(german.headers['content-type']).toMatch(/^text\/html/);
    expect(german.body).toContain('<html lang="de">');
    expect(german.body).toContain('Du bist offline');
    expect(german.body).toContain('Flirtpunt ist gerade nicht erreichbar');
    expect(german.body).toContain('#00796b');
    const english = await get('/offline.html', 'localhost', { 'accept-language': 'en' });
    expect(english.body).toContain('Amora cannot be reached right now');

    const worker = await readFile(new URL('../../../public/sw.js', import.meta.url), 'utf8');
    expect(worker).toContain("const offlineUrl = '/offline.html'");
    expect(worker).toMatch(
      /addEventListener\('fetch'[\s\S]*mode !== 'navigate'[\s\S]*caches\.match\(offlineUrl/,
    );
  });
});
