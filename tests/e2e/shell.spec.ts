import { connect } from 'node:net';
import { pageAxe } from './axe.ts';
import { activeMember, expect, gotoHydrated, test } from './fixtures.ts';

test('switching the language in the footer changes the page and is remembered', async ({ page }) => {
  await gotoHydrated(page, '/login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back');
  await page.getByTestId('language-switcher').selectOption('de');
  await page.getByTestId('language-apply').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Welcome back');
  const german = await page.getByRole('heading', { level: 1 }).textContent();
  await gotoHydrated(page, '/login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(german ?? '');
  await page.getByTestId('language-switcher').selectOption('en');
  await page.getByTestId('language-apply').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back');
});

test('each locale renders home, login and signup on the server in its own language', async ({ request }) => {
  for (const path of ['/', '/login', '/signup']) {
    const seen = new Set<string>();
    for (const locale of ['en', 'nl', 'de', 'it', 'fr', 'es', 'pl', 'da', 'fi', 'no', 'sv']) {
      const html = await (await request.get(path, { headers: { cookie: `locale=${locale}` } })).text();
      expect(html).toContain(`<html lang="${locale}"`);
      seen.add(html.match(/<h1[^>]*>([^<]*)</)?.[1] ?? '');
    }
    expect(seen.size, path).toBe(11);
  }
});

test('the site-entry warning shows until accepted', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await gotoHydrated(page, '/');
  const warning = page.getByTestId('site-entry-warning');
  await expect(warning).toBeVisible();
  await warning.getByRole('button').click();
  await expect(warning).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('site-entry-warning')).toHaveCount(0);
  await context.close();
});

// Every page's accessibility, at both sizes: accessibility.spec.ts.

// ---- The shell: tab bar, balance, errors inside the layout, first paint ----

const phone = { width: 390, height: 844 };
const desktop = { width: 1366, height: 900 };

/** Buys the first bundle through the test checkout: the member becomes a paying one. */
async function payForFirstBundle(page: import('@playwright/test').Page): Promise<void> {
  const bundles = await (await page.request.get('/api/bundles.php')).json();
  await gotoHydrated(page, `/credits/${bundles.bundles[0].id}`);
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/payments\/test\/tst_/);
  await page.getByRole('button', { name: 'Paid' }).click();
  await expect(page).toHaveURL(/\/transactions\/\d+$/);
}

async function seriousViolations(page: import('@playwright/test').Page, label: string): Promise<string[]> {
  const results = await pageAxe(page).analyze();
  return results.violations
    .filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''))
    .map((violation) => `${label}: ${violation.id} ${violation.nodes.map((node) => node.target).join(', ')}`);
}

test('a member sees the tab bar with badges on a phone, the top navigation on a desktop, and Get Premium until the first payment', async ({
  browser,
  baseURL,
}) => {
  const liked = await activeMember(browser, baseURL, 'Tabby');
  const liker = await activeMember(browser, baseURL, 'Likey');
  expect((await liker.page.request.post('/api/like.php', { data: { profile: liked.profileId } })).ok()).toBe(
    true,
  );
  const page = liked.page;

  await page.setViewportSize(phone);
  await gotoHydrated(page, '/members');
  const tabs = page.getByTestId('tab-bar');
  await expect(tabs).toBeVisible();
  await expect(tabs.getByRole('link')).toHaveText([/Search/, /Swipe/, /Likes/, /Chats/, /Profile/]);
  await expect(tabs.getByRole('link', { name: /Likes/ })).toContainText('New likes: 1');
  await expect(page.getByTestId('top-nav')).toBeHidden();
  // Spec §2: credits, or Get Premium for a member who never paid; not both.
  const topBar = page.getByTestId('top-bar');
  const getPremium = topBar.getByRole('link', { name: 'Get Premium', exact: true });
  await expect(getPremium).toBeVisible();
  await expect(topBar.getByTestId('balance')).toHaveCount(0);
  // The welcome offer of the first hours counts down beside it, linking to the bundles.
  const offer = topBar.getByTestId('welcome-offer');
  await expect(offer).toBeVisible();
  await expect(offer).toHaveAttribute('href', '/credits');
  await expect(offer.getByTestId('welcome-offer-time')).toHaveText(/^[0-3]:[0-5]\d:[0-5]\d$/);
  // All of it on one line of the phone, the account button inside the screen.
  const account = await topBar.locator('.account-toggle').boundingBox();
  expect(account && account.x + account.width).toBeLessThanOrEqual(phone.width);
  const bar = await topBar.boundingBox();
  expect(bar?.height).toBeLessThan(80);
  // The tab bar sits inside the screen and leaves the page's end reachable above it.
  const box = await tabs.boundingBox();
  expect(box && box.y + box.height).toBeLessThanOrEqual(phone.height + 1);

  await page.setViewportSize(desktop);
  await expect(tabs).toBeHidden();
  await expect(page.getByTestId('top-nav').getByRole('link', { name: /Likes/ })).toContainText(
    'New likes: 1',
  );
  await expect(getPremium).toBeVisible();
  await expect(offer).toBeVisible();
  await expect(topBar.getByTestId('balance')).toHaveCount(0);
  await liker.page.context().close();
  await page.context().close();
});

