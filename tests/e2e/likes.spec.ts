import type { Page } from '@playwright/test';
import {
  activeMember,
  e2eEmail,
  expect,
  gotoHydrated,
  scrollWidth,
  tapUntil,
  test,
  touchDrag,
  touchPhone,
} from './fixtures.ts';

test('two members like each other and the second sees the match on the profile', async ({
  browser,
  baseURL,
}) => {
  const anna = await activeMember(browser, baseURL, 'Anna');
  const bert = await activeMember(browser, baseURL, 'Bert');

  await gotoHydrated(anna.page, `/members/${bert.profileId}`);
  await anna.page.getByRole('button', { name: 'Like' }).click();
  await expect(anna.page.getByRole('button', { name: 'Liked' })).toBeVisible();
  await expect(anna.page.getByTestId('match-modal')).toHaveCount(0);
  const icebreaker = anna.page.getByRole('dialog');
  await expect(icebreaker).toContainText('You liked Bert. Break the ice!');
  await icebreaker.getByRole('button', { name: 'Hi Bert! How is your day going?' }).click();
  // The first tap picks the line and shows its cost; the second sends it.
  await expect(anna.page).not.toHaveURL(/\/chats\/\d+$/);
  await icebreaker.getByRole('button', { name: /^Send for / }).click();
  await expect(anna.page).toHaveURL(/\/chats\/\d+$/);
  await expect(anna.page.getByTestId('chat-message')).toContainText('Hi Bert! How is your day going?');

  await bert.page.goto('/likes');
  await expect(bert.page.getByTestId('likes-received')).toContainText('Anna');
  await gotoHydrated(bert.page, `/likes/m/${anna.profileId}`);
  await bert.page.getByRole('button', { name: 'Like' }).click();
  // Already on Anna's profile: the match shows right there, never as a modal over it.
  await expect(bert.page.getByRole('status').filter({ hasText: "It's a match!" })).toBeVisible();
  await expect(bert.page.getByTestId('match-modal')).toHaveCount(0);
  await bert.page.goto('/likes/matches');
  await expect(bert.page.getByTestId('likes-matches')).toContainText('Anna');
});

test('the swipe game allows four likes a day, then shows the limit', async ({ page }) => {
  await page.goto('/signup');
  await page.getByLabel('E-mail address').fill(e2eEmail());
  await page.getByLabel('Username').fill('Swiper');
  await page.getByLabel('Password', { exact: true }).fill('Maple-compass-28');
  await page.getByLabel('Date of birth').fill('1992-11-03');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page).toHaveURL(/\/complete-signup$/);

  await gotoHydrated(page, '/swipe-game');
  await expect(page.getByTestId('likes-left')).toHaveText('Likes left today: 4');
  await Promise.all([
    page.waitForResponse(
      (response) => response.url().endsWith('/api/swipe.php') && response.request().method() === 'POST',
    ),
    page.getByRole('button', { name: 'Pass', exact: true }).click(),
  ]);
  await expect(page.getByTestId('likes-left')).toHaveText('Likes left today: 4');
  for (let left = 3; left >= 0; left--) {
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('likes-left')).toHaveText(`Likes left today: ${left}`);
  }
  await expect(page.getByTestId('swipe-limit')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Like' })).toBeDisabled();
});

/** What the page behind a modal is laid out as: its width and the swipe column's. */
function layoutBehind(page: Page) {
  return page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    body: document.body.getBoundingClientRect().width,
    bodyPadding: getComputedStyle(document.body).paddingRight,
    // Layout widths, whatever transform a card is animating through.
    column: document.querySelector<HTMLElement>('.swipe-page')?.offsetWidth ?? 0,
    card: document.querySelector<HTMLElement>('[data-testid="swipe-card"]')?.offsetWidth ?? 0,
  }));
}

/**
 * A member on a phone whose swipe stack holds a fictional profile that already liked them (the demo's
 * auto-like): ten swipes, taps and finger drags, where that one is liked, which is a match. Calls
 * `atMatch` with the match modal open and the layout as it was just before it opened.
 */
