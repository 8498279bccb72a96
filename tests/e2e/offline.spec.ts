import { expect, gotoHydrated, test } from './fixtures.ts';

test('the service worker shows the site offline page when a page cannot load, and the pages again once online', async ({
  page,
  context,
}) => {
  await gotoHydrated(page, '/pricing');
  // The worker installs (caching /offline.html) and takes control of the page.
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return Boolean(registration.active && navigator.serviceWorker.controller);
      }),
    )
    .toBe(true);

  await context.setOffline(true);
  await page.goto('/pages/faq').catch(() => undefined);
  await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible();
  await expect(page.getByText('Amora cannot be reached right now')).toBeVisible();

  await context.setOffline(false);
  await page.getByRole('link', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: 'You are offline' })).toHaveCount(0);
  await expect(page).toHaveURL(/\/pages\/faq$/);
});