test('a paying member sees the balance in the top bar, following spending live, without a reload', async ({
  browser,
  baseURL,
}) => {
  const member = await activeMember(browser, baseURL, 'Spender');
  const page = member.page;
  await payForFirstBundle(page);
  await page.setViewportSize(phone);
  const found = await (await page.request.get('/api/search.php')).json();
  const partner = found.profiles[0].id as number;
  await gotoHydrated(page, '/members');
  await expect(page.getByTestId('top-bar').getByRole('link', { name: 'Get Premium' })).toHaveCount(0);
  await expect(page.getByTestId('top-bar').getByTestId('welcome-offer')).toHaveCount(0);
  const amount = page.getByTestId('balance-amount');
  const before = Number(await amount.textContent());
  // The free messages first, then one that costs credits: the live "credits" event moves the number.
  for (let i = 0; i < 6; i++) {
    const sent = await page.request.post('/api/chat.php', { data: { profile: partner, text: `Hello ${i}` } });
    if (!sent.ok()) break;
  }
  const after = (await (await page.request.get('/api/user.php')).json()).user.credits as number;
  expect(after).toBeLessThan(before);
  await expect(amount).toHaveText(String(after));
  await page.context().close();
});

for (const viewport of [
  { name: 'phone', ...phone },
  { name: 'desktop', ...desktop },
]) {
  test(`wrong ids and malformed addresses get the 404 page inside the layout (${viewport.name})`, async ({
    browser,
    baseURL,
  }) => {
    const { page } = await activeMember(browser, baseURL, `Lost${viewport.name}`);
    await page.setViewportSize(viewport);
    for (const path of ['/transactions/99999', '/credits/999', '/likes/mine', '/%E0%A4%A', '/no/such/page']) {
      const answer = await page.goto(path);
      expect(answer?.status(), path).toBe(404);
      expect(answer?.headers()['content-type'], path).toContain('text/html');
      await expect(page.getByTestId('error-page'), path).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 }), path).toHaveText('This page could not be found');
      await expect(page.getByTestId('top-bar'), path).toBeVisible();
      await expect(page.getByTestId('get-premium'), path).toBeVisible();
      await expect(page.getByTestId('site-footer'), path).toBeVisible();
    }
    expect(await seriousViolations(page, '404')).toEqual([]);
    await page.context().close();
  });
}

test('a visitor gets the 404 page in the layout too, never raw JSON', async ({ page }) => {
  const answer = await page.goto('/members/%ZZ');
  expect(answer?.status()).toBe(404);
  await expect(page.getByTestId('error-page')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
  const api = await page.request.get('/api/%ZZ');
  expect(api.status()).toBe(400);
  expect(await api.json()).toMatchObject({ error: 'bad_request' });
});

test('the credits page shows the balance, per-message prices, a most popular anchor and payment logos', async ({
  browser,
  baseURL,
}) => {
  const { page } = await activeMember(browser, baseURL, 'Shopper');
  await gotoHydrated(page, '/credits');
  await expect(page.getByTestId('credits-balance')).toContainText(/\d+ credits/);
  const bundles = page.getByTestId('bundles');
  await expect(bundles.getByTestId('per-message').first()).toContainText(/per message/);
  await expect(page.getByTestId('bundle-popular')).toContainText('Most popular');
  await expect(page.getByTestId('payment-logos').locator('svg.method-logo').first()).toBeVisible();
  await expect(page.getByTestId('payment-logos')).toContainText('Credit card');
  await gotoHydrated(page, '/premium');
  await expect(page.getByTestId('premium-compare').getByRole('columnheader')).toHaveText([
    'Feature',
    'Free',
    'Premium',
  ]);
  await expect(page.getByTestId('premium-from')).toContainText('Premium from');
  await page.context().close();
});

test('marketing mail starts unticked, and push boxes show off while this device has no push', async ({
  browser,
  baseURL,
}) => {
  const { page } = await activeMember(browser, baseURL, 'Quiet');
  await gotoHydrated(page, '/notifications');
  await expect(page.getByTestId('email-news')).not.toBeChecked();
  await expect(page.getByTestId('email-messages')).toBeChecked();
  await expect(page.getByTestId('push-messages')).not.toBeChecked();
  await expect(page.getByTestId('push-messages')).toBeDisabled();
  // Saving the mail choices keeps the stored push choices.
  await page.getByRole('button', { name: 'Save' }).first().click();
  const saved = await (await page.request.get('/api/notifications.php')).json();
  expect(saved.push.messages).toBe(true);
  expect(saved.email.news).toBe(false);
  await page.context().close();
});

const publicPages = ['/', '/login', '/signup', '/pricing', '/pages/terms'];

test('render-blocking CSS of the public pages is at most 15 KB gzip', async ({ request }) => {
  const { gzipSync } = await import('node:zlib');
  for (const path of publicPages) {
    const html = await (await request.get(path)).text();
    const head = html.slice(0, html.indexOf('</head>'));
    let bytes = 0;
    for (const match of head.matchAll(/<link[^>]+rel="stylesheet"[^>]*>/g)) {
      const tag = match[0];
      if (/media="print"/.test(tag)) continue;
      const href = tag.match(/href="([^"]+)"/)?.[1] ?? '';
      const css = await (await request.get(href)).body();
      bytes += gzipSync(css, { level: 9 }).length;
    }
    for (const match of head.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)) {
      bytes += gzipSync(Buffer.from(match[1] ?? ''), { level: 9 }).length;
    }
    expect(bytes, path).toBeGreaterThan(1000);
    expect(bytes, path).toBeLessThanOrEqual(15 * 1024);
  }
});

