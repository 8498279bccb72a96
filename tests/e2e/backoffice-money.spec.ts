import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { pageAxe } from './axe.ts';
import { demoAdmin, e2eEmail, expect, gotoHydrated, test } from './fixtures.ts';

/** Axe on the settled page: no colour caught halfway through a button's hover transition. */
const seriousOrWorse = async (page: import('@playwright/test').Page) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  return (await pageAxe(page).analyze()).violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
};

test('an admin creates a discount code and a bundle price, and reads an order with its webhook history', async ({
  browser,
  baseURL,
  playwright,
}) => {
  test.setTimeout(120_000);
  const demo = await demoAdmin(playwright, baseURL);
  const context = await browser.newContext({ baseURL, storageState: await demo.storageState() });
  const page = await context.newPage();

  // A discount code: a wrong code is named at its field, then the code is listed with its use counts.
  await gotoHydrated(page, '/admin/discountcodes');
  await expect(page.getByRole('heading', { name: 'Discount codes', level: 1 })).toBeVisible();
  const code = `SPRING${Date.now().toString(36).toUpperCase()}`;
  await page.getByLabel('Code', { exact: true }).fill('x');
  await page.getByLabel('Discount (%)').fill('15');
  await page.getByLabel('Country').fill('NL');
  await page.getByLabel('Credit card').check();
  await page.getByRole('button', { name: 'Add code' }).click();
  await expect(page.getByText('Please correct the fields marked below.')).toBeVisible();
  await expect(page.locator('[data-field-error="code"]')).toBeVisible();
  await page.getByLabel('Code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Add code' }).click();
  const row = page.getByTestId(`code-${code}`);
  await expect(row).toBeVisible();
  await expect(row).toContainText('15%');
  await expect(row).toContainText('Active');
  expect(await seriousOrWorse(page)).toEqual([]);
  await page.screenshot({ path: '/tmp/backoffice-discount-codes.png', fullPage: true });

  // A bundle, then its price in the Netherlands.
  await gotoHydrated(page, '/admin/bundles');
  await page.getByLabel('Credits', { exact: true }).fill('333');
  await page.getByLabel('Badge').selectOption('most_popular');
  await page.getByRole('button', { name: 'Add bundle' }).click();
  await expect(page).toHaveURL(/\/admin\/bundles\?edit=\d+&saved=1$/);
  const bundleId = Number(new URL(page.url()).searchParams.get('edit'));
  await expect(page.getByRole('status')).toContainText('Saved');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel('Country', { exact: true }).fill('NL');
  await page.getByLabel('Price', { exact: true }).fill('12,34');
  await page.getByLabel('Currency').fill('EUR');
  await page.getByRole('button', { name: 'Set price' }).click();
  await expect(page.getByTestId('price-NL')).toContainText('12.34');
  expect(await seriousOrWorse(page)).toEqual([]);
  await page.screenshot({ path: '/tmp/backoffice-bundles.png', fullPage: true });

  // A gift: its English name, then (in its editor) an image, then on sale.
  await gotoHydrated(page, '/admin/gifts');
  const slug = `tulip-${Date.now().toString(36)}`;
  await page.getByLabel('Short name').fill(slug);
  await page.getByLabel('English').fill('Tulip');
  await page.getByLabel('Nederlands').fill('Tulp');
  await page.getByRole('button', { name: 'Add gift' }).click();
  await expect(page).toHaveURL(/\/admin\/gifts\?edit=\d+&saved=1$/);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  const image = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#e91e63' } })
    .png()
    .toBuffer();
  await page
    .getByLabel('Upload an image')
    .setInputFiles({ name: 'tulip.png', mimeType: 'image/png', buffer: image });
  // This gift's own row shows the image once the upload is stored (other gifts' rows have images already).
  await expect(
    page.getByRole('row', { name: new RegExp(slug) }).locator('img[src*="/media/"]'),
  ).toBeVisible();
  await page.getByLabel('On sale').check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status')).toContainText('Saved');
  await expect(page.getByRole('row', { name: new RegExp(slug) })).not.toContainText('Off sale');
  expect(await seriousOrWorse(page)).toEqual([]);
  await page.screenshot({ path: '/tmp/backoffice-gifts.png', fullPage: true });

  // A member (in the Netherlands) sees the bundle at that price at once, and buys it.
  const member = await playwright.request.newContext({ baseURL });
  const signup = await member.post('/api/signup.php', {
    data: { email: e2eEmail(), name: 'Noor', password: 'Saffron-river-93', date_of_birth: '1990-06-01' },
  });
  expect(signup.status()).toBe(201);
  const offer = await (await member.get('/api/bundles.php')).json();
  expect(offer.country).toBe('NL');
  expect(offer.bundles).toContainEqual({
    id: bundleId,
    credits: 333,
    price: 1234,
    currency: 'EUR',
    badge: 'most_popular',
  });
  const ordered = await member.post('/api/order.php', { data: { bundle: bundleId, paymentmethod: 'ideal' } });
  expect(ordered.status()).toBe(201);
  const { order, checkout_url } = await ordered.json();
  const payment = (checkout_url as string).split('/').at(-1)!;
  expect((await member.post('/api/test-payment.php', { data: { payment, status: 'paid' } })).status()).toBe(
    200,
  );
  // The provider's webhook arrives too (and repeats): each report lands in the order's history.
  const provider = await playwright.request.newContext({ baseURL });
  for (let i = 0; i < 2; i++) {
    const hook = await provider.post('/api/payment-webhook.php', { form: { id: payment } });
    expect(hook.status()).toBe(200);
  }
  await provider.dispose();
  const profileId = (await (await member.get('/api/profile.php')).json()).profile.id as number;

  // The orders list filtered by the member, then the order's detail.
  await gotoHydrated(page, '/admin/orders');
  await page.getByLabel('Member (profile id)').fill(String(profileId));
  await page.getByLabel('Status').selectOption('completed');
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await expect(page.getByText('1 order', { exact: true })).toBeVisible();
  expect(await seriousOrWorse(page)).toEqual([]);
  // The filtered orders as CSV: the same one order.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download these orders (CSV)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`orders-completed-member${profileId}.csv`);
  const csv = await readFile((await download.path())!, 'utf8');
  expect(
    csv
      .split('\r\n')
      .slice(1, -1)
      .map((line) => line.split(',')[0]),
  ).toEqual([String(order.id)]);
  await page.getByRole('link', { name: String(order.id), exact: true }).click();
  await expect(page.getByRole('heading', { name: `Order #${order.id}` })).toBeVisible();
  await expect(page.getByTestId('payment-id')).toHaveText(payment);
  const history = page.getByTestId('order-history');
  await expect(history.getByRole('row')).toHaveCount(4);
  await expect(history).toContainText('Checkout');
  await expect(history).toContainText('Waiting for payment → Paid');
  await expect(history.getByText('Webhook')).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Refund order' })).toBeVisible();
  expect(await seriousOrWorse(page)).toEqual([]);
  await page.screenshot({ path: '/tmp/backoffice-order.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: '/tmp/backoffice-order-phone.png', fullPage: true });

  // The refund button: the order is refunded, the history shows it.
  await page.getByLabel('Reason (kept in the audit log)').fill('Asked within 14 days');
  await page.getByLabel('Yes, I am sure').check();
  await page.getByRole('button', { name: 'Refund order' }).click();
  await expect(page.getByRole('status')).toContainText('audit log');
  // Taken into "refund in progress" before the provider was asked, then settled by its answer.
  await expect(history).toContainText('Refund in progress → Refunded');
  await context.close();
  await member.dispose();
});
