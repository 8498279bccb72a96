import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { negotiateLocale } from '#contract/locales.ts';
import { createTestApp, type TestApp } from '../../tests/setup/test-app.ts';

describe('the locale order of spec §1', () => {
  it('takes the cookie, then the site’s domain_language, then the browser, then en', () => {
    const browser = 'en-US,en;q=0.9';
    expect(negotiateLocale({ cookie: 'de', domainLanguage: 'nl', acceptLanguage: browser })).toBe('de');
    expect(negotiateLocale({ domainLanguage: 'nl', acceptLanguage: browser })).toBe('nl');
    expect(negotiateLocale({ domainLanguage: '', acceptLanguage: 'fi-FI,fi;q=0.9' })).toBe('fi');
    expect(negotiateLocale({ domainLanguage: 'xx', acceptLanguage: 'nb-NO' })).toBe('no');
    expect(negotiateLocale({ cookie: 'klingon', domainLanguage: '', acceptLanguage: 'ja' })).toBe('en');
    expect(negotiateLocale({})).toBe('en');
  });
});

describe('language of a request', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const languageOf = async (
    host: string,
    headers: Record<string, string> = {},
    url = '/api/settings.php',
  ) => {
    const response = await t.app.inject({ url, headers: { host, ...headers } });
    return response.headers['content-language'];
  };

  it('opens the Dutch site in Dutch for an English browser, and in the cookie’s language', async () => {
    expect(await languageOf('nl.localhost', { 'accept-language': 'en-GB,en;q=0.9' })).toBe('nl');
    expect(await languageOf('nl.localhost', { 'accept-language': 'en', cookie: 'locale=de' })).toBe('de');
  });

  it('lets the international default site follow the browser', async () => {
    expect(await languageOf('localhost', { 'accept-language': 'pl-PL,pl;q=0.9,en;q=0.5' })).toBe('pl');
    expect(await languageOf('localhost', { 'accept-language': 'ja' })).toBe('en');
    expect(await languageOf('localhost')).toBe('en');
  });

  it('tells caches that the answer depends on the cookie and the browser’s language', async () => {
    const response = await t.app.inject({ url: '/api/settings.php', headers: { host: 'localhost' } });
    const vary = String(response.headers.vary).toLowerCase();
    expect(vary).toContain('accept-language');
    expect(vary).toContain('cookie');
  });

  it('keeps the language of a ?lang= link on the next page', async () => {
    const first = await t.app.inject({ url: '/members?lang=fi', headers: { host: 'nl.localhost' } });
    const cookie = [first.headers['set-cookie']].flat().find((value) => value?.startsWith('locale='));
    expect(cookie).toMatch(/^locale=fi;/);
    expect(cookie).toMatch(/Max-Age=31536000/i);
    const next = cookie?.split(';')[0] ?? '';
    expect(await languageOf('nl.localhost', { cookie: next, 'accept-language': 'en' })).toBe('fi');
    // An API call with ?lang= answers in that language but sets no cookie.
    const api = await t.app.inject({ url: '/api/settings.php?lang=sv', headers: { host: 'nl.localhost' } });
    expect(api.headers['content-language']).toBe('sv');
    expect(api.headers['set-cookie']).toBeUndefined();
    // An unknown ?lang= changes nothing.
    const unknown = await t.app.inject({ url: '/members?lang=xx', headers: { host: 'nl.localhost' } });
    expect(unknown.headers['set-cookie']).toBeUndefined();
  });
});
