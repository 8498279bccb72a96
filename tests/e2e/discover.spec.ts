import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { pageAxe } from './axe.ts';
import { activeMember, e2eEmail, expect, fictionalProfiles, gotoHydrated, test } from './fixtures.ts';

const sizes = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1366, height: 900 } },
] as const;

async function seriousViolations(page: Page, label: string): Promise<string[]> {
  const results = await pageAxe(page).analyze();
  return results.violations
    .filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''))
    .map((violation) => `${label}: ${violation.id} ${violation.nodes.map((node) => node.target).join(', ')}`);
}

/** Signs up and answers onboarding: a man looking for women, no photo yet. */
async function onboardedMan(page: Page, name: string): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('E-mail address').fill(e2eEmail());
  await page.getByLabel('Username').fill(name);
  await page.getByLabel('Password', { exact: true }).fill('Juniper-comet-47');
  await page.getByLabel('Date of birth').fill('1988-04-09');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page).toHaveURL(/\/complete-signup$/);
  await page.getByText('Man', { exact: true }).click();
  await page.getByText('Women', { exact: true }).click();
  await page.getByRole('button', { name: 'Show me singles' }).click();
  await expect(page).toHaveURL(/\/complete-signup\?step=photo$/);
}

/** A fictional profile with at least two photos (the demo's photos are made after the server starts). */
async function profileWithPhotos(page: Page): Promise<number> {
  let found = 0;
  await expect
    .poll(
      async () => {
        for (const profile of await fictionalProfiles(page.request, 'gender=any&country=any', 30)) {
          const member = await (await page.request.get(`/api/member.php?id=${profile.id}`)).json();
          if (member.photos?.length >= 2) {
            found = profile.id;
            return found;
          }
        }
        return 0;
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0);
  return found;
}

/** Uploads one plain-coloured photo per colour on /profile and waits for each to show. */
async function uploadPhotos(page: Page, colours: string[]): Promise<void> {
  for (const colour of colours) {
    const photo = await sharp({ create: { width: 300, height: 300, channels: 3, background: colour } })
      .png()
      .toBuffer();
    const count = await page.getByTestId('own-photos').locator('img').count();
    await page
      .locator('#photo-upload')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: photo });
    await expect(page.getByTestId('own-photos').locator('img')).toHaveCount(count + 1);
  }
}

async function ownPhotoIds(page: Page): Promise<number[]> {
  const answer = await (await page.request.get('/api/profile.php')).json();
  return answer.profile.photos.map((photo: { id: number }) => photo.id);
}

