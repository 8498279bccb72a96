import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { activeMember, expect, gotoHydrated, test } from './fixtures.ts';

/**
 * Names that are the same in every language: brands, payment methods, product words kept in English,
 * and "English" itself, which the language menu shows as the language's own name on every page.
 */
const allowed = new Set([
  'english',
  'amora',
  'flirtpunt',
  'premium',
  'mastercard',
  'visa',
  'applepay',
  'apple',
  'media',
]);

function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(/\p{L}{4,}/gu) ?? []).filter((word) => !allowed.has(word));
}

/** Every word of a locale's catalogs and legal pages. */
function vocabulary(locale: string): Set<string> {
  const words = new Set<string>();
  const catalogs = path.join('locales', locale);
  for (const file of readdirSync(catalogs).filter((name) => name.endsWith('.json'))) {
    const catalog = JSON.parse(readFileSync(path.join(catalogs, file), 'utf8')) as Record<string, string>;
    for (const message of Object.values(catalog)) for (const word of wordsOf(message)) words.add(word);
  }
  const content = path.join('content', locale);
  for (const file of readdirSync(content)) {
    for (const word of wordsOf(readFileSync(path.join(content, file), 'utf8'))) words.add(word);
  }
  return words;
}

const english = vocabulary('en');

/** English words on the page that the page's language never uses: text left untranslated. */
async function englishLeft(page: Page, locale: string, own: Set<string>): Promise<string[]> {
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
  const text = `${await page.title()}\n${await page.locator('body').innerText()}`;
  return [...new Set(wordsOf(text).filter((word) => english.has(word) && !own.has(word)))];
}

for (const locale of ['de', 'fi', 'pl']) {
  test(`a visitor and a member see no English in ${locale}`, async ({ page, browser, baseURL }) => {
    const own = vocabulary(locale);
    // A ?lang= link sets the language; the next page keeps it without the parameter.
    await gotoHydrated(page, `/?lang=${locale}`);
    expect(await englishLeft(page, locale, own), `${locale} home`).toEqual([]);
    await gotoHydrated(page, '/pages/terms');
    expect(await englishLeft(page, locale, own), `${locale} terms`).toEqual([]);
    await expect(page.locator('main')).toContainText(
      new Intl.DisplayNames([locale], { type: 'region' }).of('NL') ?? 'NL',
    );

    const member = await activeMember(browser, baseURL, `Lang${locale}`);
    await member.page.goto(`/?lang=${locale}`);
    await gotoHydrated(member.page, '/members');
    expect(await englishLeft(member.page, locale, own), `${locale} search`).toEqual([]);
    await gotoHydrated(member.page, '/credits');
    expect(await englishLeft(member.page, locale, own), `${locale} credits`).toEqual([]);

    const found = (await (await member.page.request.get('/api/search.php')).json()) as {
      profiles: { id: number }[];
    };
    const other = found.profiles[0];
    expect(other).toBeDefined();
    await gotoHydrated(member.page, `/members/${other?.id}/chat`);
    await expect(member.page).toHaveURL(/\/chats\/\d+$/);
    expect(await englishLeft(member.page, locale, own), `${locale} chat`).toEqual([]);

    // The account menu offers the language too, in a dialog.
    await gotoHydrated(member.page, '/members');
    await member.page.locator('#account-menu').click();
    await member.page.getByTestId('language-menu-item').click();
    const dialog = member.page.getByRole('dialog');
    await dialog.getByTestId('language-switcher').selectOption('sv');
    await dialog.getByTestId('language-apply').click();
    await expect(member.page.locator('html')).toHaveAttribute('lang', 'sv');
    await member.page.context().close();
  });
}

test('pages name their language, canonical URL and alternates; the 404 page has one title', async ({
  request,
}) => {
  const home = await request.get('/?lang=pl');
  expect(home.headers()['content-language']).toBe('pl');
  expect(home.headers().vary?.toLowerCase()).toContain('accept-language');
  const html = await home.text();
  expect(html).toMatch(/<link rel="canonical" href="http:\/\/localhost:\d+\/\?lang=pl"/);
  expect(html).toContain('hrefLang="fi"');
  expect(html.match(/<title>/g)).toHaveLength(1);

  const missing = await request.get('/no-such-page-here', { headers: { cookie: 'locale=de' } });
  expect(missing.status()).toBe(404);
  const notFound = await missing.text();
  expect(notFound.match(/<title>/g)).toHaveLength(1);
  expect(notFound).toContain('<html lang="de"');
});

test('the language switcher changes on a deliberate choice and tells screen readers', async ({ page }) => {
  await gotoHydrated(page, '/login?lang=en');
  // The check of the other tests finds English where it is.
  expect(await englishLeft(page, 'en', vocabulary('fi'))).toContain('welcome');
  const footer = page.getByTestId('site-footer');
  await footer.getByTestId('language-switcher').selectOption('fi');
  // Choosing alone changes nothing yet.
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await footer.getByTestId('language-apply').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fi');
  await expect(footer.getByTestId('language-status')).toHaveText('Kieli on vaihdettu.');
  await expect(footer.getByTestId('language-status')).toHaveAttribute('aria-live', 'polite');
});

test('a page carries no catalogs: the browser fetches them once, as a file cached for a year', async ({
  page,
}) => {
  const catalogFiles: string[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/i18n/')) catalogFiles.push(response.url());
  });
  await gotoHydrated(page, '/login?lang=nl');
  const html = await (await page.request.get('/login?lang=nl')).text();
  const file =
    /<link rel="preload" as="fetch" crossorigin="anonymous" href="(\/i18n\/nl\.site\.[\w-]{12}\.json)"/.exec(
      html,
    )?.[1];
  expect(file).toBeTruthy();
  // A sentence of the Dutch catalogs that the login page does not show stays out of its HTML.
  const catalogs = (await (await page.request.get(file ?? '')).json()) as Record<
    string,
    Record<string, string>
  >;
  const unseen = catalogs.chat?.['list.older'] ?? '';
  expect(unseen.length).toBeGreaterThan(10);
  expect(html).not.toContain(unseen);
  const answer = await page.request.get(file ?? '');
  expect(answer.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  // The hydrated page translates with it: one fetch, the preloaded one.
  expect(catalogFiles.map((url) => new URL(url).pathname)).toEqual([file]);
  await expect(page.getByRole('button', { name: /inloggen/i }).first()).toBeVisible();
});
