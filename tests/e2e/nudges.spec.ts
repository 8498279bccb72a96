import type { Page } from '@playwright/test';
import { pageAxe } from './axe.ts';
import { activeMember, demoAdmin, expect, gotoHydrated, test } from './fixtures.ts';

const sizes = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

async function noSeriousViolations(page: Page) {
  const result = await pageAxe(page).analyze();
  expect(
    result.violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? '')),
  ).toEqual([]);
}

test('a member switches a nudge off on /notifications, next to the notifications it sums up', async ({
  browser,
  baseURL,
}) => {
  const { page } = await activeMember(browser, baseURL, 'Nudged');
  await page.setViewportSize({ width: 1366, height: 900 });
  await gotoHydrated(page, '/notifications');
  await expect(page.getByTestId('nudges-note')).toHaveText(/at most once a day and never at night/);
  const visitorsByMail = page.getByRole('switch', { name: 'Who viewed my profile – E-mail' });
  await expect(visitorsByMail).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Unread messages – E-mail' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'New likes of the day – E-mail' })).toBeChecked();
  await visitorsByMail.uncheck();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Your settings have been saved.')).toBeVisible();
  await gotoHydrated(page, '/notifications');
  await expect(page.getByRole('switch', { name: 'Who viewed my profile – E-mail' })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: 'Unread messages – E-mail' })).toBeChecked();
  for (const size of sizes) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await noSeriousViolations(page);
    // From the top: the sticky bars sit where they belong; on a phone the screen itself (the switches).
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({
      path: `docs/screens/notifications-nudges-${size.name}.png`,
      fullPage: size.name === 'desktop',
    });
  }
});

test('an admin sets a site’s win-back rule and sees its results', async ({
  browser,
  baseURL,
  playwright,
}) => {
  const admin = await demoAdmin(playwright, baseURL);
  const context = await browser.newContext({ baseURL, storageState: await admin.storageState() });
  const page = await context.newPage();
  await page.setViewportSize({ width: 1366, height: 900 });
  await gotoHydrated(page, '/admin');
  await page.getByRole('link', { name: 'Win-back' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Win-back offers' })).toBeVisible();
  const form = page.getByTestId('winback-form');
  await form.getByLabel('Discount (%)').fill('0');
  await form.getByRole('button', { name: 'Save rule' }).click();
  await expect(page.getByText('The rule was not saved. Check the marked fields.')).toBeVisible();
  await expect(page.locator('[data-field-error="value_percentage"]')).toBeVisible();
  await form.getByLabel('Send win-back offers on this site').check();
  await form.getByLabel('Inactive for (days)').fill('21');
  await form.getByLabel('Discount (%)').fill('30');
  await form.getByLabel('Code valid for (days)').fill('5');
  await form.getByLabel('Next offer after (days)').fill('60');
  await form.getByRole('button', { name: 'Save rule' }).click();
  await expect(page.getByText('The rule has been saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('winback-form').getByLabel('Discount (%)')).toHaveValue('30');
  await expect(
    page.getByTestId('winback-form').getByLabel('Send win-back offers on this site'),
  ).toBeChecked();
  await expect(page.getByTestId('winback-results')).toContainText('Offers sent');
  for (const size of sizes) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await noSeriousViolations(page);
    await page.screenshot({ path: `docs/screens/admin-winback-${size.name}.png`, fullPage: true });
  }
  // Off again, so the rest of the run's members get no offer.
  await page.getByTestId('winback-form').getByLabel('Send win-back offers on this site').uncheck();
  await page.getByTestId('winback-form').getByRole('button', { name: 'Save rule' }).click();
  await expect(page.getByText('The rule has been saved.')).toBeVisible();
  await context.close();
});
