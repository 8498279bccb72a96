import { atEverySize, firstLink, open, seriousViolations, sizes } from './axe.ts';
import { activeMember, demoAdmin, expect, test } from './fixtures.ts';

/**
 * The member's and the staff's pages (the visitor's are in accessibility-public.spec.ts). One file:
 * the back-office sweep opens the order and the conversation the member sweep made.
 */
test('every member page, no serious violations', async ({ browser, baseURL }) => {
  test.setTimeout(600_000);
  const { page } = await activeMember(browser, baseURL, 'Axel');
  const found = await (await page.request.get('/api/search.php')).json();
  const partner = found.profiles[0].id as number;
  const sent = await page.request.post('/api/chat.php', { data: { profile: partner, text: 'Hello there' } });
  expect(sent.ok()).toBe(true);
  const bundles = await (await page.request.get('/api/bundles.php')).json();
  const bundle = bundles.bundles[0].id as number;

  // A purchase through the test checkout: its payment page, then the receipt.
  await page.setViewportSize(sizes[0]);
  await open(page, `/credits/${bundle}`);
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/payments\/test\/tst_/);
  const payment = new URL(page.url()).pathname;
  const violations = await seriousViolations(page, `${sizes[0].name} ${payment}`);
  await page.getByRole('button', { name: 'Paid' }).click();
  await expect(page).toHaveURL(/\/transactions\/\d+$/);
  const receipt = new URL(page.url()).pathname;

  await open(page, `/members/${partner}/chat`);
  await expect(page).toHaveURL(/\/chats\/\d+$/);
  const chat = new URL(page.url()).pathname;

  const paths = [
    '/members',
    `/members/${partner}`,
    '/likes',
    '/likes/given',
    '/likes/matches',
    '/chats',
    chat,
    '/swipe-game',
    '/profile',
    '/profile/account',
    '/notifications',
    '/premium',
    '/pricing',
    '/credits',
    `/credits/${bundle}`,
    '/credits/repeat-order',
    '/directdebit',
    '/transactions',
    receipt,
    '/pages/faq',
    '/no/such/page',
  ];
  for (const path of paths) {
    await open(page, path);
    violations.push(...(await atEverySize(page, path)));
  }
  // A like received, opened from the likes page, when a demo profile has liked the member.
  await open(page, '/likes');
  // Server-rendered with the page: there is one now or not at all.
  const receivedLink = page.locator('a[href^="/likes/m/"]').first();
  const received = (await receivedLink.count()) > 0 ? await receivedLink.getAttribute('href') : null;
  if (received) {
    await open(page, received);
    violations.push(...(await atEverySize(page, received)));
  }
  await page.setViewportSize(sizes[1]);
  await page.goto(payment);
  violations.push(...(await seriousViolations(page, `${sizes[1].name} ${payment}`)));
  expect(violations).toEqual([]);
  await page.context().close();
});

test('every back-office page, no serious violations', async ({ browser, baseURL, playwright }) => {
  test.setTimeout(600_000);
  const admin = await demoAdmin(playwright, baseURL);
  const context = await browser.newContext({ baseURL, storageState: await admin.storageState() });
  const page = await context.newPage();
  const lists = [
    '/admin',
    '/admin/inbox',
    '/admin/staff',
    '/admin/stats',
    '/admin/numbers',
    '/admin/audit',
    '/admin/sites',
    '/admin/companies',
    '/admin/profiles',
    '/admin/account',
    '/admin/members',
    '/admin/reports',
    '/admin/photos',
    '/admin/bundles',
    '/admin/gifts',
    '/admin/discountcodes',
    '/admin/winback',
    '/admin/orders',
    '/admin/openers',
    '/admin/mass-messages',
    '/admin/board',
  ];
  const details: Record<string, RegExp> = {
    '/admin/inbox': /^\/admin\/conversations\/\d+/,
    '/admin/sites': /^\/admin\/sites\/\d+/,
    '/admin/profiles': /^\/admin\/profiles\/\d+/,
    '/admin/members': /^\/admin\/members\/\d+/,
    '/admin/orders': /^\/admin\/orders\/\d+/,
  };
  const violations: string[] = [];
  const detailPaths: string[] = [];
  for (const path of lists) {
    await open(page, path);
    violations.push(...(await atEverySize(page, path)));
    const detail = details[path];
    if (detail) detailPaths.push(await firstLink(page, detail));
  }
  for (const path of detailPaths) {
    await open(page, path);
    violations.push(...(await atEverySize(page, path)));
  }
  expect(violations).toEqual([]);

  // Each page names itself in its <title>, in the staff member's language.
  await open(page, '/admin/numbers');
  await expect(page).toHaveTitle('Numbers | Back office');
  const order = detailPaths.find((path) => path.startsWith('/admin/orders/')) ?? '';
  await context.addCookies([{ name: 'locale', value: 'de', url: baseURL ?? 'http://localhost' }]);
  await open(page, '/admin/orders');
  await expect(page).toHaveTitle('Bestellungen | Backoffice');
  await open(page, order);
  await expect(page).toHaveTitle(`Bestellung #${order.split('/').at(-1)} | Backoffice`);
  await context.close();
});