async function swipeToAMatch(
  browser: import('@playwright/test').Browser,
  baseURL: string | undefined,
  name: string,
  atMatch: (page: Page, before: Awaited<ReturnType<typeof layoutBehind>>) => Promise<void>,
  /** How the member comes to the game (else straight to its address). */
  arrive?: (page: Page) => Promise<void>,
): Promise<{ page: Page; liker: string }> {
  const { page } = await activeMember(browser, baseURL, name, touchPhone);
  // Germany, where no other journey's member lives: the game puts the member's own country first,
  // so the demo's German profiles (the liker among them) come before the members of a long run.
  expect((await page.request.put('/api/profile.php', { data: { country: 'DE' } })).status()).toBe(200);
  const liked = await (await page.request.get('/api/auto-like.php')).json();
  const liker: string = liked.profile.name;
  if (arrive) await arrive(page);
  else await gotoHydrated(page, '/swipe-game');
  expect(await scrollWidth(page)).toBe(390);
  const card = page.getByTestId('swipe-card');
  let matched = false;
  for (let swipe = 1; swipe <= 30 && (swipe <= 10 || !matched); swipe++) {
    await expect(card).toBeVisible();
    const heading = (await card.getByRole('heading').textContent()) ?? '';
    const theOne = !matched && heading.startsWith(`${liker},`);
    const answered = page.waitForResponse(
      (response) => response.url().endsWith('/api/swipe.php') && response.request().method() === 'POST',
    );
    const before = await layoutBehind(page);
    if (swipe % 2 === 0) await touchDrag(page, card, theOne ? 150 : -150);
    else
      await tapUntil(page.getByRole('button', { name: theOne ? 'Like' : 'Pass', exact: true }), () =>
        expect(card.getByRole('heading')).not.toHaveText(heading, { timeout: 1000 }),
      );
    expect(await scrollWidth(page), `swipe ${swipe}, in flight`).toBe(390);
    await answered;
    if (theOne) {
      await expect(page.getByTestId('match-modal')).toContainText("It's a match!");
      await atMatch(page, before);
      matched = true;
    }
    await expect(card.getByRole('heading')).not.toHaveText(heading);
    // Landed: the swiped card has flown off and left the page.
    await expect(page.locator('.swipe-card.is-leaving')).toHaveCount(0);
    expect(await scrollWidth(page), `swipe ${swipe}, landed`).toBe(390);
  }
  expect(matched).toBe(true);
  return { page, liker };
}

test('swipe game on a phone: ten swipes and the match moment keep the page at the phone width', async ({
  browser,
  baseURL,
}) => {
  const { page } = await swipeToAMatch(browser, baseURL, 'Oskar', async (page, before) => {
    expect(await layoutBehind(page)).toEqual(before);
    await tapUntil(page.getByTestId('match-modal').getByRole('button', { name: 'Keep swiping' }), () =>
      expect(page.getByTestId('match-modal')).toHaveCount(0, { timeout: 1000 }),
    );
    expect(await layoutBehind(page)).toEqual(before);
  });
  expect(await scrollWidth(page)).toBe(390);
  await page.context().close();
});

test('a match made in the swipe game is in Likes, Matches at once, by in-app navigation', async ({
  browser,
  baseURL,
}) => {
  const { page, liker } = await swipeToAMatch(
    browser,
    baseURL,
    'Henrik',
    async (page) => {
      await tapUntil(page.getByTestId('match-modal').getByRole('button', { name: 'Keep swiping' }), () =>
        expect(page.getByTestId('match-modal')).toHaveCount(0, { timeout: 1000 }),
      );
    },
    // As the walk went: the empty Matches tab first, then the game through the tab bar.
    async (page) => {
      await gotoHydrated(page, '/likes/matches');
      await expect(page.getByTestId('likes-empty')).toBeVisible();
      await tapUntil(page.getByTestId('tab-bar').getByRole('link', { name: 'Swipe' }), () =>
        expect(page).toHaveURL(/\/swipe-game$/, { timeout: 1000 }),
      );
    },
  );
  await tapUntil(page.getByTestId('tab-bar').getByRole('link', { name: /Likes/ }), () =>
    expect(page).toHaveURL(/\/likes$/, { timeout: 1000 }),
  );
  await tapUntil(page.getByRole('link', { name: /^Matches/ }), () =>
    expect(page).toHaveURL(/\/likes\/matches$/, { timeout: 1000 }),
  );
  await expect(page.getByTestId('likes-matches')).toContainText(liker);
  await expect(page.getByTestId('matches-row')).toContainText(liker);
  await page.context().close();
});

test('an open Likes page follows live events: a new match shows in Matches without a reload', async ({
  browser,
  baseURL,
}) => {
  const anna = await activeMember(browser, baseURL, 'Annika');
  const bert = await activeMember(browser, baseURL, 'Bertil', touchPhone);
  await bert.page.request.post('/api/like.php', { data: { profile: anna.profileId } });
  let ready = false;
  bert.page.on('websocket', (socket) =>
    socket.on('framereceived', (frame) => {
      if (String(frame.payload).includes('"ready"')) ready = true;
    }),
  );
  await gotoHydrated(bert.page, '/likes/matches');
  await expect(bert.page.getByTestId('likes-empty')).toBeVisible();
  // The live connection is up before the match is made.
  await expect.poll(() => ready).toBe(true);
  await anna.page.request.post('/api/like.php', { data: { profile: bert.profileId } });
  await expect(bert.page.getByTestId('likes-matches')).toContainText('Annika');
  await expect(bert.page.getByTestId('matches-row')).toContainText('Annika');
  await anna.page.context().close();
  await bert.page.context().close();
});
