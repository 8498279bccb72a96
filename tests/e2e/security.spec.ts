import type { Page } from '@playwright/test';
import { activeMember, expect, gotoHydrated, test } from './fixtures.ts';

/** Records CSP violations (the event and the console line) of a page, from before its first script. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const consoleLines: string[] = [];
  page.on('console', (message) => {
    // CSP reports, and hydration mismatches (a nonce that differed between server and browser).
    if (/Content Security Policy|Refused to|hydrat|did not match/i.test(message.text())) {
      consoleLines.push(message.text());
    }
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { __cspViolations: seen });
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  return async () => {
    const events = await page.evaluate(
      () => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [],
    );
    return [...consoleLines, ...events];
  };
}

test('pages send a nonce-based CSP that every inline script carries', async ({ request }) => {
  const response = await request.get('/login');
  const headers = response.headers();
  const csp = headers['content-security-policy'] ?? '';
  const nonce = csp.match(/script-src 'self' 'nonce-([^']+)'/)?.[1];
  expect(nonce).toBeTruthy();
  expect(csp).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['permissions-policy']).toContain('geolocation=(self)');
  // Plain HTTP here: no HSTS.
  expect(headers['strict-transport-security']).toBeUndefined();
  const html = await response.text();
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  const again = (await request.get('/login')).headers()['content-security-policy'];
  expect(again).not.toBe(csp);
});

test('the violation watcher itself sees a blocked inline script (control)', async ({ page }) => {
  const violations = await watchCsp(page);
  await gotoHydrated(page, '/login');
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__ran = true';
    document.body.append(script);
  });
  await expect.poll(async () => (await violations()).length).toBeGreaterThan(0);
  expect(await page.evaluate(() => 'ranInline' in window || '__ran' in window)).toBe(false);
});

test('public pages hydrate without any CSP violation', async ({ page }) => {
  const violations = await watchCsp(page);
  for (const path of ['/', '/login', '/signup', '/pages/terms', '/complaints', '/no-such-page']) {
    if (path === '/no-such-page') await page.goto(path);
    else await gotoHydrated(page, path);
  }
  await gotoHydrated(page, '/login');
  await page.getByRole('link', { name: 'Sign up for free' }).first().click();
  await expect(page).toHaveURL(/\/signup$/);
  expect(await violations()).toEqual([]);
});

test("a member's pages (photos, live WebSocket, service worker) work under the CSP; logout is a POST", async ({
  browser,
  baseURL,
}) => {
  const { page } = await activeMember(browser, baseURL, 'Casey');
  const violations = await watchCsp(page);
  const socket = page.waitForEvent('websocket', { timeout: 15_000 });
  await gotoHydrated(page, '/members');
  expect((await socket).url()).toMatch(/^ws:\/\/localhost:\d+\/api\/ws/);
  await expect(page.locator('img').first()).toBeVisible();
  const loaded = await page
    .locator('img')
    .evaluateAll(
      (images) =>
        images.filter(
          (image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0,
        ).length,
    );
  expect(loaded).toBeGreaterThan(0);
  for (const path of ['/chats', '/likes', '/credits', '/profile', '/notifications', '/transactions']) {
    await gotoHydrated(page, path);
  }
  await expect
    .poll(() => page.evaluate(async () => Boolean(await navigator.serviceWorker?.getRegistration())))
    .toBe(true);

  // An open redirect through the login page is refused: the member lands on the members area.
  const redirect = await page.request.get('/login?redirect=/%09/evil.test', { maxRedirects: 0 });
  expect(redirect.status()).toBe(302);
  expect(redirect.headers().location).toBe('/members');
  const sameSite = await page.request.get('/login?redirect=%2Fchats', { maxRedirects: 0 });
  expect(sameSite.headers().location).toBe('/chats');

  await gotoHydrated(page, '/members');
  const logout = page.waitForRequest((request) => request.url().endsWith('/api/logout.php'));
  await page.getByRole('button', { name: 'My account' }).click();
  await page.getByRole('button', { name: 'Log out' }).click();
  expect((await logout).method()).toBe('POST');
  await expect(page.getByRole('link', { name: 'Log in' }).first()).toBeVisible();
  expect(await violations()).toEqual([]);
  await page.context().close();
});
