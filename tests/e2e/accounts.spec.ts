import { e2eEmail, expect, gotoHydrated, linkFrom, test, waitForMail } from './fixtures.ts';

test('sign up on the signup page, activate from the mail, log out and log in', async ({ page }) => {
  const email = e2eEmail();
  const password = 'Lantern-orbit-58';
  await page.goto('/signup');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Username').fill('Robin');
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Date of birth').fill('1991-04-12');
  await page.getByRole('button', { name: 'Create my account' }).click();

  await expect(page).toHaveURL(/\/complete-signup$/);
  await page.getByText('Woman', { exact: true }).click();
  await page.getByText('Men', { exact: true }).click();
  await page.getByRole('button', { name: 'Show me singles' }).click();
  // The photo step may be left for later: the singles are one tap away.
  await expect(page).toHaveURL(/\/complete-signup\?step=photo$/);
  await page.getByTestId('show-matches').click();
  await expect(page).toHaveURL(/\/members$/);
  await expect(page.getByTestId('activation-alert')).toBeVisible();
  // The visitor became a member without a reload: the members' stylesheet is still on the page.
  await expect(page.locator('link[rel="stylesheet"][href*="/assets/members-"]')).not.toHaveCount(0);

  const mail = await waitForMail(email, '/api/activate.php');
  await page.goto(
    new URL(linkFrom(mail, '/api/activate.php')).pathname +
      new URL(linkFrom(mail, '/api/activate.php')).search,
  );
  await expect(page).toHaveURL(/\/activate\/done$/);
  await expect(page.getByRole('heading', { name: 'Your account is activated' })).toBeVisible();
  // The activation link is a full page load: the account menu opens only once React has hydrated.
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');

  await page.getByRole('button', { name: 'My account' }).click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('link', { name: 'Log in' }).first()).toBeVisible();

  await page.goto('/login');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/members$/);
  await expect(page.getByTestId('activation-alert')).toHaveCount(0);
});

test('a wrong password shows the error and the members area needs a login', async ({ page }) => {
  await page.goto('/chats');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fchats$/);
  await page.getByLabel('E-mail address').fill(e2eEmail());
  await page.getByLabel('Password', { exact: true }).fill('wrong-password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Login failed, please try again');
});

test('the signup modal opens from the top bar and signs up', async ({ page }) => {
  await gotoHydrated(page, '/');
  await page.getByRole('banner').getByRole('link', { name: 'Sign up' }).click();
  const modal = page.getByRole('dialog');
  await expect(modal).toBeVisible();
  await modal.getByLabel('E-mail address').fill(e2eEmail());
  await modal.getByLabel('Username').fill('Sam');
  await modal.getByLabel('Password', { exact: true }).fill('Copper-meadow-77');
  await modal.getByLabel('Date of birth').fill('1988-09-30');
  await modal.getByRole('button', { name: 'Create my account' }).click();
  await expect(page).toHaveURL(/\/complete-signup$/);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
