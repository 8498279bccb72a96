import { activeMember, expect, gotoHydrated, test } from './fixtures.ts';

test('two members chat live; the receiver sees the badge and title change without a reload', async ({
  browser,
  baseURL,
}) => {
  const anna = await activeMember(browser, baseURL, 'Anna');
  const bert = await activeMember(browser, baseURL, 'Bert');

  await gotoHydrated(bert.page, '/members');
  const chatsLink = bert.page.getByRole('banner').getByRole('link', { name: /Chats/ });
  await expect(chatsLink).not.toContainText('1');
  const titleBefore = await bert.page.title();
  expect(titleBefore.startsWith('(')).toBe(false);

  await gotoHydrated(anna.page, `/members/${bert.profileId}/chat`);
  await expect(anna.page).toHaveURL(/\/chats\/\d+$/);
  await anna.page.getByLabel('Message to Bert').fill('Hi Bert <b>not bold</b>');
  await anna.page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(anna.page.getByTestId('chat-message')).toHaveCount(1);
  await expect(anna.page.getByTestId('chat-cost')).toContainText('Free messages left: 2');

  await expect(chatsLink).toContainText('1');
  await expect(bert.page).toHaveTitle(/^\(1\) /);

  await chatsLink.click();
  await expect(bert.page.getByTestId('chat-list')).toContainText('Anna');
  await bert.page.getByTestId('chat-list').getByRole('link', { name: /Anna/ }).click();
  await expect(bert.page.getByTestId('chat-message')).toHaveText(/Hi Bert <b>not bold<\/b>/);
  await expect(bert.page.locator('.chat-text b')).toHaveCount(0);
  await expect(bert.page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await bert.page.getByLabel('Message to Anna').fill('Hello Anna!');
  await bert.page.getByLabel('Message to Anna').press('Enter');

  await expect(anna.page.getByTestId('chat-message')).toHaveCount(2);
  await expect(anna.page.getByTestId('chat-message').last()).toContainText('Hello Anna!');
  // Reading marks the message read on the server, then the counts come back live: on a loaded
  // machine that round trip has taken longer than the default five seconds.
  await expect(bert.page).not.toHaveTitle(/^\(/, { timeout: 15_000 });
});
