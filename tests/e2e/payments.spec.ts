import { e2eEmail, expect, gotoHydrated, test } from './fixtures.ts';

test('buy a bundle through the test checkout, then see the credits, Premium and the transaction', async ({
  page,
}) => {
  await page.goto('/signup');
  await page.getByLabel('E-mail address').fill(e2eEmail());
  await page.getByLabel('Username').fill('Buyer');
  await page.getByLabel('Password', { exact: true }).fill('Orchard-violet-47');
  await page.getByLabel('Date of birth').fill('1987-07-21');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page).toHaveURL(/\/complete-signup$/);

  await gotoHydrated(page, '/members');
  const banner = page.getByRole('banner');
  await expect(banner.getByRole('link', { name: 'Get Premium' })).toBeVisible();

  await page.goto('/credits');
  await expect(page.getByTestId('time-bonus')).toContainText('25%');
  await page.getByTestId('bundles').getByRole('link', { name: 'Choose' }).first().click();
  await expect(page.getByLabel('Discount code')).toHaveValue('TIMEBONUS25');
  await page.getByRole('button', { name: /^Pay / }).click();

  await expect(page).toHaveURL(/\/payments\/test\/tst_/);
  await page.getByRole('button', { name: 'Paid' }).click();

  await expect(page).toHaveURL(/\/transactions\/\d+$/);
  await expect(page.getByTestId('receipt')).toContainText(
    'Thank you! 25 credits have been added to your account.',
  );
  await expect(page.getByTestId('receipt')).toContainText('Amora Media B.V.');
  await expect(banner.getByRole('link', { name: 'Get Premium' })).toHaveCount(0);
  await expect(banner.getByRole('link', { name: /credits/i })).toBeVisible();

  await page.goto('/transactions');
  await expect(page.getByRole('listitem').filter({ hasText: 'Paid' })).toHaveCount(1);
});
