import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { activeMember, demoAdmin, expect, test } from './fixtures.ts';

/**
 * Every page of the three audiences, visitor, member and staff, at a phone's and a desktop's width,
 * checked by axe with its experimental rules on top of the default ones (WCAG 2.0–2.2 A and AA and
 * the best practices): not one serious or critical violation. One server, and one session per
 * audience for both widths.
 */
const sizes = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1366, height: 900 },
] as const;

/** WCAG 2.0–2.2 A and AA, axe's best practices, and its experimental rules, off by default. */
const tags = [
  'wcag2a',
  'wcag2aa',
  'wcag21a',
  'wcag21aa',
  'wcag22a',
  'wcag22aa',
  'best-practice',
  'experimental',
];

const axeOf = (page: Page) =>
  new AxeBuilder({ page }).withTags(tags).options({ resultTypes: ['violations'] });

async function seriousViolations(page: Page, label: string): Promise<string[]> {
  // A settled page: no colour caught halfway through a transition.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const { violations } = await axeOf(page).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${label}: ${violation.id} ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/**
 * Opens a page and waits until React has hydrated it; a failure names the page. A lander is plain
 * HTML, and the 404 page stays the server's: those are checked once loaded.
 */
async function open(page: Page, path: string): Promise<void> {
  const answer = await page.goto(path);
  const scripted = await page
    .locator('script[type="text/x-module-after-paint"], script[type="module"]')
    .count();
  if (scripted === 0 || answer?.status() === 404) return;
  await expect(page.locator('html'), path).toHaveAttribute('data-hydrated', 'true', { timeout: 15_000 });
}

/** The first link on the page whose address matches, as a path (a detail page to visit next). */
async function firstLink(page: Page, pattern: RegExp): Promise<string> {
  const hrefs = await page
    .locator('a[href]')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  const found = hrefs.find((href) => pattern.test(href));
  expect(found, `a link like ${pattern} on ${page.url()}`).toBeTruthy();
  return found ?? '';
}

test('axe runs its experimental rules too', async ({ page }) => {
  await page.goto('/');
  // Every result type: the trimmed run of the pages lists only the rules that found something.
  const results = await new AxeBuilder({ page }).withTags(tags).analyze();
  const ran = [...results.passes, ...results.inapplicable, ...results.incomplete, ...results.violations];
  expect(ran.map((rule) => rule.id)).toEqual(
    expect.arrayContaining(['p-as-heading', 'td-has-header', 'label-content-name-mismatch', 'target-size']),
  );
});

const landers = [
  'tinderswipe',
  'alonetonight',
  'collagelanding',
  'gallery',
  'iconslanding',
  'maplanding',
  'socialnetwork',
  'transitionsvideolanding',
  'video',
];

test('every public page: landers, content pages, sign-up and sign-in, no serious violations', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(600_000);
  const { profiles } = await (await page.request.get('/api/landers/profiles.php?limit=1')).json();
  const someone = profiles[0].id as number;
  const paths = [
    '/',
    '/login',
    '/signup',
    '/reset-password',
    '/reset-password/do?token=nope',
    '/activate/done',
    '/activate/error',
    '/mail-change/do?token=nope',
    '/account-deleted',
    '/pricing',
    '/complaints',
    '/signup-matches',
    '/match-finder',
    '/lang-config',
    '/unsubscribe?token=nope',
    ...['terms', 'privacy', 'cookies', 'ban', 'return-policy', 'faq', 'service', 'compliance'].map(
      (name) => `/pages/${name}`,
    ),
    ...landers.map((name) => `/landers/${name}`),
    `/members/${someone}/landing`,
    `/members/${someone}/landing2`,
    `/members/${someone}/landing3`,
    `/members/${someone}/signup`,
    '/members',
    `/members/${someone}`,
    '/no/such/page',
    '/admin/login',
  ];
  const violations: string[] = [];
  for (const size of sizes) {
    await page.setViewportSize(size);
    for (const path of paths) {
      await open(page, path);
      violations.push(...(await seriousViolations(page, `${size.name} ${path}`)));
    }
    // A first visit: the 18+ notice over the home page.
    const fresh = await browser.newContext({ baseURL, viewport: size });
    const first = await fresh.newPage();
    await first.goto('/');
    await expect(first.getByTestId('site-entry-warning')).toBeVisible();
    violations.push(...(await seriousViolations(first, `${size.name} / with the 18+ notice`)));
    await fresh.close();
  }
  expect(violations).toEqual([]);
});

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
  for (const size of sizes) {
    await page.setViewportSize(size);
    for (const path of paths) {
      await open(page, path);
      violations.push(...(await seriousViolations(page, `${size.name} ${path}`)));
    }
    // A like received, opened from the likes page, when a demo profile has liked the member.
    await open(page, '/likes');
    // Server-rendered with the page: there is one now or not at all.
    const receivedLink = page.locator('a[href^="/likes/m/"]').first();
    const received = (await receivedLink.count()) > 0 ? await receivedLink.getAttribute('href') : null;
    if (received) {
      await open(page, received);
      violations.push(...(await seriousViolations(page, `${size.name} ${received}`)));
    }
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
    '/admin/orders',
    '/admin/openers',
    '/admin/mass-messages',
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
  for (const size of sizes) {
    await page.setViewportSize(size);
    for (const path of lists) {
      await open(page, path);
      violations.push(...(await seriousViolations(page, `${size.name} ${path}`)));
      const detail = details[path];
      if (detail && size === sizes[0]) detailPaths.push(await firstLink(page, detail));
    }
    for (const path of detailPaths) {
      await open(page, path);
      violations.push(...(await seriousViolations(page, `${size.name} ${path}`)));
    }
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
