import { readFile } from 'node:fs/promises';
import { pageAxe } from './axe.ts';
import { demoAdmin, expect, test } from './fixtures.ts';

test('an admin opens the numbers, sees the charts and the traffic sources and downloads the CSV', async ({
  browser,
  baseURL,
  playwright,
}) => {
  test.setTimeout(90_000);
  // A landing click from an ad network, so the traffic table has a row to show.
  const visitor = await browser.newContext({
    baseURL,
    // A phone's browser (a headless browser's own agent counts as a crawler, which is no visit).
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
  });
  const landing = await visitor.newPage();
  await landing.goto('/landers/gallery?network=e2enet&sub1=phone');
  await visitor.close();

  const admin = await demoAdmin(playwright, baseURL);
  const context = await browser.newContext({ baseURL, storageState: await admin.storageState() });
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/admin/numbers');
  await expect(page.getByRole('heading', { level: 1, name: 'Numbers' })).toBeVisible();
  await expect(page.getByTestId('kpi')).toHaveCount(4);
  const charts = page.getByTestId('numbers-chart');
  await expect(charts).toHaveCount(6);
  // The demo's last 30 days have figures to draw; a range without any is further down.
  const drawn = page.locator('[data-testid="numbers-chart"]:not([data-empty])');
  await expect(drawn.first()).toHaveAttribute('data-ready', 'true');
  await expect(drawn.first().locator('canvas')).toBeVisible();
  const traffic = page.getByTestId('traffic-table');
  await expect(traffic.getByRole('row', { name: /e2enet/ })).toBeVisible();
  await expect(
    traffic
      .getByRole('row', { name: /e2enet/ })
      .getByRole('cell')
      .nth(1),
  ).toHaveText(/^[1-9]/);

  // Filters: by sub1 within the network.
  await page.getByLabel('Traffic by').selectOption('sub1');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(/breakdown=sub1/);
  await expect(traffic.getByRole('columnheader', { name: 'Sub 1' })).toBeVisible();
  await expect(traffic.getByRole('row', { name: /e2enet\s+phone/ })).toBeVisible();

  const accessibility = await pageAxe(page).analyze();
  expect(
    accessibility.violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? '')),
  ).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('numbers.png'), fullPage: true });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download days (CSV)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^stats-days-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toMatch(/^date,signups,activations,first_purchases,orders,/);
  expect(csv.split('\r\n').length).toBeGreaterThanOrEqual(31);

  // A range without figures: each chart says so, no empty frames.
  await page.goto('/admin/numbers?from=2020-01-01&to=2020-01-31');
  await expect(charts).toHaveCount(6);
  await expect(page.locator('[data-testid="numbers-chart"][data-empty="true"]')).toHaveCount(6);
  await expect(page.getByText('No data for this period.')).toHaveCount(6);
  await expect(page.locator('canvas')).toHaveCount(0);

  // On a phone the page still reads: the filters and tiles stack.
  await page.goto('/admin/numbers');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(drawn.first()).toHaveAttribute('data-ready', 'true');
  await page.screenshot({ path: test.info().outputPath('numbers-phone.png'), fullPage: true });
  await context.close();
});
