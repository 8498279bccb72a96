import AxeBuilder from '@axe-core/playwright';
import { expect, gotoHydrated, test } from './fixtures.ts';

test('switching the language in the footer changes the page and is remembered', async ({ page }) => {
  await gotoHydrated(page, '/login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back');
  await page.getByTestId('language-switcher').selectOption('de');
  await page.getByTestId('language-apply').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Welcome back');
  const german = await page.getByRole('heading', { level: 1 }).textContent();
  await gotoHydrated(page, '/login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(german ?? '');
  await page.getByTestId('language-switcher').selectOption('en');
  await page.getByTestId('language-apply').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back');
});

test('each locale renders home, login and signup on the server in its own language', async ({ request }) => {
  for (const path of ['/', '/login', '/signup']) {
    const seen = new Set<string>();
    for (const locale of ['en', 'nl', 'de', 'it', 'fr', 'es', 'pl', 'da', 'fi', 'no', 'sv']) {
      const html = await (await request.get(path, { headers: { cookie: `locale=${locale}` } })).text();
      expect(html).toContain(`<html lang="${locale}"`);
      seen.add(html.match(/<h1[^>]*>([^<]*)</)?.[1] ?? '');
    }
    expect(seen.size, path).toBe(11);
  }
});

test('the site-entry warning shows until accepted', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await gotoHydrated(page, '/');
  const warning = page.getByTestId('site-entry-warning');
  await expect(warning).toBeVisible();
  await warning.getByRole('button').click();
  await expect(warning).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('site-entry-warning')).toHaveCount(0);
  await context.close();
});

for (const viewport of [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
]) {
  test(`home, login and signup have no serious accessibility violations (${viewport.name})`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    for (const path of ['/', '/login', '/signup']) {
      await page.goto(path);
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations.filter((violation) =>
        ['serious', 'critical'].includes(violation.impact ?? ''),
      );
      expect(
        serious.map(
          (violation) => `${path}: ${violation.id} ${violation.nodes.map((node) => node.target).join(', ')}`,
        ),
      ).toEqual([]);
    }
  });
}
