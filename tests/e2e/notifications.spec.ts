import { e2eEmail, expect, gotoHydrated, test } from './fixtures.ts';

test('the manifest and service worker register, and the notifications page keeps its settings', async ({
  page,
}) => {
  await page.goto('/signup');
  await page.getByLabel('E-mail address').fill(e2eEmail());
  await page.getByLabel('Username').fill('Notify');
  await page.getByLabel('Password', { exact: true }).fill('Juniper-signal-73');
  await page.getByLabel('Date of birth').fill('1990-12-12');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page).toHaveURL(/\/complete-signup$/);

  await gotoHydrated(page, '/notifications');
  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifest = await (await page.request.get(manifestHref ?? '')).json();
  expect(manifest).toMatchObject({ name: 'Amora', display: 'standalone' });
  await expect
    .poll(() => page.evaluate(async () => Boolean(await navigator.serviceWorker.getRegistration())))
    .toBe(true);

  const likesByMail = page.getByRole('checkbox', { name: 'New likes – E-mail' });
  await expect(likesByMail).toBeChecked();
  await likesByMail.uncheck();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Your settings have been saved.')).toBeVisible();
  await gotoHydrated(page, '/notifications');
  await expect(page.getByRole('checkbox', { name: 'New likes – E-mail' })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'New messages – E-mail' })).toBeChecked();
  await expect(page.getByTestId('push-state')).toBeVisible();
});