for (const size of sizes) {
  test.describe(`discover at ${size.name} size`, () => {
    test.use({ viewport: size.viewport });

    test('onboarding leads to search defaults: women who seek men, people first, filters in a sheet', async ({
      page,
    }) => {
      await onboardedMan(page, `Max${size.name}`);
      await page.getByTestId('show-matches').click();
      await expect(page).toHaveURL(/\/members$/);
      await expect(page.getByTestId('profile-card').first()).toBeVisible();
      const search = await (await page.request.get('/api/search.php')).json();
      expect(search.applied).toMatchObject({ gender: 'female', mutual: true });
      expect(search.profiles.every((p: { gender: string; seeking: string }) => p.gender === 'female')).toBe(
        true,
      );
      expect(search.profiles.some((p: { seeking: string }) => p.seeking === 'female')).toBe(false);
      await expect(page.getByRole('button', { name: 'Women', exact: true })).toBeVisible();
      // A fictional profile that is not online shows no "Active … ago" on its card (decision 058).
      const quiet = search.profiles.find(
        (p: { fictional: boolean; online: boolean }) => p.fictional && !p.online,
      );
      expect(quiet).toBeDefined();
      const card = page
        .getByTestId('profile-card')
        .filter({ has: page.locator(`a[href="/members/${quiet.id}"]`) });
      await expect(card).toBeVisible();
      await expect(card.getByTestId('presence')).toHaveCount(0);
      await expect(card).not.toContainText('Active');
      await page.screenshot({ path: `test-results/discover-search-${size.name}.png` });

      // The filter sheet: an age range the wrong way round is refused with a message.
      await page.getByTestId('open-filters').click();
      const sheet = page.getByRole('dialog');
      await expect(sheet).toBeVisible();
      await sheet.getByLabel('From age').fill('40');
      await sheet.getByLabel('To age').fill('30');
      await sheet.getByTestId('apply-filters').click();
      await expect(sheet.getByRole('alert')).toHaveText('"From" cannot be higher than "to".');
      await sheet.getByLabel('To age').fill('50');
      await sheet.getByTestId('apply-filters').click();
      await expect(page).toHaveURL(/min_age=40&max_age=50/);
      await expect(page.getByRole('dialog')).toHaveCount(0);
      expect(await seriousViolations(page, 'search')).toEqual([]);
    });

    test('a profile photo opens full screen: arrow to the next, Escape closes', async ({ page }) => {
      await onboardedMan(page, `Leo${size.name}`);
      const id = await profileWithPhotos(page);
      await gotoHydrated(page, `/members/${id}`);
      await expect(page.getByTestId('member-actions')).toBeVisible();
      await page.getByTestId('open-lightbox').click();
      const lightbox = page.getByTestId('lightbox');
      await expect(lightbox).toBeVisible();
      await expect(page.getByTestId('lightbox-count')).toHaveText(/^Photo 1 of \d+$/);
      await expect(lightbox.getByRole('button', { name: 'Close' })).toBeFocused();
      await page.keyboard.press('ArrowRight');
      await expect(page.getByTestId('lightbox-count')).toHaveText(/^Photo 2 of \d+$/);
      await page.screenshot({ path: `test-results/discover-lightbox-${size.name}.png` });
      await page.keyboard.press('Escape');
      await expect(lightbox).toHaveCount(0);
      await expect(page.getByTestId('open-lightbox')).toBeFocused();
      await page.screenshot({ path: `test-results/discover-profile-${size.name}.png`, fullPage: true });
      expect(await seriousViolations(page, 'profile')).toEqual([]);
    });

    test('a match: "Send a message" opens the chat; likes page with like back', async ({
      browser,
      baseURL,
    }) => {
      const anna = await activeMember(browser, baseURL, `Anna${size.name}`);
      const bert = await activeMember(browser, baseURL, `Bert${size.name}`);
      await bert.page.setViewportSize(size.viewport);
      await anna.page.request.post('/api/like.php', { data: { profile: bert.profileId } });

      await gotoHydrated(bert.page, '/likes');
      const card = bert.page.getByTestId('likes-received').getByTestId('profile-card').first();
      await expect(card).toContainText(`Anna${size.name}`);
      await bert.page.screenshot({ path: `test-results/discover-likes-${size.name}.png` });
      expect(await seriousViolations(bert.page, 'likes')).toEqual([]);
      await card.getByRole('button', { name: `Like back: Anna${size.name}` }).click();
      const modal = bert.page.getByTestId('match-modal');
      await expect(modal).toContainText("It's a match!");
      await bert.page.screenshot({ path: `test-results/discover-match-${size.name}.png` });
      await modal.getByRole('link', { name: 'Send a message' }).click();
      await expect(bert.page).toHaveURL(/\/chats\/\d+$/);

      // On the other member's own profile the match shows there, never as a modal.
      await gotoHydrated(bert.page, '/likes/matches');
      await expect(bert.page.getByTestId('matches-row')).toContainText(`Anna${size.name}`);
      await anna.page.context().close();
      await bert.page.context().close();
    });

    test('swipe: stamps while dragging, undo of the last pass, keyboard hint only with a keyboard', async ({
      page,
    }) => {
      await onboardedMan(page, `Sam${size.name}`);
      await gotoHydrated(page, '/swipe-game');
      const card = page.getByTestId('swipe-card');
      await expect(card).toBeVisible();
      // Buttons above the fold.
      const like = page.getByRole('button', { name: 'Like', exact: true });
      const box = await like.boundingBox();
      const tabBar = page.getByTestId('tab-bar');
      const fold = (await tabBar.isVisible()) ? ((await tabBar.boundingBox())?.y ?? 0) : size.viewport.height;
      expect(box && box.y + box.height).toBeLessThanOrEqual(fold);
      const first = await card.getByRole('heading').textContent();

      const start = await card.boundingBox();
      if (!start) throw new Error('no card');
      const x = start.x + start.width / 2;
      const y = start.y + start.height / 2;
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x + 70, y, { steps: 5 });
      await expect(page.getByTestId('stamp-like')).toBeVisible();
      await page.mouse.move(x - 70, y, { steps: 8 });
      await expect(page.getByTestId('stamp-nope')).toBeVisible();
      await page.screenshot({ path: `test-results/discover-swipe-${size.name}.png` });
      await page.mouse.move(x - 160, y, { steps: 5 });
      await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/swipe.php') && r.request().method() === 'POST'),
        page.mouse.up(),
      ]);
      await expect(card.getByRole('heading')).not.toHaveText(first ?? '');
      await page.getByTestId('swipe-undo').click();
      await expect(page.getByTestId('swipe-card').getByRole('heading')).toHaveText(first ?? '');
      await expect(page.getByTestId('swipe-undo')).toBeDisabled();
      await expect(page.getByTestId('keyboard-hint')).toBeVisible();
      expect(await seriousViolations(page, 'swipe')).toEqual([]);
    });

    test('my profile: photos first, preview link, saved toast; accessible', async ({ page }) => {
      await onboardedMan(page, `Ian${size.name}`);
      await gotoHydrated(page, '/profile');
      await expect(page.getByTestId('own-photos')).toBeVisible();
      await expect(page.getByTestId('profile-preview')).toHaveAttribute('href', /\/members\/\d+$/);
      // Two photos, then the second moved to the front with the keyboard alternative to dragging.
      await uploadPhotos(page, ['#3a7bd5', '#d53a7b']);
      const before = await ownPhotoIds(page);
      await page.getByRole('button', { name: 'Options for photo 2 of 2' }).click();
      await page.getByRole('button', { name: 'Move photo 2 earlier' }).click();
      await expect.poll(() => ownPhotoIds(page)).toEqual([before[1], before[0]]);
      await page.getByLabel('About me').fill('Weekend hiker and amateur cook.');
      await page.getByRole('button', { name: 'Save profile' }).click();
      await expect(page.getByTestId('saved-toast')).toHaveText(/Your profile has been saved\./);
      await page.screenshot({ path: `test-results/discover-my-profile-${size.name}.png`, fullPage: true });
      expect(await seriousViolations(page, 'my profile')).toEqual([]);
    });
  });
}

