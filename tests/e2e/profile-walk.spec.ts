import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { pageAxe } from './axe.ts';
import { activeMember, expect, fictionalProfiles, gotoHydrated, phone, test } from './fixtures.ts';

// A new member's walk on a phone (390×844, touch): the profile, its photos, the account settings,
// the search sheet and someone else's profile.

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not shown');
  return box;
}

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function uploadPhotos(page: Page, colours: string[]): Promise<void> {
  for (const colour of colours) {
    const photo = await sharp({ create: { width: 300, height: 300, channels: 3, background: colour } })
      .png()
      .toBuffer();
    const count = await page.getByTestId('own-photo').count();
    await page
      .locator('#photo-upload')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: photo });
    await expect(page.getByTestId('own-photo')).toHaveCount(count + 1);
  }
}

/** A fictional profile of the demo in this country. */
async function demoProfile(page: Page, country: string): Promise<number> {
  const [found] = await fictionalProfiles(page.request, `gender=any&country=${country}`);
  if (!found) throw new Error(`no demo profile in ${country}`);
  return found.id;
}

test('photo tiles: badge, grip and one menu that never overlap; at the limit Premium offers more', async ({
  browser,
  baseURL,
}) => {
  const { page } = await activeMember(browser, baseURL, 'Tiles', phone);
  await gotoHydrated(page, '/profile');
  await uploadPhotos(page, ['#3a7bd5', '#d53a7b', '#7bd53a']);
  const tiles = page.getByTestId('own-photo');
  const first = tiles.first();
  const badge = await boxOf(first.getByTestId('main-photo-badge'));
  const grip = await boxOf(first.locator('.photo-tile-grip'));
  const menu = await boxOf(first.getByTestId('photo-menu'));
  const tile = await boxOf(first);
  expect(tile.width).toBeLessThan(130);
  expect(overlaps(badge, grip)).toBe(false);
  expect(overlaps(badge, menu)).toBe(false);
  expect(overlaps(grip, menu)).toBe(false);
  expect(menu.width).toBeGreaterThanOrEqual(36);
  // One control per tile besides the grip: the menu.
  await expect(first.getByRole('button')).toHaveCount(1);

  // A free member's limit is 3 (spec §5): the add tile makes way for what Premium gives.
  await expect(page.getByText('Add a photo')).toHaveCount(0);
  const limit = page.getByTestId('photo-limit-tile');
  await expect(limit).toBeVisible();
  await expect(limit.getByRole('link', { name: 'Premium: up to 25 photos' })).toHaveAttribute(
    'href',
    '/premium',
  );

  // By touch: the third photo's menu makes it the main photo.
  const ids = async () =>
    ((await (await page.request.get('/api/profile.php')).json()).profile.photos as { id: number }[]).map(
      (photo) => photo.id,
    );
  const before = await ids();
  await page.getByRole('button', { name: 'Options for photo 3 of 3' }).tap();
  await page.getByRole('button', { name: 'Make main photo' }).tap();
  await expect.poll(ids).toEqual([before[2], before[0], before[1]]);

  // By keyboard: the menu opens with Enter and moves photo 2 later.
  const second = page.getByRole('button', { name: 'Options for photo 2 of 3' });
  await expect(second).toBeEnabled();
  // The new order's revalidation may still re-render the tiles on a loaded machine and take the
  // focus or the open menu with it: the keyboard tries again until the menu is open.
  await expect(async () => {
    await second.focus();
    await page.keyboard.press('Enter');
    await expect(second).toHaveAttribute('aria-expanded', 'true', { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  const later = page.getByRole('button', { name: 'Move photo 2 later' });
  await expect(later).toBeVisible();
  await later.focus();
  await page.keyboard.press('Enter');
  await expect.poll(ids).toEqual([before[2], before[1], before[0]]);
  await page.context().close();
});

test('my profile holds photos, then about, then details; account settings are a page of their own', async ({
  browser,
  baseURL,
}) => {
  const { page } = await activeMember(browser, baseURL, 'Splitter', phone);
  await gotoHydrated(page, '/profile');
  await expect(page.locator('input[type="password"]')).toHaveCount(0);
  const top = async (locator: Locator) => (await boxOf(locator)).y;
  const photos = await top(page.getByTestId('own-photos'));
  const about = await top(page.getByLabel('About me'));
  const hair = await top(page.getByLabel('Hair'));
  expect(photos).toBeLessThan(about);
  expect(about).toBeLessThan(hair);

  // From the profile, one tap to the account settings, and back.
  await page.getByTestId('account-settings-link').tap();
  await expect(page).toHaveURL(/\/profile\/account$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Account settings');
  await expect(page).toHaveTitle(/^Account settings \|/);
  await page.getByTestId('back-to-profile').tap();
  await expect(page).toHaveURL(/\/profile$/);

  // From the account menu as well.
  await page.locator('#account-menu').tap();
  await page.getByTestId('menu-account-settings').tap();
  await expect(page).toHaveURL(/\/profile\/account$/);

  // Every account function works there: password, e-mail change, deletion.
  const password = page.getByTestId('account-password');
  await password.getByLabel('Current password').fill('Saffron-river-93');
  await password.getByLabel('New password', { exact: true }).fill('Copper-meadow-58');
  await password.getByLabel(/Repeat|Confirm/).fill('Copper-meadow-58');
  await password.getByRole('button', { name: 'Change password' }).tap();
  await expect(page.getByText('Your password has been changed.')).toBeVisible();

  const email = page.getByTestId('account-email');
  await email.getByLabel('New e-mail address').fill(`new.${Date.now()}@example.com`);
  await email.getByLabel('Password', { exact: true }).fill('Copper-meadow-58');
  await email.getByRole('button', { name: 'Send confirmation link' }).tap();
  await expect(page.getByText(/We sent a link to new\./)).toBeVisible();

  const remove = page.getByTestId('account-delete');
  await remove.getByLabel('Enter your password to confirm').fill('Copper-meadow-58');
  await remove.getByRole('button', { name: 'Delete my account' }).tap();
  await expect(page).toHaveURL(/\/account-deleted$/);
  await page.context().close();
});

test('the filter sheet has its title at the start and the close button at the far end', async ({
  browser,
  baseURL,
}) => {
  const { page } = await activeMember(browser, baseURL, 'Sheet', phone);
  await gotoHydrated(page, '/members');
  await page.getByTestId('open-filters').tap();
  const sheet = page.getByRole('dialog');
  // Measured once it has slid in.
  await expect(sheet).toHaveClass(/\bshow\b/);
  await expect.poll(async () => (await boxOf(sheet)).x).toBeLessThan(1);
  const title = await boxOf(sheet.getByRole('heading', { name: 'Filters' }));
  const close = await boxOf(sheet.getByRole('button', { name: 'Close' }));
  const panel = await boxOf(sheet);
  // The close button at the far end, the title from the start: not side by side.
  expect(panel.x + panel.width - (close.x + close.width)).toBeLessThanOrEqual(24);
  expect(title.x - panel.x).toBeLessThanOrEqual(24);
  expect(close.x).toBeGreaterThan(panel.x + panel.width * 0.75);
  expect(title.x + title.width).toBeLessThanOrEqual(close.x);
  expect(Math.abs(close.y + close.height / 2 - (title.y + title.height / 2))).toBeLessThanOrEqual(4);
  expect(close.width).toBeGreaterThanOrEqual(40);
  await sheet.getByRole('button', { name: 'Close' }).tap();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.context().close();
});

test('a profile on a phone shows name, age and presence on the photo, above the fold and readable', async ({
  browser,
  baseURL,
}) => {
  const { page } = await activeMember(browser, baseURL, 'Viewer', phone);
  const id = await demoProfile(page, 'NL');
  await gotoHydrated(page, `/members/${id}`);
  const name = page.getByRole('heading', { level: 1 });
  const photo = await boxOf(page.getByTestId('open-lightbox'));
  const heading = await boxOf(name);
  const presence = await boxOf(page.locator('.member-photo-overlay').getByTestId('presence'));
  await expect(name).toHaveText(/^\S.*, \d+$/);
  for (const box of [heading, presence]) {
    expect(box.y).toBeGreaterThanOrEqual(photo.y);
    expect(box.y + box.height).toBeLessThanOrEqual(photo.y + photo.height);
    expect(box.y + box.height).toBeLessThanOrEqual(844);
  }
  const look = await name.evaluate((element) => {
    const scrim = element.closest('.member-photo-overlay');
    return {
      color: getComputedStyle(element).color,
      scrim: scrim ? getComputedStyle(scrim).backgroundImage : '',
    };
  });
  expect(look.color).toBe('rgb(255, 255, 255)');
  expect(look.scrim).toContain('rgba(14, 6, 10, 0.88) 100%)');
  // The photo still opens full screen from a tap on the caption.
  await page.mouse.click(heading.x + 10, heading.y + heading.height / 2);
  await expect(page.getByTestId('lightbox')).toBeVisible();
  await page.context().close();
});

test("a Dutch demo member's bio reads in the visitor's language", async ({ browser, baseURL }) => {
  const { page } = await activeMember(browser, baseURL, 'Polyglot', phone);
  const id = await demoProfile(page, 'NL');
  await page.context().addCookies([{ name: 'locale', value: 'pl', url: baseURL ?? '' }]);
  await gotoHydrated(page, `/members/${id}`);
  const bio = page.locator('.member-page').getByText(/Uwielbiam/);
  await expect(bio).toBeVisible();
  await page.context().addCookies([{ name: 'locale', value: 'fr', url: baseURL ?? '' }]);
  await gotoHydrated(page, `/members/${id}`);
  await expect(page.locator('.member-page').getByText(/J’adore/)).toBeVisible();
  await page.context().close();
});

test('the profile, account settings and notifications pages have no serious accessibility violations', async ({
  browser,
  baseURL,
}) => {
  const { page } = await activeMember(browser, baseURL, 'Axeprofile', phone);
  const id = await demoProfile(page, 'DE');
  const violations: string[] = [];
  for (const path of ['/profile', '/profile/account', '/notifications', `/members/${id}`]) {
    await gotoHydrated(page, path);
    const results = await pageAxe(page).analyze();
    violations.push(
      ...results.violations
        .filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''))
        .map(
          (violation) => `${path}: ${violation.id} ${violation.nodes.map((node) => node.target).join(', ')}`,
        ),
    );
  }
  expect(violations).toEqual([]);
  await page.context().close();
});
