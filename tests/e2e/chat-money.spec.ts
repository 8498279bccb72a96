import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { activeMember, expect, gotoHydrated, test } from './fixtures.ts';

const sizes = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1366, height: 900 } },
] as const;

/** Spends the member's free messages and credits in this conversation until the API answers 402. */
async function runOutOfCredits(page: Page, profile: number): Promise<void> {
  for (let sent = 0; sent < 25; sent++) {
    const answer = await page.request.post('/api/chat.php', { data: { profile, text: `Spending ${sent}` } });
    if (answer.status() === 402) return;
    expect(answer.status()).toBe(201);
  }
  throw new Error('still had credits after 25 messages');
}

for (const size of sizes) {
  test(`at ${size.name} size: out of credits mid-chat, top up through the quick-pick, back in the chat with the draft`, async ({
    browser,
    baseURL,
  }) => {
    const anna = await activeMember(browser, baseURL, `Cleo${size.name}`);
    const bert = await activeMember(browser, baseURL, `Dirk${size.name}`);
    const page = anna.page;
    await page.setViewportSize(size.viewport);

    await gotoHydrated(page, `/members/${bert.profileId}/chat`);
    await expect(page).toHaveURL(/\/chats\/\d+$/);
    const chatUrl = new URL(page.url()).pathname;

    // Presence in the chat header: the partner was active a moment ago.
    const thread = page.getByRole('region', { name: `Dirk${size.name}` });
    await expect(thread.locator('header').getByTestId('presence')).toContainText('Online');

    await runOutOfCredits(page, bert.profileId);
    await gotoHydrated(page, chatUrl);
    const composer = page.getByLabel(`Message to Dirk${size.name}`);
    await composer.fill('Are you free on Friday?');
    await composer.press('Enter');
    await expect(page.getByTestId('message-failed')).toBeVisible();
    const quickPick = page.getByTestId('credits-quick-pick');
    await expect(quickPick).toBeVisible();
    // A new member is in the welcome offer's hours: the chip tells the price the checkout charges,
    // the list price struck through beside it, and the time the offer has left.
    await expect(quickPick.getByTestId('welcome-countdown')).toContainText('25% off');
    const chip = quickPick.getByTestId('quick-pick-bundle').first();
    await expect(chip.locator('del')).toBeVisible();
    await expect(chip.locator('.offer-off')).toHaveText('−25%');
    const chipPrice = await chip.locator('.offer-price-now').textContent();
    await page.screenshot({ path: `test-results/quick-pick-${size.name}.png` });

    await chip.click();
    await expect(page).toHaveURL(/\/credits\/\d+\?return=%2Fchats%2F\d+$/);
    await expect(page.getByRole('button', { name: /^Pay / })).toHaveText(`Pay ${chipPrice}`);
    await page.getByRole('button', { name: /^Pay / }).click();
    await expect(page).toHaveURL(/\/payments\/test\/tst_/);
    await page.getByRole('button', { name: 'Paid' }).click();
    await expect(page).toHaveURL(/\/transactions\/\d+$/);
    await expect(page.getByTestId('receipt')).toContainText('credits have been added');

    await page.getByRole('link', { name: 'Back to the chat' }).click();
    await expect(page).toHaveURL(new RegExp(`${chatUrl}$`));
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    await expect(composer).toHaveValue('Are you free on Friday?');
    await composer.press('Enter');
    await expect(
      page.getByTestId('chat-message').filter({ hasText: 'Are you free on Friday?' }),
    ).toHaveAttribute('data-state', 'sent');

    // A photo from the device: picking shows it with its price; only the confirming tap sends it.
    await page.getByRole('button', { name: 'Send a photo' }).click();
    await page.getByTestId('device-photo-input').setInputFiles({
      name: 'camera.jpg',
      mimeType: 'image/jpeg',
      buffer: await sharp({
        create: { width: 320, height: 240, channels: 3, background: { r: 220, g: 120, b: 60 } },
      })
        .withExif({ IFD0: { Artist: 'Somebody' } })
        .jpeg()
        .toBuffer(),
    });
    await expect(page.getByTestId('device-photo-picked')).toContainText('2 credits');
    const messages = page.getByTestId('chat-message');
    const before = await messages.count();
    await page
      .getByTestId('device-photo-picked')
      .getByRole('button', { name: /Send for 2 credits/ })
      .click();
    await expect(messages).toHaveCount(before + 1);
    await expect(messages.last()).toHaveAttribute('data-state', 'sent');
    await expect(messages.last().locator('img')).toHaveAttribute('src', /\/media\/private\//);
    await page.screenshot({ path: `test-results/chat-money-${size.name}.png` });
  });
}

test('an off-site return path is never carried to the checkout or the receipt', async ({
  browser,
  baseURL,
}) => {
  const { page } = await activeMember(browser, baseURL, 'EvaOffsite');
  await gotoHydrated(page, `/credits?return=${encodeURIComponent('https://evil.test/chats/1')}`);
  const choose = page.getByTestId('bundles').getByRole('link').first();
  await expect(choose).toHaveAttribute('href', /^\/credits\/\d+$/);
  const href = (await choose.getAttribute('href')) ?? '';
  await gotoHydrated(page, `${href}?return=${encodeURIComponent('//evil.test/chats/1')}`);
  await expect(page.locator('input[name="return"]')).toHaveCount(0);
  // A forged form field gets the same check in the checkout's action.
  await page.locator('form[method="post"]').evaluate((form) => {
    const field = document.createElement('input');
    field.type = 'hidden';
    field.name = 'return';
    field.value = '//evil.test/chats/1';
    form.appendChild(field);
  });
  await page.getByRole('button', { name: /^Pay / }).click();
  await page.getByRole('button', { name: 'Paid' }).click();
  await expect(page).toHaveURL(/\/transactions\/\d+$/);
  await expect(page.getByTestId('receipt')).toBeVisible();
  await expect(page.getByTestId('after-payment-back')).toHaveCount(0);
});