/** The centre of an element, scrolled into view first. */
async function centre(locator: import('@playwright/test').Locator): Promise<{ x: number; y: number }> {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  if (!box) throw new Error('not shown');
  return { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
}

test.describe('at phone size (390×844) with touch', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('my profile: a photo dragged by its grip with a finger changes the order', async ({ page }) => {
    await onboardedMan(page, 'Tomphone');
    await gotoHydrated(page, '/profile');
    await uploadPhotos(page, ['#3a7bd5', '#d53a7b', '#7bd53a']);
    const before = await ownPhotoIds(page);
    const tiles = page.getByTestId('own-photo');
    // A finger on the third photo's grip, moved onto the first photo: the third becomes the main photo.
    const from = await centre(tiles.nth(2).locator('.photo-tile-grip'));
    const to = await centre(tiles.nth(0));
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
    for (let step = 1; step <= 8; step++) {
      const point = {
        x: Math.round(from.x + ((to.x - from.x) * step) / 8),
        y: Math.round(from.y + ((to.y - from.y) * step) / 8),
      };
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await expect(tiles.first()).toHaveAttribute('data-photo-id', String(before[2]));
    await expect.poll(() => ownPhotoIds(page)).toEqual([before[2], before[0], before[1]]);
  });
});

test.describe('at phone size (390×844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('my profile: the mouse drags a whole photo tile to a new place', async ({ page }) => {
    await onboardedMan(page, 'Tommouse');
    await gotoHydrated(page, '/profile');
    await uploadPhotos(page, ['#3a7bd5', '#d53a7b', '#7bd53a']);
    const before = await ownPhotoIds(page);
    const tiles = page.getByTestId('own-photo');
    // The first photo dropped on the last place.
    const first = await centre(tiles.nth(0).locator('img'));
    const last = await centre(tiles.nth(2).locator('img'));
    await page.mouse.move(first.x, first.y);
    await page.mouse.down();
    await page.mouse.move(last.x, last.y, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => ownPhotoIds(page)).toEqual([before[1], before[2], before[0]]);
  });
  test('search: "load more" appends the next page by cursor; back from a profile keeps the list and the place', async ({
    page,
  }) => {
    await onboardedMan(page, 'Noahphone');
    await gotoHydrated(page, '/members?country=any');
    const cards = page.getByTestId('profile-card');
    const firstPage = await cards.count();
    expect(firstPage).toBeGreaterThan(0);
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/api/search.php') && r.url().includes('cursor=')),
      page.getByTestId('load-more').click(),
    ]);
    expect(new URL(request.url()).searchParams.get('country')).toBe('any');
    await expect(page).toHaveURL(/[?&]page=2\b/);
    await expect.poll(() => cards.count()).toBeGreaterThan(firstPage);
    const shown = await cards.count();
    const names = await cards.getByRole('heading').allTextContents();
    expect(new Set(names).size).toBe(names.length);

    // A card of the second page: open it, then come back.
    const card = cards.nth(firstPage + 1);
    await card.scrollIntoViewIfNeeded();
    const name = await card.getByRole('heading').textContent();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);
    await card.getByRole('heading').getByRole('link').click();
    await expect(page).toHaveURL(/\/members\/\d+$/);
    await page.goBack();
    await expect(page).toHaveURL(/[?&]page=2\b/);
    await expect(cards).toHaveCount(shown);
    await expect(cards.nth(firstPage + 1).getByRole('heading')).toHaveText(name ?? '');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled - 40);
    expect(await page.evaluate(() => window.scrollY)).toBeLessThan(scrolled + 40);
    await expect(cards.nth(firstPage + 1)).toBeInViewport();
  });
});

test('signup says "required" for empty fields and shows the password on request', async ({ page }) => {
  await gotoHydrated(page, '/signup');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page.getByText('Please fill in this field.')).toHaveCount(4);
  await expect(page.getByText('This is too short.')).toHaveCount(0);
  const password = page.getByLabel('Password', { exact: true });
  await password.fill('Secret-words-11');
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(password).toHaveAttribute('type', 'text');
});
