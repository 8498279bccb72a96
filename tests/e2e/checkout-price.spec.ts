import { e2eEmail, expect, gotoHydrated, test } from './fixtures.ts';

/** The checkout's price is the charged price; /credits hydrates cleanly. */
test('the checkout shows the price the order charges, whatever happens to the discount code', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto('/signup');
  await page.getByLabel('E-mail address').fill(e2eEmail());
  await page.getByLabel('Username').fill('Quoted');
  await page.getByLabel('Password', { exact: true }).fill('Orchard-violet-47');
  await page.getByLabel('Date of birth').fill('1987-07-21');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page).toHaveURL(/\/complete-signup$/);

  // The countdown renders the same on the server and in the browser (React #418 otherwise).
  for (let load = 0; load < 4; load++) {
    await gotoHydrated(page, '/credits');
    await expect(page.getByTestId('time-bonus')).toContainText('25%');
    await page.waitForTimeout(300 + load * 150);
  }
  expect(errors).toEqual([]);

  await page.getByTestId('bundles').getByRole('link', { name: 'Choose' }).first().click();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const code = page.getByLabel('Discount code');
  const pay = page.getByTestId('pay');
  await expect(code).toHaveValue('TIMEBONUS25');
  await expect(pay).toBeEnabled();
  const discounted = (await pay.textContent())!.replace(/^Pay /, '');

  await code.fill('');
  await expect(pay).not.toHaveText(`Pay ${discounted}`);
  await expect(pay).toBeEnabled();
  const full = (await pay.textContent())!.replace(/^Pay /, '');
  expect(full).not.toBe(discounted);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(full);

  await code.fill('NOSUCHCODE');
  await expect(page.getByText('This discount code was not found.')).toBeVisible();
  await expect(pay).toBeDisabled();
  await page.screenshot({ path: '/tmp/checkout-invalid-code.png' });

  await code.fill('TIMEBONUS25');
  await expect(pay).toHaveText(`Pay ${discounted}`);
  await code.fill('');
  await expect(pay).toHaveText(`Pay ${full}`);
  await pay.click();

  await expect(page).toHaveURL(/\/payments\/test\/tst_/);
  await expect(page.locator('.fs-4')).toHaveText(full);
  expect(errors).toEqual([]);
});

test('a repeat order shows bundle, price and method and charges only after the confirming tap', async ({
  page,
}) => {
  await page.goto('/signup');
  await page.getByLabel('E-mail address').fill(e2eEmail());
  await page.getByLabel('Username').fill('Repeater');
  await page.getByLabel('Password', { exact: true }).fill('Orchard-violet-47');
  await page.getByLabel('Date of birth').fill('1987-07-21');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page).toHaveURL(/\/complete-signup$/);

  await gotoHydrated(page, '/credits');
  await page.getByTestId('bundles').getByRole('link', { name: 'Choose' }).nth(1).click();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel('Credit card').check();
  await page.getByTestId('pay').click();
  await page.getByRole('button', { name: 'Paid' }).click();
  await expect(page).toHaveURL(/\/transactions\/\d+$/);

  await gotoHydrated(page, '/transactions');
  await expect(page.getByRole('listitem').filter({ hasText: 'Paid' })).toHaveCount(1);
  await gotoHydrated(page, '/credits/repeat-order');
  const summary = page.getByTestId('repeat-order');
  await expect(summary).toContainText('Credit card');
  const price = (await page.getByTestId('repeat-price').textContent())!;
  expect(price).toMatch(/\d/);
  await page.screenshot({ path: '/tmp/repeat-order.png' });
  await gotoHydrated(page, '/transactions');
  await expect(page.getByRole('listitem').filter({ hasText: 'Paid' })).toHaveCount(1);

  // A member who bought before finds the repeat order on the credits page.
  await gotoHydrated(page, '/credits');
  await page.getByTestId('repeat-order-link').click();
  await page.getByRole('button', { name: `Confirm and pay ${price}` }).click();
  await expect(page).toHaveURL(/\/transactions\/\d+$/);
  await gotoHydrated(page, '/transactions');
  await expect(page.getByRole('listitem').filter({ hasText: 'Paid' })).toHaveCount(2);
});
