import sharp from 'sharp';
import { e2eEmail, expect, gotoHydrated, test } from './fixtures.ts';

async function signUp(page: import('@playwright/test').Page) {
  await page.goto('/signup');
  await page.getByLabel('E-mail address').fill(e2eEmail());
  await page.getByLabel('Username').fill('Alex');
  await page.getByLabel('Password', { exact: true }).fill('Harbour-lights-62');
  await page.getByLabel('Date of birth').fill('1985-02-14');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page).toHaveURL(/\/complete-signup$/);
}

test('edit the profile, upload a photo and see it on the member view', async ({ page }) => {
  await signUp(page);
  await gotoHydrated(page, '/profile');
  await page.getByLabel('Hair').selectOption('red');
  await page.getByText('Music', { exact: true }).click();
  await page.getByLabel('About me').fill('I love long walks.');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Your profile has been saved.')).toBeVisible();

  const photo = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#3a7bd5' } })
    .png()
    .toBuffer();
  await page.locator('#photo-upload').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: photo });
  await expect(page.getByTestId('own-photos').locator('img')).toHaveCount(1);
  await expect(page.getByTestId('profile-photo-alert')).toHaveCount(0);

  const own = await (await page.request.get('/api/profile.php')).json();
  await page.goto(`/members/${own.profile.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Alex');
  await expect(page.getByText('I love long walks.')).toBeVisible();
  await expect(page.getByText('Red', { exact: true })).toBeVisible();
  // The original comes as a signed link (the signature changes every 10 minutes) and loads.
  const [photoPath] = own.profile.photos[0].filename.split('?');
  const memberPhoto = page.getByTestId('member-photo');
  await expect(memberPhoto).toHaveAttribute('src', new RegExp(`^${photoPath.replaceAll('.', '\\.')}\\?e=`));
  await expect
    .poll(() => memberPhoto.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
    .toBeGreaterThan(0);
});

test('search with filters and open a member', async ({ page }) => {
  await signUp(page);
  await gotoHydrated(page, '/members');
  // The filters sit in a sheet behind the Filters button.
  await page.getByTestId('open-filters').click();
  await page.getByLabel('Show me').selectOption('female');
  await page.getByLabel('Country').selectOption('DE');
  await page.getByTestId('apply-filters').click();
  await expect(page).toHaveURL(/gender=female/);
  await expect(page).toHaveURL(/country=DE/);
  // The filters live in the URL: the same address gives the same results.
  await gotoHydrated(page, '/members?gender=female&country=DE');
  await page.getByTestId('open-filters').click();
  await expect(page.getByLabel('Country')).toHaveValue('DE');
  await page.getByRole('button', { name: 'Close' }).click();
  const cards = page.getByTestId('profile-card');
  await expect(cards.first()).toBeVisible();
  const name = (await cards.first().getByRole('heading').textContent())?.split(',')[0] ?? '';
  await cards.first().getByRole('link').click();
  await expect(page).toHaveURL(/\/members\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(name);
  await expect(page.getByText('Germany')).toBeVisible();
  await expect(page.getByTestId('fictional-marker')).toBeVisible();
});
