import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { test as base, expect } from '@playwright/test';

export { expect };

/**
 * The server this worker talks to: playwright.config.ts starts one per worker (`E2E_SERVERS`),
 * on consecutive ports with a data folder each, and a worker keeps its index for the whole run.
 */
function serverIndex(): number {
  return Number(process.env.TEST_PARALLEL_INDEX ?? 0) % Number(process.env.E2E_SERVERS ?? 1);
}

/** The data folder of this worker's server: its outbox, SMS outbox and the demo admin's password. */
export function serverDataDir(): string {
  return path.join(process.env.E2E_DATA_DIR ?? '', `server-${serverIndex()}`);
}

/**
 * Pages where the 18+ notice was already accepted, as for a returning visitor, on this worker's own
 * server.
 */
export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; this one has none.
  baseURL: async ({}, use) => {
    await use(`http://localhost:${Number(process.env.E2E_PORT ?? 3210) + serverIndex()}`);
  },
  context: async ({ context, baseURL }, use) => {
    await context.addCookies([{ name: 'skip_site_entry', value: '1', url: baseURL ?? 'http://localhost' }]);
    await use(context);
  },
});

type OutboxMail = { to: string; subject: string; text: string };

/** Waits for a mail to the address in the server's outbox folder (no SMTP_URL in the e2e server). */
export async function waitForMail(to: string, containing: string, timeoutMs = 15_000): Promise<OutboxMail> {
  const dir = path.join(serverDataDir(), 'outbox');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = await readdir(dir).catch(() => [] as string[]);
    for (const file of files.filter((name) => name.endsWith('.json'))) {
      // A mail still being written is read again on the next round.
      let mail: OutboxMail;
      try {
        mail = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as OutboxMail;
      } catch {
        continue;
      }
      if (mail.to === to && mail.text.includes(containing)) return mail;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`No mail to ${to} containing ${containing}`);
}

export function linkFrom(mail: OutboxMail, pathPart: string): string {
  const match = mail.text.match(new RegExp(`https?://\\S*${pathPart.replace(/[.?]/g, '\\$&')}\\S*`));
  if (!match) throw new Error(`No link with ${pathPart} in ${mail.text}`);
  return match[0];
}

let counter = 0;
export function e2eEmail(): string {
  counter++;
  return `e2e.${Date.now().toString(36)}.${counter}@example.com`;
}

/** A phone as the member's walks are checked on: 390×844, touch. */
export const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

/** Opens a page and waits until React has hydrated it, so clicks and keys reach the handlers. */
export async function gotoHydrated(page: import('@playwright/test').Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
}

/**
 * A member who signed up in a browser context of their own and activated the account from the mail
 * (the page opens on /activate/done);
 * `device` sets that context up as a phone (viewport, isMobile, hasTouch) where a journey needs one.
 */
export async function activeMember(
  browser: import('@playwright/test').Browser,
  baseURL: string | undefined,
  name: string,
  device: import('@playwright/test').BrowserContextOptions = {},
): Promise<{ page: import('@playwright/test').Page; profileId: number }> {
  const context = await browser.newContext({ ...device, baseURL });
  await context.addCookies([{ name: 'skip_site_entry', value: '1', url: baseURL ?? 'http://localhost' }]);
  const page = await context.newPage();
  const email = e2eEmail();
  // Signed up through the API the sign-up page calls (the page itself has journeys of its own:
  // accounts, landers, the new member's): one page load less for each of the many members the
  // journeys make. The context's cookie jar keeps the new session, as the page's answer would.
  const signup = await page.request.post('/api/signup.php', {
    data: { email, name, password: 'Saffron-river-93', date_of_birth: '1990-06-01' },
  });
  expect(signup.ok(), `sign-up of ${name}: ${signup.status()} ${await signup.text()}`).toBe(true);
  const link = new URL(linkFrom(await waitForMail(email, '/api/activate.php'), '/api/activate.php'));
  await page.goto(link.pathname + link.search);
  await expect(page).toHaveURL(/\/activate\/done$/);
  const own = await (await page.request.get('/api/profile.php')).json();
  return { page, profileId: own.profile.id };
}

/**
 * The demo admin (no ADMIN_EMAIL in the e2e server), signed in with TOTP, as an API context. The
 * first spec that needs it enrols it and keeps the session in the data folder, so every later spec
 * of the same run reuses that session: a second enrolment is refused, and a TOTP code is never
 * accepted twice.
 */
