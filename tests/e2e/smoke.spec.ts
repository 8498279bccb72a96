import { expect, test } from './fixtures.ts';

test('the home page is server-rendered with the site name in the title', async ({ page, request }) => {
  const html = await (await request.get('/')).text();
  expect(html).toContain('<title>Amora – meet singles near you</title>');
  await page.goto('/');
  await expect(page).toHaveTitle(/Amora/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Amora');
});

test('a missing page answers 404 with a link back home', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'This page could not be found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to the home page' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('legal pages are server-rendered in the visitor language, and a complaint can be sent', async ({
  page,
  request,
}) => {
  const terms = await (await request.get('/pages/terms', { headers: { cookie: 'locale=de' } })).text();
  expect(terms).toContain('<html lang="de"');
  expect(terms).toContain('Amora Media B.V.');
  await page.goto('/complaints');
  await page.getByLabel('Your name').fill('Kim');
  await page.getByLabel('Your e-mail address').fill('kim@example.com');
  await page.getByLabel('Subject').fill('Question');
  await page.getByLabel('Your complaint').fill('Something went wrong.');
  await page.getByRole('button', { name: 'Send complaint' }).click();
  await expect(page.getByRole('status')).toContainText('kim@example.com');
});

test('an info page answers by its token too, and other tokens are 404', async ({ request }) => {
  const faq = await request.get('/faq');
  expect(faq.status()).toBe(200);
  expect(await faq.text()).toContain('data-page="info-token"');
  expect((await request.get('/not-a-page-token')).status()).toBe(404);
});
