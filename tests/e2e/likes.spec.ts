import { activeMember, e2eEmail, expect, gotoHydrated, test } from './fixtures.ts';

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