export async function demoAdmin(
  playwright: import('@playwright/test').PlaywrightWorkerArgs['playwright'],
  baseURL: string | undefined,
): Promise<import('@playwright/test').APIRequestContext> {
  const dataDir = serverDataDir();
  const statePath = path.join(dataDir, 'demo-admin-session.json');
  const saved = await readFile(statePath, 'utf8').catch(() => null);
  if (saved) {
    const context = await playwright.request.newContext({ baseURL, storageState: JSON.parse(saved) });
    if ((await context.get('/api/admin/session.php')).ok()) return context;
    await context.dispose();
  }
  const [email, password] = (await readFile(path.join(dataDir, 'admin-password.txt'), 'utf8'))
    .trim()
    .split('\n');
  const context = await playwright.request.newContext({ baseURL });
  const login = await context.post('/api/admin/session.php', { data: { email, password } });
  if (login.status() !== 200) {
    throw new Error(
      `demo admin sign-in: ${login.status()} (enrolled by a spec that does not use demoAdmin()?)`,
    );
  }
  const { generate } = await import('otplib');
  const secret = (await (await context.post('/api/admin/totp.php')).json()).secret as string;
  const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) });
  const enrolled = await context.put('/api/admin/totp.php', { data: { code } });
  if (enrolled.status() !== 200) throw new Error(`demo admin enrolment: ${enrolled.status()}`);
  await context.storageState({ path: statePath });
  return context;
}

/** The password an admin gives a new staff account: the account replaces it at its first sign-in. */
export const adminChosen = (own: string) => `${own}-from-admin`;

/**
 * A new staff account's first step (as the "choose your password" page does): its own password in
 * place of the one the admin chose (adminChosen(own)); until then every other call is refused.
 */
export async function chooseOwnPassword(
  context: import('@playwright/test').APIRequestContext,
  own: string,
): Promise<void> {
  const changed = await context.put('/api/admin/password.php', {
    data: { current: adminChosen(own), password: own },
  });
  if (changed.status() !== 200) throw new Error(`own password: ${changed.status()} ${await changed.text()}`);
}

/** A phone as the member walks with it: 390×844, touch, the mobile viewport rules. */
export const touchPhone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

type Page = import('@playwright/test').Page;
type Locator = import('@playwright/test').Locator;

/**
 * The finger of a page: one CDP session sends all its touch input (Chromium's own touch events, from
 * which it makes the pointer events and clicks, as on a phone). Taps and drags of one page go through
 * the same session: a drag from one session and a tap from another could leave Chromium's touch
 * state between them unsure, and the tap made no click.
 */
const fingers = new WeakMap<Page, Promise<import('@playwright/test').CDPSession>>();
function fingerOf(page: Page) {
  let finger = fingers.get(page);
  if (!finger) {
    finger = page.context().newCDPSession(page);
    fingers.set(page, finger);
  }
  return finger;
}

async function middleOf(target: Locator): Promise<{ x: number; y: number }> {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (!box) throw new Error('touch: the element is not on screen');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** A finger dragged sideways by `dx` from the middle of the element, then lifted. */
export async function touchDrag(page: Page, target: Locator, dx: number): Promise<void> {
  const { x, y } = await middleOf(target);
  const finger = await fingerOf(page);
  await finger.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  const steps = 8;
  for (let step = 1; step <= steps; step++) {
    await finger.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: [{ x: x + (dx * step) / steps, y }],
    });
  }
  await finger.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/** A tap of the finger on the middle of the element, once it can take one. */
export async function touchTap(page: Page, target: Locator): Promise<void> {
  await expect(target).toBeEnabled();
  const point = await middleOf(target);
  const finger = await fingerOf(page);
  await finger.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  await finger.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/** The page's scrollable width: wider than the viewport means it scrolls sideways. */
export function scrollWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

/**
 * A tap, again while it changed nothing: Chromium's emulated touch now and then makes no click of a
 * tap that comes right after a drag (the app's state shows at once whether one arrived).
 */
export async function tapUntil(target: Locator, changed: () => Promise<void>) {
  await expect(async () => {
    await target.tap();
    await changed();
  }).toPass({ timeout: 10_000 });
}

/**
 * Fictional profiles from the member search, paging on until `count` are found: the members the
 * journeys sign up are the most recently active, so they fill the first pages of a long run.
 */
export async function fictionalProfiles(
  request: import('@playwright/test').APIRequestContext,
  query: string,
  count = 1,
): Promise<{ id: number; name: string; fictional: boolean }[]> {
  const found: { id: number; name: string; fictional: boolean }[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 20 && found.length < count; page++) {
    const url: string = `/api/search.php?${query}${cursor ? `${query ? '&' : ''}cursor=${cursor}` : ''}`;
    const search: {
      profiles: { id: number; name: string; fictional: boolean }[];
      next_cursor?: string | null;
    } = await (await request.get(url)).json();
    found.push(
      ...(search.profiles as { id: number; name: string; fictional: boolean }[]).filter((p) => p.fictional),
    );
    cursor = search.next_cursor ?? null;
    if (!cursor) break;
  }
  return found;
}
