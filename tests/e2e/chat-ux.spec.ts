import type { Page } from '@playwright/test';
import { pageAxe } from './axe.ts';
import { activeMember, expect, gotoHydrated, test } from './fixtures.ts';

const sizes = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1366, height: 900 } },
] as const;

async function seriousViolations(page: Page) {
  const result = await pageAxe(page).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

for (const size of sizes) {
  test(`chat at ${size.name} size: offline send fails, retry sends once, read receipt, gift confirm, axe`, async ({
    browser,
    baseURL,
  }) => {
    const anna = await activeMember(browser, baseURL, `Anna${size.name}`);
    const bert = await activeMember(browser, baseURL, `Bert${size.name}`);
    await anna.page.setViewportSize(size.viewport);
    await bert.page.setViewportSize(size.viewport);

    await gotoHydrated(anna.page, `/members/${bert.profileId}/chat`);
    await expect(anna.page).toHaveURL(/\/chats\/\d+$/);
    const chatUrl = new URL(anna.page.url()).pathname;
    const composer = anna.page.getByLabel(`Message to Bert${size.name}`);

    // First message, then the receiver opens the chat: the sender sees "Read" appear live.
    await composer.fill('Hello there');
    await composer.press('Enter');
    await expect(anna.page.getByTestId('message-sent')).toHaveCount(1);
    await gotoHydrated(bert.page, chatUrl);
    await expect(bert.page.getByTestId('chat-message')).toContainText(['Hello there']);
    await expect(anna.page.getByTestId('message-read')).toHaveCount(1);

    // Offline: the message shows failed with retry, the text is not silently kept in the box.
    await anna.page.context().setOffline(true);
    await expect(anna.page.getByTestId('chat-offline')).toBeVisible();
    await composer.fill('Sent once');
    await composer.press('Enter');
    await expect(composer).toHaveValue('');
    await expect(anna.page.getByTestId('message-failed')).toBeVisible();
    await expect(anna.page.getByTestId('message-retry')).toHaveCount(0);
    await anna.page.context().setOffline(false);
    await anna.page.getByTestId('message-retry').click();
    await expect(anna.page.getByTestId('message-failed')).toHaveCount(0);
    await expect(anna.page.getByTestId('chat-message').filter({ hasText: 'Sent once' })).toHaveCount(1);
    await expect(bert.page.getByTestId('chat-message').filter({ hasText: 'Sent once' })).toHaveCount(1);
    await bert.page.reload();
    await expect(bert.page.getByTestId('chat-message').filter({ hasText: 'Sent once' })).toHaveCount(1);

    // A gift never spends on the first tap: the first shows the cost, the second spends.
    const balance = anna.page.getByTestId('chat-balance');
    const before = Number((await balance.textContent())?.match(/\d+/)?.[0]);
    await anna.page.getByRole('button', { name: 'Send a gift' }).click();
    await anna.page.getByRole('list', { name: 'Send a gift' }).getByRole('button', { name: /Rose/ }).click();
    await expect(balance).toContainText(String(before));
    await anna.page.getByRole('button', { name: /Send for 3 credits/ }).click();
    await expect(anna.page.getByTestId('chat-message').filter({ hasText: 'Rose' })).toHaveCount(1);
    await expect(balance).toContainText(String(before - 3));

    // The last bubble is not covered by the composer.
    const last = await anna.page.getByTestId('chat-message').last().boundingBox();
    const footer = await anna.page.locator('footer').last().boundingBox();
    expect(last && footer && last.y + last.height <= footer.y + 1).toBe(true);

    await anna.page.screenshot({ path: `test-results/chat-${size.name}.png` });
    expect(await seriousViolations(anna.page)).toEqual([]);
    await gotoHydrated(anna.page, '/chats');
    await expect(anna.page.getByTestId('chat-list')).toContainText(`Bert${size.name}`);
    await anna.page.screenshot({ path: `test-results/chats-${size.name}.png` });
    expect(await seriousViolations(anna.page)).toEqual([]);
  });
}

test('a conversation whose partner is gone reads "no longer available"', async ({ browser, baseURL }) => {
  const anna = await activeMember(browser, baseURL, 'AnnaGone');
  await gotoHydrated(anna.page, '/chats/999999');
  await expect(anna.page.getByTestId('chat-unavailable')).toHaveText('This member is no longer available.');
});

for (const size of sizes) {
  test(`opening a chat at ${size.name} size puts the focus in the message box, with room for the text`, async ({
    browser,
    baseURL,
  }) => {
    const fay = await activeMember(browser, baseURL, `Fay${size.name}`);
    const gus = await activeMember(browser, baseURL, `Gus${size.name}`);
    const page = fay.page;
    await page.setViewportSize(size.viewport);

    await gotoHydrated(page, `/members/${gus.profileId}/chat`);
    await expect(page).toHaveURL(/\/chats\/\d+$/);
    const composer = page.getByLabel(`Message to Gus${size.name}`);
    await expect(composer).toBeFocused();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('id'))).toBe('chat-text');
    // Typing goes straight into the box, no Tab needed.
    await page.keyboard.type('Typed at once');
    await expect(composer).toHaveValue('Typed at once');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('message-sent')).toHaveCount(1);
    await expect(composer).toHaveValue('');

    // The placeholder fits on one line of a box that keeps most of the width.
    const box = await composer.evaluate((element) => ({
      width: element.getBoundingClientRect().width,
      scrollHeight: element.scrollHeight,
      clientHeight: element.clientHeight,
      scrollWidth: element.scrollWidth,
      clientWidth: element.clientWidth,
    }));
    expect(box.width).toBeGreaterThanOrEqual(size.name === 'phone' ? 200 : 600);
    expect(box.scrollHeight).toBeLessThanOrEqual(box.clientHeight + 1);
    expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth + 1);

    // Opened from the list, too.
    await gotoHydrated(page, '/chats');
    await page
      .getByTestId('chat-list')
      .getByRole('link', { name: new RegExp(`Gus${size.name}`) })
      .click();
    await expect(page).toHaveURL(/\/chats\/\d+$/);
    await expect(composer).toBeFocused();

    if (size.name === 'desktop') {
      // The bare chat layout has no top bar: its list holds the way back to the search.
      const back = page.getByRole('link', { name: 'Back to search' });
      await expect(back).toBeVisible();
      await back.click();
      await expect(page).toHaveURL(/\/members$/);
    } else {
      await expect(page.getByRole('link', { name: 'Back to chats' })).toBeVisible();
    }
    await page.context().close();
    await gus.page.context().close();
  });
}
