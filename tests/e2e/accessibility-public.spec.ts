import { atEverySize, open, pageAxe, seriousViolations, sizes, tags } from './axe.ts';
import { expect, test } from './fixtures.ts';

/** The visitor's pages: a file of its own, so it runs beside the member and staff sweep. */
test('axe runs its experimental rules too', async ({ page }) => {
  await page.goto('/');
  // Every result type: the trimmed run of the pages lists only the rules that found something.
  const results = await pageAxe(page).withTags(tags).analyze();
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
  for (const path of paths) {
    await open(page, path);
    violations.push(...(await atEverySize(page, path)));
  }
  for (const size of sizes) {
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
