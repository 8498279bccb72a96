import sharp from 'sharp';
import { activeMember, e2eEmail, expect, gotoHydrated, test } from './fixtures.ts';

test('on a phone: two landers show public profiles, signing up through one lands in the members area', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/landers/alonetonight?network=adnet&sub1=phone');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Alone tonight?');
  await expect(page.locator('figure img').first()).toBeVisible();

  await gotoHydrated(page, '/landers/tinderswipe');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Swipe, like, match');
  const form = page.locator('#signup');
  await form.getByLabel('E-mail address').fill(e2eEmail());
  await form.getByLabel('Username').fill('Lander');
  await form.getByLabel('Password', { exact: true }).fill('Copper-lantern-55');
  await form.getByLabel('Date of birth').fill('1989-03-09');
  await form.getByRole('button', { name: 'Create my account' }).click();

  await expect(page).toHaveURL(/\/signup-matches$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your first matches');
  await expect(page.getByTestId('profile-card').first()).toBeVisible();
  const me = await (await page.request.get('/api/user.php')).json();
  expect(me.user.trafficsource).toEqual({ network: 'adnet', sub1: 'phone' });
  await page.getByRole('link', { name: 'See more singles' }).click();
  await expect(page).toHaveURL(/\/members$/);
  await expect(page.getByTestId('site-footer')).toBeVisible();
  await expect(page.getByTestId('payment-icons')).toHaveCount(0);
});

test('every lander answers with its own page', async ({ request }) => {
  const seen = new Set<string>();
  for (const name of [
    'alonetonight',
    'collagelanding',
    'gallery',
    'iconslanding',
    'maplanding',
    'socialnetwork',
    'transitionsvideolanding',
    'video',
  ]) {
    const response = await request.get(`/landers/${name}/some-slug`);
    expect(response.status(), name).toBe(200);
    const html = await response.text();
    expect(html).toContain(`data-lander="${name}"`);
    seen.add(html.match(/<h1[^>]*>([^<]*)</)?.[1] ?? '');
  }
  expect(seen.size).toBe(8);
  expect((await request.get('/landers/unknown')).status()).toBe(404);
});

test('a real member is never an ad: not on the home page, the landers or a member landing, unless opted in', async ({
  browser,
  baseURL,
  request,
}) => {
  const name = 'Quillonia';
  const { page, profileId } = await activeMember(browser, baseURL, name);
  await gotoHydrated(page, '/profile');
  const photo = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#d53a7b' } })
    .png()
    .toBuffer();
  await page.locator('#photo-upload').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: photo });
  await expect(page.getByTestId('own-photos').locator('img')).toHaveCount(1);

  const publicPages = [
    '/',
    '/landers/tinderswipe',
    ...[
      'alonetonight',
      'collagelanding',
      'gallery',
      'iconslanding',
      'maplanding',
      'socialnetwork',
      'transitionsvideolanding',
      'video',
    ].map((lander) => `/landers/${lander}`),
  ];
  for (const url of publicPages) {
    const response = await request.get(url);
    expect(response.status(), url).toBe(200);
    expect(await response.text(), url).not.toContain(name);
  }
  for (const variant of ['landing', 'landing2', 'landing3', 'signup']) {
    const response = await request.get(`/members/${profileId}/${variant}`);
    expect(response.status(), variant).toBe(404);
    expect(await response.text()).not.toContain(name);
  }

  // The setting is off by default; turned on, the member may headline the public pages.
  await gotoHydrated(page, '/notifications');
  const optIn = page.getByLabel(/Show my profile to visitors/);
  await expect(optIn).not.toBeChecked();
  await optIn.check();
  await page.getByRole('button', { name: 'Save privacy setting' }).click();
  await expect(page.getByText('Your settings have been saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(/Show my profile to visitors/)).toBeChecked();
  expect(await (await request.get('/')).text()).toContain(name);
  const landing = await request.get(`/members/${profileId}/landing`);
  expect(landing.status()).toBe(200);
  expect(await landing.text()).toContain(name);
  await page.context().close();
});
