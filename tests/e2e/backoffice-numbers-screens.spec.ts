import { seriousViolations, sizes } from './axe.ts';
import { demoAdmin, expect, test } from './fixtures.ts';

/**
 * The owner's numbers at a phone's and a desktop's width, with every site side by side and the
 * totals per week: the tiles, cohorts, earnings and win-back sections are there, axe finds nothing
 * serious (wide tables scroll in a named, focusable region), and the screenshots go to docs/screens.
 */
test('the numbers per week with the sites side by side, at 390 and 1366 px', async ({
  browser,
  baseURL,
  playwright,
}) => {
  test.setTimeout(180_000);
  const admin = await demoAdmin(playwright, baseURL);
  const context = await browser.newContext({ baseURL, storageState: await admin.storageState() });
  const page = await context.newPage();
  const violations: string[] = [];
  for (const size of [sizes[1], sizes[0]]) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto('/admin/numbers?granularity=week&view=compare');
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true', { timeout: 30_000 });
    await expect(page.getByTestId('total')).toHaveCount(8);
    await expect(page.getByTestId('compare-table')).toBeVisible();
    await expect(page.getByTestId('cohort-table')).toBeVisible();
    await expect(page.getByTestId('operators-table')).toBeVisible();
    await expect(page.getByTestId('winback-tile')).toHaveCount(3);
    await expect(page.getByRole('link', { name: 'CSV of the cohorts' })).toHaveAttribute(
      'href',
      /table=cohorts/,
    );
    const drawn = page.locator('[data-testid="numbers-chart"]:not([data-empty])');
    if ((await drawn.count()) > 0) await expect(drawn.first()).toHaveAttribute('data-ready', 'true');
    violations.push(...(await seriousViolations(page, `${size.name} /admin/numbers`)));
    await page.screenshot({ path: `docs/screens/admin-numbers-${size.width}.png`, fullPage: true });
    await page.goto('/admin/stats');
    // Hydrated first: a wide table becomes a focusable region only once the browser has measured it
    // (TableScroll), and axe on the server's HTML alone found it unfocusable on a loaded machine.
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true', { timeout: 30_000 });
    await expect(page.getByTestId('operator-numbers')).toBeVisible();
    violations.push(...(await seriousViolations(page, `${size.name} /admin/stats`)));
    await page.screenshot({ path: `docs/screens/admin-operator-numbers-${size.width}.png`, fullPage: true });
  }
  expect(violations).toEqual([]);
  await context.close();
});