test('public pages ask for no script before they paint and load neither zod nor the contract', async ({
  request,
}) => {
  const { gzipSync } = await import('node:zlib');
  for (const path of publicPages) {
    const html = await (await request.get(path)).text();
    const head = html.slice(0, html.indexOf('</head>'));
    // Only the stylesheet is asked for while the page is read: no modulepreload link, and React
    // Router's module script is inert until the loader in <head> wakes it after the first paint.
    expect(head.search(/<link[^>]+rel="stylesheet"/), path).toBeGreaterThan(0);
    expect(html, path).not.toMatch(/<link[^>]+rel="modulepreload"/);
    expect(html, path).not.toMatch(/<script[^>]+type="module"/);
    const preloads = html.match(/<script[^>]+type="text\/x-module-after-paint" data-preloads="([^"]+)"/)?.[1];
    expect(preloads?.split(' ').length ?? 0, path).toBeGreaterThan(5);
    let bytes = 0;
    for (const href of preloads?.split(' ') ?? []) {
      const script = (await (await request.get(href)).body()).toString();
      // zod names its schema classes ($ZodObject): none of them before the first API call.
      expect(script.includes('$ZodObject'), `${path}: ${href}`).toBe(false);
      bytes += gzipSync(script, { level: 9 }).length;
    }
    expect(bytes, path).toBeLessThanOrEqual(180 * 1024);
  }
});

test("a member's page paints before it asks for a script, then hydrates", async ({ browser, baseURL }) => {
  const { page } = await activeMember(browser, baseURL, 'Painter');
  // Registered before any script of the page: its callback runs with the page's first frame.
  await page.addInitScript(() => {
    requestAnimationFrame(() => {
      document.documentElement.dataset.firstFrame = String(performance.now());
    });
  });
  for (const path of ['/members', '/chats']) {
    await gotoHydrated(page, path);
    // One clock for both: the page's own (milliseconds since it was asked for).
    const { firstFrame, scripts } = await page.evaluate(() => ({
      firstFrame: Number(document.documentElement.dataset.firstFrame),
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.endsWith('.js'))
        .map((entry) => entry.startTime),
    }));
    expect(scripts.length, path).toBeGreaterThan(10);
    expect(firstFrame, path).toBeGreaterThan(0);
    expect(Math.min(...scripts), path).toBeGreaterThan(firstFrame);
  }
});

/** The body of a GET as it crossed the wire: the pieces of its chunked transfer encoding. */
function rawChunks(baseURL: string, path: string, cookie: string): Promise<string[]> {
  const { hostname, port } = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`,
      );
    });
    const received: Buffer[] = [];
    socket.on('data', (data: Buffer) => received.push(data));
    socket.on('error', reject);
    socket.on('end', () => {
      const raw = Buffer.concat(received);
      let at = raw.indexOf('\r\n\r\n') + 4;
      const chunks: string[] = [];
      for (;;) {
        const lineEnd = raw.indexOf('\r\n', at);
        const size = Number.parseInt(raw.subarray(at, lineEnd).toString('latin1'), 16);
        if (!(size > 0)) break;
        chunks.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size).toString('utf8'));
        at = lineEnd + 2 + size + 2;
      }
      resolve(chunks);
    });
  });
}

test("a member's page leaves the server in a few pieces, not React's 4 KB ones", async ({
  browser,
  baseURL,
}) => {
  const { page } = await activeMember(browser, baseURL, 'Chunky');
  const cookie = (await page.context().cookies()).map((each) => `${each.name}=${each.value}`).join('; ');
  for (const path of ['/members', '/chats']) {
    const chunks = await rawChunks(baseURL ?? '', path, cookie);
    const html = chunks.join('');
    // A whole page (tens of KB, which React writes as one 4 KB piece after another) …
    expect(html.length, path).toBeGreaterThan(16 * 1024);
    expect(html, path).toContain('</html>');
    // … leaves as the shell and the streamed rest: each piece crossed the web stream and zlib once.
    expect(chunks.length, path).toBeLessThanOrEqual(3);
  }
});
