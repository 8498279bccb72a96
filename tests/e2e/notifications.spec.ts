import { activeMember, e2eEmail, expect, gotoHydrated, phone, test } from './fixtures.ts';

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

  const likesByMail = page.getByRole('switch', { name: 'New likes – E-mail' });
  await expect(likesByMail).toBeChecked();
  await likesByMail.uncheck();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Your settings have been saved.')).toBeVisible();
  await gotoHydrated(page, '/notifications');
  await expect(page.getByRole('switch', { name: 'New likes – E-mail' })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: 'New messages – E-mail' })).toBeChecked();
  await expect(page.getByTestId('push-state')).toBeVisible();
});

test('on a phone, push that the browser cannot turn on says why and how, with no unhandled rejection', async ({
  browser,
  baseURL,
}) => {
  const { page } = await activeMember(browser, baseURL, 'Pushless', phone);
  const unhandled: string[] = [];
  page.on('pageerror', (error) => unhandled.push(error.message));
  // What Chromium does without a push service: the permission is granted, subscribing aborts.
  await page.context().grantPermissions(['notifications']);
  await page.addInitScript(() => {
    PushManager.prototype.subscribe = () =>
      Promise.reject(new DOMException('Registration failed - push service not available', 'AbortError'));
  });
  await gotoHydrated(page, '/notifications');
  const group = page.getByTestId('push-group');
  await group.getByRole('button', { name: 'Turn on push messages' }).tap();
  await expect(group.getByRole('alert')).toHaveText(/could not reach its push service.*try again/);
  await expect(group.getByRole('button', { name: 'Turn on push messages' })).toBeEnabled();

  // Blocked in the browser: the page says so and how to allow it.
  await page.context().clearPermissions();
  await page.addInitScript(() => {
    Notification.requestPermission = () => Promise.resolve('denied');
  });
  await gotoHydrated(page, '/notifications');
  await group.getByRole('button', { name: 'Turn on push messages' }).tap();
  await expect(group.getByRole('alert')).toHaveText(/blocked for this site.*lock icon.*Allow/);
  expect(unhandled).toEqual([]);
  await page.context().close();
});

test('notification settings are switches in groups, each with a line saying what it does', async ({
  browser,
  baseURL,
}) => {
  const { page } = await activeMember(browser, baseURL, 'Switches', phone);
  await gotoHydrated(page, '/notifications');
  await expect(page.getByRole('checkbox')).toHaveCount(0);
  const email = page.getByRole('region', { name: 'By e-mail' });
  await expect(email.getByRole('switch')).toHaveCount(7);
  const likes = email.getByRole('switch', { name: 'New likes – E-mail' });
  await expect(likes).toHaveAccessibleDescription('When someone likes your profile.');
  const push = page.getByRole('region', { name: 'Push messages on this device' });
  await expect(push.getByRole('switch', { name: 'Matches – Push' })).toBeDisabled();
  // Keyboard: Space flips the focused switch.
  await likes.focus();
  await page.keyboard.press('Space');
  await expect(likes).not.toBeChecked();
  // The rows fit the phone: nothing wider than the screen.
  const widest = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(widest).toBeLessThanOrEqual(390);
  await page.context().close();
});
