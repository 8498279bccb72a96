import { readFileSync } from 'node:fs';
import { pageAxe } from './axe.ts';
import { demoAdmin, e2eEmail, expect, gotoHydrated, test } from './fixtures.ts';

/** Axe's serious and critical findings on the settled page. */
const seriousOrWorse = async (page: import('@playwright/test').Page) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  return (await pageAxe(page).analyze()).violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
};

/** The Dutch words of the second demo site (Flirtpunt opens in Dutch), read from its catalog. */
const nl: Record<string, string> = JSON.parse(
  readFileSync(new URL('../../locales/nl/credits.json', import.meta.url), 'utf8'),
);

test('a bundle and a code of one site: its member buys at the code’s price, another site never sees them', async ({
  browser,
  baseURL,
  playwright,
}) => {
  test.setTimeout(150_000);
  const stamp = Date.now().toString(36).toUpperCase();
  const demo = await demoAdmin(playwright, baseURL);
  const desktop = { width: 1366, height: 900 };
  const adminContext = await browser.newContext({
    baseURL,
    viewport: desktop,
    storageState: await demo.storageState(),
  });
  const admin = await adminContext.newPage();

  // A bundle for Flirtpunt only (the second demo site), with its Dutch price.
  await gotoHydrated(admin, '/admin/bundles');
  await admin.getByLabel('Credits', { exact: true }).fill('444');
  await admin.getByLabel('Site', { exact: true }).selectOption({ label: 'Flirtpunt' });
  await admin.getByRole('button', { name: 'Add bundle' }).click();
  await expect(admin).toHaveURL(/\/admin\/bundles\?edit=\d+&saved=1$/);
  const bundleId = Number(new URL(admin.url()).searchParams.get('edit'));
  await expect(admin.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await admin.getByLabel('Country', { exact: true }).fill('NL');
  await admin.getByLabel('Price', { exact: true }).fill('19,99');
  await admin.getByLabel('Currency').fill('EUR');
  await admin.getByRole('button', { name: 'Set price' }).click();
  await expect(admin.getByTestId('price-NL')).toContainText('19.99');

  // A code of the same site: 20 % off.
  const code = `FLIRT${stamp}`;
  await gotoHydrated(admin, '/admin/discountcodes');
  await admin.getByLabel('Code', { exact: true }).fill(code);
  await admin.getByLabel('Discount (%)').fill('20');
  await admin.getByLabel('Site', { exact: true }).selectOption({ label: 'Flirtpunt' });
  await admin.getByRole('button', { name: 'Add code' }).click();
  await expect(admin.getByTestId(`code-${code}`)).toContainText('Flirtpunt');

  // A member of Flirtpunt (its own address; Chromium takes *.localhost to this machine).
  const flirtpunt = new URL(baseURL ?? 'http://localhost');
  flirtpunt.hostname = `nl.${flirtpunt.hostname}`;
  const memberContext = await browser.newContext({ baseURL: flirtpunt.origin, viewport: desktop });
  await memberContext.addCookies([{ name: 'skip_site_entry', value: '1', url: flirtpunt.origin }]);
  const member = await memberContext.newPage();
  await gotoHydrated(member, '/');
  const signup = await member.evaluate(
    async (email) =>
      (
        await fetch('/api/signup.php', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            email,
            name: 'Femke',
            password: 'Saffron-river-93',
            date_of_birth: '1990-06-01',
          }),
        })
      ).status,
    e2eEmail(),
  );
  expect(signup).toBe(201);

  // Only the site's own bundle, at the code's price with the old one struck through.
  await gotoHydrated(member, '/credits');
  const bundles = member.getByTestId('bundles');
  await expect(bundles.getByRole('listitem')).toHaveCount(1);
  await expect(bundles).toContainText('444');
  const form = member.getByTestId('credits-code');
  await form.getByRole('textbox').fill(code);
  await form.getByRole('button', { name: nl['discount.apply'] }).click();
  await expect(member).toHaveURL(new RegExp(`discountcode=${code}`));
  await expect(member.getByTestId('credits-code-applied')).toBeVisible();
  await expect(bundles.getByTestId('bundle-price')).toContainText('15,99');
  const was = bundles.locator('.text-decoration-line-through');
  await expect(was).toContainText('19,99');
  await expect(member.getByTestId('time-bonus')).toHaveCount(0);
  expect(await seriousOrWorse(member)).toEqual([]);
  await member.screenshot({ path: 'docs/screens/money-bundles-1366.png', fullPage: true });
  await member.setViewportSize({ width: 390, height: 844 });
  // The viewport only: a full-page shot would paint the fixed tab bar across the middle.
  await expect(member.locator('html')).toHaveJSProperty('scrollWidth', 390);
  await member.screenshot({ path: 'docs/screens/money-bundles-390.png' });
  await member.setViewportSize(desktop);

  // The checkout opens with the code, charges its price, and the test provider pays.
  await bundles.getByRole('link').first().click();
  await expect(member).toHaveURL(new RegExp(`/credits/${bundleId}\\?discountcode=${code}`));
  await expect(member.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(member.locator('#discountcode')).toHaveValue(code);
  const pay = member.getByTestId('pay');
  await expect(pay).toContainText('15,99');
  await expect(member.getByTestId('checkout-list-price')).toContainText('19,99');
  await pay.click();
  await expect(member).toHaveURL(/\/payments\/test\/tst_/);
  await member.getByRole('button', { name: nl['testCheckout.paid'] }).click();
  await expect(member).toHaveURL(/\/transactions\/\d+$/);
  const orderId = Number(new URL(member.url()).pathname.split('/').at(-1));
  await expect(member.getByTestId('receipt')).toContainText('444');

  // The balance: the site's 5 sign-up credits and the bundle's 444; the transaction lists it.
  await gotoHydrated(member, '/credits');
  await expect(member.getByTestId('credits-balance')).toContainText('449');
  await gotoHydrated(member, '/transactions');
  const bought = member.getByRole('listitem').filter({ hasText: '15,99' });
  await expect(bought).toHaveCount(1);
  await expect(bought).toContainText(nl['orderStatus.completed'] ?? 'Betaald');

  // A member of the other demo site never sees the bundle, and the code is unknown there.
  const other = await playwright.request.newContext({ baseURL });
  const otherSignup = await other.post('/api/signup.php', {
    data: { email: e2eEmail(), name: 'Amir', password: 'Saffron-river-93', date_of_birth: '1990-06-01' },
  });
  expect(otherSignup.status()).toBe(201);
  const otherOffer = await (await other.get('/api/bundles.php')).json();
  expect(otherOffer.bundles.map((bundle: { id: number }) => bundle.id)).not.toContain(bundleId);
  expect(otherOffer.bundles.length).toBeGreaterThan(0);
  expect((await other.get(`/api/discountcode.php?code=${code}`)).status()).toBe(404);
  await other.dispose();

  // Staff read the order, its refund form and the member's own invoice.
  await gotoHydrated(admin, `/admin/orders/${orderId}`);
  await expect(admin.getByRole('heading', { name: `Order #${orderId}` })).toBeVisible();
  await expect(admin.getByTestId('refund-form')).toBeVisible();
  await admin.screenshot({ path: 'docs/screens/money-refund-form-1366.png', fullPage: true });
  await admin.getByTestId('order-invoice').click();
  await expect(admin).toHaveURL(new RegExp(`/admin/orders/${orderId}/invoice$`));
  await expect(admin.getByTestId('invoice-number')).toHaveText(String(orderId));
  await expect(admin.getByTestId('invoice-total')).toContainText('15.99');
  await expect(admin.getByTestId('invoice-vat')).toContainText('2.78');
  await expect(admin.getByTestId('invoice-company')).toContainText('Flirtpunt Online B.V.');
  expect(await seriousOrWorse(admin)).toEqual([]);
  await admin.screenshot({ path: '/tmp/money-admin-invoice.png', fullPage: true });
  await admin.getByRole('link', { name: `Back to order #${orderId}` }).click();
  await expect(admin).toHaveURL(new RegExp(`/admin/orders/${orderId}$`));
  await adminContext.close();
  await memberContext.close();
});
