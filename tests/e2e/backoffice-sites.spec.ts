import { generate } from 'otplib';
import sharp from 'sharp';
import {
  adminChosen,
  chooseOwnPassword,
  demoAdmin,
  e2eEmail,
  expect,
  gotoHydrated,
  test,
} from './fixtures.ts';

const codeAt = (secret: string, offsetSeconds: number) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

test('an admin signs in with TOTP, creates a site in the back office and sees it on its own domain, in its language, name and colour', async ({
  browser,
  baseURL,
  playwright,
}) => {
  test.setTimeout(120_000);
  // A new admin, created by the demo admin, enrols in two-factor sign-in (as the enrolment page does).
  const demo = await demoAdmin(playwright, baseURL);
  const email = e2eEmail();
  const password = 'Lantern-meadow-8812';
  expect(
    (
      await demo.post('/api/admin/staff.php', {
        data: { email, name: 'Ada', role: 'admin', password: adminChosen(password), language: 'en' },
      })
    ).status(),
  ).toBe(201);
  const enrolment = await playwright.request.newContext({ baseURL });
  await enrolment.post('/api/admin/session.php', { data: { email, password: adminChosen(password) } });
  await chooseOwnPassword(enrolment, password);
  const secret = (await (await enrolment.post('/api/admin/totp.php')).json()).secret as string;
  expect(
    (await enrolment.put('/api/admin/totp.php', { data: { code: await codeAt(secret, 0) } })).status(),
  ).toBe(200);

  // Sign-in: e-mail and password, then the authenticator code (the next step's: never one used before).
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await gotoHydrated(page, '/admin/login');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByLabel('Authentication code').fill(await codeAt(secret, 30));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/admin\/inbox$/);

  // The sites list, then a new site; a wrong domain is named at its field.
  await page.getByRole('link', { name: 'Sites', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Sites' })).toBeVisible();
  await page.getByRole('link', { name: 'New site' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const port = new URL(baseURL ?? 'http://localhost').port;
  const domain = `liebe${Date.now().toString(36)}.localhost`;
  await page.getByLabel('Site name').fill('Liebesglück');
  await page.getByLabel('Domain').fill('not a domain');
  await page.getByLabel('Language').selectOption('de');
  await page.getByLabel('Countries').fill('DE, AT');
  await page.getByLabel('Support e-mail address').fill('hilfe@liebe.example');
  await page.getByLabel('Theme colour').fill('#1e88e5');
  await page.getByRole('button', { name: 'Create site' }).click();
  await expect(page.getByText('Please correct the fields marked below.')).toBeVisible();
  await expect(page.locator('[data-field-error="domain"]')).toBeVisible();
  await page.getByLabel('Domain').fill(domain);
  await page.getByRole('button', { name: 'Create site' }).click();
  await expect(page).toHaveURL(/\/admin\/sites\/\d+\?saved=1$/);
  await expect(page.getByRole('status')).toContainText('Saved');
  await expect(page.getByLabel('Domain')).toHaveValue(domain);
  await page.screenshot({ path: '/tmp/backoffice-site-editor.png', fullPage: true });

  // The site is served at once on its own domain: German, its name, its colour.
  const visitor = await browser.newContext();
  await visitor.addCookies([{ name: 'skip_site_entry', value: '1', url: `http://${domain}:${port}` }]);
  const home = await visitor.newPage();
  await home.goto(`http://${domain}:${port}/`);
  await expect(home.locator('html')).toHaveAttribute('lang', 'de');
  await expect(home.getByTestId('site-brand')).toHaveText(/Liebesglück/);
  await expect(home.getByTestId('site-brand')).toHaveCSS('color', 'rgb(30, 136, 229)');
  await expect(home.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#1e88e5');
  await expect(home).toHaveTitle(/Liebesglück/);
  // The installed app's manifest too (fetched by the page: Node does not resolve *.localhost).
  const manifest = await home.evaluate(async () => (await fetch('/manifest.webmanifest')).json());
  expect(manifest.theme_color).toBe('#1e88e5');
  await home.screenshot({ path: '/tmp/backoffice-site-home.png' });
  await visitor.close();

  // A fictional profile for the new site, with a photo; the list shows it with its numbers.
  await page.getByRole('link', { name: 'Fictional profiles', exact: true }).click();
  await page.getByRole('link', { name: 'New profile' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel('Username').fill('Greta');
  await page.getByLabel('Site', { exact: true }).selectOption({ label: 'Liebesglück (DE, AT)' });
  await page.getByLabel('Date of birth').fill('1991-06-02');
  await page.getByLabel('Country').fill('DE');
  await page.getByRole('button', { name: 'Create profile' }).click();
  await expect(page).toHaveURL(/\/admin\/profiles\/\d+\?saved=1$/);
  await expect(page.getByRole('status')).toContainText('The profile has been saved.');
  const photo = await sharp({ create: { width: 320, height: 400, channels: 3, background: '#d81b60' } })
    .jpeg()
    .toBuffer();
  await page
    .getByLabel('Add a photo')
    .setInputFiles({ name: 'greta.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(page.getByText('Free', { exact: true })).toBeVisible();
  // A second photo goes in as premium (the box is ticked once there is a free one); removing it
  // goes through the page's action and the list is read again.
  await expect(page.getByLabel('Upload as a premium photo (blurred for free members)')).toBeChecked();
  await page
    .getByLabel('Add a photo')
    .setInputFiles({ name: 'greta-2.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(page.getByText('Premium', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Delete photo' }).nth(1).click();
  await expect(page.getByText('Premium', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete photo' })).toHaveCount(1);
  await page.screenshot({ path: '/tmp/backoffice-profile-editor.png', fullPage: true });
  await page.getByRole('link', { name: '← All fictional profiles' }).click();
  await page.getByLabel('Name or number').fill('Greta');
  await page.getByRole('form', { name: 'Filters' }).getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('link', { name: 'Greta' })).toBeVisible();
  await context.close();
});
